//! The rules of every game `correspond` plays, as pure functions over values.
//!
//! Nothing in this module tree reads a file, a clock, the environment or a random source: a
//! position and a move go in, a new position (or a typed reason why not) comes out. That is what
//! lets the replayer rebuild a game from its file alone, and lets two machines agree on it.
//!
//! Each game is a position type implementing [`Game`]. The trait is deliberately about *positions*
//! and not about a shared move type: a Campaign move is a from-square and a to-square, a Guerrilla
//! Checkers turn is two stone placements or a chain of jumps, and an Insurrection piece changes its
//! rank as it captures. So moves, sides, outcomes and errors are associated types, and generic code
//! (the command line, the replayer, perft) is written once over `G: Game`.

use std::error::Error;
use std::fmt;
use std::ops::ControlFlow;

/// What a finished game's [`Game::Outcome`] means for the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decision<S> {
    /// This side has won.
    Win(S),
    /// Neither side has won.
    Draw,
    /// The winner is decided by a coin flip (Campaign's Run-Off).
    CoinFlip,
}

/// A game: its positions, their rules and their notation.
///
/// `Self` is a *validated* position: every value of the type is one the rules allow (a position
/// string is checked once, when it is parsed). The [`fmt::Display`] form of a position is its
/// position string, and [`Game::parse_position`] reads it back.
pub trait Game: Clone + Eq + fmt::Debug + fmt::Display + Sized {
    /// The name used on the command line and in game files, for example `campaign`.
    const NAME: &'static str;

    /// The variant options a game starts from (for example Campaign's spin doctoring).
    type Options: Clone + Eq + fmt::Debug + Default;
    /// The two sides, for example Heads and Tails.
    type Side: Copy + Eq + Ord + fmt::Debug + fmt::Display;
    /// One whole turn. `Display` writes the canonical notation that game files store.
    type Move: Clone + Eq + Ord + fmt::Debug + fmt::Display;
    /// How a game ended. `Display` gives the report line, for example `fact-check: heads wins`.
    type Outcome: Clone + Eq + fmt::Debug + fmt::Display;
    /// Why a move cannot be played in a position.
    type Illegal: Error + Clone + Eq;
    /// Why a text is not a move in this game's notation at all.
    type SyntaxError: Error + Clone + Eq;
    /// Why a text is not a valid position string; names the field at fault.
    type PositionError: Error + Clone + Eq;

    /// The start position for these options.
    fn start(options: &Self::Options) -> Self;

    /// Reads a position string and checks that the rules allow the position (under the default
    /// options, where the string does not show them: see [`Game::parse_position_with`]).
    ///
    /// # Errors
    /// A [`Game::PositionError`] naming the field that is malformed, or the rule the position
    /// breaks.
    fn parse_position(text: &str) -> Result<Self, Self::PositionError>;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Self::Side;

    /// Every legal move, sorted by the byte order of its canonical notation. Empty when the game
    /// is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Calls `f` with every legal move, in the order of [`Game::legal_moves`], until it breaks.
    /// Games whose moves can be too many to hold at once (Guerrilla Checkers' capture chains)
    /// generate them one at a time here.
    fn for_each_legal_move(
        &self,
        f: &mut dyn FnMut(&Self::Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for mv in self.legal_moves() {
            f(&mv)?;
        }
        ControlFlow::Continue(())
    }

    /// Calls `f` with the notation of every legal move, in the order of
    /// [`Game::legal_moves`], until it breaks: the listing `correspond moves` prints. Games
    /// with very many moves write each text from the one before.
    fn for_each_legal_move_text(
        &self,
        f: &mut dyn FnMut(&str) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        use std::fmt::Write as _;
        let mut text = String::new();
        self.for_each_legal_move(&mut |mv| {
            text.clear();
            let _ = write!(text, "{mv}");
            f(&text)
        })
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`Game::Illegal`] with the rule the move breaks; `self` is unchanged.
    fn play(&self, mv: &Self::Move) -> Result<Self, Self::Illegal>;

    /// Plays a move that this position's [`Game::parse_move`] or [`Game::legal_moves`] gave,
    /// without checking it again: the replayer has each move from `parse_move`, which checked
    /// it, and [`Game::play`] would check it again and work out again whether the game was
    /// over. Any other move may panic or give a position the rules never reach; debug builds
    /// check and panic.
    fn play_legal(&self, mv: &Self::Move) -> Self;

    /// How the game has ended in this position, if it has. Only what the position alone shows:
    /// claims and agreements are the replayer's business (see [`Game::claimable`]).
    fn outcome(&self) -> Option<Self::Outcome>;

    /// How the game has ended given its history, when the position alone does not say: the
    /// position has now occurred `repetitions` times (chess's fivefold repetition).
    fn automatic(&self, repetitions: usize) -> Option<Self::Outcome> {
        let _ = repetitions;
        None
    }

    /// Reads a position string under options that the string does not show (Insurrection's
    /// Assassination changes which positions are legal). Where the string shows every option,
    /// this is [`Game::parse_position`].
    ///
    /// # Errors
    /// As [`Game::parse_position`].
    fn parse_position_with(
        text: &str,
        options: &Self::Options,
    ) -> Result<Self, Self::PositionError> {
        let _ = options;
        Self::parse_position(text)
    }

    /// What the outcome means for the players.
    fn decision(outcome: &Self::Outcome) -> Decision<Self::Side>;

    /// The outcomes the side to move may claim here, given that this position (as the
    /// repetition rule counts positions) has now occurred `repetitions` times. Sorted.
    fn claimable(&self, repetitions: usize) -> Vec<Self::Outcome>;

    /// Whether `self` and `other` are the same position for the repetition rule.
    fn is_repetition_of(&self, other: &Self) -> bool;

    /// How many moves back a position that this one repeats could stand: none stands before
    /// the last move that can never be undone (in chess a capture or a pawn move, which the
    /// halfmove clock counts from). `None` when any earlier position could. It spares a line
    /// from comparing each new position with its whole history, which made a replay's cost
    /// grow with the square of the game's length.
    fn repeatable_within(&self) -> Option<usize> {
        None
    }

    /// Reads a move in this game's notation (the canonical one, and any other the game accepts)
    /// and resolves it against this position.
    ///
    /// # Errors
    /// [`MoveError::Invalid`] when the text is not a move at all, [`MoveError::Illegal`] when it
    /// names a move the rules forbid here, [`MoveError::Ambiguous`] when it could mean several
    /// legal moves.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError<Self>>;

    /// The number of leaf positions reached by exactly `depth` turns of legal moves.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                self.play(mv)
                    .expect("a move from legal_moves is legal")
                    .perft(depth - 1)
            })
            .sum()
    }
}

