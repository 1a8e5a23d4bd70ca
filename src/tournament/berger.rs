//! FIDE's Berger tables (Handbook C.05, Annex 1) in closed form: who meets whom, with which
//! colours, in each round of a round robin, for any number of players. A player is a number
//! from 1, as the lot gave it; with an odd count, the highest number is a bye.
//!
//! For `n` players (`n` even; one more, the bye, when odd) and round `r` from 1 to `n - 1`:
//! players `i` and `j`, both below `n`, meet when `i + j ≡ r + 1 (mod n - 1)`, the lower number
//! White when `i + j` is odd; the player `i` with `2i ≡ r + 1 (mod n - 1)` meets `n`, who is
//! Black in odd rounds and White in even ones. A double round robin plays the tables twice,
//! colours reversed the second time, the first cycle's last two rounds swapped so that nobody
//! has one colour three times running.

/// One game of a round: the players' numbers, White first.
pub type Pairing = (usize, usize);

/// A tournament's schedule: its rounds, each its games in the tables' board order, byes left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The rounds, from the first.
    pub rounds: Vec<Vec<Pairing>>,
}

/// Why a schedule cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// A round robin of fewer than two players has no game.
    #[error("a round robin needs at least 2 players, not {0}")]
    TooFew(usize),
    /// More players than a section of this program holds.
    #[error("a round robin here holds at most {MAX_PLAYERS} players, not {0}")]
    TooMany(usize),
}

/// The most players a section holds: 100 rounds is more than any correspondence event plays.
pub const MAX_PLAYERS: usize = 100;

/// The single round robin of `players` players.
///
/// # Errors
/// Fewer than 2 players, or more than [`MAX_PLAYERS`].
pub fn single(players: usize) -> Result<Schedule, ScheduleError> {
    if players < 2 {
        return Err(ScheduleError::TooFew(players));
    }
    if players > MAX_PLAYERS {
        return Err(ScheduleError::TooMany(players));
    }
    let n = players + players % 2;
    let rounds = (1..n).map(|r| round(n, r, players)).collect();
    Ok(Schedule { rounds })
}

/// The double round robin of `players` players: the single one, its last two rounds swapped
/// (where it has two or more), then the single one again with every colour reversed.
///
/// # Errors
/// As [`single`].
pub fn double(players: usize) -> Result<Schedule, ScheduleError> {
    let Schedule { rounds } = single(players)?;
    let mut first = rounds.clone();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 2, len - 1);
    }
    let second = rounds
        .into_iter()
        .map(|round| round.into_iter().map(|(w, b)| (b, w)).collect());
    Ok(Schedule {
        rounds: first.into_iter().chain(second).collect(),
    })
}

/// Round `r` of the table for `n` (even) numbers, without the games of numbers above
/// `players` (the bye). The boards are in the tables' order: first the game of the highest
/// number, against the player `i` the rule gives; then `i + d` against `i - d` (counted round
/// `1..n - 1`) for `d` from 1.
fn round(n: usize, r: usize, players: usize) -> Vec<Pairing> {
    let m = n - 1;
    let target = (r + 1) % m;
    let i = (1..n)
        .find(|i| (2 * i) % m == target)
        .expect("2 is invertible modulo an odd number");
    let first = if r % 2 == 1 { (i, n) } else { (n, i) };
    // A number counted round 1..=m.
    let wrap = |k: usize| (k - 1) % m + 1;
    let boards = (1..n / 2).map(|d| {
        let (a, b) = (wrap(i + d), wrap(i + m - d));
        let (low, high) = (a.min(b), a.max(b));
        if (low + high) % 2 == 1 {
            (low, high)
        } else {
            (high, low)
        }
    });
    std::iter::once(first)
        .chain(boards)
        .filter(|&(w, b)| w <= players && b <= players)
        .collect()
}

#[cfg(test)]
mod tests;
