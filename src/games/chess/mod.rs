//! Orthodox chess (FIDE) and Insurrection (Michael Fogus, 2014) on one engine, as settled by
//! the project's rulings (`docs/rules/insurrection.md` and `docs/rules/chess.md`).
//!
//! Insurrection is chess in which a capturing piece takes the rank of its victim, and a
//! capture by a piece "in power" (of its side's government rank) overturns the opponent's
//! government, so that any piece of the new ruling rank can be checkmated. Orthodox chess is the
//! same game with those rules switched off and the government fixed at King: [`Chess`] and
//! [`Insurrection`] are two views of one [`Position`].

mod board;
mod fen;
mod governed;
mod orthodox;
mod position;
mod san;

mod picture;
mod protocol;
mod text;
pub use board::{Color, Piece, Role, Square};
pub use fen::{PositionError, START};
pub use position::{Effects, Position};
pub use san::SyntaxError;

use crate::rules::{Decision, Game, MoveError};
use std::fmt;

/// Which rules a position follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Orthodox chess.
    Chess,
    /// Insurrection.
    Insurrection,
    /// Insurrection with the Assassination variant (rule 9).
    Assassination,
}

/// A move, as UCI writes it: from, to, and the promotion. Castling is the king's move (`e1g1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// What a pawn promotes to.
    pub promotion: Option<Role>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// Why a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DrawReason {
    /// No legal move, not in check.
    Stalemate,
    /// Chess: not enough material to mate. Insurrection: two lone kings under monarchies.
    InsufficientMaterial,
    /// 75 moves by each side without a capture or a pawn move.
    SeventyFiveMoves,
    /// The same position five times.
    FivefoldRepetition,
    /// Claimed: the same position three times.
    ThreefoldRepetition,
    /// Claimed: 50 moves by each side without a capture or a pawn move.
    FiftyMoves,
    /// Agreed by both players.
    Agreement,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::SeventyFiveMoves => "75-move rule",
            DrawReason::FivefoldRepetition => "fivefold repetition",
            DrawReason::ThreefoldRepetition => "threefold repetition",
            DrawReason::FiftyMoves => "50-move rule",
            DrawReason::Agreement => "agreement",
        })
    }
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The side to move is in check with no legal move.
    Checkmate {
        /// Who delivered it.
        winner: Color,
    },
    /// A draw.
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "checkmate: {winner} wins"),
            Outcome::Draw(reason) => write!(f, "draw: {reason}"),
        }
    }
}

