//! FEN, the position string of chess, and Insurrection's form of it with a seventh field for
//! the two government ranks (`Kk` when absent). As python-chess does, the en-passant square is
//! written only when an en-passant capture is legal, so a position has one spelling.

use super::Variant;
use super::board::{Color, Piece, Role, Square};
use super::position::Position;
use std::fmt;

/// The start position, orthodox chess.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a text is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Not the right number of fields.
    #[error("a position has {expected} fields separated by single spaces; found {found}")]
    FieldCount {
        /// What the game takes.
        expected: &'static str,
        /// How many there are.
        found: usize,
    },
    /// Spaces other than single spaces.
    #[error("fields are separated by single spaces (not tabs), with none before or after")]
    Spacing,
    /// The placement field.
    #[error("placement: {0}")]
    Placement(String),
    /// The side to move.
    #[error("side to move: expected `w` or `b`, found `{0}`")]
    Side(String),
    /// The castling field.
    #[error("castling: {0}")]
    Castling(String),
    /// The en-passant field.
    #[error("en passant: {0}")]
    EnPassant(String),
    /// The halfmove clock.
    #[error("halfmove clock: expected a number without sign or leading zeros, found `{0}`")]
    Halfmove(String),
    /// The fullmove number.
    #[error(
        "fullmove number: expected a number from 1, without sign or leading zeros, found `{0}`"
    )]
    Fullmove(String),
    /// The government field (Insurrection).
    #[error(
        "government: expected White's rank in upper case then Black's in lower case, like Kk or Pq; found `{0}`"
    )]
    Government(String),
    /// A position the rules forbid.
    #[error("{0}")]
    Illegal(String),
}

fn number(text: &str) -> Option<u32> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// Reads a position string for `variant`.
pub(crate) fn parse(text: &str, variant: Variant) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split(' ').collect();
    let odd_space = text.chars().any(|c| c.is_whitespace() && c != ' ');
    if odd_space || fields.iter().any(|f| f.is_empty()) && !text.trim().is_empty() {
        return Err(PositionError::Spacing);
    }
    let government = match (variant, fields.len()) {
        (Variant::Chess, 6) | (_, 6) => None,
        (Variant::Chess, found) => {
            return Err(PositionError::FieldCount {
                expected: "6",
                found,
            });
        }
        (_, 7) => Some(fields[6]),
        (_, found) => {
            return Err(PositionError::FieldCount {
                expected: "6 or 7",
                found,
            });
        }
    };
    let mut pos = Position {
        by_color: [0; 2],
        by_role: [0; 6],
        turn: match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(PositionError::Side(other.to_owned())),
        },
        castling: 0,
        ep: None,
        halfmove: number(fields[4]).ok_or_else(|| PositionError::Halfmove(fields[4].to_owned()))?,
        fullmove: number(fields[5])
            .filter(|n| *n >= 1)
            .ok_or_else(|| PositionError::Fullmove(fields[5].to_owned()))?,
        government: [Role::King; 2],
        variant,
    };
    placement(&mut pos, fields[0])?;
    if let Some(g) = government {
        let chars: Vec<char> = g.chars().collect();
        let roles = match chars[..] {
            [w, b] if w.is_ascii_uppercase() && b.is_ascii_lowercase() => {
                Role::from_letter(w).zip(Role::from_letter(b))
            }
            _ => None,
        };
        let (w, b) = roles.ok_or_else(|| PositionError::Government(g.to_owned()))?;
        pos.government = [w, b];
    }
    castling(&mut pos, fields[2])?;
    en_passant(&mut pos, fields[3])?;
    validate(&pos)?;
    Ok(pos)
}

fn placement(pos: &mut Position, text: &str) -> Result<(), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::Placement(format!(
            "expected 8 ranks separated by `/`, found {}",
            ranks.len()
        )));
    }
    for (row, rank) in ranks.iter().zip((0..8u8).rev()) {
        let mut file = 0usize;
        let mut after_digit = false;
        for c in row.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if after_digit {
                    return Err(PositionError::Placement(format!(
                        "rank {}: a run of empty squares is one digit",
                        rank + 1
                    )));
                }
                after_digit = true;
                file += run as usize;
                continue;
            }
            after_digit = false;
            let role = Role::from_letter(c).ok_or_else(|| {
                PositionError::Placement(format!("rank {}: `{c}` is not a piece (PNBRQK, pnbrqk) or a count of empty squares (1-8)", rank + 1))
            })?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if let Some(sq) = u8::try_from(file).ok().and_then(|f| Square::new(f, rank)) {
                pos.by_color[color.index()] |= sq.bit();
                pos.by_role[role.index()] |= sq.bit();
            }
            file += 1;
        }
        if file != 8 {
            return Err(PositionError::Placement(format!(
                "rank {} (`{row}`) covers {file} files; each rank covers 8",
                rank + 1
            )));
        }
    }
    Ok(())
}

