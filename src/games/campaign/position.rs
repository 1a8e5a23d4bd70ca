//! The Campaign position string: `placement side spin halfmove fullmove`, for example
//! `hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 1`.
//!
//! Parsing is strict so that a position has exactly one spelling: the string a position is
//! written as is the only one that reads back as it (no `0` or split runs such as `23`, no
//! leading zeros, no extra spaces). Every error names the field at fault.

use super::board::{self, FILES, RANKS, Role, Side, Square};
use super::{Campaign, Piece, SpinRights, Wing, candidate_home, corner};
use std::fmt;

/// Why a text is not a valid Campaign position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Not five fields.
    #[error(
        "a position has 5 fields separated by single spaces (placement, side to move, spin \
         rights, halfmove clock, fullmove number); found {0}"
    )]
    FieldCount(usize),
    /// Two spaces in a row, a leading or trailing space, or other white space (a tab).
    #[error("fields are separated by single spaces (not tabs), with none before or after")]
    Spacing,
    /// Not seven ranks.
    #[error("placement: expected 7 ranks separated by `/`, found {0}")]
    RankCount(usize),
    /// A rank that does not cover exactly five files.
    #[error("placement: rank {rank} (`{text}`) covers {files} files; each rank covers 5")]
    RankWidth {
        /// The rank, from 1.
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many files it covers.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–5.
    #[error(
        "placement: rank {rank}: `{found}` is not a piece (C S G H I for heads, c s g h i for \
         tails) or a count of empty squares (1-5)"
    )]
    Character {
        /// The rank, from 1.
        rank: u8,
        /// What was found.
        found: char,
    },
    /// Two digits in a row (`23`) instead of one run.
    #[error("placement: rank {rank}: a run of empty squares is one digit, not `{found}`")]
    SplitRun {
        /// The rank, from 1.
        rank: u8,
        /// The digits found.
        found: String,
    },
    /// The side-to-move field.
    #[error("side to move: expected `h` (heads) or `t` (tails), found `{0}`")]
    Side(String),
    /// The spin-rights field.
    #[error("spin rights: expected `-` or some of `AEae` in that order, found `{0}`")]
    Spin(String),
    /// The halfmove-clock field.
    #[error("halfmove clock: expected a number without sign or leading zeros, found `{0}`")]
    Halfmove(String),
    /// A counter too large to hold.
    #[error("{0}: `{1}` is too large (at most 4294967295)")]
    TooLarge(&'static str, String),
    /// The fullmove-number field.
    #[error(
        "fullmove number: expected a number from 1, without sign or leading zeros, found `{0}`"
    )]
    Fullmove(String),
    /// A side without exactly one candidate.
    #[error("placement: {0} has {1} candidates; each side has exactly one (C or S)")]
    CandidateCount(Side, usize),
    /// An intern on the rank where it must already have promoted.
    #[error("placement: the {0} intern on {1} stands on its far rank, where it must have promoted")]
    InternOnFarRank(Side, Square),
    /// The side that has just moved left its candidate attacked.
    #[error(
        "{side} is not to move, yet its candidate on {square} is attacked by the {by_role} on {by}"
    )]
    OpponentInCheck {
        /// The side not to move.
        side: Side,
        /// Its candidate's square.
        square: Square,
        /// What attacks it.
        by_role: &'static str,
        /// From where.
        by: Square,
    },
    /// A spin right whose pieces are not where they started.
    #[error(
        "spin rights: `{right}` needs {side}'s unstacked candidate on {home} and its handler on \
         {corner}, where they started"
    )]
    SpinPieces {
        /// The right's letter.
        right: char,
        /// Whose right.
        side: Side,
        /// The candidate's start square.
        home: Square,
        /// The handler's start square.
        corner: Square,
    },
}

/// Reads and validates a position string.
pub(super) fn parse(text: &str) -> Result<Campaign, PositionError> {
    let fields: Vec<&str> = text.split(' ').collect();
    let odd_space = text.chars().any(|c| c.is_whitespace() && c != ' ');
    if odd_space || fields.iter().any(|f| f.is_empty()) && !text.trim().is_empty() {
        return Err(PositionError::Spacing);
    }
    let [placement, side, spin, halfmove, fullmove] = fields[..] else {
        let count = text.split_whitespace().count();
        return Err(PositionError::FieldCount(count));
    };
    let mut pos = Campaign {
        by_side: [0; 2],
        by_role: [0; 5],
        turn: match side {
            "h" => Side::Heads,
            "t" => Side::Tails,
            _ => return Err(PositionError::Side(side.to_owned())),
        },
        spin: parse_spin(spin)?,
        halfmove: parse_number(halfmove, "halfmove clock")?
            .ok_or_else(|| PositionError::Halfmove(halfmove.into()))?,
        fullmove: parse_number(fullmove, "fullmove number")?
            .filter(|n| *n >= 1)
            .ok_or_else(|| PositionError::Fullmove(fullmove.into()))?,
    };
    parse_placement(&mut pos, placement)?;
    validate(&pos)?;
    Ok(pos)
}

