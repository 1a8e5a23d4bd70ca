//! A Swiss event's rounds: paired one at a time by a pairing program the director runs (FIDE's
//! Dutch system is large and subtle, and two good programs exist), each pairing signed in the
//! tournament file with the program, its version and the digest of the report file it was
//! given. This module makes that report file from the files (so anyone can check the digest
//! and run the program again), reads the program's answer, and holds every `pair` record to
//! what the Swiss system forbids outright: a player present left out or paired twice, a player
//! who withdrew paired, a second bye.

use crate::digest::Digest;
use crate::replay::Summary;
use crate::tournament::event::{Event, EventErrorKind, PairedRound};
use crate::tournament::file::{SwissPairing, System};
use crate::tournament::table::{Table, table_until};
use crate::tournament::trf::{Purpose, report};
use std::collections::BTreeSet;

/// Checks a `pair` record, document `i`, against the event as the records before it leave it.
///
/// # Errors
/// What is out of place or breaks the Swiss system's absolute rules, in words.
pub fn check_round(event: &Event, p: &SwissPairing, i: usize) -> Result<(), EventErrorKind> {
    let fail = |text: String| Err(EventErrorKind::Pair(text));
    let Some(rounds) = event
        .header
        .rounds
        .filter(|_| event.header.system == System::Swiss)
    else {
        return fail(format!(
            "a {} is paired by its lot, not by `pair` records",
            event.header.system
        ));
    };
    if event.numbers.is_none() {
        return fail("a round is paired once the lot has numbered the players".into());
    }
    let next = event.swiss.len() + 1;
    if next > rounds as usize {
        return fail(format!(
            "every round of the event is paired already (it plays {rounds})"
        ));
    }
    if p.round as usize != next {
        return fail(format!(
            "this pairs round {}; the next round is {next}",
            p.round
        ));
    }
    let present = event.present(i);
    if present.len() < 2 {
        return fail(format!(
            "{} present: a round needs two players",
            if present.len() == 1 {
                "one player is"
            } else {
                "no player is"
            }
        ));
    }
    let mut seen = BTreeSet::new();
    let numbers = p.games.iter().flat_map(|&(w, b)| [w, b]).chain(p.bye);
    for number in numbers {
        if !seen.insert(number) {
            return fail(format!("player {number} is paired twice in this round"));
        }
        if !present.contains(&number) {
            return fail(if event.numbered(number).is_some() {
                format!(
                    "player {number} withdrew, or was decided on by the director, before this \
                     round, and is not paired"
                )
            } else {
                format!("the event has no player {number}")
            });
        }
    }
    if let Some(missing) = present.iter().find(|n| !seen.contains(n)) {
        return fail(format!(
            "player {missing} is present and not paired: every player present has a game or \
             the bye"
        ));
    }
    if p.bye.is_some() != (present.len() % 2 == 1) {
        return fail(format!(
            "{} players are present, so the round has {} bye",
            present.len(),
            if present.len() % 2 == 1 { "one" } else { "no" }
        ));
    }
    if let Some(bye) = p.bye
        && let Some(before) = event.swiss.iter().find(|r| r.pairing.bye == Some(bye))
    {
        return fail(format!(
            "player {bye} had the bye in round {} already: no player has it twice",
            before.pairing.round
        ));
    }
    Ok(())
}

/// The report file a pairing program is given to pair `round`: the event's players by their
/// numbers, and their results in the rounds before it, as `table` has them; a player who
/// withdrew before the round is marked absent from it.
#[must_use]
pub fn input(event: &Event, table: &Table, round: usize) -> String {
    report(event, table, Purpose::Pair(round))
}

/// The report file of `round` as `games` give it: from the standing the records before its
/// `pair` record left (before the next document, for the round not paired yet), so that a
/// decision signed after a round was paired does not change that round's input.
#[must_use]
pub fn input_from_games(
    event: &Event,
    games: &[(usize, &Summary)],
    forked: &BTreeSet<Digest>,
    round: usize,
) -> String {
    let until = event.pairing_document(round);
    input(event, &table_until(event, games, forked, until), round)
}

/// The Swiss rounds whose `pair` record names an input the files do not give: the first, with
/// what the files give instead. Each is checked against the standing as the records before it
/// left it (a decision made after a round was paired does not change that round's input).
/// With none of the event's games among `games` (its tournament file checked alone), there is
/// nothing to check an input against.
#[must_use]
pub fn unfounded(
    event: &Event,
    games: &[(usize, &Summary)],
    forked: &BTreeSet<Digest>,
) -> Option<(PairedRound, Digest)> {
    let claimed = |s: &Summary| {
        s.header
            .as_deref()
            .and_then(crate::tournament::pairing::claimed)
            == Some(event.id)
    };
    if !games.iter().any(|(_, s)| claimed(s)) {
        return None;
    }
    for round in &event.swiss {
        let text = input_from_games(event, games, forked, round.pairing.round as usize);
        let digest = Digest::of(text.as_bytes());
        if digest != round.pairing.input {
            return Some((round.clone(), digest));
        }
    }
    None
}

/// A round's pairs: the games (White's and Black's numbers) board by board, and the bye.
pub type Pairs = (Vec<(usize, usize)>, Option<usize>);

/// A pairing program's answer: the number of pairs, then one `white black` line each, `0` for
/// the bye's opponent. The games in its order, and the bye.
///
/// # Errors
/// What in the answer is not that form, in words.
pub fn parse_output(text: &str) -> Result<Pairs, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let count: usize = lines
        .next()
        .and_then(|l| l.parse().ok())
        .ok_or("its first line is not the number of pairs")?;
    let mut games = Vec::new();
    let mut bye = None;
    for (k, line) in lines.enumerate() {
        let numbers: Vec<usize> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| format!("line {} is not two players' numbers", k + 2))?;
        match numbers.as_slice() {
            &[a, 0] | &[0, a] if a > 0 && bye.is_none() => bye = Some(a),
            &[a, 0] | &[0, a] if a > 0 => return Err("it gives two byes".into()),
            &[white, black] if white > 0 && black > 0 => games.push((white, black)),
            _ => return Err(format!("line {} is not two players' numbers", k + 2)),
        }
    }
    let pairs = games.len() + usize::from(bye.is_some());
    if pairs != count {
        return Err(format!("it announces {count} pairs and gives {pairs}"));
    }
    Ok((games, bye))
}

#[cfg(test)]
mod tests;
