//! An event's standing from its tournament file and its games: each pairing's state (not
//! started, in play, finished, or as a withdrawal's decision leaves it), the games that are not
//! their pairing, and the crosstable with the event's tie-breaks and, last, the lot.

use crate::digest::Digest;
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
}

/// The standing of `event` from `games` (every valid game found, by index: those that name
/// another event, or none, are passed over), `forked` naming the games whose copies fork.
#[must_use]
pub fn table(event: &Event, games: &[(usize, &Summary)], forked: &BTreeSet<Digest>) -> Table {
    table_until(event, games, forked, usize::MAX)
}

/// The standing as [`table`] makes it, with only the director's decisions and Swiss byes of
/// the documents before `until`: what a Swiss round paired in document `until` was paired from.
#[must_use]
pub fn table_until(
    event: &Event,
    games: &[(usize, &Summary)],
    forked: &BTreeSet<Digest>,
    until: usize,
) -> Table {
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
    for (k, pairing) in pairings.iter().enumerate() {
        let copies = found.remove(&k).unwrap_or_default();
        let (state, files) = board(pairing, &copies, forked, &mut refused);
        boards.push(Board {
            pairing: *pairing,
            state,
            files,
        });
    }
    refused.sort();
    let annulled = apply_decisions(event, &mut boards, until);
    let byes: Vec<usize> = event
        .swiss
        .iter()
        .filter(|r| r.document < until)
        .filter_map(|r| r.pairing.bye)
        .filter(|b| !annulled.contains(b))
        .collect();
    let standings = standings(event, &boards, &byes, &annulled);
    let finished = !boards.is_empty() && boards.iter().all(|b| b.state.settled());
    Table {
        boards,
        standings,
        finished,
        refused,
    }
}

/// A pairing's state from its games here (by game id: their files, and the copy furthest on),
/// and the files of the game that is its own. A game is the pairing's once its Black player
/// has accepted it: White alone cannot make a second game that voids the first, so a game
/// Black never accepted beside one Black did is refused; two games Black accepted leave the
/// pairing in dispute, and two that none accepted leave it unstarted.
fn board(
    pairing: &Pairing,
    copies: &BTreeMap<Digest, (Vec<usize>, &Summary)>,
    forked: &BTreeSet<Digest>,
    refused: &mut Vec<(usize, String)>,
) -> (State, Vec<usize>) {
    let accepted: Vec<&Digest> = copies
        .iter()
        .filter(|(_, (_, s))| s.records > 0)
        .map(|(id, _)| id)
        .collect();
    let chosen = match (copies.len(), accepted.as_slice()) {
        (0, _) => return (State::NotStarted, Vec::new()),
        (1, _) => copies.keys().next(),
        (_, [one]) => Some(*one),
        _ => None,
    };
    let place = format!("round {}, board {}", pairing.round, pairing.board);
    for (id, (files, _)) in copies {
        if Some(id) == chosen {
            continue;
        }
        let why = match chosen {
            Some(_) => format!(
                "{place} has another game here, which its Black player accepted: one pairing is \
                 one game, and this one was never accepted"
            ),
            None if accepted.is_empty() => format!(
                "{place} has {} games here, none accepted yet: one pairing is one game, and the \
                 one its Black player accepts is the game",
                copies.len()
            ),
            None => format!(
                "{place} has {} games here that its Black player accepted: one pairing is one \
                 game, so none of them counts",
                accepted.len()
            ),
        };
        refused.extend(files.iter().map(|&f| (f, why.clone())));
    }
    let Some(id) = chosen else {
        let state = if accepted.is_empty() {
            State::NotStarted
        } else {
            State::Disputed(format!("{} games accepted for one pairing", accepted.len()))
        };
        return (
            state,
            copies.values().flat_map(|(f, _)| f.clone()).collect(),
        );
    };
    let (files, summary) = &copies[id];
    let state = if forked.contains(id) {
        State::Disputed("copies of its game fork".into())
    } else {
        of_game(summary)
    };
    (state, files.clone())
}

/// A game's state for the crosstable.
fn of_game(summary: &Summary) -> State {
    match &summary.phase {
        Phase::Over(verdict) => {
            let result = match verdict.winner {
                None => Outcome::Draw,
                Some(Seat::Creator) => Outcome::WhiteWins,
                Some(Seat::Opponent) => Outcome::BlackWins,
            };
            let how = summary.result.clone().unwrap_or_default();
            State::Finished { result, how }
        }
        _ => State::Playing(summary.status.clone()),
    }
}

/// Applies the director's decisions, in the order of the file: an annulment takes every game
/// of the player; a cancellation or a default takes their games that are not finished in the
/// files (a finished game keeps its result, whenever it ended: the times players give their
/// records decide nothing here, so that no one can undo a decision by dating a record). Returns
/// the numbers of the players annulled. Only the decisions of documents before `until` apply.
fn apply_decisions(event: &Event, boards: &mut [Board], until: usize) -> BTreeSet<usize> {
    let mut decisions: Vec<(usize, usize, Decision)> = event
        .entrants
        .iter()
        .enumerate()
        .filter_map(|(e, entrant)| {
            let (decision, doc, _) = entrant.decision.as_ref()?;
            (*doc < until).then_some((*doc, e, *decision))
        })
        .collect();
    decisions.sort_by_key(|d| d.0);
    let mut annulled = BTreeSet::new();
    for (_, e, decision) in decisions {
        let Some(number) = event.number_of(e) else {
            continue;
        };
        if decision == Decision::Annul {
            annulled.insert(number);
        }
        for board in boards
            .iter_mut()
            .filter(|b| b.pairing.white == number || b.pairing.black == number)
        {
            board.state = match (decision, &board.state) {
                (Decision::Annul, _) => State::Annulled,
                (
                    _,
                    State::Finished { .. }
                    | State::Cancelled
                    | State::Defaulted(_)
                    | State::Annulled,
                ) => continue,
                (Decision::Cancel, _) => State::Cancelled,
                (Decision::Default, _) if board.pairing.white == number => {
                    State::Defaulted(Outcome::BlackWins)
                }
                (Decision::Default, _) => State::Defaulted(Outcome::WhiteWins),
            };
        }
    }
    annulled
}

/// How many of the games of the player of `number` are finished in the files, of how many: what
/// `annul-under-half` decides by.
#[must_use]
pub fn played(table: &Table, number: usize) -> (usize, usize) {
    let theirs = table
        .boards
        .iter()
        .filter(|b| b.pairing.white == number || b.pairing.black == number);
    let total = theirs.clone().count();
    let finished = theirs
        .filter(|b| matches!(b.state, State::Finished { .. }))
        .count();
    (finished, total)
}

/// The crosstable of the counted results, annulled players last; ties the tie-breaks leave
/// parted by the lot.
fn standings(
    event: &Event,
    boards: &[Board],
    byes: &[usize],
    annulled: &BTreeSet<usize>,
) -> Vec<Standing> {
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
    let lines = crosstable::crosstable(numbers.len(), &games, byes, &event.header.tie_breaks);
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
