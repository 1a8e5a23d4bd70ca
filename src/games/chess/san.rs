//! Move notation for chess and Insurrection: UCI (`e2e4`, `e7e8q`, `e1g1`), which game files
//! store, and SAN (`e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O`), which people type and reports show.
//!
//! Both are read in two steps, as shakmaty does: the text is parsed on its own, then matched
//! against the legal moves, so a malformed move, an illegal one and an ambiguous one get
//! different answers. In Insurrection a piece's letter is its current rank.

use super::board::{Role, Square};
use super::position::Position;
use super::{Illegal, Move};

/// Why a text is not a move in UCI or SAN at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// Nothing was given.
    #[error("empty move: write it in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)")]
    Empty,
    /// Neither UCI nor SAN.
    #[error("`{0}` is not a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)")]
    Shape(String),
}

/// A move's text, parsed but not yet matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// `e2e4`, `e7e8q`.
    Uci(Move),
    /// `O-O` (`true`) or `O-O-O`.
    Castle(bool),
    /// SAN for any other move.
    San {
        role: Role,
        file: Option<u8>,
        rank: Option<u8>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
}

pub(crate) fn parse(text: &str) -> Result<Parsed, SyntaxError> {
    if text.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let shape = || SyntaxError::Shape(text.to_owned());
    if let Some(uci) = uci(text) {
        return uci.map(Parsed::Uci);
    }
    let body = text.trim_end_matches(['+', '#', '!', '?']);
    match body {
        "O-O" | "0-0" => return Ok(Parsed::Castle(true)),
        "O-O-O" | "0-0-0" => return Ok(Parsed::Castle(false)),
        _ => {}
    }
    let mut chars: Vec<char> = body.chars().collect();
    let promotion = promotion(&mut chars, shape)?;
    let role = match chars.first() {
        Some(c) if c.is_ascii_uppercase() => {
            let role = Role::from_letter(*c)
                .filter(|r| *r != Role::Pawn)
                .ok_or_else(shape)?;
            chars.remove(0);
            role
        }
        _ => Role::Pawn,
    };
    if chars.len() < 2 {
        return Err(shape());
    }
    let to_text: String = chars[chars.len() - 2..].iter().collect();
    let to = Square::parse(to_text.as_bytes()).ok_or_else(shape)?;
    let mut rest = &chars[..chars.len() - 2];
    let capture = rest.last() == Some(&'x');
    if capture {
        rest = &rest[..rest.len() - 1];
    }
    let (mut file, mut rank) = (None, None);
    for c in rest {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(*c as u8 - b'a'),
            '1'..='8' if rank.is_none() => rank = Some(*c as u8 - b'1'),
            _ => return Err(shape()),
        }
    }
    if role == Role::Pawn && (rank.is_some() || (capture && file.is_none())) {
        return Err(shape());
    }
    Ok(Parsed::San {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

/// A text shaped like UCI (`e2e4`, `e7e8q`) read as a move: `None` when it is not shaped
/// so, a [`SyntaxError::Shape`] when its squares or piece letter are wrong.
fn uci(text: &str) -> Option<Result<Move, SyntaxError>> {
    let bytes = text.as_bytes();
    let shaped = (4..=5).contains(&bytes.len())
        && bytes[0].is_ascii_lowercase()
        && bytes[1].is_ascii_digit()
        && bytes[2].is_ascii_lowercase()
        && bytes[3].is_ascii_digit();
    if !shaped {
        return None;
    }
    let read = || {
        let from = Square::parse(&bytes[0..2])?;
        let to = Square::parse(&bytes[2..4])?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) => Some(
                Role::from_letter(char::from(c))
                    .filter(|r| *r != Role::Pawn && c.is_ascii_lowercase())?,
            ),
        };
        Some(Move {
            from,
            to,
            promotion,
        })
    };
    Some(read().ok_or_else(|| SyntaxError::Shape(text.to_owned())))
}

/// Takes a promotion off the end of a SAN body (`e8=Q`, or `e8Q` as some programs write it):
/// the piece, if there is one, or the `shape` error when it is written wrong.
fn promotion(
    chars: &mut Vec<char>,
    shape: impl Fn() -> SyntaxError,
) -> Result<Option<Role>, SyntaxError> {
    let piece = |c: char| Role::from_letter(c).filter(|r| *r != Role::Pawn);
    if let Some(at) = chars.iter().position(|c| *c == '=') {
        let letter = chars.get(at + 1).copied().ok_or_else(&shape)?;
        if at + 2 != chars.len() || !letter.is_ascii_uppercase() {
            return Err(shape());
        }
        let role = piece(letter).ok_or_else(&shape)?;
        chars.truncate(at);
        return Ok(Some(role));
    }
    let n = chars.len();
    if n >= 3 && chars[n - 1].is_ascii_uppercase() && chars[n - 2].is_ascii_digit() {
        let role = piece(chars[n - 1]).ok_or_else(&shape)?;
        chars.pop();
        return Ok(Some(role));
    }
    Ok(None)
}

