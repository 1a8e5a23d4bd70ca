//! `correspond verify`: check game files, for players, arbiters and CI.

use super::CliError;
use super::error::ExitStatus;
use crate::cli::Out;
use correspond::replay::{self, ReplayError, Summary};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Check game files: every signature, the hash chain, whose turn each record was, every move,
/// and the coin flips. For each file, say what game, between whom, and its result, or the
/// first defect. Folders are searched for *.yaml and *.yml files.
///
/// Exit code: 0 if every file is valid, 1 if any is invalid, 2 if a file cannot be read.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Game files, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print a JSON array, one object per file.
    #[arg(long)]
    json: bool,
}

enum Checked {
    Valid(Summary),
    Invalid(ReplayError),
    Unreadable(String),
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let mut files = Vec::new();
    for path in &args.paths {
        collect(path, &mut files);
    }
    if files.is_empty() {
        return Err(CliError::usage(
            "no game files to check: the folders given hold no *.yaml or *.yml files",
        ));
    }
    let results: Vec<(PathBuf, Checked)> = files
        .into_iter()
        .map(|path| {
            let checked = match correspond::log::read_limited(&path) {
                Err(e) => Checked::Unreadable(e.to_string()),
                Ok(bytes) => match replay::verify(&bytes) {
                    Ok(summary) => Checked::Valid(summary),
                    Err(e) => Checked::Invalid(e),
                },
            };
            (path, checked)
        })
        .collect();
    if args.json {
        write_json(&results, out)?;
    } else {
        write_text(&results, out)?;
    }
    let status = if results
        .iter()
        .any(|(_, c)| matches!(c, Checked::Unreadable(_)))
    {
        ExitStatus::Usage
    } else if results
        .iter()
        .any(|(_, c)| matches!(c, Checked::Invalid(_)))
    {
        ExitStatus::Rejected
    } else {
        ExitStatus::Success
    };
    Ok(status)
}

/// The files to check: a path given that is not a folder is checked as it is; a folder is
/// searched for regular `*.yaml` and `*.yml` files (sorted; hidden entries and symbolic links
/// inside it skipped, so a link can neither loop the search nor lead it out of the folder).
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(path) else {
        files.push(path.to_owned());
        return;
    };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (entry, kind) in entries {
        let hidden = entry
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden || kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            collect(&entry, files);
        } else if kind.is_file() && entry.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            files.push(entry);
        }
    }
}

fn describe(s: &Summary) -> String {
    let [(a, a_side), (b, b_side)] = &s.players;
    let state = s
        .result
        .clone()
        .unwrap_or_else(|| format!("in progress, {}", s.status));
    format!(
        "{}, {a} ({a_side}) v {b} ({b_side}), {} records: {state}",
        s.game, s.records
    )
}

fn write_text(results: &[(PathBuf, Checked)], out: &mut Out<'_>) -> Result<(), CliError> {
    let (mut valid, mut invalid, mut unreadable) = (0, 0, 0);
    for (path, checked) in results {
        let path = correspond::text::path(path);
        match checked {
            Checked::Valid(s) => {
                valid += 1;
                writeln!(out, "{path}: valid: {}", describe(s))?;
                if let Some([a, b]) = s.stakes {
                    writeln!(
                        out,
                        "  stakes: {} {a}¢, {} {b}¢",
                        s.players[0].0, s.players[1].0
                    )?;
                }
            }
            Checked::Invalid(e) => {
                invalid += 1;
                writeln!(out, "{path}: INVALID: {e}")?;
            }
            Checked::Unreadable(e) => {
                unreadable += 1;
                writeln!(out, "{path}: cannot read: {e}")?;
            }
        }
    }
    let (balances, disputed) = balances(results);
    if !balances.is_empty() {
        let parts: Vec<String> = balances
            .iter()
            .map(|b| format!("{} {} {:+}¢", b.names.join("/"), b.fingerprint, b.cents))
            .collect();
        writeln!(out, "playing for keeps, balances: {}", parts.join(", "))?;
    }
    for id in disputed {
        writeln!(
            out,
            "game {id} is here more than once with different results: its stakes are not \
             counted (`correspond compare` tells the copies apart)"
        )?;
    }
    let files = if results.len() == 1 { "file" } else { "files" };
    write!(
        out,
        "{} {files}: {valid} valid, {invalid} invalid",
        results.len()
    )?;
    if unreadable > 0 {
        write!(out, ", {unreadable} unreadable")?;
    }
    writeln!(out)?;
    Ok(())
}

/// One player's running balance, by key: the names the key played under, sorted.
struct Balance {
    fingerprint: String,
    names: Vec<String>,
    cents: i64,
}

/// Each player's running balance over the finished games played for stakes: the winner
/// pockets the loser's whole stake. A player is a key, not a name (anyone can call themselves
/// alice), and a game is counted once however many copies of it are given; a game whose copies
/// end differently is not counted, and its id is returned.
fn balances(results: &[(PathBuf, Checked)]) -> (Vec<Balance>, Vec<String>) {
    // Each game id's finished results, by (winner, stakes): one distinct result is counted.
    let mut games: BTreeMap<String, Vec<&Summary>> = BTreeMap::new();
    for (_, checked) in results {
        let Checked::Valid(s) = checked else { continue };
        if s.stakes.is_some() && s.winner.is_some() {
            let copies = games.entry(s.game_id.to_string()).or_default();
            if !copies
                .iter()
                .any(|c| (&c.winner, c.stakes) == (&s.winner, s.stakes))
            {
                copies.push(s);
            }
        }
    }
    let mut by_key: BTreeMap<String, (std::collections::BTreeSet<String>, i64)> = BTreeMap::new();
    let mut disputed = Vec::new();
    for (id, copies) in games {
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
    (balances, disputed)
}

fn write_json(results: &[(PathBuf, Checked)], out: &mut Out<'_>) -> Result<(), CliError> {
    let items: Vec<serde_json::Value> = results
        .iter()
        .map(|(path, checked)| {
            let file = path.to_string_lossy();
            match checked {
                Checked::Valid(s) => serde_json::json!({
                    "file": file,
                    "valid": true,
                    "game": s.game,
                    "game_id": s.game_id.to_string(),
                    "players": s.players.iter().zip(&s.fingerprints).map(|((name, side), key)| serde_json::json!({"name": name, "side": side, "key": key})).collect::<Vec<_>>(),
                    "records": s.records,
                    "finished": s.result.is_some(),
                    "winner": s.winner,
                    "result": s.result,
                    "status": s.status,
                    "stakes": s.stakes,
                }),
                Checked::Invalid(e) => serde_json::json!({
                    "file": file,
                    "valid": false,
                    "error": {
                        "document": e.document,
                        "line": e.line,
                        "message": e.kind.to_string(),
                    },
                }),
                Checked::Unreadable(e) => serde_json::json!({
                    "file": file,
                    "valid": false,
                    "unreadable": e,
                }),
            }
        })
        .collect();
    let text = correspond::text::json(
        serde_json::to_string_pretty(&items).expect("JSON values always serialize"),
    );
    writeln!(out, "{text}")?;
    Ok(())
}
