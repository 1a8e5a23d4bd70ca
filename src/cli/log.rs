//! `correspond log`: a game's records, readable: who signed what, and when.

use super::CliError;
use super::game::{CliGame, with_game};
use super::record;
use crate::cli::Out;
use correspond::replay::{Event, Phase};
use std::path::{Path, PathBuf};

/// List a game's records: number, time, signer and what each did (moves with captures and
/// promotions, coin flips and their results, offers, claims), then the result.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Also print each record's state hash (a digest of the position and of what the game
    /// waits for), to compare two replays record by record.
    #[arg(long)]
    hashes: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    with_game!(kind, G => log::<G>(&args.file, &bytes, args.hashes, out))
}

fn log<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    hashes: bool,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    writeln!(out, "{}: {}", G::NAME, replay.matchup())?;
    writeln!(out, "game id: {}", replay.game_id)?;
    let width = replay
        .steps
        .iter()
        .map(|s| replay.signed_by(s.signer).chars().count())
        .max()
        .unwrap_or(0);
    for step in &replay.steps {
        let time = match step.document {
            0 => file.header().created.as_str(),
            n => file.records()[n - 1].time.as_str(),
        };
        let who = replay.signed_by(step.signer);
        let events: Vec<String> = step.events.iter().map(Event::to_string).collect();
        let hash = if hashes {
            format!("{}  ", step.state_hash().short())
        } else {
            String::new()
        };
        writeln!(
            out,
            "{:>4}  {time}  {hash}{who:<width$}  {}",
            step.document,
            events.join("; ")
        )?;
    }
    match &replay.last().phase {
        Phase::Over(verdict) => writeln!(out, "result: {}", verdict.describe(&replay.seats))?,
        phase => writeln!(out, "now: {}", phase.describe(&replay.seats))?,
    }
    Ok(())
}
