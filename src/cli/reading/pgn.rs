//! `correspond pgn`: a chess or Insurrection game file as PGN.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::record;
use correspond::games::chess::{Chess, Color, Insurrection, Position, Variant};
use correspond::log::{AdjudicationReason, GameFile, TimeControl};
use correspond::pgn;
use correspond::replay::{Ending, Phase, Replay, Signatory};
use correspond::rules::Line;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Write a chess or Insurrection game file as PGN: the seven-tag roster (from the header's tags
/// where it has them: White and Black are otherwise the players, Site `?`, Round `-`, Date the
/// day the game was created), the header's other tags, `Variant` for Insurrection, the standard
/// `Termination` value (`normal`, `time forfeit`, `abandoned`, `adjudication`, `rules
/// infraction`, `unterminated`), under a clock `TimeControl` (`1/259200` for three days a
/// move, `10/4320000` for ten moves in 50 days), `PlyCount` (the half-moves played), the moves
/// in SAN with coups, each record's signer and comment as a comment (`{alice (white): the king's
/// pawn}`; an offer, a claim, a resignation in words: `{bob (black) offers a draw: a draw?}`),
/// and the result; a last comment says who won where the result cannot (a win before a coin
/// flip gave out the colours). `import-pgn` makes the same game again from it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
}

/// The chess games, seen as their inner position.
pub(crate) trait ChessGame:
    crate::cli::shared::game::CliGame<Move = correspond::games::chess::Move, Side = Color>
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
        crate::cli::shared::game::GameKind::Chess => export::<Chess>(&args.file, &bytes, out),
        crate::cli::shared::game::GameKind::Insurrection => {
            export::<Insurrection>(&args.file, &bytes, out)
        }
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
        .map(|(before, mv)| (before.position().san(*mv), coup_note(before, *mv)))
        .collect()
}

/// The comment naming the coup a move makes, if it makes one; `import-pgn` knows it by it.
pub(crate) fn coup_note<G: ChessGame>(
    before: &G,
    mv: correspond::games::chess::Move,
) -> Option<String> {
    let pos = before.position();
    pos.play_move(mv)
        .ok()
        .and_then(|(_, effects)| effects.coup)
        .map(|role| {
            format!(
                "coup: {}'s government is now its {}s ({})",
                pos.turn().opponent(),
                role.name(),
                correspond::games::chess::coup_name(role)
            )
        })
}

