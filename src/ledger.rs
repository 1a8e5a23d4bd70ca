//! Playing for keeps across games: each player's running balance over the finished games
//! played for stakes (Campaign's Playing for Keeps), for `verify` of a folder and for clubs.
//! A player is a key, not a name (anyone can call themselves alice), and a game is counted once
//! however many copies of it are given; a game whose copies end differently is not counted.

use crate::replay::Summary;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One player's running balance, by key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Balance {
    /// The key's SHA-256 fingerprint.
    pub fingerprint: String,
    /// The names the key played under, sorted.
    pub names: Vec<String>,
    /// Won (positive) or lost, in cents.
    pub cents: i64,
}

/// The balances over some games, and the ids of the games not counted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    /// Each key's balance, sorted by names, then fingerprint.
    pub balances: Vec<Balance>,
    /// The games given more than once with different results, whose stakes are not counted.
    pub disputed: Vec<String>,
}

/// The winner of each finished game played for stakes pockets the loser's whole stake.
#[must_use]
pub fn ledger<'a>(games: impl IntoIterator<Item = &'a Summary>) -> Ledger {
    // Each game id's finished results, by (winner, stakes): one distinct result is counted.
    let mut by_game: BTreeMap<String, Vec<&Summary>> = BTreeMap::new();
    for s in games {
        if s.stakes.is_some() && s.winner.is_some() {
            let copies = by_game.entry(s.game_id.to_string()).or_default();
            if !copies
                .iter()
                .any(|c| (&c.winner, c.stakes) == (&s.winner, s.stakes))
            {
                copies.push(s);
            }
        }
    }
    let mut by_key: BTreeMap<String, (BTreeSet<String>, i64)> = BTreeMap::new();
    let mut disputed = Vec::new();
    for (id, copies) in by_game {
        let [s] = copies[..] else {
            disputed.push(id);
            continue;
        };
        let (Some(stakes), Some(w)) = (s.stakes, s.winner_seat) else {
            continue;
        };
        let loss = i64::from(stakes[w.other()]);
        for (seat, change) in [(w, loss), (w.other(), -loss)] {
            let entry = by_key.entry(s.fingerprints[seat].clone()).or_default();
            entry.0.insert(s.players[seat].0.clone());
            entry.1 += change;
        }
    }
    let mut balances: Vec<Balance> = by_key
        .into_iter()
        .map(|(fingerprint, (names, cents))| Balance {
            fingerprint,
            names: names.into_iter().collect(),
            cents,
        })
        .collect();
    balances.sort_by(|a, b| (&a.names, &a.fingerprint).cmp(&(&b.names, &b.fingerprint)));
    Ledger { balances, disputed }
}
