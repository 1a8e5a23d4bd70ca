//! Move generation, counting and checking for Guerrilla Checkers.
//!
//! Moves are produced one at a time, already in the byte order of their notation: points and
//! cells are visited in name order, a checker's steps (`-`) before its captures (`x`), and
//! capture chains depth first with the next cell in name order. Nothing is collected, so a
//! checker with hundreds of thousands of chains costs no memory, and [`check`] follows a played
//! chain step by step without looking at any other.

use super::board::{self, Bitboard, Cell, DIAGONALS, Point};
use super::{Chain, Guerrilla, Illegal, Move, Side};
use crate::rules::Game;
use std::ops::ControlFlow;

/// Where the first stone of a turn may go: next to the stones on the board, or anywhere on an
/// empty board (the opening).
fn first_stones(pos: &Guerrilla) -> Bitboard {
    let all = (1u64 << 49) - 1;
    let reach = if pos.stones == 0 {
        all
    } else {
        board::neighbours_of(pos.stones)
    };
    reach & !pos.stones
}

/// The neighbours of a point, in name order: lower file, lower rank, higher rank, higher file.
fn neighbours_in_order(p: Point) -> impl Iterator<Item = Point> {
    let (i, j) = (p.i(), p.j());
    [
        i.checked_sub(1).and_then(|i| Point::new(i, j)),
        j.checked_sub(1).and_then(|j| Point::new(i, j)),
        Point::new(i, j + 1),
        Point::new(i + 1, j),
    ]
    .into_iter()
    .flatten()
}

/// Whether the Guerrilla has any legal turn (the anti-stall rule asks).
pub(super) fn has_placement(pos: &Guerrilla) -> bool {
    Point::iter(first_stones(pos)).any(|p| board::neighbours(p) & !pos.stones != 0)
}

