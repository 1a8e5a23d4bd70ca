//! An event's standing from its tournament file and its games: each pairing's state (not
//! started, in play, finished, or as a withdrawal's decision leaves it), the games that are not
//! their pairing, and the crosstable with the event's tie-breaks and, last, the lot.

use crate::digest::Digest;
use crate::log::Timestamp;
use crate::replay::{Phase, Seat, Summary};
use crate::tournament::crosstable::{self, Game, Line, Result as Outcome};
use crate::tournament::event::Event;
use crate::tournament::file::Decision;
use crate::tournament::pairing::{Pairing, claimed};
use std::collections::{BTreeMap, BTreeSet};

/// A pairing's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// No game of it is here.
    NotStarted,
    /// Its game goes on; what it waits for.
    Playing(String),
    /// Its game is over.
    Finished {
        /// The result.
        result: Outcome,
        /// How it ended, in words.
        how: String,
    },
    /// More than one game for it, or copies of its game that fork: no result counts until
    /// the director settles which is the game.
    Disputed(String),
    /// A withdrawal's decision cancelled it: it counts for no one.
    Cancelled,
    /// A withdrawal's decision defaulted it: lost by the player who withdrew.
    Defaulted(Outcome),
    /// A withdrawal's decision annulled every result of one of its players.
    Annulled,
}

impl State {
    /// The result that counts, if any.
    #[must_use]
    pub fn counted(&self) -> Option<Outcome> {
        match self {
            State::Finished { result, .. } | State::Defaulted(result) => Some(*result),
            _ => None,
        }
    }

    /// Whether the pairing waits for nothing more.
    #[must_use]
    pub fn settled(&self) -> bool {
        !matches!(
            self,
            State::NotStarted | State::Playing(_) | State::Disputed(_)
        )
    }
}

/// A pairing and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The pairing.
    pub pairing: Pairing,
    /// Its state.
    pub state: State,
    /// The files of its game (its copies, or the games in dispute), by index into the games
    /// given.
    pub files: Vec<usize>,
}

/// A player's line of the crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The entrant (an index into the event's entrants).
    pub entrant: usize,
    /// Points, played games and tie-breaks; `rank` shared where nothing parts players.
    pub line: Line,
    /// The place, ties parted by the lot: once the event is over, its final ranking.
    pub place: usize,
    /// Whether the lot parted this player from another with the same rank.
    pub by_lot: bool,
    /// Whether the player's results were annulled (they are then last, and unranked).
    pub annulled: bool,
}

/// The event's standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Every pairing, round by round.
    pub boards: Vec<Board>,
    /// The players, best first.
    pub standings: Vec<Standing>,
    /// Whether every pairing is settled: the ranking is final.
    pub finished: bool,
    /// Games that name the event but are not a pairing's game: (index, why).
    pub refused: Vec<(usize, String)>,
    /// Decisions the games show to break the event's rule (an annulment with half the games
    /// played or more).
    pub problems: Vec<String>,
}

/// The standing of `event` from `games` (every valid game found, by index: those that name
/// another event, or none, are passed over), `forked` naming the games whose copies fork.
#[must_use]
pub fn table(event: &Event, games: &[(usize, &Summary)], forked: &BTreeSet<Digest>) -> Table {
    let pairings = event.pairings();
    let mut refused = Vec::new();
    // Each pairing's games, by game id: (files, the copy furthest on).
    let mut found: BTreeMap<usize, BTreeMap<Digest, (Vec<usize>, &Summary)>> = BTreeMap::new();
    for &(file, summary) in games {
        let Some(header) = summary.header.as_deref() else {
            continue;
        };
        if claimed(header) != Some(event.id) {
            continue;
        }
        match event.pairing_of(header) {
            Err(why) => refused.push((file, why)),
            Ok(pairing) => {
                let k = pairings
                    .iter()
                    .position(|p| *p == pairing)
                    .expect("a pairing of the event");
                let copies = found.entry(k).or_default();
                let entry = copies
                    .entry(summary.game_id)
                    .or_insert((Vec::new(), summary));
                entry.0.push(file);
                if summary.records > entry.1.records {
                    entry.1 = summary;
                }
            }
        }
    }
    let mut boards: Vec<Board> = Vec::with_capacity(pairings.len());
    let mut ended: Vec<Option<Timestamp>> = Vec::with_capacity(pairings.len());
    for (k, pairing) in pairings.iter().enumerate() {
        let copies = found.remove(&k).unwrap_or_default();
        let files: Vec<usize> = copies.values().flat_map(|(f, _)| f.clone()).collect();
        let (state, end) = match copies.len() {
            0 => (State::NotStarted, None),
            1 => {
                let (id, (_, summary)) = copies.iter().next().expect("one game");
                if forked.contains(id) {
                    (State::Disputed("copies of its game fork".into()), None)
                } else {
                    of_game(summary)
                }
            }
            n => {
                for &file in &files {
                    refused.push((
                        file,
                        format!(
                            "round {}, board {} has {n} games here: one pairing is one game, and \
                             the director settles which",
                            pairing.round, pairing.board
                        ),
                    ));
                }
                (State::Disputed(format!("{n} games for one pairing")), None)
            }
        };
        boards.push(Board {
            pairing: *pairing,
            state,
            files,
        });
        ended.push(end);
    }
    refused.sort();
    let (annulled, problems) = apply_decisions(event, &mut boards, &ended);
    let standings = standings(event, &boards, &annulled);
    let finished = !boards.is_empty() && boards.iter().all(|b| b.state.settled());
    Table {
        boards,
        standings,
        finished,
        refused,
        problems,
    }
}

