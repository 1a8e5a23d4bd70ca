//! Spin doctoring (Campaign's castling): the four rights, the wings and their squares.

use super::board::{FILES, Side, Square};
use std::fmt;

/// The spin-doctoring rights: which side may still spin toward which wing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpinRights(u8);

/// A wing a candidate can spin toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wing {
    /// Toward the a-file: right `A` / `a`.
    A,
    /// Toward the e-file: right `E` / `e`.
    E,
}

impl Wing {
    /// Both wings, in the order of the position string.
    pub const BOTH: [Wing; 2] = [Wing::A, Wing::E];

    /// The file of this wing's corner (0-based).
    pub(super) const fn corner_file(self) -> u8 {
        match self {
            Wing::A => 0,
            Wing::E => FILES - 1,
        }
    }

    /// Where the handler ends up: next to the corner.
    pub(super) const fn handler_file(self) -> u8 {
        match self {
            Wing::A => 1,
            Wing::E => FILES - 2,
        }
    }
}

impl SpinRights {
    /// All four rights, as at the start with the variant on.
    pub const ALL: SpinRights = SpinRights(0b1111);
    /// No rights.
    pub const NONE: SpinRights = SpinRights(0);

    const fn bit(side: Side, wing: Wing) -> u8 {
        1 << (side as u8 * 2 + wing as u8)
    }

    /// Whether `side` may still spin toward `wing`.
    #[must_use]
    pub const fn has(self, side: Side, wing: Wing) -> bool {
        self.0 & Self::bit(side, wing) != 0
    }

    #[must_use]
    pub(super) const fn with(self, side: Side, wing: Wing) -> SpinRights {
        SpinRights(self.0 | Self::bit(side, wing))
    }

    #[must_use]
    pub(super) const fn without(self, side: Side, wing: Wing) -> SpinRights {
        SpinRights(self.0 & !Self::bit(side, wing))
    }

    /// Whether no right is left.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights lost by a move touching `sq`: a piece moving from a corner, or captured on it.
    pub(super) fn touching(self, sq: Square) -> SpinRights {
        let mut rights = self;
        for side in [Side::Heads, Side::Tails] {
            for wing in Wing::BOTH {
                if corner(side, wing) == sq {
                    rights = rights.without(side, wing);
                }
            }
        }
        rights
    }
}

impl fmt::Display for SpinRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for side in [Side::Heads, Side::Tails] {
            for wing in Wing::BOTH {
                if self.has(side, wing) {
                    let c = match wing {
                        Wing::A => 'A',
                        Wing::E => 'E',
                    };
                    let c = match side {
                        Side::Heads => c,
                        Side::Tails => c.to_ascii_lowercase(),
                    };
                    write!(f, "{c}")?;
                }
            }
        }
        Ok(())
    }
}

/// The corner square of a side's wing: where its handler starts.
pub(super) fn corner(side: Side, wing: Wing) -> Square {
    Square::new(wing.corner_file(), side.home_rank()).expect("corners are on the board")
}

/// The candidate's start square.
pub(super) fn candidate_home(side: Side) -> Square {
    Square::new(FILES / 2, side.home_rank()).expect("the centre file is on the board")
}
