//! Ratings anyone can recompute from the signed games and get the same numbers, bit for bit, on
//! any machine: Glicko-2 ([`glicko2`]) and FIDE-style Elo ([`elo`]), and the list they make of
//! finished games in one canonical order, with the digests of its inputs ([`list`]); a club's
//! signed rules ([`rules`]) and the lists it publishes, signed, for anyone to check ([`published`]). Every `exp`, `ln` and
//! power goes through the pinned pure-Rust `libm`, not the platform's, whose results differ in
//! the last bit between C libraries; the rest is IEEE arithmetic, which does not. Pure: the
//! games come in, in an order the caller fixes, and the ratings go out.

pub mod elo;
pub mod glicko2;
pub mod list;
pub mod published;
pub mod rules;

/// A game's result for the player being rated: 1 a win, ½ a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

impl Score {
    /// The score as a number: 1, 0.5 or 0.
    #[must_use]
    pub fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

/// `value` rounded to `places` decimal places, as a list prints it: the nearest, halves away
/// from zero, of the binary value (so 1.005, which is 1.00499… in binary, gives 1.0).
#[must_use]
pub fn rounded(value: f64, places: i32) -> f64 {
    let scale = libm::pow(10.0, f64::from(places));
    libm::round(value * scale) / scale
}
