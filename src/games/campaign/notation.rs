//! Campaign move notation, read in two steps: the text is first parsed on its own (is it a move
//! at all?), then resolved against a position (is it legal here, and is it clear which move it
//! means?). A user who typed `c2c9`, `c1c3` or `b6b7` gets three different answers.

use super::{Campaign, Illegal, Move, Promotion, Square};
use crate::rules::{Game, MoveError};

/// Why a text is not a Campaign move at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// Nothing was given.
    #[error("empty move: write the from-square and the to-square, like c2c3")]
    Empty,
    /// Not `square square [suffix]`.
    #[error("`{0}` is not a move: write the from-square and the to-square, like c2c3 or b6b7g")]
    Shape(String),
    /// A square name that is off the board.
    #[error("`{0}` is not a square: files run a-e and ranks 1-7")]
    Square(String),
    /// A suffix other than `g`, `h` or `s`.
    #[error("`{0}` is not a promotion: the suffix is g (guard), h (handler) or s (stack)")]
    Suffix(char),
}

/// The syntax of a move, before any position is consulted.
fn parse(text: &str) -> Result<Move, SyntaxError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let square = |part: &[u8]| {
        Square::parse(part).ok_or_else(|| SyntaxError::Square(String::from_utf8_lossy(part).into()))
    };
    let well_formed = |part: &[u8]| matches!(part, [b'a'..=b'z', b'0'..=b'9']);
    let (squares, suffix) = match bytes.len() {
        4 => (bytes, None),
        5 => (&bytes[..4], Some(bytes[4])),
        _ => return Err(SyntaxError::Shape(text.to_owned())),
    };
    if !well_formed(&squares[..2]) || !well_formed(&squares[2..]) {
        return Err(SyntaxError::Shape(text.to_owned()));
    }
    let from = square(&squares[..2])?;
    let to = square(&squares[2..])?;
    let promotion = match suffix {
        None => None,
        Some(b'g') => Some(Promotion::Guard),
        Some(b'h') => Some(Promotion::Handler),
        Some(b's') => Some(Promotion::Stack),
        Some(other) if other.is_ascii() => return Err(SyntaxError::Suffix(char::from(other))),
        Some(_) => return Err(SyntaxError::Shape(text.to_owned())),
    };
    Ok(Move {
        from,
        to,
        promotion,
    })
}

/// Reads a move and resolves it against `pos`.
///
/// The only ambiguous input is an intern's move onto the far rank without a suffix: it must
/// become a guard or a handler, and the text does not say which.
pub(super) fn resolve(pos: &Campaign, text: &str) -> Result<Move, MoveError<Campaign>> {
    let mv = parse(text).map_err(MoveError::Invalid)?;
    match pos.play(&mv) {
        Ok(_) => Ok(mv),
        Err(Illegal::PromotionRequired) => {
            let options: Vec<Move> = [Promotion::Guard, Promotion::Handler]
                .into_iter()
                .map(|p| Move {
                    promotion: Some(p),
                    ..mv
                })
                .filter(|m| pos.play(m).is_ok())
                .collect();
            if options.is_empty() {
                // Illegal either way: give the reason that is not about the missing suffix.
                let guard = Move {
                    promotion: Some(Promotion::Guard),
                    ..mv
                };
                Err(MoveError::Illegal(
                    pos.play(&guard).err().unwrap_or(Illegal::PromotionRequired),
                ))
            } else {
                Err(MoveError::Ambiguous(options))
            }
        }
        Err(illegal) => Err(MoveError::Illegal(illegal)),
    }
}