/// Calls `emit` with every legal move in notation order, until it breaks.
pub(super) fn generate(
    pos: &Guerrilla,
    emit: &mut dyn FnMut(&Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if pos.outcome().is_some() {
        return ControlFlow::Continue(());
    }
    match pos.turn {
        Side::Guerrilla => {
            let firsts = first_stones(pos);
            for first in Point::all().filter(|p| firsts & p.bit() != 0) {
                for second in neighbours_in_order(first).filter(|q| !pos.has_stone(*q)) {
                    emit(&Move::Place(first, second))?;
                }
            }
        }
        Side::Coin => coin_moves(pos, &mut |coin| match coin {
            CoinMove::Step(from, to) => emit(&Move::Step(from, to)),
            CoinMove::Capture(chain) => emit(&Move::Capture(*chain)),
        })?,
    }
    ControlFlow::Continue(())
}

/// A COIN move as [`coin_moves`] finds it: a capture chain is lent, not copied.
enum CoinMove<'a> {
    Step(Cell, Cell),
    Capture(&'a Chain),
}

/// Calls `emit` with every COIN move in notation order, until it breaks.
fn coin_moves(
    pos: &Guerrilla,
    emit: &mut dyn FnMut(CoinMove<'_>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for from in Cell::all().filter(|c| pos.has_checker(*c)) {
        for d in 0..DIAGONALS.len() {
            if let Some((to, point)) = board::step(from, d)
                && !pos.has_checker(to)
                && !pos.has_stone(point)
            {
                emit(CoinMove::Step(from, to))?;
            }
        }
        let mut chain = Chain::start(from);
        let others = pos.checkers & !from.bit();
        chains(pos.stones, others, &mut chain, &mut |chain, _| {
            emit(CoinMove::Capture(chain))
        })?;
    }
    ControlFlow::Continue(())
}

/// Calls `emit` with the notation of every legal move, in the order of [`generate`], until it
/// breaks. Consecutive capture chains share most of their cells (they come depth first), so
/// each chain's text is the one before it, cut back to the cells they share and continued:
/// listing a crowded board's tens of millions of chains costs little more than counting them.
pub(super) fn generate_text(
    pos: &Guerrilla,
    emit: &mut dyn FnMut(&str) -> ControlFlow<()>,
) -> ControlFlow<()> {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(3 * super::MAX_CHAIN);
    if pos.turn == Side::Guerrilla || pos.outcome().is_some() {
        return generate(pos, &mut |mv| {
            text.clear();
            let _ = write!(text, "{mv}");
            emit(&text)
        });
    }
    // How many cells `text` spells, when it spells a capture chain of the checker searched.
    let mut spelled = 0;
    coin_moves(pos, &mut |coin| {
        match coin {
            CoinMove::Step(from, to) => {
                spelled = 0;
                text.clear();
                let _ = write!(text, "{from}-{to}");
            }
            CoinMove::Capture(chain) => {
                // A new checker's first chain has kept nothing (see `Chain::kept`).
                let shared = usize::from(chain.kept).min(spelled);
                text.truncate((3 * shared).saturating_sub(1));
                for (i, cell) in chain.cells().iter().enumerate().skip(shared) {
                    if i > 0 {
                        text.push('x');
                    }
                    let [file, rank] = cell.name();
                    text.push(char::from(file));
                    text.push(char::from(rank));
                }
                spelled = chain.cells().len();
            }
        }
        emit(&text)
    })
}

/// The captures open to the checker at the end of `chain`: (destination, stone taken).
fn captures_from(
    cell: Cell,
    stones: Bitboard,
    others: Bitboard,
) -> impl Iterator<Item = (Cell, Point)> {
    (0..DIAGONALS.len())
        .filter_map(move |d| board::step(cell, d))
        .filter(move |(to, point)| stones & point.bit() != 0 && others & to.bit() == 0)
}

/// Depth first over every maximal capture chain extending `chain`, calling `leaf` with each
/// complete chain and the stones left after it. `others` are the checkers that do not move.
fn chains(
    stones: Bitboard,
    others: Bitboard,
    chain: &mut Chain,
    leaf: &mut dyn FnMut(&Chain, Bitboard) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut extended = false;
    for (to, point) in captures_from(chain.last(), stones, others) {
        extended = true;
        chain.push(to);
        let result = chains(stones & !point.bit(), others, chain, leaf);
        chain.pop();
        result?;
    }
    if !extended && chain.captures() > 0 {
        leaf(chain, stones)?;
        chain.kept = chain.len;
    }
    ControlFlow::Continue(())
}

/// Counts leaf positions `depth` turns ahead.
pub(super) fn perft(pos: &Guerrilla, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome().is_some() {
        return 0;
    }
    let mut nodes = 0;
    match pos.turn {
        Side::Guerrilla => {
            let firsts = first_stones(pos);
            for first in Point::iter(firsts) {
                let seconds = board::neighbours(first) & !pos.stones;
                if depth == 1 {
                    nodes += u64::from(seconds.count_ones());
                    continue;
                }
                let mut after_first = pos.clone();
                after_first.place(first);
                for second in Point::iter(seconds) {
                    let mut next = after_first.clone();
                    next.place(second);
                    next.supply -= 2;
                    next.turn = Side::Coin;
                    nodes += perft(&next, depth - 1);
                }
            }
        }
        Side::Coin => {
            for from in Cell::iter(pos.checkers) {
                let others = pos.checkers & !from.bit();
                for d in 0..DIAGONALS.len() {
                    if let Some((to, point)) = board::step(from, d)
                        && !pos.has_checker(to)
                        && !pos.has_stone(point)
                    {
                        nodes += if depth == 1 {
                            1
                        } else {
                            let next = Guerrilla {
                                checkers: others | to.bit(),
                                turn: Side::Guerrilla,
                                ..pos.clone()
                            };
                            perft(&next, depth - 1)
                        };
                    }
                }
                let mut chain = Chain::start(from);
                let _ = chains(pos.stones, others, &mut chain, &mut |chain, stones| {
                    nodes += if depth == 1 {
                        1
                    } else {
                        let next = Guerrilla {
                            stones,
                            checkers: others | chain.last().bit(),
                            turn: Side::Guerrilla,
                            supply: pos.supply,
                        };
                        perft(&next, depth - 1)
                    };
                    ControlFlow::Continue(())
                });
            }
        }
    }
    nodes
}

/// Checks a move against every rule, naming the first one it breaks. The game must not be over.
pub(super) fn check(pos: &Guerrilla, mv: &Move) -> Result<(), Illegal> {
    let mover = match mv {
        Move::Place(..) => Side::Guerrilla,
        Move::Step(..) | Move::Capture(_) => Side::Coin,
    };
    if mover != pos.turn {
        return Err(Illegal::NotYourTurn(pos.turn));
    }
    match *mv {
        Move::Place(first, second) => {
            if pos.has_stone(first) {
                return Err(Illegal::Occupied(first));
            }
            if first_stones(pos) & first.bit() == 0 {
                return Err(Illegal::AwayFromGroup(first));
            }
            if second == first {
                return Err(Illegal::SamePoint(first));
            }
            if pos.has_stone(second) {
                return Err(Illegal::Occupied(second));
            }
            if board::neighbours(first) & second.bit() == 0 {
                return Err(Illegal::SecondNotNext(first, second));
            }
            Ok(())
        }
        Move::Step(from, to) => {
            let point = diagonal(pos, from, to)?;
            if pos.has_stone(point) {
                return Err(Illegal::StepOverStone(to, point));
            }
            Ok(())
        }
        Move::Capture(chain) => {
            let cells = chain.cells();
            let Some(&first_step) = cells.get(1) else {
                return Err(Illegal::NotDiagonal(cells[0], cells[0]));
            };
            let others = pos.checkers & !cells[0].bit();
            diagonal(pos, cells[0], first_step)?;
            let mut stones = pos.stones;
            for pair in cells.windows(2) {
                let d = board::direction(pair[0], pair[1])
                    .ok_or(Illegal::NotDiagonal(pair[0], pair[1]))?;
                let (to, point) =
                    board::step(pair[0], d).expect("a direction found is on the board");
                if others & to.bit() != 0 {
                    return Err(Illegal::CellOccupied(to));
                }
                if stones & point.bit() == 0 {
                    return Err(Illegal::NothingToCapture(point));
                }
                stones &= !point.bit();
            }
            let end = chain.last();
            if captures_from(end, stones, others).next().is_some() {
                return Err(Illegal::ChainNotFinished(end));
            }
            Ok(())
        }
    }
}

/// Checks the first step of a COIN move and returns the point it crosses.
fn diagonal(pos: &Guerrilla, from: Cell, to: Cell) -> Result<Point, Illegal> {
    if !pos.has_checker(from) {
        return Err(Illegal::NoChecker(from));
    }
    let d = board::direction(from, to).ok_or(Illegal::NotDiagonal(from, to))?;
    let (to, point) = board::step(from, d).expect("a direction found is on the board");
    if pos.has_checker(to) {
        return Err(Illegal::CellOccupied(to));
    }
    Ok(point)
}

/// The capture chains that extend `prefix` (which must already be a valid series of captures),
/// up to `limit` of them, and whether there were more.
pub(super) fn extensions(pos: &Guerrilla, prefix: &Chain, limit: usize) -> (Vec<Chain>, bool) {
    let cells = prefix.cells();
    let others = pos.checkers & !cells[0].bit();
    let mut stones = pos.stones;
    for pair in cells.windows(2) {
        let d = board::direction(pair[0], pair[1]).expect("checked by the caller");
        let (_, point) = board::step(pair[0], d).expect("on the board");
        stones &= !point.bit();
    }
    let mut found = Vec::new();
    let mut more = false;
    let mut chain = *prefix;
    let _ = chains(stones, others, &mut chain, &mut |c, _| {
        if found.len() == limit {
            more = true;
            return ControlFlow::Break(());
        }
        found.push(*c);
        ControlFlow::Continue(())
    });
    (found, more)
}
