//! A rating list from finished games: the games put in one canonical order (by the time of the
//! record that ended each, then by game id), cut into rating periods of fixed length counted
//! from the Unix epoch in UTC, and rated period by period, each player against their opponents'
//! ratings at the start of the period. The list carries a digest of its inputs (the games, in
//! that order) and of its parameters, so that a list published from other games is caught.

use super::glicko2::{self, Rating};
use super::{Score, elo};
use crate::digest::Digest;
use std::collections::BTreeMap;

/// A finished game as a rating list counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The game's id.
    pub id: Digest,
    /// When the record that ended it was signed, in seconds since the Unix epoch (UTC).
    pub ended: i64,
    /// The digest of the key of the player who had White (or the first side).
    pub white: Digest,
    /// The digest of the other player's key.
    pub black: Digest,
    /// White's score.
    pub score: Score,
}

/// How a list is computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum System {
    /// Glicko-2 with system constant `tau`, a new player starting at `initial`.
    Glicko2 {
        /// The system constant τ.
        tau: f64,
        /// A new player's rating, deviation and volatility.
        initial: Rating,
        /// The length of a rating period, in seconds.
        period: i64,
    },
    /// FIDE-style Elo, a new player starting at `initial`.
    Elo {
        /// A new player's rating.
        initial: f64,
        /// The length of a rating period, in seconds.
        period: i64,
    },
}

/// A player's line of a list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The digest of the player's key.
    pub key: Digest,
    /// The rating.
    pub rating: f64,
    /// The rating deviation (Glicko-2).
    pub deviation: Option<f64>,
    /// The games rated.
    pub games: u32,
}

/// A rating list: its entries, best first, and the digests of what it was computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    /// The players, highest rating first (then by key).
    pub entries: Vec<Entry>,
    /// The digest of the games counted, in their canonical order.
    pub inputs: Digest,
    /// The digest of the parameters.
    pub parameters: Digest,
}

/// Why a list cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ListError {
    /// A game of a player against their own key.
    #[error("game {0} is of a key against itself")]
    OneKey(String),
    /// One game twice.
    #[error("game {0} is counted twice")]
    Twice(String),
    /// A rating period that is not a positive number of seconds.
    #[error("a rating period must be at least one second")]
    Period,
    /// Glicko-2 refused a player's numbers.
    #[error("{0}")]
    Glicko(#[from] glicko2::GlickoError),
}

/// A player's rating at the end of a rating period in which they played (or, last, at the end
/// of the list's last period, where their deviation widened since).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// When the period ended, in seconds since the Unix epoch (UTC): its last second, plus one.
    pub end: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it (Glicko-2).
    pub deviation: Option<f64>,
}

/// Each player's ratings, period by period, as a list is made.
pub type History = BTreeMap<Digest, Vec<Point>>;

/// The list `system` makes of `games`, in whatever order they are given.
///
/// # Errors
/// A game of one key against itself, a game twice, a period under one second, or a Glicko-2
/// computation that does not converge.
pub fn list(games: &[RatedGame], system: &System) -> Result<List, ListError> {
    make(games, system, None)
}

/// [`list`], with each player's rating after each period they played in: what their rating
/// history chart draws.
///
/// # Errors
/// As [`list`].
pub fn list_with_history(
    games: &[RatedGame],
    system: &System,
) -> Result<(List, History), ListError> {
    let mut history = History::new();
    let list = make(games, system, Some(&mut history))?;
    Ok((list, history))
}

/// The list, each period's ratings kept in `history` when one is given (a list alone keeps
/// none: `ratings --check` and the benchmark need none).
fn make(
    games: &[RatedGame],
    system: &System,
    mut history: Option<&mut History>,
) -> Result<List, ListError> {
    let mut games = games.to_vec();
    games.sort_by_key(|g| (g.ended, g.id));
    for pair in games.windows(2) {
        if pair[0].id == pair[1].id {
            return Err(ListError::Twice(pair[0].id.short()));
        }
    }
    if let Some(game) = games.iter().find(|g| g.white == g.black) {
        return Err(ListError::OneKey(game.id.short()));
    }
    let period = match *system {
        System::Glicko2 { period, .. } | System::Elo { period, .. } => period,
    };
    if period < 1 {
        return Err(ListError::Period);
    }
    let mut periods: BTreeMap<i64, Vec<RatedGame>> = BTreeMap::new();
    for game in &games {
        periods
            .entry(game.ended.div_euclid(period))
            .or_default()
            .push(*game);
    }
    let entries = match *system {
        System::Glicko2 { tau, initial, .. } => {
            glicko(&periods, period, tau, initial, history.as_deref_mut())?
        }
        System::Elo { initial, .. } => elo_list(&periods, period, initial, history.as_deref_mut()),
    };
    // The list's figures end every history: a deviation that widened while its player sat out
    // the last periods is a point of its own, at the end of the last period.
    if let (Some(history), Some(&last)) = (history, periods.keys().next_back()) {
        let end = last.saturating_add(1).saturating_mul(period);
        for e in &entries {
            let points = history.entry(e.key).or_default();
            let same = points
                .last()
                .is_some_and(|p| (p.rating, p.deviation) == (e.rating, e.deviation));
            if !same {
                points.push(Point {
                    end,
                    rating: e.rating,
                    deviation: e.deviation,
                });
            }
        }
    }
    let mut entries = entries;
    entries.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.key.cmp(&b.key))
    });
    Ok(List {
        entries,
        inputs: inputs(&games),
        parameters: parameters(system),
    })
}

