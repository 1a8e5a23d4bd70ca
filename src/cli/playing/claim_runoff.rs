//! `correspond claim-runoff`: claim a Run-Off by repetition or by the halfmove clock.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;
use correspond::replay::Protocol;

/// Claim a Run-Off on your turn: the position has occurred three times (`repetition`), or 100
/// plies have passed without a capture or an intern move (`halfmove-clock`). Without REASON,
/// the one that holds.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// What you claim by: Campaign's repetition or halfmove-clock, chess's repetition or
    /// fifty-moves. Without it, the first the position allows.
    #[arg(value_parser = crate::cli::shared::game::Offered::claims(), hide_possible_values = true)]
    reason: Option<String>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let my_seat = ctx.seat()?;
        let phase = &ctx.replay.last().phase;
        if !matches!(phase, correspond::replay::Phase::Playing(seat) if *seat == my_seat) {
            return Err(CliError::rejected(format!(
                "it is not your turn to claim: {}",
                phase.describe(ctx.replay.seats())
            )));
        }
        let settlement = record::settlement::<G>()?;
        if let Some(reason) = &args.reason {
            return Ok(Action::Claim(settlement, reason.clone()));
        }
        let claimable = ctx.replay.line().map(correspond::rules::Line::claimable).unwrap_or_default();
        let reason = G::claim_names()
            .iter()
            .find(|name| G::claim(name).is_some_and(|o| claimable.contains(&o)))
            .ok_or_else(|| CliError::rejected("there is nothing to claim in this position"))?;
        Ok(Action::Claim(settlement, (*reason).to_owned()))
    }))
}