fn export<G: ChessGame>(path: &Path, bytes: &[u8], out: &mut Out<'_>) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    let text = pgn_of(&replay, &file);
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// How a player is named before their words while a coin flip has still to give out the
/// colours: by the side their header names, `alice (toss)`.
pub(crate) const TOSS: &str = "toss";

/// What the records say beside the moves, one PGN comment each, after its signer's name (`alice
/// (white)`, `the arbiter carol`): a move's comment (`alice (white): the king's pawn`) and the
/// acceptance's as `NAME: TEXT`; every record that is neither a move nor the acceptance in a few
/// words, its comment after them (`bob (black) offers a draw: a draw?`, `bob (black) resigns`),
/// except a coin flip's step, which only its comment brings out. Those signed before the first
/// move come before the moves; the others follow the move they come after. `import-pgn` reads
/// each back as the record it was, signed by the same player.
fn signed_comments<G: ChessGame>(
    replay: &Replay<G>,
    file: &GameFile,
) -> (Vec<String>, Vec<Vec<String>>) {
    use correspond::log::Action;
    let mut before = Vec::new();
    let mut by_move: Vec<Vec<String>> = Vec::new();
    for (n, record) in file.records().iter().enumerate() {
        if matches!(
            record.action,
            Action::Move(_) | Action::Applied(_) | Action::Reveal(_)
        ) {
            by_move.push(Vec::new());
        }
        let signer = match replay.steps[n + 1].signer {
            // Before a coin flip gives out the colours, the side the header names.
            Signatory::Player(seat) if replay.seats[seat].side.is_none() => {
                format!("{} ({TOSS})", replay.seats[seat].name)
            }
            signatory => replay.signed_by(signatory),
        };
        let flip = matches!(
            record.action,
            Action::FlipCommit(_) | Action::FlipNonce(_) | Action::FlipReveal(_) | Action::Defer
        );
        let said = match (&record.action, &record.comment) {
            (Action::Move(_) | Action::Accept { .. }, None) => continue,
            (Action::Move(_) | Action::Accept { .. }, Some(comment)) => {
                format!("{signer}: {comment}")
            }
            (_, None) if flip => continue,
            (action, comment) => {
                let did = crate::cli::shared::recap::summary(action);
                match comment {
                    Some(comment) => format!("{signer} {did}: {comment}"),
                    None => format!("{signer} {did}"),
                }
            }
        };
        by_move.last_mut().unwrap_or(&mut before).push(said);
    }
    (before, by_move)
}

/// The `Event` of a game whose header names none.
pub(crate) const DEFAULT_EVENT: &str = "correspond game";

/// The Seven Tag Roster, in the order PGN writes it.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// How the last comment of a game won before the coin flip gave out the colours ends; a PGN
/// game with it is one `import-pgn` cannot make again, since its games have no coin flip.
pub(crate) const WON_BEFORE_COLOURS: &str = "before the coin flip gave out the colours: PGN has \
     no result for a game won by a player without a colour";

/// The result token, the standard `Termination` value, and a last comment where the result
/// token cannot say who won. The verdict is not otherwise written as a comment: a reader
/// would take it for one on the last move (and `import-pgn` would sign it as one).
pub(crate) fn ending<G: ChessGame>(
    replay: &Replay<G>,
) -> (&'static str, &'static str, Option<String>) {
    let Phase::Over(verdict) = &replay.last().phase else {
        return ("*", "unterminated", None);
    };
    let result = match verdict.winner.map(|w| (w, replay.seats[w].side)) {
        Some((_, Some(Color::White))) => "1-0",
        Some((_, Some(Color::Black))) => "0-1",
        // A win before the coin flip gave out the colours: PGN can only say that White or
        // Black won, and neither did.
        Some((w, None)) => {
            let why = format!(
                "{} won ({}) {WON_BEFORE_COLOURS}",
                replay.seats[w].name,
                verdict.reason(&replay.seats)
            );
            return ("*", "normal", Some(why));
        }
        None => "1/2-1/2",
    };
    let termination = match verdict.ending {
        Ending::Timeout(_) => "time forfeit",
        Ending::Adjudicated(AdjudicationReason::Abandoned) => "abandoned",
        Ending::Adjudicated(AdjudicationReason::Equivocation) => "rules infraction",
        Ending::Adjudicated(_) => "adjudication",
        Ending::Resigned(_) | Ending::Rules(_) | Ending::RunOff { .. } => "normal",
    };
    (result, termination, None)
}

fn pgn_of<G: ChessGame>(replay: &Replay<G>, file: &GameFile) -> String {
    let header = file.header();
    let name = |color: Color| {
        replay
            .seats
            .iter()
            .find(|s| s.side == Some(color))
            .map_or("?", |s| s.name.as_str())
            .to_owned()
    };
    let (result, termination, last_comment) = ending(replay);
    let date = header.created.as_str()[..10].replace('-', ".");
    let defaults = [
        DEFAULT_EVENT.to_owned(),
        "?".to_owned(),
        date,
        "-".to_owned(),
        name(Color::White),
        name(Color::Black),
    ];
    // The roster from the header's tags where it has them, the result from the game.
    let mut tags: Vec<(String, String)> = ROSTER
        .iter()
        .zip(defaults)
        .map(|(tag, default)| {
            let value = header.tags.get(*tag).cloned().unwrap_or(default);
            ((*tag).to_owned(), value)
        })
        .collect();
    tags.push(("Result".to_owned(), result.to_owned()));
    // Then every other tag in the order of their names, as PGN's export format asks.
    let mut others: BTreeMap<String, String> = header
        .tags
        .iter()
        .filter(|(tag, _)| !ROSTER.contains(&tag.as_str()))
        .map(|(tag, value)| (tag.clone(), value.clone()))
        .collect();
    if let Some(variant) = variant_tag::<G>(&replay.options) {
        others.insert("Variant".to_owned(), variant.to_owned());
    }
    others.insert("Termination".to_owned(), termination.to_owned());
    if let Some(control) = header.time_control {
        // PGN counts time in seconds, a period as MOVES/SECONDS (a day a move is `1/86400`,
        // as correspondence sites write it); a game's clock replaces a tag of the same name,
        // which `new` never writes beside one.
        others.insert("TimeControl".to_owned(), time_control(control));
    }
    others.insert("GameId".to_owned(), replay.game_id.to_string());
    let mut moves: Vec<(String, Vec<String>)> = replay
        .line
        .as_ref()
        .map(annotated)
        .unwrap_or_default()
        .into_iter()
        .map(|(san, coup)| (san, coup.into_iter().collect()))
        .collect();
    // PGN's count of the moves, in half-moves, as its standard (9.2.1) defines it.
    others.insert("PlyCount".to_owned(), moves.len().to_string());
    tags.extend(others);
    let (before, by_move) = signed_comments(replay, file);
    for ((_, comments), signed) in moves.iter_mut().zip(by_move) {
        comments.extend(signed);
    }
    let last: Vec<String> = last_comment.into_iter().collect();
    pgn::write(&tags, (&before, &moves), &last, result)
}

/// The `Variant` tag of a game played with `options`: none for chess.
pub(crate) fn variant_tag<G: ChessGame>(options: &G::Options) -> Option<&'static str> {
    match G::start(options).position().variant() {
        Variant::Chess => None,
        Variant::Insurrection => Some("Insurrection"),
        Variant::Assassination => Some("Insurrection (Assassination)"),
    }
}

/// A game's clock as PGN's `TimeControl` value: one period of MOVES/SECONDS, which repeats.
fn time_control(control: TimeControl) -> String {
    const DAY: u64 = 86_400;
    let (moves, days) = match control {
        TimeControl::PerMove { days } => (1, days),
        TimeControl::Block { moves, days } => (moves, days),
    };
    format!("{moves}/{}", u64::from(days) * DAY)
}