/// The legal moves a parsed text can mean. A promotion is never guessed: a pawn move to the last
/// rank without its piece matches nothing (and [`no_match`] says so).
pub(crate) fn candidates(pos: &Position, parsed: &Parsed, legal: &[Move]) -> Vec<Move> {
    legal
        .iter()
        .copied()
        .filter(|mv| matches(pos, parsed, *mv, false))
        .collect()
}

/// Whether a text can mean a move; with `any_promotion`, whatever the text says of a promotion.
fn matches(pos: &Position, parsed: &Parsed, mv: Move, any_promotion: bool) -> bool {
    let piece = pos.piece_at(mv.from).expect("a legal move has a piece");
    let castle = piece.role == Role::King
        && mv.from.file() == 4
        && mv.from.file().abs_diff(mv.to.file()) == 2;
    let promotes_as = |p: Option<Role>| any_promotion || p == mv.promotion;
    match *parsed {
        Parsed::Uci(m) => m.from == mv.from && m.to == mv.to && promotes_as(m.promotion),
        Parsed::Castle(short) => castle && (mv.to.file() == 6) == short,
        Parsed::San {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            !castle
                && piece.role == role
                && mv.to == to
                && file.is_none_or(|f| mv.from.file() == f)
                && rank.is_none_or(|r| mv.from.rank() == r)
                && (!capture || pos.is_capture(mv))
                && promotes_as(promotion)
        }
    }
}

/// The SAN of a legal move: piece, disambiguation, capture, destination, promotion, and `+` or
/// `#` (check meaning that a government piece of the side to move is attacked).
pub(crate) fn write(pos: &Position, mv: Move, legal: &[Move]) -> String {
    let piece = pos.piece_at(mv.from).expect("a legal move has a piece");
    let mut out = String::new();
    if piece.role == Role::King && mv.from.file() == 4 && mv.from.file().abs_diff(mv.to.file()) == 2
    {
        out.push_str(if mv.to.file() == 6 { "O-O" } else { "O-O-O" });
    } else {
        let capture = pos.is_capture(mv);
        if piece.role == Role::Pawn {
            if capture {
                out.push(char::from(b'a' + mv.from.file()));
            }
        } else {
            out.push(piece.role.letter());
            let rivals: Vec<&Move> = legal
                .iter()
                .filter(|m| {
                    m.to == mv.to
                        && m.from != mv.from
                        && pos.piece_at(m.from).map(|p| p.role) == Some(piece.role)
                })
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|m| m.from.file() == mv.from.file());
                let same_rank = rivals.iter().any(|m| m.from.rank() == mv.from.rank());
                if !same_file {
                    out.push(char::from(b'a' + mv.from.file()));
                } else if !same_rank {
                    out.push(char::from(b'1' + mv.from.rank()));
                } else {
                    out.push_str(&mv.from.to_string());
                }
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&mv.to.to_string());
        if let Some(role) = mv.promotion {
            out.push('=');
            out.push(role.letter());
        }
    }
    let (next, _) = pos.play_unchecked(mv);
    if next.is_check() {
        out.push(if next.has_legal_move() { '+' } else { '#' });
    }
    out
}

/// Why a parsed text that matches no legal move is illegal: the reason of the closest
/// pseudo-legal reading, else that no such piece can go there.
pub(crate) fn no_match(pos: &Position, parsed: &Parsed) -> Illegal {
    let mut pseudo = Vec::new();
    pos.pseudo_legal(&mut |m| pseudo.push(m));
    let reading = |any_promotion| {
        pseudo
            .iter()
            .copied()
            .filter(move |mv| matches(pos, parsed, *mv, any_promotion))
    };
    if let Some(mv) = reading(false).next() {
        return pos.explain(mv);
    }
    // Only the promotion is wrong: missing, or where none happens (an Insurrection pawn that
    // captures onto the last rank takes its victim's rank instead), or to a piece not allowed.
    let mut promotions = reading(true).peekable();
    if let Some(first) = promotions.peek().copied() {
        let legal = pos.legal_moves();
        if !promotions.any(|mv| legal.contains(&mv)) {
            return pos.explain(first);
        }
        return match parsed {
            Parsed::Uci(Move {
                promotion: Some(role),
                ..
            })
            | Parsed::San {
                promotion: Some(role),
                ..
            } => Illegal::BadPromotion(role.name()),
            _ => Illegal::PromotionRequired(first.from, first.to),
        };
    }
    match *parsed {
        Parsed::Uci(mv) => pos.explain(mv),
        Parsed::Castle(short) => Illegal::Castling(
            if short { "O-O" } else { "O-O-O" },
            "the king and rook are not ready: they must not have moved, and the squares between must be empty",
        ),
        Parsed::San {
            role, to, capture, ..
        } => Illegal::NoSuchMove(role, capture, to),
    }
}
