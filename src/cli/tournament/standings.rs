//! `correspond tournament standings`: an event's crosstable from its tournament file and the
//! games beside it, as text or JSON (schemas/tournament-standings.schema.json).

use super::check::CheckedEvent;
use super::tournament_file;
use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::verify::{Checked, gather};
use crate::cli::shared::error::ExitStatus;
use correspond::tournament::crosstable::{Result as Outcome, TieBreak};
use correspond::tournament::event::Event;
use correspond::tournament::file::{System, tie_break_name};
use correspond::tournament::table::{Standing, State, Table};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// An event's crosstable: every player's results against every other, points, the event's
/// tie-breaks in order and the lot after them, with each pairing's state (or its result), the
/// withdrawals and the director's decisions. Computed from the tournament file and the games
/// found beside it (in its folder and below), each proven to be its pairing's game.
///
/// Exit code: 0 when the event and its games are valid, 1 when the tournament file is invalid
/// or a game that names the event is not its pairing's, 2 when a file cannot be read.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The tournament file, or the folder that holds it as tournament.yaml.
    #[arg(value_name = "TOURNAMENT")]
    tournament: PathBuf,
    /// Print JSON (schemas/tournament-standings.schema.json).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

/// The tournament file `path` names, checked to be one, and every game file of its folder
/// checked, the forks among them found.
pub(crate) fn games_beside(path: &Path) -> Result<Beside, CliError> {
    let file = tournament_file(path);
    let shown = correspond::text::path(&file);
    if !file.is_file() {
        return Err(CliError::usage(if path.is_dir() {
            format!("{} holds no tournament file", correspond::text::path(path))
        } else {
            format!("{shown} is not there")
        })
        .hint("give a tournament file, or the folder that holds it as tournament.yaml"));
    }
    let head = crate::cli::shared::record::read(&file)?;
    if !correspond::tournament::file::starts_as_a_tournament(&head) {
        return Err(CliError::usage(format!("{shown} is not a tournament file"))
            .hint("give a tournament file, or the folder that holds it as tournament.yaml"));
    }
    let folder = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let found = gather(&[folder]);
    let checked = crate::cli::checking::verify::check(&found.games);
    let forks = crate::cli::checking::verify::forks(&found.games, &checked);
    Ok(Beside {
        file,
        games: found.games,
        checked,
        forks,
    })
}

/// A tournament file and the games of its folder, checked.
pub(crate) struct Beside {
    pub(crate) file: PathBuf,
    pub(crate) games: Vec<PathBuf>,
    pub(crate) checked: Vec<Checked>,
    pub(crate) forks: Vec<crate::cli::shared::copies::Forked>,
}

impl Beside {
    /// The games that are valid, by index, and the ids of those whose copies fork.
    pub(crate) fn valid(
        &self,
    ) -> (
        Vec<(usize, &correspond::replay::Summary)>,
        std::collections::BTreeSet<correspond::digest::Digest>,
    ) {
        (
            super::check::valid_games(&self.checked),
            self.forks.iter().map(|f| f.game).collect(),
        )
    }
}

/// The event's file checked with every game file of its folder: the event, and the games'
/// files and states.
pub(crate) fn load(path: &Path) -> Result<(CheckedEvent, Vec<(PathBuf, Checked)>), CliError> {
    let Beside {
        file,
        games,
        mut checked,
        forks,
    } = games_beside(path)?;
    let mut events = super::check::events(&[file], &mut checked, &forks);
    let event = events.pop().expect("one tournament file checked");
    Ok((event, games.into_iter().zip(checked).collect()))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let (checked, games) = load(&args.tournament)?;
    let (event, table) = checked.event()?;
    let named = |i: usize| -> String {
        let p = &games[i].0;
        p.strip_prefix(checked.path.parent().unwrap_or(Path::new("")))
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned()
    };
    if args.json {
        let json = to_json(event, table, &named);
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
    } else {
        write_text(event, table, &named, out)?;
    }
    let status = crate::cli::checking::verify::exit_status(games.iter().map(|(_, c)| c));
    Ok(super::check::status(std::slice::from_ref(&checked), status))
}

