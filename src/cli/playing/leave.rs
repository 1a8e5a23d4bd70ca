//! `correspond leave`: take days of leave, which stop your clock.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::{self, Action};

/// Take DAYS days of leave, from now, out of the days the header's time control gives you: your
/// clock stops while it lasts, and your next record ends it (the days not taken are yours
/// again). `correspond status` shows the leave each player has left.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// The days of leave to take.
    #[arg(value_name = "DAYS", value_parser = log::parse_leave_days, value_hint = clap::ValueHint::Other)]
    days: u32,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let my_seat = ctx.seat()?;
        let seats = ctx.replay.seats();
        let Some(clocks) = ctx.replay.clocks() else {
            return Err(CliError::rejected(
                "this game has no time control: there is no clock to stop",
            ));
        };
        let me = &seats[my_seat];
        if let Some(until) = clocks.on_leave_until(my_seat).filter(|until| until > ctx.time) {
            return Err(CliError::rejected(format!(
                "you ({me}) are on leave until {}",
                until.as_str()
            )));
        }
        if clocks.leave_days() == 0 {
            return Err(CliError::rejected(
                "this game's time control gives no leave (`correspond new --leave DAYS` gives \
                 some)",
            ));
        }
        if let Some((_, deadline)) = clocks
            .deadline_time()
            .filter(|(seat, deadline)| *seat == my_seat && ctx.time > deadline)
        {
            return Err(CliError::rejected(format!(
                "you ({me}) are past your deadline ({}): a leave cannot stop a clock that has run \
                 out",
                deadline.as_str()
            ))
            .hint(
                "what the game waits for from you still counts until your opponent claims the \
                 game on time: sign it now",
            ));
        }
        let left = clocks.leave_left(my_seat);
        if log::TimeControl::seconds(args.days) > left {
            let days = if args.days == 1 { "day" } else { "days" };
            return Err(CliError::rejected(format!(
                "you ({me}) have {} of leave left, not {} {days}",
                crate::cli::shared::clocks::duration(i64::try_from(left).unwrap_or(i64::MAX)),
                args.days
            )));
        }
        Ok(Action::Leave(args.days))
    }))
}
