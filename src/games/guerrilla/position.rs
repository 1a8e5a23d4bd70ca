//! The Guerrilla Checkers position string: `points cells side supply`, for example the start
//! `7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66`.
//!
//! Points are written rank 7 down to 1, `S` for a stone; cells rank 8 down to 1, `C` for a
//! checker; digits count empty points or cells. As for Campaign, every position has exactly one
//! spelling, and every error names its field.

use super::board::{Cell, Point};
use super::{Guerrilla, SUPPLY, Side};
use std::fmt;

/// Why a text is not a valid Guerrilla Checkers position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Not four fields.
    #[error(
        "a position has 4 fields separated by single spaces (points, cells, side to move, \
         supply); found {0}"
    )]
    FieldCount(usize),
    /// Spaces other than single spaces between fields.
    #[error("fields are separated by single spaces (not tabs), with none before or after")]
    Spacing,
    /// A grid field that does not have the right number of ranks.
    #[error("{field}: expected {ranks} ranks separated by `/`, found {found}")]
    RankCount {
        /// `points` or `cells`.
        field: &'static str,
        /// How many it needs.
        ranks: u8,
        /// How many there are.
        found: usize,
    },
    /// A rank of the wrong width.
    #[error("{field}: rank {rank} (`{text}`) covers {found} files; each covers {width}")]
    RankWidth {
        /// `points` or `cells`.
        field: &'static str,
        /// The rank, from 1.
        rank: u8,
        /// Its text.
        text: String,
        /// How many files it covers.
        found: usize,
        /// How many it must.
        width: u8,
    },
    /// A character that is neither the piece letter nor a count.
    #[error(
        "{field}: rank {rank}: `{found}` is not {piece} or a count of empty {what} (1-{width})"
    )]
    Character {
        /// `points` or `cells`.
        field: &'static str,
        /// The rank, from 1.
        rank: u8,
        /// What was found.
        found: char,
        /// The piece letter, quoted.
        piece: &'static str,
        /// `points` or `cells`.
        what: &'static str,
        /// The widest run.
        width: u8,
    },
    /// Two digits in a row.
    #[error("{field}: rank {rank}: a run of empty {field} is one digit, not `{found}`")]
    SplitRun {
        /// `points` or `cells`.
        field: &'static str,
        /// The rank, from 1.
        rank: u8,
        /// The digits.
        found: String,
    },
    /// The side-to-move field.
    #[error("side to move: expected `g` (guerrilla) or `c` (coin), found `{0}`")]
    Side(String),
    /// The supply field.
    #[error(
        "supply: expected an even number from 0 to 66, without sign or leading zeros, found `{0}`"
    )]
    Supply(String),
    /// More than six checkers.
    #[error("cells: {0} checkers; COIN has six at most")]
    TooManyCheckers(u32),
    /// A checker on a cell checkers never reach.
    #[error(
        "cells: the checker on {0} stands on an unplayable cell (checkers stay on the colour of b1)"
    )]
    Unplayable(Cell),
    /// A checker that should already have been captured.
    #[error("cells: the checker on {0} is surrounded on all four corners, so it was captured")]
    Surrounded(Cell),
    /// More stones on the board than were ever placed.
    #[error(
        "points: {on_board} stones on the board, but a supply of {supply} means only {placed} were placed"
    )]
    TooManyStones {
        /// Stones on the board.
        on_board: u32,
        /// The supply.
        supply: u8,
        /// 66 minus the supply.
        placed: u8,
    },
}

/// Reads and validates a position string.
pub(super) fn parse(text: &str) -> Result<Guerrilla, PositionError> {
    let fields: Vec<&str> = text.split(' ').collect();
    let odd_space = text.chars().any(|c| c.is_whitespace() && c != ' ');
    if odd_space || fields.iter().any(|f| f.is_empty()) && !text.trim().is_empty() {
        return Err(PositionError::Spacing);
    }
    let [points, cells, side, supply] = fields[..] else {
        return Err(PositionError::FieldCount(text.split_whitespace().count()));
    };
    let stones = grid(points, Grid::POINTS)?
        .into_iter()
        .map(|(file, rank)| Point::new(file, rank).expect("within the grid").bit())
        .fold(0, |a, b| a | b);
    let checkers = grid(cells, Grid::CELLS)?
        .into_iter()
        .map(|(file, rank)| Cell::new(file, rank).expect("within the board").bit())
        .fold(0, |a, b| a | b);
    let turn = match side {
        "g" => Side::Guerrilla,
        "c" => Side::Coin,
        _ => return Err(PositionError::Side(side.to_owned())),
    };
    let canonical = !supply.is_empty()
        && supply.bytes().all(|b| b.is_ascii_digit())
        && (supply == "0" || !supply.starts_with('0'));
    let supply_value = canonical
        .then(|| supply.parse::<u8>().ok())
        .flatten()
        .filter(|n| *n <= SUPPLY && n % 2 == 0)
        .ok_or_else(|| PositionError::Supply(supply.to_owned()))?;
    let pos = Guerrilla {
        stones,
        checkers,
        turn,
        supply: supply_value,
    };
    validate(&pos)?;
    Ok(pos)
}

