//! `correspond status`: where a game stands and what it waits for.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::record;
use correspond::log::GameFile;
use correspond::replay::{Phase, Replay, Seat};
use std::path::{Path, PathBuf};

/// Say where a game stands: the players, the position, whose turn it is and what is expected
/// next (with the command to run), check, standing offers, claims, and the result.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Print one JSON object (schemas/status.schema.json).
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    with_game!(kind, G => status::<G>(&args.file, &bytes, args.json, out))
}

fn status<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    json: bool,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    if json {
        let status =
            crate::cli::reading::status_json::status(&file, &replay, &path.to_string_lossy());
        let text =
            serde_json::to_string_pretty(&status).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
        return Ok(());
    }
    // Everything that can fail is done before the first line is printed.
    let file_arg = correspond::text::path(path);
    let clocks = match &replay.clocks {
        Some(clocks) => crate::cli::shared::clocks::lines(
            clocks,
            &replay.seats,
            &crate::cli::shared::keys::now()?,
            &file_arg.to_string(),
        ),
        None => Vec::new(),
    };
    write_head::<G>(&file, &replay, out)?;
    let last = replay.last();
    writeln!(out, "position: {}", last.position)?;
    match &last.phase {
        Phase::Over(verdict) => {
            writeln!(out, "result: {}", verdict.describe(&replay.seats))?;
            for line in &clocks {
                writeln!(out, "{line}")?;
            }
        }
        phase => write_waiting::<G>(&replay, phase, &clocks, &file_arg.to_string(), out)?,
    }
    Ok(())
}

/// The game's matchup, variants, id, records and last comment.
fn write_head<G: CliGame>(
    file: &GameFile,
    replay: &Replay<G>,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    writeln!(out, "{}: {}", G::NAME, replay.matchup())?;
    let variants: Vec<&str> = G::OPTIONS
        .iter()
        .filter(|switch| (switch.get)(&replay.options))
        .map(|switch| switch.name)
        .collect();
    if !variants.is_empty() {
        writeln!(out, "variants: {}", variants.join(", "))?;
    }
    writeln!(out, "game id: {}", replay.game_id)?;
    let time = file
        .records()
        .last()
        .map_or(file.header().created.as_str(), |r| r.time.as_str());
    writeln!(
        out,
        "records: {} (last signed {time})",
        replay.steps.len() - 1
    )?;
    if let Some(comment) = file.records().last().and_then(|r| r.comment.as_ref()) {
        writeln!(
            out,
            "comment: {} says \"{}\"",
            replay.signed_by(replay.last().signer),
            correspond::text::prose(comment)
        )?;
    }
    Ok(())
}

/// What a game that is not over waits for: its status, check, the standing offer, the claims
/// open, the clocks (`clocks`), and the commands to run next.
fn write_waiting<G: CliGame>(
    replay: &Replay<G>,
    phase: &Phase,
    clocks: &[String],
    file_arg: &str,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let last = replay.last();
    let who = |seat: Seat| replay.seats[seat].to_string();
    writeln!(out, "status: {}", phase.describe(&replay.seats))?;
    if matches!(phase, Phase::Playing(_)) && last.position.in_check() {
        writeln!(out, "check: {} is in check", last.position.side_to_move())?;
    }
    if let Some(offer) = last.offer {
        writeln!(
            out,
            "offer: {} offers a {}, until {}'s next record",
            who(offer.by),
            offer.settlement.words(),
            who(offer.by.other())
        )?;
    }
    if let Some(standing) = &last.conditional {
        writeln!(
            out,
            "conditional: {}",
            standing.describe(&replay.seats, &last.position)
        )?;
        if let Some(kept) = standing
            .hidden
            .as_ref()
            .and_then(|h| kept_lines(h, &last.position))
        {
            writeln!(out, "kept here: {kept}")?;
        }
    }
    if let Some(line) = &replay.line {
        for claim in line.claimable() {
            writeln!(
                out,
                "claimable by {}: {claim}",
                last.position.side_to_move()
            )?;
        }
    }
    for line in clocks {
        writeln!(out, "{line}")?;
    }
    let next = crate::cli::shared::next::next_after(replay, file_arg);
    if let Some(next) = next {
        writeln!(out, "next: {next}")?;
    }
    if let Some(offer) = last.offer {
        writeln!(
            out,
            "or: {}: {}",
            who(offer.by.other()),
            crate::cli::shared::next::accept_command(offer.settlement, file_arg)
        )?;
    }
    Ok(())
}

/// Hidden lines this machine's signing journal keeps, as what is left of them from `position`
/// in the game's notation: only their author's machine has them, so only the author sees them.
/// Nothing where the journal cannot be opened or holds none.
fn kept_lines<G: correspond::replay::Protocol>(
    hidden: &correspond::replay::HiddenLines,
    position: &G,
) -> Option<String> {
    let journal = crate::cli::shared::signing_journal::open().ok()?;
    let lines = journal.kept_lines(&hidden.commitment).ok()??;
    let left: Vec<String> = correspond::hidden::rest_after(lines.lines(), &hidden.played)
        .map(|rest| correspond::replay::shown_line(position, rest))
        .collect();
    (!left.is_empty()).then(|| left.join(" | "))
}
