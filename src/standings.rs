//! A club's standings: for each game, each player's games played, won, drawn and lost, and
//! points, over the games given. A player is a key, not a name (anyone can call themselves
//! alice); a game is counted once however many copies of it are given, by its furthest copy;
//! a game whose finished copies end differently is not counted, and is named.
//!
//! Pure: the summaries of replayed games in, the tables out, in a fixed order.

use crate::replay::{Phase, Summary};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One player's line in a game's table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// The key's SHA-256 fingerprint: who the player is.
    pub fingerprint: String,
    /// The names the key played under, sorted.
    pub names: Vec<String>,
    /// Finished games.
    pub played: u32,
    /// Of those, won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Points in halves: a win is 2, a draw 1 (so that the count stays whole).
    #[serde(skip)]
    pub half_points: u32,
    /// Points: a win 1, a draw ½.
    pub points: f64,
    /// Games still going on.
    pub in_progress: u32,
}

impl Line {
    /// A line with nothing counted yet.
    fn new(fingerprint: &str) -> Line {
        Line {
            fingerprint: fingerprint.to_owned(),
            names: Vec::new(),
            played: 0,
            won: 0,
            drawn: 0,
            lost: 0,
            half_points: 0,
            points: 0.0,
            in_progress: 0,
        }
    }

    /// Counts one game the player sat in at `seat`, as it stands (`phase`).
    fn count(&mut self, phase: &Phase, seat: usize) {
        let Phase::Over(verdict) = phase else {
            self.in_progress += 1;
            return;
        };
        self.played += 1;
        match verdict.winner.map(|w| w.index() == seat) {
            Some(true) => {
                self.won += 1;
                self.half_points += 2;
            }
            Some(false) => self.lost += 1,
            None => {
                self.drawn += 1;
                self.half_points += 1;
            }
        }
    }
}

/// The table of one game (`campaign`, `chess`, ...).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// The game's name.
    pub game: String,
    /// How many different games of it were counted.
    pub games: usize,
    /// The players, most points first, then most wins, then by name and fingerprint.
    pub lines: Vec<Line>,
}

/// The standings over some games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// One table per game, by the game's name.
    pub tables: Vec<Table>,
    /// The ids of the games given more than once with different results, not counted.
    pub disputed: Vec<String>,
    /// How many different games were counted (each id once).
    pub games: usize,
}

/// The standings over `games` (summaries of valid files; copies of one game allowed).
#[must_use]
pub fn standings<'a>(games: impl IntoIterator<Item = &'a Summary>) -> Standings {
    let mut by_id: BTreeMap<String, Vec<&Summary>> = BTreeMap::new();
    for game in games {
        by_id
            .entry(game.game_id.to_string())
            .or_default()
            .push(game);
    }
    let mut lines: BTreeMap<(String, String), (BTreeSet<String>, Line)> = BTreeMap::new();
    let mut disputed = Vec::new();
    let counted = by_id.len();
    let mut per_game: BTreeMap<String, usize> = BTreeMap::new();
    for (id, copies) in &by_id {
        let Some(game) = counted_copy(copies) else {
            disputed.push(id.clone());
            continue;
        };
        *per_game.entry(game.game.clone()).or_default() += 1;
        for (seat, fingerprint) in game.fingerprints.iter().enumerate() {
            let key = (game.game.clone(), fingerprint.clone());
            let (names, line) = lines
                .entry(key)
                .or_insert_with(|| (BTreeSet::new(), Line::new(fingerprint)));
            names.insert(game.players[seat].0.clone());
            line.count(&game.phase, seat);
        }
    }
    let mut tables: BTreeMap<String, Vec<Line>> = BTreeMap::new();
    for ((game, _), (names, mut line)) in lines {
        line.names = names.into_iter().collect();
        line.points = f64::from(line.half_points) / 2.0;
        tables.entry(game).or_default().push(line);
    }
    let tables = tables
        .into_iter()
        .map(|(game, mut lines)| {
            lines.sort_by(|a, b| {
                (b.half_points, b.won)
                    .cmp(&(a.half_points, a.won))
                    .then_with(|| (&a.names, &a.fingerprint).cmp(&(&b.names, &b.fingerprint)))
            });
            Table {
                games: per_game.get(&game).copied().unwrap_or_default(),
                game,
                lines,
            }
        })
        .collect();
    Standings {
        tables,
        games: counted - disputed.len(),
        disputed,
    }
}

/// The copy of a game that counts: a finished one, when all the finished copies agree on how
/// it ended (a copy behind is the same game, not yet there); else the copy with the most
/// records. `None` when finished copies disagree.
fn counted_copy<'a>(copies: &[&'a Summary]) -> Option<&'a Summary> {
    let finished: Vec<&Summary> = copies
        .iter()
        .copied()
        .filter(|c| matches!(c.phase, Phase::Over(_)))
        .collect();
    match finished.first() {
        Some(first) => finished
            .iter()
            .all(|c| c.phase == first.phase)
            .then_some(*first),
        None => copies.iter().copied().max_by_key(|c| c.records),
    }
}

#[cfg(test)]
mod tests;
