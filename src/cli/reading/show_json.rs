//! `show --json`: a drawn position as fields, for scripts and pages
//! (schemas/show.schema.json): the position, whose turn, the moves that led there in both
//! notations, the outcome by a stable code, and, for a game file, which record it is.

use crate::cli::shared::game::CliGame;
use correspond::replay::Protocol;
use correspond::rules::Line;
use serde::Serialize;

#[derive(Serialize)]
pub(crate) struct Show {
    game: &'static str,
    #[serde(flatten)]
    file: Option<FilePart>,
    position: String,
    side_to_move: String,
    in_check: bool,
    /// The moves from the line's start, in order; the last is the one the picture marks.
    moves: Vec<MoveJson>,
    /// How the game ended on the board, if it has; claims and agreements are `status`'s.
    outcome: Option<OutcomeJson>,
    claimable: Vec<String>,
    /// Whether the picture is drawn turned round, the first side at the top.
    flipped: bool,
}

/// What a game file adds: which file, and after which record.
#[derive(Serialize)]
pub(crate) struct FilePart {
    pub file: String,
    /// The record after which the position stands (0: the header's).
    pub record: usize,
    /// The file's last record.
    pub records: usize,
    /// That record's comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// One move of a line, numbered as a move list numbers it.
#[derive(Serialize)]
pub(crate) struct MoveJson {
    /// The full-move number: the first side's move and the second's answer share one.
    pub number: u32,
    pub side: String,
    /// Whether the side is the one that moves first (White, Heads, the Guerrilla).
    #[serde(skip)]
    pub first_side: bool,
    /// The canonical notation game files store.
    pub notation: String,
    /// As reports show it: SAN for chess and Insurrection, else the canonical notation.
    pub shown: String,
}

/// The moves of `line`, numbered from its start position's full-move number.
pub(crate) fn moves<G: CliGame>(line: &Line<G>) -> Vec<MoveJson> {
    let mut number = G::first_move_number(&line.positions()[0]);
    line.moves()
        .iter()
        .zip(line.positions())
        .map(|(mv, before)| {
            let side = before.side_to_move();
            let first_side = side == G::SIDES[0];
            let json = MoveJson {
                number,
                side: side.to_string(),
                first_side,
                notation: mv.to_string(),
                shown: before.display_move(mv),
            };
            if !first_side {
                number += 1;
            }
            json
        })
        .collect()
}

#[derive(Serialize)]
struct OutcomeJson {
    /// Stable, in kebab case: `checkmate`, `fact-check`, `fivefold-repetition`.
    code: &'static str,
    words: String,
}

/// The fields of a drawn position; `over`: the game was over there, whatever ended it, so
/// nothing is claimable.
pub(crate) fn show<G: CliGame>(
    line: &Line<G>,
    flipped: bool,
    over: bool,
    file: Option<&FilePart>,
) -> Show {
    let current = line.current();
    let outcome = line.outcome();
    Show {
        game: G::NAME,
        file: file.map(|f| FilePart {
            file: f.file.clone(),
            record: f.record,
            records: f.records,
            comment: f.comment.clone(),
        }),
        position: current.to_string(),
        side_to_move: current.side_to_move().to_string(),
        in_check: outcome.is_none() && Protocol::in_check(current),
        moves: moves(line),
        outcome: outcome.map(|o| OutcomeJson {
            code: G::reason_code(&o),
            words: o.to_string(),
        }),
        claimable: if over {
            Vec::new()
        } else {
            line.claimable().iter().map(ToString::to_string).collect()
        },
        flipped,
    }
}