/// Points in halves as a crosstable writes them: `3½`, `½`, `0`.
pub(crate) fn points(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_owned(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// A tie-break's value as its unit has it: Sonneborn-Berger in quarters, Koya and the direct
/// encounter in halves, the others in games.
pub(crate) fn tie_break_value(tb: TieBreak, value: u32) -> String {
    match tb {
        TieBreak::SonnebornBerger => {
            let cents = ["", ".25", ".5", ".75"];
            format!("{}{}", value / 4, cents[(value % 4) as usize])
        }
        TieBreak::Koya
        | TieBreak::DirectEncounter
        | TieBreak::Buchholz
        | TieBreak::BuchholzCut1 => points(value),
        TieBreak::Wins | TieBreak::WinsWithBlack => value.to_string(),
    }
}

/// The figure a tie-break's value has in JSON: points as numbers with halves and quarters.
fn tie_break_number(tb: TieBreak, value: u32) -> f64 {
    match tb {
        TieBreak::SonnebornBerger => f64::from(value) / 4.0,
        TieBreak::Koya
        | TieBreak::DirectEncounter
        | TieBreak::Buchholz
        | TieBreak::BuchholzCut1 => f64::from(value) / 2.0,
        TieBreak::Wins | TieBreak::WinsWithBlack => f64::from(value),
    }
}

/// What the player of number `me` scored in a board, as a crosstable's cell writes it.
fn cell(state: &State, me_white: bool) -> &'static str {
    let mine = |result: Outcome, default: bool| match (result, me_white, default) {
        (Outcome::Draw, ..) => "½",
        (Outcome::WhiteWins, true, false) | (Outcome::BlackWins, false, false) => "1",
        (Outcome::WhiteWins, true, true) | (Outcome::BlackWins, false, true) => "+",
        (_, _, false) => "0",
        (_, _, true) => "-",
    };
    match state {
        State::Finished { result, .. } => mine(*result, false),
        State::Defaulted(result) => mine(*result, true),
        State::Cancelled => "x",
        State::Annulled => "a",
        State::NotStarted | State::Playing(_) | State::Disputed(_) => "·",
    }
}

/// A board's state in words.
pub(crate) fn state_words(state: &State) -> String {
    let score = |r: &Outcome| match r {
        Outcome::WhiteWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "½-½",
    };
    match state {
        State::NotStarted => "not started".to_owned(),
        State::Playing(status) => format!("in play: {status}"),
        State::Finished { result, how } => format!("{}: {how}", score(result)),
        State::Disputed(why) => format!("disputed: {why}"),
        State::Cancelled => "cancelled by the director's decision".to_owned(),
        State::Defaulted(r) => format!("{} by default", score(r)),
        State::Annulled => "annulled by the director's decision".to_owned(),
    }
}

fn write_text(
    event: &Event,
    table: &Table,
    named: &dyn Fn(usize) -> String,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let h = &event.header;
    writeln!(out, "{}", super::check::describe(event, table))?;
    writeln!(out, "event id: {}", event.id)?;
    let mut order: Vec<&str> = h.tie_breaks.iter().map(|t| tie_break_name(*t)).collect();
    order.push("the lot");
    writeln!(out, "after points: {}", order.join(", "))?;
    if event.numbers.is_none() {
        let names: Vec<&str> = event.entrants.iter().map(|e| e.name.as_str()).collect();
        writeln!(
            out,
            "entrants: {}",
            if names.is_empty() {
                "none yet".to_owned()
            } else {
                names.join(", ")
            }
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        if table.finished {
            "final ranking: every game is settled".to_owned()
        } else {
            let settled = table.boards.iter().filter(|b| b.state.settled()).count();
            format!(
                "ranking so far: {settled} of {} games settled",
                table.boards.len()
            )
        }
    )?;
    writeln!(out)?;
    write!(out, "{}", crosstable_text(event, table))?;
    writeln!(out, "{}", legend(event))?;
    for (e, entrant) in event.entrants.iter().enumerate() {
        if let Some((doc, _)) = &entrant.withdrawn {
            let decided = entrant.decision.as_ref().map_or_else(
                || "no decision".to_owned(),
                |(d, at, _)| format!("the director decided {d} (record {at})"),
            );
            let _ = e;
            writeln!(out, "withdrawn: {} (record {doc}); {decided}", entrant.name)?;
        }
    }
    writeln!(out)?;
    for board in &table.boards {
        let p = board.pairing;
        let files: Vec<String> = board.files.iter().map(|&i| named(i)).collect();
        let files = if files.is_empty() {
            String::new()
        } else {
            format!(" ({})", files.join(", "))
        };
        writeln!(
            out,
            "round {}, board {}: {}: {}{files}",
            p.round,
            p.board,
            event.matchup(&p),
            state_words(&board.state)
        )?;
    }
    for (i, why) in &table.refused {
        writeln!(out, "refused: {}: {why}", named(*i))?;
    }
    Ok(())
}

/// What the crosstable's marks mean.
pub(crate) fn legend(event: &Event) -> String {
    let swiss = if event.header.system == System::Swiss {
        "3w1: round's opponent, colour, result; bye: the round's bye, a point; -: not paired; "
    } else {
        ""
    };
    format!(
        "{swiss}1 ½ 0: won, drawn, lost; + -: won or lost by default; x: cancelled; a: \
         annulled; ·: not finished; (lot): parted by the lot"
    )
}

/// A player's place as a crosstable shows it: `-` for one whose results were annulled, and
/// `(lot)` where the lot parted them from another.
pub(crate) fn place(s: &Standing) -> String {
    if s.annulled {
        "-".to_owned()
    } else if s.by_lot {
        format!("{} (lot)", s.place)
    } else {
        s.place.to_string()
    }
}

/// The crosstable's cell of the player numbered `me` against `them`: a mark per game between
/// them (two in a double round robin), `×` on the diagonal.
pub(crate) fn cells(table: &Table, me: usize, them: usize) -> String {
    if them == me {
        return "×".to_owned();
    }
    table
        .boards
        .iter()
        .filter(|b| {
            (b.pairing.white == me && b.pairing.black == them)
                || (b.pairing.white == them && b.pairing.black == me)
        })
        .map(|b| cell(&b.state, b.pairing.white == me))
        .collect()
}

/// The crosstable's columns between a player's name and their points: each opponent's number
/// in a round robin; in a Swiss, each paired round (`R1`, `R2`, ...).
pub(crate) fn column_heads(event: &Event) -> Vec<String> {
    if event.header.system == System::Swiss {
        (1..=event.swiss.len()).map(|r| format!("R{r}")).collect()
    } else {
        (1..=event.entrants.len()).map(|k| k.to_string()).collect()
    }
}

/// The cell of the player numbered `me` in column `k` (from 0) of [`column_heads`]: in a Swiss,
/// the round's opponent, colour and mark (`3w1`), `bye`, or `-` for a round the player was not
/// paired in.
pub(crate) fn column_cell(event: &Event, table: &Table, me: usize, k: usize) -> String {
    if event.header.system != System::Swiss {
        return cells(table, me, k + 1);
    }
    let round = k + 1;
    let board = table
        .boards
        .iter()
        .find(|b| b.pairing.round == round && (b.pairing.white == me || b.pairing.black == me));
    match board {
        Some(b) => {
            let white = b.pairing.white == me;
            let opponent = if white {
                b.pairing.black
            } else {
                b.pairing.white
            };
            let colour = if white { 'w' } else { 'b' };
            format!("{opponent}{colour}{}", cell(&b.state, white))
        }
        None if event
            .swiss
            .get(k)
            .is_some_and(|r| r.pairing.bye == Some(me)) =>
        {
            "bye".into()
        }
        None => "-".into(),
    }
}

/// The crosstable's lines, columns aligned.
fn crosstable_text(event: &Event, table: &Table) -> String {
    let columns = column_heads(event);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["place".to_owned(), "no".to_owned(), "player".to_owned()];
    head.extend(columns.iter().cloned());
    head.push("points".to_owned());
    head.extend(event.header.tie_breaks.iter().map(|t| short(*t).to_owned()));
    rows.push(head);
    for s in &table.standings {
        let me = s.line.player;
        let mut row = vec![
            place(s),
            me.to_string(),
            event.entrants[s.entrant].name.clone(),
        ];
        row.extend((0..columns.len()).map(|k| column_cell(event, table, me, k)));
        row.push(points(s.line.halves));
        row.extend(
            event
                .header
                .tie_breaks
                .iter()
                .zip(&s.line.tie_breaks)
                .map(|(tb, v)| tie_break_value(*tb, *v)),
        );
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                let pad = w - cell.chars().count();
                if c == 2 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// A tie-break's column heading.
pub(crate) fn short(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::Wins => "wins",
        TieBreak::SonnebornBerger => "SB",
        TieBreak::DirectEncounter => "DE",
        TieBreak::Koya => "Koya",
        TieBreak::WinsWithBlack => "black wins",
        TieBreak::Buchholz => "Bh",
        TieBreak::BuchholzCut1 => "Bh-1",
    }
}

#[derive(Serialize)]
struct Json {
    event: String,
    event_id: String,
    game: String,
    system: &'static str,
    director: String,
    rated: bool,
    tie_breaks: Vec<&'static str>,
    stage: String,
    finished: bool,
    players: Vec<PlayerJson>,
    games: Vec<GameJson>,
    refused: Vec<RefusedJson>,
}

#[derive(Serialize)]
struct PlayerJson {
    place: Option<usize>,
    rank: Option<usize>,
    by_lot: bool,
    number: usize,
    name: String,
    key: String,
    points: f64,
    played: u32,
    tie_breaks: Vec<TieBreakJson>,
    withdrawn: bool,
    decision: Option<&'static str>,
    annulled: bool,
}

#[derive(Serialize)]
struct TieBreakJson {
    name: &'static str,
    value: f64,
}

#[derive(Serialize)]
struct GameJson {
    round: usize,
    board: usize,
    white: String,
    black: String,
    state: &'static str,
    result: Option<&'static str>,
    how: Option<String>,
    files: Vec<String>,
}

#[derive(Serialize)]
struct RefusedJson {
    file: String,
    error: String,
}

fn to_json(event: &Event, table: &Table, named: &dyn Fn(usize) -> String) -> Json {
    let h = &event.header;
    let name_of = |number: usize| {
        event
            .numbered(number)
            .map(|e| event.entrants[e].name.clone())
            .unwrap_or_default()
    };
    Json {
        event: h.event.clone(),
        event_id: event.id.to_string(),
        game: h.game.clone(),
        system: h.system.name(),
        director: h.director.name.clone(),
        rated: h.rated,
        tie_breaks: h.tie_breaks.iter().map(|t| tie_break_name(*t)).collect(),
        stage: event.stage(),
        finished: table.finished,
        players: table
            .standings
            .iter()
            .map(|s| {
                let e = &event.entrants[s.entrant];
                PlayerJson {
                    place: (!s.annulled).then_some(s.place),
                    rank: (!s.annulled).then_some(s.line.rank),
                    by_lot: s.by_lot,
                    number: s.line.player,
                    name: e.name.clone(),
                    key: e.fingerprint.clone(),
                    points: f64::from(s.line.halves) / 2.0,
                    played: s.line.played,
                    tie_breaks: h
                        .tie_breaks
                        .iter()
                        .zip(&s.line.tie_breaks)
                        .map(|(tb, v)| TieBreakJson {
                            name: tie_break_name(*tb),
                            value: tie_break_number(*tb, *v),
                        })
                        .collect(),
                    withdrawn: e.withdrawn.is_some(),
                    decision: e.decision.as_ref().map(|(d, ..)| d.name()),
                    annulled: s.annulled,
                }
            })
            .collect(),
        games: table
            .boards
            .iter()
            .map(|b| {
                let (state, result, how) = match &b.state {
                    State::NotStarted => ("not-started", None, None),
                    State::Playing(s) => ("playing", None, Some(s.clone())),
                    State::Finished { result, how } => {
                        ("finished", Some(result_name(*result)), Some(how.clone()))
                    }
                    State::Disputed(why) => ("disputed", None, Some(why.clone())),
                    State::Cancelled => ("cancelled", None, None),
                    State::Defaulted(r) => ("defaulted", Some(result_name(*r)), None),
                    State::Annulled => ("annulled", None, None),
                };
                GameJson {
                    round: b.pairing.round,
                    board: b.pairing.board,
                    white: name_of(b.pairing.white),
                    black: name_of(b.pairing.black),
                    state,
                    result,
                    how,
                    files: b.files.iter().map(|&i| named(i)).collect(),
                }
            })
            .collect(),
        refused: table
            .refused
            .iter()
            .map(|(i, why)| RefusedJson {
                file: named(*i),
                error: why.clone(),
            })
            .collect(),
    }
}

fn result_name(r: Outcome) -> &'static str {
    match r {
        Outcome::WhiteWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}
