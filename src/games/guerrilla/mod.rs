//! Guerrilla Checkers (Brian Train), as settled by the project's rulings
//! (`docs/rules/guerrilla.md` states every one of them).
//!
//! An asymmetric game on two grids. The Guerrilla places two stones a turn on the points where
//! cells meet, and captures a checker by occupying all four corners of its cell (the board's
//! edge counts as the Guerrilla's). COIN moves one of its six checkers a diagonal step, and
//! captures stones by jumping them, in chains. The Guerrilla wins by taking every checker; COIN
//! by clearing the board of stones, or when the Guerrilla's 66 stones run out.
//!
//! A COIN capture chain is one move, identified by the cells it visits. On a crowded board one
//! checker can have hundreds of thousands of chains, so moves are generated one at a time, in
//! the byte order of their notation, and a played chain is checked step by step without
//! enumerating the others.

mod board;
mod movegen;
mod notation;
mod position;

mod picture;
mod protocol;
mod text;
pub use board::{Cell, Point};
pub use notation::SyntaxError;
pub use position::PositionError;

use crate::rules::{Decision, Game, MoveError};
use board::Bitboard;
use std::fmt;
use std::ops::ControlFlow;

/// How many stones the Guerrilla has at the start.
pub const SUPPLY: u8 = 66;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// Places stones; moves first; `g` in a position string.
    Guerrilla,
    /// Moves the checkers; `c` in a position string.
    Coin,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Guerrilla => Side::Coin,
            Side::Coin => Side::Guerrilla,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Guerrilla => "guerrilla",
            Side::Coin => "coin",
        })
    }
}

/// The longest capture chain: one capture per stone, and at most 49 stones.
const MAX_CHAIN: usize = 50;

/// The cells a capture chain visits, the start first.
#[derive(Clone, Copy)]
pub struct Chain {
    len: u8,
    /// While a search extends the chain: how many of its first cells it has kept since the
    /// last complete chain it found, so that a listing rewrites only the rest.
    kept: u8,
    cells: [Cell; MAX_CHAIN],
}

impl Chain {
    fn start(cell: Cell) -> Chain {
        Chain {
            len: 1,
            kept: 0,
            cells: [cell; MAX_CHAIN],
        }
    }

    /// The cells visited, the start first.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }

    /// The number of captures.
    #[must_use]
    pub fn captures(&self) -> usize {
        usize::from(self.len) - 1
    }

    fn push(&mut self, cell: Cell) {
        self.cells[usize::from(self.len)] = cell;
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        self.kept = self.kept.min(self.len);
    }

    fn last(&self) -> Cell {
        self.cells[usize::from(self.len) - 1]
    }
}

// Only the cells visited count; the rest of the array is scratch space.
impl PartialEq for Chain {
    fn eq(&self, other: &Self) -> bool {
        self.cells() == other.cells()
    }
}

impl Eq for Chain {}

impl std::hash::Hash for Chain {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells().hash(state);
    }
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cells()).finish()
    }
}

/// A whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The Guerrilla's two stones, in the order placed: `c3,d3`.
    Place(Point, Point),
    /// A checker's step that captures nothing: `d3-e4`.
    Step(Cell, Cell),
    /// A checker's chain of captures: `d3xe4` or `d3xe4xf5`.
    Capture(Chain),
}

impl Move {
    /// The COIN move's cells (start first), for ordering.
    fn cells(&self) -> &[Cell] {
        match self {
            Move::Place(..) => &[],
            Move::Step(from, _) => std::slice::from_ref(from),
            Move::Capture(chain) => chain.cells(),
        }
    }
}