/// Each game, as a player sees it: the opponent and the player's score.
fn sides(game: &RatedGame) -> [(Digest, Digest, Score); 2] {
    let black = match game.score {
        Score::Win => Score::Loss,
        Score::Draw => Score::Draw,
        Score::Loss => Score::Win,
    };
    [
        (game.white, game.black, game.score),
        (game.black, game.white, black),
    ]
}

/// Each player's games of a period, each against the opponent's rating at its start (`rating`).
fn played<R>(
    games: &[RatedGame],
    rating: impl Fn(&Digest) -> R,
) -> BTreeMap<Digest, Vec<(R, Score)>> {
    let mut played: BTreeMap<Digest, Vec<(R, Score)>> = BTreeMap::new();
    for game in games {
        for (player, opponent, score) in sides(game) {
            played
                .entry(player)
                .or_default()
                .push((rating(&opponent), score));
        }
    }
    played
}

fn glicko(
    periods: &BTreeMap<i64, Vec<RatedGame>>,
    length: i64,
    tau: f64,
    initial: Rating,
    mut history: Option<&mut History>,
) -> Result<Vec<Entry>, ListError> {
    let mut ratings: BTreeMap<Digest, (Rating, u32)> = BTreeMap::new();
    let most = initial.deviation;
    // Only the periods with games are visited: the ones between, in which no one played, widen
    // every deviation at once ([`glicko2::idle`]).
    let mut previous: Option<i64> = None;
    for (&number, games) in periods {
        let skipped = previous.map_or(0, |p| u64::try_from(number - p - 1).unwrap_or(0));
        for (rating, _) in ratings.values_mut() {
            *rating = glicko2::idle(*rating, skipped, most);
        }
        previous = Some(number);
        for game in games {
            for key in [game.white, game.black] {
                ratings.entry(key).or_insert((initial, 0));
            }
        }
        let start = ratings.clone();
        let played = played(games, |key| start[key].0);
        for (key, (rating, count)) in &mut ratings {
            let theirs = played.get(key).map(Vec::as_slice).unwrap_or_default();
            let before = start[key].0;
            let mut after = glicko2::period(before, theirs, tau)?.rating;
            after.deviation = after.deviation.min(most);
            *rating = after;
            *count += u32::try_from(theirs.len()).unwrap_or(u32::MAX);
            if let (false, Some(history)) = (theirs.is_empty(), history.as_deref_mut()) {
                history.entry(*key).or_default().push(Point {
                    end: number.saturating_add(1).saturating_mul(length),
                    rating: after.rating,
                    deviation: Some(after.deviation),
                });
            }
        }
    }
    Ok(ratings
        .into_iter()
        .map(|(key, (rating, games))| Entry {
            key,
            rating: rating.rating,
            deviation: Some(rating.deviation),
            games,
        })
        .collect())
}

fn elo_list(
    periods: &BTreeMap<i64, Vec<RatedGame>>,
    length: i64,
    initial: f64,
    mut history: Option<&mut History>,
) -> Vec<Entry> {
    // Each key's rating, the games rated before, and whether it has reached 2400.
    let mut ratings: BTreeMap<Digest, (f64, u32, bool)> = BTreeMap::new();
    for (&number, games) in periods {
        for game in games {
            for key in [game.white, game.black] {
                ratings
                    .entry(key)
                    .or_insert((initial, 0, initial >= 2400.0));
            }
        }
        let start = ratings.clone();
        let played = played(games, |key| start[key].0);
        for (key, theirs) in played {
            let (rating, count, reached) = start[&key];
            let k = elo::k_factor(elo::Record {
                games: count,
                reached_2400: reached,
            });
            let new = rating + elo::change(rating, k, &theirs);
            let count = count + u32::try_from(theirs.len()).unwrap_or(u32::MAX);
            ratings.insert(key, (new, count, reached || new >= 2400.0));
            if let Some(history) = history.as_deref_mut() {
                history.entry(key).or_default().push(Point {
                    end: number.saturating_add(1).saturating_mul(length),
                    rating: new,
                    deviation: None,
                });
            }
        }
    }
    ratings
        .into_iter()
        .map(|(key, (rating, games, _))| Entry {
            key,
            rating,
            deviation: None,
            games,
        })
        .collect()
}

/// The digest of the games, in their canonical order: each game's id, end, keys and result.
fn inputs(games: &[RatedGame]) -> Digest {
    let mut bytes = b"correspond/ratings/v1/games\0".to_vec();
    for game in games {
        bytes.extend_from_slice(&game.id.0);
        bytes.extend_from_slice(&game.ended.to_be_bytes());
        bytes.extend_from_slice(&game.white.0);
        bytes.extend_from_slice(&game.black.0);
        bytes.push(match game.score {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        });
    }
    Digest::of(&bytes)
}

/// The digest of the parameters, each number by its bits.
fn parameters(system: &System) -> Digest {
    let mut bytes = b"correspond/ratings/v1/parameters\0".to_vec();
    match *system {
        System::Glicko2 {
            tau,
            initial,
            period,
        } => {
            bytes.extend_from_slice(b"glicko2\0");
            for number in [tau, initial.rating, initial.deviation, initial.volatility] {
                bytes.extend_from_slice(&number.to_bits().to_be_bytes());
            }
            bytes.extend_from_slice(&period.to_be_bytes());
        }
        System::Elo { initial, period } => {
            bytes.extend_from_slice(b"elo\0");
            bytes.extend_from_slice(&initial.to_bits().to_be_bytes());
            bytes.extend_from_slice(&period.to_be_bytes());
        }
    }
    Digest::of(&bytes)
}

#[cfg(test)]
mod tests;
