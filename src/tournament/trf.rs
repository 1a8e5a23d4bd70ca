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

/// What a report file is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The event as it stands, for tournament managers and rating officers.
    Export,
    /// The input of a pairing program asked to pair this Swiss round: the rounds before it,
    /// each player's points after them, the players absent from it, and JaVaFo's extensions
    /// for the number of rounds (`XXR`) and the first colour (`XXC white1`: the lot made player
    /// 1, so it chose who has White first).
    Pair(usize),
}

/// The TRF-16 text of `event` standing as `table` says, lines ending with LF.
#[must_use]
pub fn trf(event: &Event, table: &Table) -> String {
    report(event, table, Purpose::Export)
}

/// The report file of `event` for `purpose`, lines ending with LF.
#[must_use]
pub fn report(event: &Event, table: &Table, purpose: Purpose) -> String {
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
        System::Swiss => "Swiss-System",
    };
    let _ = writeln!(out, "092 Individual: {system}");
    let _ = writeln!(out, "102 {}", h.director.name);
    let _ = writeln!(out, "122 {}", h.time_control);
    let Some(schedule) = &event.schedule else {
        return out;
    };
    let (rounds, absent_from) = match purpose {
        Purpose::Export => (schedule.rounds.len(), None),
        Purpose::Pair(round) => {
            let present = event.present(event.pairing_document(round));
            (round.saturating_sub(1), Some((round, present)))
        }
    };
    let n = event.entrants.len();
    for number in 1..=n {
        let Some(e) = event.numbered(number) else {
            continue;
        };
        let blocks: Vec<(String, u32)> = (1..=rounds)
            .map(|round| block(event, table, number, round))
            .collect();
        let (halves, place) = match purpose {
            // The points of the rounds given; the rank is the starting one, which pairing
            // programs do not read.
            Purpose::Pair(_) => (blocks.iter().map(|b| b.1).sum(), number),
            Purpose::Export => table
                .standings
                .iter()
                .find(|s| s.line.player == number)
                .map_or((0, 0), |s| (s.line.halves, s.place)),
        };
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
        for (text, _) in &blocks {
            line.push_str("  ");
            line.push_str(text);
        }
        if let Some((_, present)) = &absent_from
            && !present.contains(&number)
        {
            line.push_str("  0000 - Z");
        }
        // Not trimmed: a round's block is its 10 columns, a blank result among them.
        let _ = writeln!(out, "{line}");
    }
    if let (Some(_), Some(total)) = (&absent_from, h.rounds) {
        let _ = writeln!(out, "XXR {total}");
        out.push_str("XXC white1\n");
    }
    out
}

/// The 8 columns of a round for the player of `number` (opponent, colour, result), and the
/// points it gave them, in halves.
fn block(event: &Event, table: &Table, number: usize, round: usize) -> (String, u32) {
    let swiss = event.header.system == System::Swiss;
    let board = table.boards.iter().find(|b| {
        b.pairing.round == round && (b.pairing.white == number || b.pairing.black == number)
    });
    let Some(board) = board else {
        let bye = event
            .swiss
            .get(round - 1)
            .is_some_and(|r| r.pairing.bye == Some(number));
        return match (swiss, bye) {
            (true, true) => ("0000 - U".to_owned(), 2),
            (true, false) => ("0000 - Z".to_owned(), 0),
            (false, _) => ("0000 -  ".to_owned(), 0),
        };
    };
    let white = board.pairing.white == number;
    let opponent = if white {
        board.pairing.black
    } else {
        board.pairing.white
    };
    let mine = |r: Outcome| match (r, white) {
        (Outcome::Draw, _) => ('=', 1),
        (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => ('1', 2),
        _ => ('0', 0),
    };
    let (result, halves) = match &board.state {
        State::Finished { result, .. } => mine(*result),
        State::Defaulted(result) => match mine(*result) {
            (_, 2) => ('+', 2),
            _ => ('-', 0),
        },
        State::Cancelled | State::Annulled if swiss => return ("0000 - Z".to_owned(), 0),
        State::Cancelled | State::Annulled => return ("0000 -  ".to_owned(), 0),
        State::NotStarted | State::Playing(_) | State::Disputed(_) => (' ', 0),
    };
    let colour = if white { 'w' } else { 'b' };
    (format!("{opponent:>4} {colour} {result}"), halves)
}

/// `YYYY/MM/DD` from a record's time.
fn date(time: &str) -> String {
    time.get(..10).unwrap_or(time).replace('-', "/")
}
