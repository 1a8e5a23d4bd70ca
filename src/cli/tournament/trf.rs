//! `correspond tournament trf`: an event as FIDE's Tournament Report File.

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
    /// Write instead the report file a pairing program is given to pair Swiss round N (with
    /// JaVaFo's extensions): for a round paired already, the one the games here give, whose
    /// digest its `pair` record must name; for the next round, the one `tournament pair`
    /// gives.
    #[arg(long, value_name = "N", value_hint = clap::ValueHint::Other)]
    round: Option<usize>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    if let Some(round) = args.round {
        return pairing_input(args, round, out);
    }
    let (checked, games) = super::standings::load(&args.tournament)?;
    let (event, table) = checked.event()?;
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

/// `--round N`: a Swiss round's input, made from the files as they are (even when the event is
/// invalid because a round's signed input differs: this is what to compare).
fn pairing_input(args: &Args, round: usize, out: &mut Out<'_>) -> Result<(), CliError> {
    use correspond::tournament::file::System;
    let beside = super::standings::games_beside(&args.tournament)?;
    let event = super::read_event(&beside.file)?;
    if event.header.system != System::Swiss || event.numbers.is_none() {
        return Err(CliError::usage(format!(
            "{} has no Swiss round to pair: {}",
            event.header.event,
            event.stage()
        )));
    }
    let paired = event.swiss.len();
    if round == 0 || round > paired + 1 || round > event.header.rounds.unwrap_or(0) as usize {
        return Err(CliError::usage(format!(
            "{} has {paired} round{} paired, so --round is 1 to {}",
            event.header.event,
            if paired == 1 { "" } else { "s" },
            (paired + 1).min(event.header.rounds.unwrap_or(0) as usize)
        )));
    }
    let (games, forked) = beside.valid();
    write!(
        out,
        "{}",
        correspond::tournament::swiss::input_from_games(&event, &games, &forked, round)
    )?;
    Ok(())
}
