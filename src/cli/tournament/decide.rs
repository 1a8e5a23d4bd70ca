//! `correspond tournament decide`: the director's signed decision on a player's withdrawal.

use super::{SignArgs, append, director_signing};
use crate::cli::CliError;
use crate::cli::Out;
use correspond::tournament::file::{Action, Decision};

/// Decide what a player's withdrawal does to their games (the director): `cancel` the games
/// not finished when you sign (they count for no one), `default` them (each lost by the player
/// who withdrew), or `annul` every result of the player (when fewer than half of their games
/// were finished), as the event's rule for withdrawals allows. A game finished before the
/// decision keeps its result.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// The player who withdrew.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    player: String,
    /// The decision.
    #[arg(long, value_parser = decisions())]
    decision: String,
}

fn decisions() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(Decision::ALL.iter().map(|d| d.name()))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let decision = Decision::named(&args.decision).expect("clap offers only decisions");
    let (event, committed) = append(
        &args.sign,
        &format!("the director decides {decision} for {}", args.player),
        |event, signer| {
            director_signing(event, signer)?;
            Ok((
                event.header.director.name.clone(),
                Action::Decide {
                    player: args.player.clone(),
                    decision,
                },
            ))
        },
    )?;
    let mut lines = vec![format!(
        "decided on the withdrawal of {}: {decision}",
        args.player
    )];
    lines.push(format!("now: {}", event.stage()));
    lines.extend(committed);
    crate::cli::shared::record::report(out, &lines, "the tournament file was written")
}
