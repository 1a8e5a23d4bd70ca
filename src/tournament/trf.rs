//! FIDE's Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2) of an event, so that
//! pairing programs, tournament managers and rating officers read its players and results.
//! Each player's starting rank is their number from the lot; each round is a 10-column block
//! from column 92: the opponent's number, the colour, and the result (`1`, `=`, `0`; `+` and
//! `-` for a game decided by default; blank for a game not finished, cancelled or annulled;
//! `0000 -` for a round without a game).

use crate::tournament::crosstable::Result as Outcome;
use crate::tournament::event::Event;
use crate::tournament::file::System;
use crate::tournament::table::{State, Table};
use std::fmt::Write as _;

/// The TRF-16 text of `event` standing as `table` says, lines ending with LF.
#[must_use]
pub fn trf(event: &Event, table: &Table) -> String {
    let h = &event.header;
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", h.event);
    if let Some(site) = h.tags.get("Site") {
        let _ = writeln!(out, "022 {site}");
    }
    let _ = writeln!(out, "042 {}", date(h.created.as_str()));
    let _ = writeln!(out, "062 {}", event.entrants.len());
    let system = match h.system {
        System::RoundRobin => "Round robin",
        System::DoubleRoundRobin => "Double round robin",
    };
    let _ = writeln!(out, "092 Individual: {system}");
    let _ = writeln!(out, "102 {}", h.director.name);
    let _ = writeln!(out, "122 {}", h.time_control);
    let Some(schedule) = &event.schedule else {
        return out;
    };
    let n = event.entrants.len();
    let place_of = |number: usize| {
        table
            .standings
            .iter()
            .find(|s| s.line.player == number)
            .map(|s| (s.line.halves, s.place))
    };
    for number in 1..=n {
        let Some(e) = event.numbered(number) else {
            continue;
        };
        let (halves, place) = place_of(number).unwrap_or((0, 0));
        let name: String = event.entrants[e].name.chars().take(33).collect();
        // Sex (column 10) and title (11-13) are not known; the name is columns 15-47.
        let mut line = format!("001 {number:>4}      {name:<33}");
        // Rating, federation, FIDE number and birth date: none is known.
        // Columns are characters: a name need not be ASCII.
        line.push_str(&" ".repeat(80usize.saturating_sub(line.chars().count())));
        let _ = write!(
            line,
            "{:>2}.{} {place:>4}",
            halves / 2,
            if halves % 2 == 1 { 5 } else { 0 }
        );
        for round in 1..=schedule.rounds.len() {
            line.push_str("  ");
            line.push_str(&block(event, table, number, round));
        }
        // Not trimmed: a round's block is its 10 columns, a blank result among them.
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The 8 columns of a round for the player of `number`: opponent, colour, result.
fn block(event: &Event, table: &Table, number: usize, round: usize) -> String {
    let board = table.boards.iter().find(|b| {
        b.pairing.round == round && (b.pairing.white == number || b.pairing.black == number)
    });
    let Some(board) = board else {
        return "0000 -  ".to_owned();
    };
    let white = board.pairing.white == number;
    let opponent = if white {
        board.pairing.black
    } else {
        board.pairing.white
    };
    let mine = |r: Outcome| match (r, white) {
        (Outcome::Draw, _) => '=',
        (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => '1',
        _ => '0',
    };
    let result = match &board.state {
        State::Finished { result, .. } => mine(*result),
        State::Defaulted(result) => {
            if mine(*result) == '1' {
                '+'
            } else {
                '-'
            }
        }
        State::Cancelled | State::Annulled => return "0000 -  ".to_owned(),
        State::NotStarted | State::Playing(_) | State::Disputed(_) => ' ',
    };
    let _ = event;
    format!("{opponent:>4} {} {result}", if white { 'w' } else { 'b' })
}

/// `YYYY/MM/DD` from a record's time.
fn date(time: &str) -> String {
    time.get(..10).unwrap_or(time).replace('-', "/")
}