fn parse_placement(pos: &mut Campaign, placement: &str) -> Result<(), PositionError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != usize::from(RANKS) {
        return Err(PositionError::RankCount(ranks.len()));
    }
    for (text, rank) in ranks.iter().zip((0..RANKS).rev()) {
        let number = rank + 1;
        let mut file: usize = 0;
        let mut run_start = None;
        for (i, c) in text.char_indices() {
            if let Some(run) = c
                .to_digit(10)
                .filter(|d| (1..=u32::from(FILES)).contains(d))
            {
                if let Some(start) = run_start {
                    let found = text[start..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    return Err(PositionError::SplitRun {
                        rank: number,
                        found,
                    });
                }
                run_start = Some(i);
                file += run as usize;
                continue;
            }
            run_start = None;
            let role =
                Role::from_letter(c.to_ascii_uppercase()).ok_or(PositionError::Character {
                    rank: number,
                    found: c,
                })?;
            let side = if c.is_ascii_uppercase() {
                Side::Heads
            } else {
                Side::Tails
            };
            if let Some(sq) = u8::try_from(file).ok().and_then(|f| Square::new(f, rank)) {
                pos.put(sq, Piece { side, role });
            }
            file += 1;
        }
        if file != usize::from(FILES) {
            return Err(PositionError::RankWidth {
                rank: number,
                text: (*text).to_owned(),
                files: file,
            });
        }
    }
    Ok(())
}

fn parse_spin(text: &str) -> Result<SpinRights, PositionError> {
    if text == "-" {
        return Ok(SpinRights::NONE);
    }
    let order = [
        ('A', Side::Heads, Wing::A),
        ('E', Side::Heads, Wing::E),
        ('a', Side::Tails, Wing::A),
        ('e', Side::Tails, Wing::E),
    ];
    let mut rights = SpinRights::NONE;
    let mut next = 0;
    for c in text.chars() {
        let Some(offset) = order[next..].iter().position(|(l, _, _)| *l == c) else {
            return Err(PositionError::Spin(text.to_owned()));
        };
        let (_, side, wing) = order[next + offset];
        rights = rights.with(side, wing);
        next += offset + 1;
    }
    Ok(rights)
}

/// A decimal number with no sign and no leading zero; `None` if it is not one, an error if it
/// is too large.
fn parse_number(text: &str, field: &'static str) -> Result<Option<u32>, PositionError> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if !canonical {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| PositionError::TooLarge(field, text.to_owned()))
}

fn validate(pos: &Campaign) -> Result<(), PositionError> {
    for side in [Side::Heads, Side::Tails] {
        let count = (pos.candidates() & pos.by_side[side.index()]).count_ones() as usize;
        if count != 1 {
            return Err(PositionError::CandidateCount(side, count));
        }
    }
    for side in [Side::Heads, Side::Tails] {
        let stranded = pos.pieces(side, Role::Intern) & board::rank_mask(side.far_rank());
        if let Some(sq) = Square::iter(stranded).min() {
            return Err(PositionError::InternOnFarRank(side, sq));
        }
    }
    for side in [Side::Heads, Side::Tails] {
        for wing in Wing::BOTH {
            let home = candidate_home(side);
            let corner = corner(side, wing);
            let in_place = pos.pieces(side, Role::Candidate) & home.bit() != 0
                && pos.pieces(side, Role::Handler) & corner.bit() != 0;
            if pos.spin.has(side, wing) && !in_place {
                let right = spin_letter(side, wing);
                return Err(PositionError::SpinPieces {
                    right,
                    side,
                    home,
                    corner,
                });
            }
        }
    }
    let them = pos.turn.opponent();
    let square = pos.candidate(them);
    let attackers = pos.attackers(square, pos.turn, pos.occupied());
    if let Some(by) = Square::iter(attackers).min() {
        let by_role = pos
            .piece_at(by)
            .expect("an attacker stands on its square")
            .role
            .name();
        return Err(PositionError::OpponentInCheck {
            side: them,
            square,
            by_role,
            by,
        });
    }
    Ok(())
}

fn spin_letter(side: Side, wing: Wing) -> char {
    let c = match wing {
        Wing::A => 'A',
        Wing::E => 'E',
    };
    match side {
        Side::Heads => c,
        Side::Tails => c.to_ascii_lowercase(),
    }
}

impl fmt::Display for Campaign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::new(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.letter())?;
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
        let side = match self.turn {
            Side::Heads => 'h',
            Side::Tails => 't',
        };
        write!(
            f,
            " {side} {} {} {}",
            self.spin, self.halfmove, self.fullmove
        )
    }
}
