//! `correspond pgn`: a chess or Insurrection game file as PGN.

use super::CliError;
use super::record;
use crate::cli::Out;
use correspond::log::GameFile;
use correspond::pgn;
use correspond::replay::{Ending, Phase, Replay};
use correspond::rules::Line;
use correspond::rules::chess::{Chess, Color, Insurrection, Position, Variant};
use std::path::{Path, PathBuf};

/// Write a chess or Insurrection game file as PGN: the seven-tag roster (White and Black are the
/// players), `Variant` for Insurrection, `Termination`, the moves in SAN with coups as
/// comments, and the result.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
}

/// The chess games, seen as their inner position.
pub(crate) trait ChessGame:
    super::game::CliGame<Move = correspond::rules::chess::Move, Side = Color>
{
    /// The position underneath.
    fn position(&self) -> &Position;
}

impl ChessGame for Chess {
    fn position(&self) -> &Position {
        &self.0
    }
}

impl ChessGame for Insurrection {
    fn position(&self) -> &Position {
        &self.0
    }
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    match kind {
        super::game::GameKind::Chess => export::<Chess>(&args.file, &bytes, out),
        super::game::GameKind::Insurrection => export::<Insurrection>(&args.file, &bytes, out),
        other => Err(CliError::rejected(format!(
            "PGN is for chess and insurrection; {} is a game of {other}",
            correspond::text::path(&args.file)
        ))
        .hint(format!(
            "`correspond log {}` lists its records",
            correspond::text::path(&args.file)
        ))),
    }
}

/// The SAN moves of a line, with a comment naming each coup.
pub(crate) fn annotated<G: ChessGame>(line: &Line<G>) -> Vec<(String, Option<String>)> {
    line.positions()
        .iter()
        .zip(line.moves())
        .map(|(before, mv)| {
            let pos = before.position();
            let comment = pos
                .play_move(*mv)
                .ok()
                .and_then(|(_, effects)| effects.coup)
                .map(|role| {
                    format!(
                        "coup: {}'s government is now its {}s ({})",
                        pos.turn().opponent(),
                        role.name(),
                        correspond::rules::chess::coup_name(role)
                    )
                });
            (pos.san(*mv), comment)
        })
        .collect()
}

fn export<G: ChessGame>(path: &Path, bytes: &[u8], out: &mut Out<'_>) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    let text = pgn_of(&replay, &file);
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The comments the players signed, by the move they follow: a move's own, then those of the
/// records after it up to the next move (an offer, a resignation), each after its signer's
/// name. Comments before the first move are left out: PGN has no place before the moves.
fn signed_comments<G: ChessGame>(replay: &Replay<G>, file: &GameFile) -> Vec<Vec<String>> {
    let mut by_move: Vec<Vec<String>> = Vec::new();
    for (n, record) in file.records().iter().enumerate() {
        if matches!(record.action, correspond::log::Action::Move(_)) {
            by_move.push(Vec::new());
        }
        let (Some(comment), Some(last)) = (&record.comment, by_move.last_mut()) else {
            continue;
        };
        let signer = replay.signed_by(replay.steps[n + 1].signer);
        last.push(format!("{signer}: {comment}"));
    }
    by_move
}

fn pgn_of<G: ChessGame>(replay: &Replay<G>, file: &GameFile) -> String {
    let created = file.header().created.as_str();
    let name = |color: Color| {
        replay
            .seats
            .iter()
            .find(|s| s.side == Some(color))
            .map_or("?", |s| s.name.as_str())
            .to_owned()
    };
    let mut why = None;
    let (result, termination) = match &replay.last().phase {
        Phase::Over(verdict) => {
            let result = match verdict.winner.map(|w| (w, replay.seats[w].side)) {
                Some((_, Some(Color::White))) => "1-0",
                Some((_, Some(Color::Black))) => "0-1",
                // A win before the coin flip gave out the colours: PGN can only say that
                // White or Black won, and neither did.
                Some((w, None)) => {
                    why = Some(format!(
                        "{} won ({}) before the coin flip gave out the colours: PGN has no \
                         result for a game won by a player without a colour",
                        replay.seats[w].name,
                        verdict.reason(&replay.seats)
                    ));
                    "*"
                }
                None => "1/2-1/2",
            };
            let termination = match verdict.ending {
                // PGN's own word for it, which chess programs read.
                Ending::Timeout(_) => "time forfeit".to_owned(),
                Ending::Adjudicated(_) => "adjudication".to_owned(),
                _ => verdict.reason(&replay.seats),
            };
            (result, termination)
        }
        _ => ("*", "unterminated".to_owned()),
    };
    let date = created
        .get(..10)
        .map_or_else(|| "????.??.??".to_owned(), |d| d.replace('-', "."));
    let mut tags = vec![
        ("Event".to_owned(), "correspond game".to_owned()),
        ("Site".to_owned(), "-".to_owned()),
        ("Date".to_owned(), date),
        ("Round".to_owned(), "-".to_owned()),
        ("White".to_owned(), name(Color::White)),
        ("Black".to_owned(), name(Color::Black)),
        ("Result".to_owned(), result.to_owned()),
    ];
    let start = G::start(&replay.options);
    match start.position().variant() {
        Variant::Chess => {}
        Variant::Insurrection => tags.push(("Variant".to_owned(), "Insurrection".to_owned())),
        Variant::Assassination => tags.push((
            "Variant".to_owned(),
            "Insurrection (Assassination)".to_owned(),
        )),
    }
    tags.push(("Termination".to_owned(), termination));
    tags.push(("GameId".to_owned(), replay.game_id.to_string()));
    let mut moves = replay.line.as_ref().map(annotated).unwrap_or_default();
    for ((_, comment), signed) in moves.iter_mut().zip(signed_comments(replay, file)) {
        let all: Vec<String> = comment.take().into_iter().chain(signed).collect();
        *comment = (!all.is_empty()).then(|| all.join("; "));
    }
    pgn::write(&tags, &moves, why.as_deref(), result)
}