impl Ord for Move {
    /// The byte order of the notation: placements by their points; COIN moves by their start,
    /// then steps (`-`) before captures (`x`), then by the cells visited.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        match (self, other) {
            (Move::Place(a1, a2), Move::Place(b1, b2)) => (a1, a2).cmp(&(b1, b2)),
            (Move::Place(..), _) => Ordering::Less,
            (_, Move::Place(..)) => Ordering::Greater,
            (Move::Step(a, at), Move::Step(b, bt)) => (a, at).cmp(&(b, bt)),
            (Move::Step(a, _), Move::Capture(c)) => a.cmp(&c.cells()[0]).then(Ordering::Less),
            (Move::Capture(c), Move::Step(b, _)) => c.cells()[0].cmp(b).then(Ordering::Greater),
            (Move::Capture(_), Move::Capture(_)) => self.cells().cmp(other.cells()),
        }
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Move {
    /// Written whole into a buffer, then once to the formatter: listings print millions of
    /// chains.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; 3 * MAX_CHAIN];
        let mut len = 0;
        let mut put = |bytes: &[u8]| {
            text[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        match self {
            Move::Place(a, b) => {
                put(&a.name());
                put(b",");
                put(&b.name());
            }
            Move::Step(from, to) => {
                put(&from.name());
                put(b"-");
                put(&to.name());
            }
            Move::Capture(chain) => {
                for (i, cell) in chain.cells().iter().enumerate() {
                    if i > 0 {
                        put(b"x");
                    }
                    put(&cell.name());
                }
            }
        }
        f.write_str(std::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?)
    }
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// No checker is left: the Guerrilla wins.
    AllCheckersCaptured,
    /// The Guerrilla's supply is used up and checkers remain: COIN wins.
    SupplyExhausted,
    /// COIN has taken every stone on the board: COIN wins.
    BoardCleared,
    /// The Guerrilla, to move with stones in hand, has no legal turn: the Guerrilla wins (house
    /// rule).
    AntiStall,
}

impl Outcome {
    /// Who wins.
    #[must_use]
    pub const fn winner(self) -> Side {
        match self {
            Outcome::AllCheckersCaptured | Outcome::AntiStall => Side::Guerrilla,
            Outcome::SupplyExhausted | Outcome::BoardCleared => Side::Coin,
        }
    }

    /// Why, in a few words.
    #[must_use]
    pub const fn reason(self) -> &'static str {
        match self {
            Outcome::AllCheckersCaptured => "all checkers captured",
            Outcome::SupplyExhausted => "supply exhausted",
            Outcome::BoardCleared => "board cleared",
            Outcome::AntiStall => "no legal placement (anti-stall)",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} wins", self.reason(), self.winner())
    }
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// A move of the side not to move.
    #[error("it is {0}'s turn")]
    NotYourTurn(Side),
    /// A stone on a point that holds one.
    #[error("there is already a stone on {0}")]
    Occupied(Point),
    /// Both stones of a move on one point.
    #[error("both stones are on {0}: the two stones of a move go on two different points")]
    SamePoint(Point),
    /// A first stone away from the stones on the board.
    #[error(
        "the first stone must go next to a stone already on the board (orthogonally); {0} is not"
    )]
    AwayFromGroup(Point),
    /// A second stone not next to the first.
    #[error("the second stone must go orthogonally next to the first; {1} is not next to {0}")]
    SecondNotNext(Point, Point),
    /// No checker on the start cell.
    #[error("there is no checker on {0}")]
    NoChecker(Cell),
    /// Not one cell diagonally.
    #[error("a checker moves one cell diagonally; {1} is not diagonally next to {0}")]
    NotDiagonal(Cell, Cell),
    /// The destination holds a checker.
    #[error("{0} holds a checker")]
    CellOccupied(Cell),
    /// A step over a stone: that is a capture.
    #[error("the step to {0} crosses the stone on {1}: that is a capture, written with x")]
    StepOverStone(Cell, Point),
    /// A capture step over an empty point.
    #[error("a capture jumps a stone, and there is none on point {0}")]
    NothingToCapture(Point),
    /// A chain that stops while its checker can still capture.
    #[error("the capture must go on: from {0} the checker can still capture")]
    ChainNotFinished(Cell),
}

/// A Guerrilla Checkers position: stones, checkers, side to move and supply.
///
/// Every value is one the rules allow (see [`Guerrilla::parse_position`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Guerrilla {
    stones: Bitboard,
    checkers: Bitboard,
    turn: Side,
    supply: u8,
}

impl Guerrilla {
    /// The stone on a point, if any.
    #[must_use]
    pub fn has_stone(&self, point: Point) -> bool {
        self.stones & point.bit() != 0
    }

    /// Whether a checker stands on a cell.
    #[must_use]
    pub fn has_checker(&self, cell: Cell) -> bool {
        self.checkers & cell.bit() != 0
    }

    /// Stones the Guerrilla still has in hand.
    #[must_use]
    pub fn supply(&self) -> u8 {
        self.supply
    }

    /// Stones on the board.
    #[must_use]
    pub fn stones_on_board(&self) -> u32 {
        self.stones.count_ones()
    }

    /// Checkers on the board.
    #[must_use]
    pub fn checkers_on_board(&self) -> u32 {
        self.checkers.count_ones()
    }

    /// Whether every corner of the cell holds a stone or is the board's edge.
    fn surrounded(&self, cell: Cell) -> bool {
        let corners = board::corners(cell);
        self.stones & corners == corners
    }

