//! `correspond standings`: a club's tables, for each game: who played, won, drew and lost, and
//! their points, a player being a key; and the playing-for-keeps ledger.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::verify::Checked;
use crate::cli::shared::error::ExitStatus;
use correspond::ledger::{Ledger, ledger};
use correspond::standings::{Standings, standings};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The standings of the games under folders (a repository, a club's folder) or named files:
/// for each game, each player (a key, with the names it played under) with games played, won,
/// drawn and lost, points (a win 1, a draw ½) and games still going on, most points first; then
/// each key's balance over the games played for stakes. A game is counted once however many
/// copies of it there are; one whose copies end differently, or fork (each verifies, and they
/// differ from a record on), is named and not counted. Files that do not verify are named and
/// not counted. Exit code: as `verify`'s, except where there are no game files: that is empty
/// standings (exit code 0), not a check of nothing.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Folders or game files; without any, the current folder.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object (schemas/standings.schema.json).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    ratings: crate::cli::club::ratings::ShowArgs,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

/// `standings --json`.
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    standings: &'a Standings,
    ledger: &'a Ledger,
    /// The files not counted: invalid or unreadable, with why.
    not_counted: Vec<NotCounted>,
    /// Copies of one game that fork: the game is not counted.
    forks: Vec<ForkJson>,
    /// With --ratings: each rated player's rating, by game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ratings: Vec<RatingJson>,
}

#[derive(Serialize)]
struct RatingJson {
    game: String,
    key: String,
    rating: f64,
    deviation: Option<f64>,
    games: u32,
}

#[derive(Serialize)]
struct ForkJson {
    game: String,
    files: [String; 2],
    record: usize,
    equivocation: bool,
}

#[derive(Serialize)]
struct NotCounted {
    file: String,
    error: String,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let crate::cli::checking::verify::Found {
        games: files,
        tournaments,
        passed,
    } = crate::cli::checking::verify::gather(&args.paths);
    let mut checked = crate::cli::checking::verify::check(&files);
    let forks = crate::cli::checking::verify::forks(&files, &checked);
    // A game that is not the pairing it claims does not count.
    let events = crate::cli::tournament::check::events(&tournaments, &mut checked, &forks);
    let shown = crate::cli::club::ratings::shown(&args.ratings, &files, &checked, &events, &forks)?;
    let status = crate::cli::checking::verify::exit_status(&checked);
    let valid = crate::cli::checking::verify::counted(&checked, &forks);
    let named: Vec<PathBuf> = files
        .iter()
        .map(|file| file.strip_prefix(".").unwrap_or(file).to_path_buf())
        .collect();
    let table = standings(valid.iter().copied());
    let balances = ledger(valid.iter().copied());
    let not_counted: Vec<NotCounted> = named
        .iter()
        .zip(&checked)
        .filter_map(|(file, c)| {
            let error = match c {
                Checked::Valid(_) => return None,
                Checked::Invalid(e) => e.to_string(),
                Checked::Unreadable(e) => format!("cannot read: {e}"),
                Checked::Refused(_, why) => why.clone(),
            };
            Some(NotCounted {
                file: file.to_string_lossy().into_owned(),
                error,
            })
        })
        .collect();
    if args.json {
        let json = Json {
            standings: &table,
            ledger: &balances,
            not_counted,
            forks: forks
                .iter()
                .map(|f| ForkJson {
                    game: f.game.to_string(),
                    files: [f.a, f.b].map(|i| named[i].to_string_lossy().into_owned()),
                    record: f.fork.document,
                    equivocation: f.fork.equivocation,
                })
                .collect(),
            ratings: shown
                .iter()
                .flat_map(|list| {
                    list.list.entries.iter().map(|e| RatingJson {
                        game: list.game.clone(),
                        key: list.fingerprint(&e.key),
                        rating: correspond::ratings::rounded(e.rating, 2),
                        deviation: e.deviation.map(|d| correspond::ratings::rounded(d, 2)),
                        games: e.games,
                    })
                })
                .collect(),
        };
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
        return Ok(status);
    }
    write_tables(&table, &shown, out)?;
    write_not_counted(&table, &balances, &forks, &named, &not_counted, out)?;
    if let Some(line) = crate::cli::checking::verify::passed_over_here(&passed) {
        writeln!(out, "{line}")?;
    }
    Ok(status)
}

/// The ledger's balances, then what is not counted and why: games whose copies end differently
/// or fork, and files that are no valid games.
fn write_not_counted(
    table: &Standings,
    balances: &Ledger,
    forks: &[crate::cli::shared::copies::Forked],
    named: &[PathBuf],
    not_counted: &[NotCounted],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    for b in &balances.balances {
        writeln!(
            out,
            "playing for keeps: {} {} {:+}¢",
            b.names.join("/"),
            b.fingerprint,
            b.cents
        )?;
    }
    let disputed: std::collections::BTreeSet<&String> =
        table.disputed.iter().chain(&balances.disputed).collect();
    for id in disputed {
        writeln!(
            out,
            "game {id} is here more than once with different results, and is not counted \
             (`correspond compare` tells the copies apart)"
        )?;
    }
    for f in forks {
        let words = crate::cli::shared::copies::words(f, &named[f.a], &named[f.b]);
        writeln!(out, "not counted: {words}")?;
    }
    for n in not_counted {
        writeln!(
            out,
            "not counted: {}: {}",
            correspond::text::path(Path::new(&n.file)),
            correspond::text::escape(&n.error)
        )?;
    }
    Ok(())
}

fn write_tables(
    table: &Standings,
    shown: &[crate::cli::club::ratings::Shown],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if table.tables.is_empty() {
        writeln!(out, "no games to count")?;
    }
    for t in &table.tables {
        let games = if t.games == 1 { "game" } else { "games" };
        writeln!(out, "{} ({} {games})", t.game, t.games)?;
        // With ratings asked for, a column of each player's rating in the game's list ("-"
        // for a player it does not rate yet).
        let list = (!shown.is_empty()).then(|| shown.iter().find(|l| l.game == t.game));
        let rating_of = |fingerprint: &str| match list {
            None => String::new(),
            Some(list) => format!(
                "{:>10}  ",
                list.and_then(|l| l.of(fingerprint)).map_or_else(
                    || "-".to_owned(),
                    |(_, e)| crate::cli::club::ratings::rating_words(e)
                )
            ),
        };
        writeln!(
            out,
            "       points  played  won  drawn  lost  going on  {}player",
            if list.is_some() { "    rating  " } else { "" }
        )?;
        let mut rank = 0;
        for (i, line) in t.lines.iter().enumerate() {
            // Players level on points and wins share a rank.
            let level = i > 0 && {
                let before = &t.lines[i - 1];
                (before.half_points, before.won) == (line.half_points, line.won)
            };
            if !level {
                rank = i + 1;
            }
            writeln!(
                out,
                "  {:>3}  {:>6}  {:>6}  {:>3}  {:>5}  {:>4}  {:>8}  {}{} {}",
                format!("{rank}."),
                points(line.half_points),
                line.played,
                line.won,
                line.drawn,
                line.lost,
                line.in_progress,
                rating_of(&line.fingerprint),
                line.names.join("/"),
                line.fingerprint
            )?;
        }
    }
    Ok(())
}

/// Points from half points: `2½`, `½`, `3`.
fn points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}