fn castling(pos: &mut Position, text: &str) -> Result<(), PositionError> {
    if text == "-" {
        return Ok(());
    }
    let order = ['K', 'Q', 'k', 'q'];
    let mut next = 0;
    for c in text.chars() {
        let Some(offset) = order[next..].iter().position(|o| *o == c) else {
            return Err(PositionError::Castling(format!(
                "expected `-` or some of `KQkq` in that order, found `{text}`"
            )));
        };
        next += offset + 1;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = color.back_rank();
        let king = Square::new(4, back).expect("on the board");
        let rook = Square::new(if c.eq_ignore_ascii_case(&'k') { 7 } else { 0 }, back)
            .expect("on the board");
        let has = |sq: Square, role: Role| pos.piece_at(sq) == Some(Piece { color, role });
        if !has(king, Role::King) || !has(rook, Role::Rook) {
            return Err(PositionError::Castling(format!(
                "`{c}` needs {color}'s king on {king} and rook on {rook}, where they started"
            )));
        }
        pos.castling |= rook.bit();
    }
    Ok(())
}

fn en_passant(pos: &mut Position, text: &str) -> Result<(), PositionError> {
    if text == "-" {
        return Ok(());
    }
    let sq = Square::parse(text.as_bytes())
        .ok_or_else(|| PositionError::EnPassant(format!("`{text}` is not a square")))?;
    let us = pos.turn;
    let (ep_rank, pawn_rank, from_rank) = match us {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    let pawn = Square::new(sq.file(), pawn_rank).expect("on the board");
    let from = Square::new(sq.file(), from_rank).expect("on the board");
    let them = us.opponent();
    let plausible = sq.rank() == ep_rank
        && pos.piece_at(pawn)
            == Some(Piece {
                color: them,
                role: Role::Pawn,
            })
        && pos.piece_at(sq).is_none()
        && pos.piece_at(from).is_none();
    if !plausible {
        return Err(PositionError::EnPassant(format!(
            "{sq} is not a square a {them} pawn can just have skipped with a double step"
        )));
    }
    pos.ep = Some(sq);
    Ok(())
}

fn validate(pos: &Position) -> Result<(), PositionError> {
    let illegal = |m: String| Err(PositionError::Illegal(m));
    let pawns = pos.by_role[Role::Pawn.index()];
    if let Some(sq) =
        Square::iter(pawns & (super::board::rank_mask(0) | super::board::rank_mask(7))).next()
    {
        return illegal(format!(
            "placement: a pawn on {sq}: pawns never stand on the first or last rank"
        ));
    }
    for color in [Color::White, Color::Black] {
        if pos.variant == Variant::Chess {
            let kings = pos.pieces(color, Role::King).count_ones();
            if kings != 1 {
                return illegal(format!(
                    "placement: {color} has {kings} kings; each side has exactly one"
                ));
            }
        } else if pos.government_pieces(color) == 0 {
            let rank = pos.government[color.index()].name();
            return illegal(format!(
                "government: {color}'s government is {rank}s, but it has no {rank} on the board"
            ));
        }
    }
    let them = pos.turn.opponent();
    let checked =
        if pos.variant == Variant::Assassination && pos.government_pieces(them).count_ones() >= 2 {
            0
        } else {
            Square::iter(pos.government_pieces(them))
                .filter(|sq| pos.attacked(*sq, pos.turn))
                .fold(0, |a, sq| a | sq.bit())
        };
    if let Some(sq) = Square::iter(checked).next() {
        let role = pos.government[them.index()].name();
        return illegal(format!(
            "{them} is not to move, yet its {role} on {sq} is attacked"
        ));
    }
    Ok(())
}

impl Position {
    /// The en-passant square, if an en-passant capture is legal now.
    pub(crate) fn legal_ep(&self) -> Option<Square> {
        let ep = self.ep?;
        let mut legal = false;
        let capturers = super::board::pawn_attacks(self.turn.opponent(), ep)
            & self.pieces(self.turn, Role::Pawn);
        for from in Square::iter(capturers) {
            let mv = super::Move {
                from,
                to: ep,
                promotion: None,
            };
            legal |= self.is_legal_pseudo(mv);
        }
        legal.then_some(ep)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(Square::new(file, rank).expect("on the board")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        write!(f, " {side} ")?;
        let mut rights = String::new();
        for (c, file, rank) in [('K', 7, 0), ('Q', 0, 0), ('k', 7, 7), ('q', 0, 7)] {
            if self.castling & Square::new(file, rank).expect("a corner").bit() != 0 {
                rights.push(c);
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        let ep = self
            .legal_ep()
            .map_or_else(|| "-".to_owned(), |sq| sq.to_string());
        write!(f, "{rights} {ep} {} {}", self.halfmove, self.fullmove)?;
        if self.variant != Variant::Chess {
            let [w, b] = self.government;
            write!(f, " {}{}", w.letter(), b.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}
