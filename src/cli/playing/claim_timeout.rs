//! `correspond claim-timeout`: claim the game on time, the opponent being past their deadline.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;

/// Claim the game on time: your opponent, whom the game waits for, is past the deadline of the
/// header's time control. You win, or draw where you could not have won (chess, by FIDE's art.
/// 6.9); a coin flip your opponent owes is yours. `correspond status` shows the deadline.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    // The claimant is the player the game does not wait for.
    let sign = SignArgs {
        by_the_other: true,
        ..args.sign.clone()
    };
    let (kind, held) = record::hold(&sign)?;
    with_game!(kind, G => record::append::<G>(&sign, held, out, |ctx| {
        let my_seat = ctx.seat()?;
        let seats = ctx.replay.seats();
        let Some(clocks) = ctx.replay.clocks() else {
            return Err(CliError::rejected(
                "this game has no time control: there is nothing to claim on time",
            ));
        };
        let Some((late, at)) = clocks.deadline_time() else {
            return Err(CliError::rejected(format!(
                "no clock runs: {}",
                ctx.replay.last().phase.describe(seats)
            )));
        };
        if late == my_seat {
            return Err(CliError::rejected(format!(
                "the game waits for you ({}), until {}: it is your clock that runs",
                seats[late],
                at.as_str()
            )));
        }
        if *ctx.time <= at {
            return Err(CliError::rejected(format!(
                "{} has until {} to act; it is {} now",
                seats[late],
                at.as_str(),
                ctx.time.as_str()
            ))
            .hint(format!(
                "`correspond status {}` shows the clocks",
                correspond::text::path(&args.sign.file)
            )));
        }
        Ok(Action::ClaimTimeout)
    }))
}
