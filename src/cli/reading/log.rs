//! `correspond log`: a game's records, readable: who signed what, and when.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::record;
use correspond::log::GameFile;
use correspond::replay::{Event, Phase, Replay, Signatory, Step};
use serde::Serialize;
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
    /// Print one JSON object: each document's number, line, time, signer, kind, events and
    /// state hash (schemas/log.schema.json).
    #[arg(long, conflicts_with = "hashes")]
    json: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    with_game!(kind, G => log::<G>(&args.file, &bytes, args, out))
}

/// `log --json`.
#[derive(Serialize)]
struct Json {
    game: &'static str,
    game_id: String,
    documents: Vec<DocumentJson>,
    /// The result in words, once the game is over; else what it waits for.
    now: String,
}

#[derive(Serialize)]
struct DocumentJson {
    document: usize,
    line: usize,
    time: String,
    /// The signer's seat (0: the creator, 1: the opponent); null for the arbiter.
    seat: Option<usize>,
    /// The seat whose move the record plays: a `move`'s signer, or a conditional reply's author,
    /// whoever appended it; null for a record that plays no move.
    mover_seat: Option<usize>,
    /// `player` or `arbiter`.
    role: &'static str,
    signer: String,
    /// `header`, or the record's kind.
    kind: &'static str,
    events: Vec<String>,
    /// What the signer said with the record, if anything.
    comment: Option<String>,
    state_hash: String,
}

fn log<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    args: &Args,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let hashes = args.hashes;
    let (file, replay) = record::verified::<G>(path, bytes)?;
    if args.json {
        return log_json(&file, &replay, out);
    }
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
        let mut events: Vec<String> = step.events.iter().map(Event::to_string).collect();
        if let Some(comment) = step
            .document
            .checked_sub(1)
            .and_then(|n| file.records()[n].comment.as_ref())
        {
            events.push(format!("says \"{}\"", correspond::text::prose(comment)));
        }
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

/// The log as one JSON object (schemas/log.schema.json).
fn log_json<G: CliGame>(
    file: &GameFile,
    replay: &Replay<G>,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let documents = replay
        .steps
        .iter()
        .map(|step| document_json(file, replay, step))
        .collect();
    let json = Json {
        game: G::NAME,
        game_id: replay.game_id.to_string(),
        documents,
        now: replay.last().phase.describe(&replay.seats),
    };
    let text = serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
    writeln!(out, "{}", correspond::text::json(text))?;
    Ok(())
}

/// One document of the log, as JSON.
fn document_json<G: CliGame>(file: &GameFile, replay: &Replay<G>, step: &Step<G>) -> DocumentJson {
    let (time, kind, comment) = match step.document {
        0 => (file.header().created.as_str(), "header", None),
        n => {
            let record = &file.records()[n - 1];
            let kind = record.action.kind().name();
            (record.time.as_str(), kind, record.comment.clone())
        }
    };
    let name = match step.signer {
        Signatory::Player(seat) => replay.seats[seat].name.clone(),
        Signatory::Arbiter => replay
            .arbiter
            .as_ref()
            .map(|a| a.name.clone())
            .unwrap_or_default(),
    };
    DocumentJson {
        document: step.document,
        line: step.line,
        time: time.to_owned(),
        seat: step.signer.seat().map(|s| s.index()),
        mover_seat: step
            .events
            .iter()
            .any(|e| matches!(e, Event::Moved(..)))
            .then(|| step.reply_of().or(step.signer.seat()))
            .flatten()
            .map(|s| s.index()),
        role: match step.signer {
            Signatory::Player(_) => "player",
            Signatory::Arbiter => "arbiter",
        },
        signer: name,
        kind,
        events: step.events.iter().map(Event::to_string).collect(),
        comment,
        state_hash: step.state_hash().to_string(),
    }
}