/// Why a text could not be turned into a move: the three cases are kept apart, as in shakmaty,
/// because a user fixes each one differently.
pub enum MoveError<G: Game> {
    /// The text is not written in the game's notation.
    Invalid(G::SyntaxError),
    /// The text names a move, but the rules forbid it here.
    Illegal(G::Illegal),
    /// The text could mean any of these legal moves (sorted).
    Ambiguous(Vec<G::Move>),
}

impl<G: Game> fmt::Display for MoveError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
            MoveError::Ambiguous(moves) => {
                f.write_str("ambiguous: it could be ")?;
                for (i, mv) in moves.iter().enumerate() {
                    match i {
                        0 => {}
                        _ if i + 1 == moves.len() => f.write_str(" or ")?,
                        _ => f.write_str(", ")?,
                    }
                    write!(f, "{mv}")?;
                }
                Ok(())
            }
        }
    }
}

impl<G: Game> fmt::Debug for MoveError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid(e) => f.debug_tuple("Invalid").field(e).finish(),
            MoveError::Illegal(e) => f.debug_tuple("Illegal").field(e).finish(),
            MoveError::Ambiguous(m) => f.debug_tuple("Ambiguous").field(m).finish(),
        }
    }
}

impl<G: Game> Clone for MoveError<G> {
    fn clone(&self) -> Self {
        match self {
            MoveError::Invalid(e) => MoveError::Invalid(e.clone()),
            MoveError::Illegal(e) => MoveError::Illegal(e.clone()),
            MoveError::Ambiguous(m) => MoveError::Ambiguous(m.clone()),
        }
    }
}

impl<G: Game> PartialEq for MoveError<G> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (MoveError::Invalid(a), MoveError::Invalid(b)) => a == b,
            (MoveError::Illegal(a), MoveError::Illegal(b)) => a == b,
            (MoveError::Ambiguous(a), MoveError::Ambiguous(b)) => a == b,
            _ => false,
        }
    }
}

impl<G: Game> Eq for MoveError<G> {}

impl<G: Game> Error for MoveError<G> {}

/// A sequence of positions from a start, for the rules that look back: repetition.
///
/// The replayer and the `position` command keep one; perft does not need it.
#[derive(Clone, Debug)]
pub struct Line<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> Line<G> {
    /// A line that has just started at `start`.
    #[must_use]
    pub fn new(start: G) -> Self {
        Line {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn current(&self) -> &G {
        self.positions
            .last()
            .expect("a line always holds its start position")
    }

    /// Every position so far, the start first.
    #[must_use]
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The moves played so far, in order.
    #[must_use]
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Plays a move from the current position.
    ///
    /// # Errors
    /// The game's reason the move is illegal; the line is unchanged.
    pub fn play(&mut self, mv: &G::Move) -> Result<&G, G::Illegal> {
        let next = self.current().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv.clone());
        Ok(self.current())
    }

    /// Plays a move that the current position's [`Game::parse_move`] or [`Game::legal_moves`]
    /// gave (see [`Game::play_legal`]).
    pub fn play_legal(&mut self, mv: &G::Move) -> &G {
        let next = self.current().play_legal(mv);
        self.positions.push(next);
        self.moves.push(mv.clone());
        self.current()
    }

    /// The line as it stood after its first `moves` moves (all of it if it has fewer).
    #[must_use]
    pub fn prefix(&self, moves: usize) -> Line<G> {
        let moves = moves.min(self.moves.len());
        Line {
            positions: self.positions[..=moves].to_vec(),
            moves: self.moves[..moves].to_vec(),
        }
    }

    /// How many times the current position has occurred in this line, itself included.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let current = self.current();
        // The current position is the last; a halfmove clock larger than the line (a game
        // started from a position string) looks back over all of it.
        let from = current.repeatable_within().map_or(0, |moves| {
            self.positions.len().saturating_sub(moves.saturating_add(1))
        });
        self.positions[from..]
            .iter()
            .filter(|p| p.is_repetition_of(current))
            .count()
    }

    /// How the game has ended, from the position and, for repetition, its history.
    #[must_use]
    pub fn outcome(&self) -> Option<G::Outcome> {
        let current = self.current();
        current
            .outcome()
            .or_else(|| current.automatic(self.repetitions()))
    }

    /// What the side to move may claim now (nothing once the game is over).
    #[must_use]
    pub fn claimable(&self) -> Vec<G::Outcome> {
        let current = self.current();
        if current.outcome().is_some() {
            return Vec::new();
        }
        // Counted once: the count looks back as far as the halfmove clock allows.
        let repetitions = self.repetitions();
        if current.automatic(repetitions).is_some() {
            return Vec::new();
        }
        current.claimable(repetitions)
    }
}

#[cfg(test)]
mod tests;