struct Grid {
    field: &'static str,
    size: u8,
    piece: char,
    quoted: &'static str,
}

impl Grid {
    const POINTS: Grid = Grid {
        field: "points",
        size: 7,
        piece: 'S',
        quoted: "`S` (a stone)",
    };
    const CELLS: Grid = Grid {
        field: "cells",
        size: 8,
        piece: 'C',
        quoted: "`C` (a checker)",
    };
}

/// The occupied (file, rank) pairs of a grid field.
fn grid(text: &str, g: Grid) -> Result<Vec<(u8, u8)>, PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != usize::from(g.size) {
        return Err(PositionError::RankCount {
            field: g.field,
            ranks: g.size,
            found: ranks.len(),
        });
    }
    let mut occupied = Vec::new();
    for (row, rank) in ranks.iter().zip((0..g.size).rev()) {
        let mut file: usize = 0;
        let mut run_start = None;
        for (i, c) in row.char_indices() {
            if let Some(run) = c
                .to_digit(10)
                .filter(|d| (1..=u32::from(g.size)).contains(d))
            {
                if let Some(start) = run_start {
                    let found = row[start..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    return Err(PositionError::SplitRun {
                        field: g.field,
                        rank: rank + 1,
                        found,
                    });
                }
                run_start = Some(i);
                file += run as usize;
                continue;
            }
            run_start = None;
            if c != g.piece {
                return Err(PositionError::Character {
                    field: g.field,
                    rank: rank + 1,
                    found: c,
                    piece: g.quoted,
                    what: g.field,
                    width: g.size,
                });
            }
            if let Ok(f) = u8::try_from(file)
                && f < g.size
            {
                occupied.push((f, rank));
            }
            file += 1;
        }
        if file != usize::from(g.size) {
            return Err(PositionError::RankWidth {
                field: g.field,
                rank: rank + 1,
                text: (*row).to_owned(),
                found: file,
                width: g.size,
            });
        }
    }
    Ok(occupied)
}

fn validate(pos: &Guerrilla) -> Result<(), PositionError> {
    let count = pos.checkers.count_ones();
    if count > 6 {
        return Err(PositionError::TooManyCheckers(count));
    }
    for cell in Cell::all().filter(|c| pos.has_checker(*c)) {
        if !cell.is_playable() {
            return Err(PositionError::Unplayable(cell));
        }
        if pos.surrounded(cell) {
            return Err(PositionError::Surrounded(cell));
        }
    }
    let placed = SUPPLY - pos.supply;
    if pos.stones.count_ones() > u32::from(placed) {
        return Err(PositionError::TooManyStones {
            on_board: pos.stones.count_ones(),
            supply: pos.supply,
            placed,
        });
    }
    Ok(())
}

fn write_grid(
    f: &mut fmt::Formatter<'_>,
    size: u8,
    piece: char,
    occupied: impl Fn(u8, u8) -> bool,
) -> fmt::Result {
    for rank in (0..size).rev() {
        let mut empty = 0;
        for file in 0..size {
            if occupied(file, rank) {
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                write!(f, "{piece}")?;
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank > 0 {
            f.write_str("/")?;
        }
    }
    Ok(())
}

impl fmt::Display for Guerrilla {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid(f, 7, 'S', |i, j| {
            Point::new(i, j).is_some_and(|p| self.has_stone(p))
        })?;
        f.write_str(" ")?;
        write_grid(f, 8, 'C', |x, y| {
            Cell::new(x, y).is_some_and(|c| self.has_checker(c))
        })?;
        let side = match self.turn {
            Side::Guerrilla => 'g',
            Side::Coin => 'c',
        };
        write!(f, " {side} {}", self.supply)
    }
}
