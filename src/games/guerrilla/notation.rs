//! Guerrilla Checkers notation, read in two steps (is it a move at all? which legal move is
//! it?). Canonical: `c3,d3` (two points, in the order placed), `d3-e4` (a step), `d3xe4xf5`
//! (a capture chain, every cell visited).
//!
//! As input, a capture chain may stop early (`d3xe4`), or be written as a step (`d3-e4` over a
//! stone): it then stands for the one legal chain that begins so, and is ambiguous when there
//! are several.

use super::movegen;
use super::{Cell, Chain, Guerrilla, Illegal, Move, Point};
use crate::rules::{Game, MoveError};

/// Why a text is not a Guerrilla Checkers move at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// Nothing given.
    #[error("empty move: write two points like c3,d3, or a checker's move like d3-e4 or d3xe4")]
    Empty,
    /// Not one of the three shapes.
    #[error(
        "`{0}` is not a move: write two points like c3,d3 (Guerrilla), or a checker's move like \
         d3-e4 or d3xe4xf5 (COIN)"
    )]
    Shape(String),
    /// A point name off the grid of points.
    #[error("`{0}` is not a point: stones go on points a1-g7, the corners between cells")]
    Point(String),
    /// A cell name off the board.
    #[error("`{0}` is not a cell: checkers stand on cells a1-h8")]
    Cell(String),
    /// A chain longer than any board allows.
    #[error("`{0}` is longer than any capture chain can be")]
    TooLong(String),
}

/// The cap on how many readings an ambiguous chain lists.
const LISTED: usize = 10;

fn is_name(part: &str) -> bool {
    matches!(part.as_bytes(), [b'a'..=b'z', b'0'..=b'9'])
}

fn parse(text: &str) -> Result<Move, SyntaxError> {
    if text.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let shape = || SyntaxError::Shape(text.to_owned());
    if let Some((a, b)) = text.split_once(',') {
        if !is_name(a) || !is_name(b) {
            return Err(shape());
        }
        let point =
            |n: &str| Point::parse(n.as_bytes()).ok_or_else(|| SyntaxError::Point(n.to_owned()));
        return Ok(Move::Place(point(a)?, point(b)?));
    }
    let cell = |n: &str| Cell::parse(n.as_bytes()).ok_or_else(|| SyntaxError::Cell(n.to_owned()));
    if let Some((a, b)) = text.split_once('-') {
        if !is_name(a) || !is_name(b) {
            return Err(shape());
        }
        return Ok(Move::Step(cell(a)?, cell(b)?));
    }
    let parts: Vec<&str> = text.split('x').collect();
    if parts.len() < 2 || !parts.iter().all(|p| is_name(p)) {
        return Err(shape());
    }
    if parts.len() > super::MAX_CHAIN {
        return Err(SyntaxError::TooLong(text.chars().take(40).collect()));
    }
    let mut chain = Chain::start(cell(parts[0])?);
    for part in &parts[1..] {
        chain.push(cell(part)?);
    }
    Ok(Move::Capture(chain))
}

/// Reads a move and resolves it against `pos`.
pub(super) fn resolve(pos: &Guerrilla, text: &str) -> Result<Move, MoveError<Guerrilla>> {
    let mv = parse(text).map_err(MoveError::Invalid)?;
    let candidate = match mv {
        // A step over a stone is the start of a capture.
        Move::Step(from, to) => match pos.play(&mv) {
            Err(Illegal::StepOverStone(..)) => {
                let mut chain = Chain::start(from);
                chain.push(to);
                Move::Capture(chain)
            }
            Err(e) => return Err(MoveError::Illegal(e)),
            Ok(_) => return Ok(mv),
        },
        other => other,
    };
    match pos.play(&candidate) {
        Ok(_) => Ok(candidate),
        Err(Illegal::ChainNotFinished(end)) => {
            let Move::Capture(prefix) = candidate else {
                unreachable!("only a capture can be unfinished")
            };
            match movegen::extensions(pos, &prefix, LISTED) {
                (chains, false) if chains.len() == 1 => Ok(Move::Capture(chains[0])),
                (chains, _) if chains.is_empty() => {
                    Err(MoveError::Illegal(Illegal::ChainNotFinished(end)))
                }
                (chains, _) => Err(MoveError::Ambiguous(
                    chains.into_iter().map(Move::Capture).collect(),
                )),
            }
        }
        Err(e) => Err(MoveError::Illegal(e)),
    }
}
