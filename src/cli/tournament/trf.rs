//! `correspond tournament trf`: an event as FIDE's Tournament Report File.

use super::check::EventState;
use crate::cli::CliError;
use crate::cli::Out;
use std::path::PathBuf;

/// Write an event as FIDE's Tournament Report File (TRF-16), which pairing programs,
/// tournament managers and rating officers read: each player by their number from the lot,
/// with their points, place and every round's opponent, colour and result, from the
/// tournament file and the games beside it. Exit code 1 when the event or one of its games
/// is invalid (nothing is written).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The tournament file, or the folder that holds it as tournament.yaml.
    #[arg(value_name = "TOURNAMENT")]
    tournament: PathBuf,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (checked, games) = super::standings::load(&args.tournament)?;
    let (event, table) = match &checked.state {
        EventState::Valid(event, table) => (event, table),
        EventState::Invalid(e) => return Err(super::invalid(&checked.path, e)),
        EventState::Unreadable(e) => {
            return Err(CliError::usage(format!(
                "{}: cannot read: {e}",
                correspond::text::path(&checked.path)
            )));
        }
    };
    let bad = games
        .iter()
        .filter(|(_, c)| !matches!(c, crate::cli::checking::verify::Checked::Valid(_)))
        .count();
    // A refused game is no longer `Valid`: counted here too.
    if bad > 0 {
        return Err(CliError::rejected(format!(
            "{} cannot be reported: {bad} of the files beside it {} not valid",
            event.header.event,
            if bad == 1 { "is" } else { "are" }
        ))
        .hint("`correspond tournament standings` says which, and why; nothing was written"));
    }
    write!(out, "{}", correspond::tournament::trf::trf(event, table))?;
    Ok(())
}