    /// Places a stone and takes the checkers it surrounds.
    fn place(&mut self, point: Point) {
        self.stones |= point.bit();
        for cell in Cell::iter(board::around(point) & self.checkers) {
            if self.surrounded(cell) {
                self.checkers &= !cell.bit();
            }
        }
    }

    /// Plays a move known to be legal.
    fn play_unchecked(&self, mv: &Move) -> Guerrilla {
        let mut next = self.clone();
        match mv {
            Move::Place(a, b) => {
                next.place(*a);
                next.place(*b);
                next.supply -= 2;
            }
            Move::Step(from, to) => next.checkers ^= from.bit() | to.bit(),
            Move::Capture(chain) => {
                for pair in chain.cells().windows(2) {
                    let d =
                        board::direction(pair[0], pair[1]).expect("a legal chain steps diagonally");
                    let (_, point) = board::step(pair[0], d).expect("on the board");
                    next.stones &= !point.bit();
                }
                // A chain may end where it began (a loop round a block of stones).
                next.checkers = next.checkers & !chain.cells()[0].bit() | chain.last().bit();
            }
        }
        next.turn = self.turn.opponent();
        next
    }
}

impl Guerrilla {
    /// What a legal move takes, in words, for reports.
    #[must_use]
    pub fn describe(&self, mv: &Move) -> Vec<String> {
        match mv {
            Move::Place(..) => {
                let taken = self.checkers_on_board() - self.play_unchecked(mv).checkers_on_board();
                match taken {
                    0 => Vec::new(),
                    1 => vec!["captures a checker".to_owned()],
                    n => vec![format!("captures {n} checkers")],
                }
            }
            Move::Step(..) => Vec::new(),
            Move::Capture(chain) => match chain.captures() {
                1 => vec!["captures a stone".to_owned()],
                n => vec![format!("captures {n} stones")],
            },
        }
    }
}

impl fmt::Debug for Guerrilla {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Guerrilla({self})")
    }
}

impl Game for Guerrilla {
    const NAME: &'static str = "guerrilla";

    type Options = ();
    type Side = Side;
    type Move = Move;
    type Outcome = Outcome;
    type Illegal = Illegal;
    type SyntaxError = SyntaxError;
    type PositionError = PositionError;

    fn start((): &()) -> Guerrilla {
        let checkers = ["d3", "c4", "e4", "d5", "f5", "e6"]
            .iter()
            .map(|name| Cell::parse(name.as_bytes()).expect("a start cell").bit())
            .fold(0, |a, b| a | b);
        Guerrilla {
            stones: 0,
            checkers,
            turn: Side::Guerrilla,
            supply: SUPPLY,
        }
    }

    fn parse_position(text: &str) -> Result<Guerrilla, PositionError> {
        position::parse(text)
    }

    fn side_to_move(&self) -> Side {
        self.turn
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let _ = movegen::generate(self, &mut |mv| {
            moves.push(*mv);
            ControlFlow::Continue(())
        });
        moves
    }

    fn for_each_legal_move(&self, f: &mut dyn FnMut(&Move) -> ControlFlow<()>) -> ControlFlow<()> {
        movegen::generate(self, f)
    }

    fn for_each_legal_move_text(
        &self,
        f: &mut dyn FnMut(&str) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        movegen::generate_text(self, f)
    }

    fn play(&self, mv: &Move) -> Result<Guerrilla, Illegal> {
        if let Some(outcome) = self.outcome() {
            return Err(Illegal::GameOver(outcome));
        }
        movegen::check(self, mv)?;
        Ok(self.play_unchecked(mv))
    }

    fn play_legal(&self, mv: &Move) -> Guerrilla {
        debug_assert!(self.play(mv).is_ok(), "{mv} is not legal in {self}");
        self.play_unchecked(mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.checkers == 0 {
            Some(Outcome::AllCheckersCaptured)
        } else if self.supply == 0 {
            Some(Outcome::SupplyExhausted)
        } else if self.turn == Side::Guerrilla && self.stones == 0 && self.supply < SUPPLY {
            Some(Outcome::BoardCleared)
        } else if self.turn == Side::Guerrilla && !movegen::has_placement(self) {
            Some(Outcome::AntiStall)
        } else {
            None
        }
    }

    fn decision(outcome: &Outcome) -> Decision<Side> {
        Decision::Win(outcome.winner())
    }

    fn claimable(&self, _repetitions: usize) -> Vec<Outcome> {
        Vec::new()
    }

    fn is_repetition_of(&self, other: &Guerrilla) -> bool {
        self == other
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError<Guerrilla>> {
        notation::resolve(self, text)
    }

    fn perft(&self, depth: u32) -> u64 {
        movegen::perft(self, depth)
    }
}

#[cfg(test)]
mod tests;