/// A game's state for the crosstable, and when it ended.
fn of_game(summary: &Summary) -> (State, Option<Timestamp>) {
    match &summary.phase {
        Phase::Over(verdict) => {
            let result = match verdict.winner {
                None => Outcome::Draw,
                Some(Seat::Creator) => Outcome::WhiteWins,
                Some(Seat::Opponent) => Outcome::BlackWins,
            };
            let how = summary.result.clone().unwrap_or_default();
            (State::Finished { result, how }, summary.last_time.clone())
        }
        _ => (State::Playing(summary.status.clone()), None),
    }
}

/// Applies each withdrawal's decision to the withdrawn player's games that had not ended when
/// it was signed (a game that ended at or before it stands; an annulment takes them all), in
/// the order of the file. Returns the numbers of the players annulled, and the annulments the
/// games show the rule did not allow, in words.
fn apply_decisions(
    event: &Event,
    boards: &mut [Board],
    ended: &[Option<Timestamp>],
) -> (BTreeSet<usize>, Vec<String>) {
    let mut decisions: Vec<(usize, usize, Decision, &Timestamp)> = event
        .entrants
        .iter()
        .enumerate()
        .filter_map(|(e, entrant)| {
            let (decision, doc, time) = entrant.decision.as_ref()?;
            Some((*doc, e, *decision, time))
        })
        .collect();
    decisions.sort_by_key(|d| d.0);
    let (mut annulled, mut problems) = (BTreeSet::new(), Vec::new());
    for (doc, e, decision, time) in decisions {
        let Some(number) = event.number_of(e) else {
            continue;
        };
        let theirs: Vec<usize> = (0..boards.len())
            .filter(|&k| boards[k].pairing.white == number || boards[k].pairing.black == number)
            .collect();
        let stands = |k: usize| ended[k].as_ref().is_some_and(|t| t <= time);
        let played = theirs.iter().filter(|&&k| stands(k)).count();
        if decision == Decision::Annul {
            if 2 * played >= theirs.len() {
                problems.push(format!(
                    "the director annulled the results of {} (record {doc}), but {played} of \
                     their {} games had ended by then: the rule allows it only under half",
                    event.entrants[e].name,
                    theirs.len()
                ));
                continue;
            }
            annulled.insert(number);
        }
        for k in theirs {
            let board = &mut boards[k];
            let decided = matches!(
                board.state,
                State::Cancelled | State::Defaulted(_) | State::Annulled
            );
            board.state = match decision {
                Decision::Annul => State::Annulled,
                _ if stands(k) || decided => continue,
                Decision::Cancel => State::Cancelled,
                Decision::Default if board.pairing.white == number => {
                    State::Defaulted(Outcome::BlackWins)
                }
                Decision::Default => State::Defaulted(Outcome::WhiteWins),
            };
        }
    }
    (annulled, problems)
}

/// The crosstable of the counted results, annulled players last; ties the tie-breaks leave
/// parted by the lot.
fn standings(event: &Event, boards: &[Board], annulled: &BTreeSet<usize>) -> Vec<Standing> {
    let (Some(numbers), Some(lot)) = (&event.numbers, &event.tie_break_lot) else {
        return Vec::new();
    };
    let games: Vec<Game> = boards
        .iter()
        .filter(|b| b.state != State::Annulled)
        .map(|b| Game {
            white: b.pairing.white,
            black: b.pairing.black,
            result: b.state.counted(),
        })
        .collect();
    let lines = crosstable::crosstable(numbers.len(), &games, &event.header.tie_breaks);
    let lot_place = |number: usize| {
        let e = numbers[number - 1];
        lot.iter().position(|&x| x == e).unwrap_or(usize::MAX)
    };
    let mut lines: Vec<Line> = lines;
    lines.sort_by_key(|l| (annulled.contains(&l.player), l.rank, lot_place(l.player)));
    // A player whose results were annulled is ranked with no one.
    let shared = |i: usize| {
        let rank = lines[i].rank;
        let same = |j: usize| {
            lines
                .get(j)
                .is_some_and(|l: &Line| l.rank == rank && !annulled.contains(&l.player))
        };
        (i > 0 && same(i - 1)) || same(i + 1)
    };
    (0..lines.len())
        .map(|i| Standing {
            entrant: numbers[lines[i].player - 1],
            line: lines[i].clone(),
            place: i + 1,
            by_lot: shared(i) && !annulled.contains(&lines[i].player),
            annulled: annulled.contains(&lines[i].player),
        })
        .collect()
}