/// The name of a coup to the given rank (rule 3).
#[must_use]
pub const fn coup_name(role: Role) -> &'static str {
    match role {
        Role::King => "Monarchy",
        Role::Queen => "Matriarchy",
        Role::Rook => "Comité de salut public",
        Role::Bishop => "Theocracy",
        Role::Knight => "Junta",
        Role::Pawn => "Anarcho-syndicalist",
    }
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Illegal {
    /// The game has ended in checkmate or stalemate.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// No piece on the start square.
    #[error("there is no piece on {0}")]
    Empty(Square),
    /// The other side's piece.
    #[error("the piece on {0} is {1}'s; it is {2} to move")]
    NotYours(Square, Color, Color),
    /// A piece of the mover on the destination.
    #[error("{0} holds your own {1}")]
    OwnPiece(Square, &'static str),
    /// Not how the piece moves, or something is in the way.
    #[error("a {0} on {1} cannot move to {2}")]
    Movement(&'static str, Square, Square),
    /// Castling that the rules do not allow now.
    #[error("{0} is not possible: {1}")]
    Castling(&'static str, &'static str),
    /// A pawn reaching the last rank without a promotion: from and to.
    #[error("a pawn reaching the last rank must promote; add the piece ({1}=Q, or {0}{1}q)")]
    PromotionRequired(Square, Square),
    /// A promotion where none happens, or to a piece the game does not allow.
    #[error("no promotion to {0} here")]
    BadPromotion(&'static str),
    /// The move would leave the mover without any government piece.
    #[error("it would leave you with no piece of your government")]
    NoGovernment,
    /// The move leaves a government piece attacked.
    #[error("it leaves your {0} on {1} attacked")]
    GovernmentAttacked(&'static str, Square),
    /// A SAN move no piece can make.
    #[error("no {} can {} {}", .0.name(), if *.1 { "capture on" } else { "move to" }, .2)]
    NoSuchMove(Role, bool, Square),
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.by_color == other.by_color
            && self.by_role == other.by_role
            && self.turn == other.turn
            && self.castling == other.castling
            && self.legal_ep() == other.legal_ep()
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.government == other.government
            && self.variant == other.variant
    }
}

impl Eq for Position {}

impl Position {
    /// The start position for a variant.
    #[must_use]
    pub fn start(variant: Variant) -> Position {
        fen::parse(START, variant).expect("the start position is valid")
    }

    /// Whose turn it is.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// A side's government rank (always King in orthodox chess).
    #[must_use]
    pub fn government(&self, color: Color) -> Role {
        self.government[color.index()]
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Plies since the last capture or pawn move.
    #[must_use]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The number of the full move being played: 1 at the start, one more after each of
    /// Black's moves.
    #[must_use]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Whether a move captures (en passant included).
    #[must_use]
    pub fn is_capture(&self, mv: Move) -> bool {
        let theirs = self.by_color[self.turn.opponent().index()];
        theirs & mv.to.bit() != 0
            || self.piece_at(mv.from).is_some_and(|p| p.role == Role::Pawn)
                && Some(mv.to) == self.ep
                && mv.from.file() != mv.to.file()
    }

    /// Every legal move, sorted by UCI notation.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.legal(&mut |m| moves.push(m));
        moves.sort_unstable_by_key(ToString::to_string);
        moves
    }

    /// Plays a legal move, returning what it did.
    ///
    /// # Errors
    /// [`Illegal`] with the rule it breaks.
    pub fn play_move(&self, mv: Move) -> Result<(Position, Effects), Illegal> {
        let mut legal = false;
        self.legal(&mut |m| legal |= m == mv);
        if legal {
            return Ok(self.play_unchecked(mv));
        }
        if !self.has_legal_move() {
            let outcome = self
                .outcome()
                .expect("no legal move is checkmate or stalemate");
            return Err(Illegal::GameOver(outcome));
        }
        Err(self.explain(mv))
    }

    /// The SAN of a legal move.
    #[must_use]
    pub fn san(&self, mv: Move) -> String {
        san::write(self, mv, &self.legal_moves())
    }

    /// How the game has ended in this position, if it has (the first of checkmate, stalemate,
    /// dead position, 75-move rule). Repetition needs the game's history: see
    /// [`Game::automatic`].
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.is_check() {
                Outcome::Checkmate {
                    winner: self.turn.opponent(),
                }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        if self.halfmove >= 150 {
            return Some(Outcome::Draw(DrawReason::SeventyFiveMoves));
        }
        None
    }

    /// Chess: the dead positions of python-chess's `is_insufficient_material`. Insurrection: two
    /// lone kings under monarchies, and nothing else (rule 8).
    fn insufficient_material(&self) -> bool {
        let occupied = self.occupied();
        let kings = self.by_role[Role::King.index()];
        if self.variant != Variant::Chess {
            return occupied == kings
                && kings.count_ones() == 2
                && self.government == [Role::King; 2];
        }
        let others = occupied & !kings;
        let minors = self.by_role[Role::Knight.index()] | self.by_role[Role::Bishop.index()];
        if others == 0 || (others.count_ones() == 1 && others & minors != 0) {
            return true;
        }
        let bishops = self.by_role[Role::Bishop.index()];
        others == bishops && (bishops & board::LIGHT == 0 || bishops & !board::LIGHT == 0)
    }

    /// Whether `color` could checkmate by some series of legal moves, however unlikely, looking
    /// at the material alone (FIDE Laws art. 6.9, for a claim on time). Chess: the converse of
    /// python-chess's `has_insufficient_material(color)`, which never calls a position lost
    /// for want of material that a series of moves (a selfmate included) could win. Insurrection:
    /// only a lone king against a king's government that no coup can ever change (kings never
    /// attack each other): the opponent has no pawn (which could promote into a second piece of
    /// a rank) and no two pieces of one rank (taking one of two is a coup; taking the last of a
    /// rank is not). Anything else could come to mate.
    #[must_use]
    pub fn could_checkmate(&self, color: Color) -> bool {
        let ours = self.by_color[color.index()];
        let theirs = self.by_color[color.opponent().index()];
        let role = |role: Role| self.by_role[role.index()];
        if self.variant != Variant::Chess {
            let coup_possible = theirs & role(Role::Pawn) != 0
                || Role::NOT_PAWNS
                    .iter()
                    .filter(|r| **r != Role::King)
                    .any(|r| (theirs & role(*r)).count_ones() >= 2);
            return ours != ours & role(Role::King)
                || self.government[color.opponent().index()] != Role::King
                || coup_possible;
        }
        if ours & (role(Role::Pawn) | role(Role::Rook) | role(Role::Queen)) != 0 {
            return true;
        }
        if ours & role(Role::Knight) != 0 {
            // A knight mates only with more of our own, or a selfmate the opponent's pawns,
            // knights, bishops or rooks could build.
            return ours.count_ones() > 2 || theirs & !role(Role::King) & !role(Role::Queen) != 0;
        }
        if ours & role(Role::Bishop) != 0 {
            // Bishops mate only with bishops on both colours (either side's), or a selfmate
            // pawns or knights could build.
            let bishops = role(Role::Bishop);
            let one_colour = bishops & board::LIGHT == 0 || bishops & !board::LIGHT == 0;
            return !one_colour || role(Role::Pawn) | role(Role::Knight) != 0;
        }
        false
    }

    /// Why a move that is not legal is not, naming the first rule it breaks.
    pub(crate) fn explain(&self, mv: Move) -> Illegal {
        let us = self.turn;
        let Some(piece) = self.piece_at(mv.from) else {
            return Illegal::Empty(mv.from);
        };
        if piece.color != us {
            return Illegal::NotYours(mv.from, piece.color, us);
        }
        let mut pseudo = false;
        let mut reachable = false;
        self.pseudo_legal(&mut |m| {
            pseudo |= m == mv;
            reachable |= m.from == mv.from && m.to == mv.to;
        });
        if !pseudo {
            if let Some(target) = self.piece_at(mv.to).filter(|t| t.color == us) {
                return Illegal::OwnPiece(mv.to, target.role.name());
            }
            let castle_attempt = piece.role == Role::King
                && mv.from.file() == 4
                && mv.from.file().abs_diff(mv.to.file()) == 2
                && mv.from.rank() == mv.to.rank();
            if castle_attempt {
                let name = if mv.to.file() == 6 { "O-O" } else { "O-O-O" };
                return Illegal::Castling(
                    name,
                    "the king and that rook must not have moved, and the squares between must be empty",
                );
            }
            if reachable {
                return match mv.promotion {
                    None => Illegal::PromotionRequired(mv.from, mv.to),
                    Some(role) => Illegal::BadPromotion(role.name()),
                };
            }
            if mv.promotion.is_some() {
                return Illegal::BadPromotion(mv.promotion.map_or("", Role::name));
            }
            return Illegal::Movement(piece.role.name(), mv.from, mv.to);
        }
        let castle = piece.role == Role::King
            && mv.from.file() == 4
            && mv.from.file().abs_diff(mv.to.file()) == 2;
        if castle && self.is_check() && self.government[us.index()] == Role::King {
            return Illegal::Castling(
                if mv.to.file() == 6 { "O-O" } else { "O-O-O" },
                "the king is in check",
            );
        }
        let (next, _) = self.play_unchecked(mv);
        if next.government_pieces(us) == 0 {
            return Illegal::NoGovernment;
        }
        let role = self.government[us.index()].name();
        if let Some(sq) = Square::iter(next.attacked_government(us)).next() {
            return Illegal::GovernmentAttacked(role, sq);
        }
        Illegal::Castling(
            if mv.to.file() == 6 { "O-O" } else { "O-O-O" },
            "the king would pass through an attacked square",
        )
    }

    /// Reads a move in UCI or SAN and resolves it.
    fn parse_any(&self, text: &str) -> Result<Move, NotAMove> {
        let parsed = san::parse(text).map_err(NotAMove::Syntax)?;
        let legal = self.legal_moves();
        let found = san::candidates(self, &parsed, &legal);
        match found.len() {
            1 => Ok(found[0]),
            0 if legal.is_empty() => Err(NotAMove::Illegal(Illegal::GameOver(
                self.outcome()
                    .expect("no legal move is checkmate or stalemate"),
            ))),
            0 => Err(NotAMove::Illegal(san::no_match(self, &parsed))),
            _ => Err(NotAMove::Ambiguous(found)),
        }
    }
}

/// Why a text does not resolve to one legal move (the game-independent half of
/// [`MoveError`]).
enum NotAMove {
    Syntax(SyntaxError),
    Illegal(Illegal),
    Ambiguous(Vec<Move>),
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Options of an Insurrection game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InsurrectionOptions {
    /// Rule 9, Assassination.
    pub assassination: bool,
}

macro_rules! game {
    ($(#[$doc:meta])* $name:ident, $id:literal, $options:ty, $variant:expr) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(pub Position);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0)
            }
        }

        impl Game for $name {
            const NAME: &'static str = $id;

            type Options = $options;
            type Side = Color;
            type Move = Move;
            type Outcome = Outcome;
            type Illegal = Illegal;
            type SyntaxError = SyntaxError;
            type PositionError = PositionError;

            fn start(options: &$options) -> Self {
                #[allow(clippy::redundant_closure_call)]
                let variant = ($variant)(options);
                $name(Position::start(variant))
            }

            fn parse_position(text: &str) -> Result<Self, PositionError> {
                Self::parse_position_with(text, &<$options>::default())
            }

            fn parse_position_with(text: &str, options: &$options) -> Result<Self, PositionError> {
                #[allow(clippy::redundant_closure_call)]
                let variant = ($variant)(options);
                fen::parse(text, variant).map($name)
            }

            fn side_to_move(&self) -> Color {
                self.0.turn
            }

            fn legal_moves(&self) -> Vec<Move> {
                self.0.legal_moves()
            }

            fn play(&self, mv: &Move) -> Result<Self, Illegal> {
                self.0.play_move(*mv).map(|(p, _)| $name(p))
            }

            fn play_legal(&self, mv: &Move) -> Self {
                debug_assert!(self.0.play_move(*mv).is_ok(), "{mv} is not legal in {self}");
                $name(self.0.play_unchecked(*mv).0)
            }

            fn outcome(&self) -> Option<Outcome> {
                self.0.outcome()
            }

            fn automatic(&self, repetitions: usize) -> Option<Outcome> {
                (repetitions >= 5).then_some(Outcome::Draw(DrawReason::FivefoldRepetition))
            }

            fn decision(outcome: &Outcome) -> Decision<Color> {
                match outcome {
                    Outcome::Checkmate { winner } => Decision::Win(*winner),
                    Outcome::Draw(_) => Decision::Draw,
                }
            }

            fn claimable(&self, repetitions: usize) -> Vec<Outcome> {
                let mut claims = Vec::new();
                if repetitions >= 3 {
                    claims.push(Outcome::Draw(DrawReason::ThreefoldRepetition));
                }
                if self.0.halfmove >= 100 {
                    claims.push(Outcome::Draw(DrawReason::FiftyMoves));
                }
                claims
            }

            fn repeatable_within(&self) -> Option<usize> {
                // No position before a capture or a pawn move recurs: a capture leaves fewer
                // pieces, pawns only go forward, and (in Insurrection) pieces change rank only
                // by capturing or promoting.
                usize::try_from(self.0.halfmove).ok()
            }

            fn is_repetition_of(&self, other: &Self) -> bool {
                let (a, b) = (&self.0, &other.0);
                a.by_color == b.by_color
                    && a.by_role == b.by_role
                    && a.turn == b.turn
                    && a.castling == b.castling
                    && a.legal_ep() == b.legal_ep()
                    && a.government == b.government
            }

            fn parse_move(&self, text: &str) -> Result<Move, MoveError<Self>> {
                self.0.parse_any(text).map_err(|e| match e {
                    NotAMove::Syntax(syntax) => MoveError::Invalid(syntax),
                    NotAMove::Illegal(illegal) => MoveError::Illegal(illegal),
                    NotAMove::Ambiguous(moves) => MoveError::Ambiguous(moves),
                })
            }

            fn perft(&self, depth: u32) -> u64 {
                self.0.perft(depth)
            }
        }
    };
}

game!(
    /// An orthodox chess position.
    Chess,
    "chess",
    (),
    |(): &()| Variant::Chess
);

game!(
    /// An Insurrection position.
    Insurrection,
    "insurrection",
    InsurrectionOptions,
    |o: &InsurrectionOptions| if o.assassination { Variant::Assassination } else { Variant::Insurrection }
);

#[cfg(test)]
mod tests;
