//! `correspond verify`: check game files, for players, arbiters and CI.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use crate::cli::tournament::check::{CheckedEvent, EventState};
use correspond::ledger::ledger;
use correspond::replay::Summary;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Check game files: every signature, the hash chain, whose turn each record was, every move,
/// and the coin flips. For each file, say what game, between whom, and its result, or the
/// first defect; then copies of one game that fork (each valid, differing from a record on),
/// whose game the playing-for-keeps ledger leaves out. Folders are searched for *.yaml and
/// *.yml files.
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
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

pub(crate) use crate::cli::shared::checked::Checked;

/// The files under the paths given: game files, tournament files, and those passed over.
pub(crate) struct Found {
    pub(crate) games: Vec<PathBuf>,
    pub(crate) tournaments: Vec<PathBuf>,
    pub(crate) passed: Vec<PathBuf>,
}

/// The copies among `files`, checked as `checked` says, that fork (see `src/cli/shared/copies.rs`).
pub(crate) fn forks(
    files: &[PathBuf],
    checked: &[Checked],
) -> Vec<crate::cli::shared::copies::Forked> {
    let games: Vec<_> = checked
        .iter()
        .map(|c| match c {
            Checked::Valid(summary) => Some(summary.game_id),
            _ => None,
        })
        .collect();
    crate::cli::shared::copies::forks(files, &games)
}

/// The valid games among `checked` that count in tables and ledgers: all but those whose
/// copies fork, which have no one result (which copy is the game is in dispute).
pub(crate) fn counted<'a>(
    checked: impl IntoIterator<Item = &'a Checked>,
    forks: &[crate::cli::shared::copies::Forked],
) -> Vec<&'a Summary> {
    let forked: std::collections::BTreeSet<_> = forks.iter().map(|f| f.game).collect();
    checked
        .into_iter()
        .filter_map(|c| match c {
            Checked::Valid(s) if !forked.contains(&s.game_id) => Some(&**s),
            _ => None,
        })
        .collect()
}

/// The line naming the files passed over (see [`passed_over`]), each named from the current
/// folder: `g.yaml`, not `./g.yaml`.
pub(crate) fn passed_over_here(passed: &[PathBuf]) -> Option<String> {
    let passed: Vec<PathBuf> = passed
        .iter()
        .map(|p| p.strip_prefix(".").map_or(p.clone(), Path::to_path_buf))
        .collect();
    passed_over(&passed)
}

/// Checks `files`, the results in their order. Many files: one thread each, as many at once as
/// there are cores. Fewer files than cores: one at a time, each on every core (its signatures
/// checked ahead of its replay).
pub(crate) fn check(files: &[PathBuf]) -> Vec<Checked> {
    let cores = crate::cli::cores();
    let (at_once, per_file) = if files.len() >= cores {
        (cores, 1)
    } else {
        (1, cores)
    };
    let progress = crate::cli::shared::progress::start(files.len(), "Checking", "files");
    correspond::parallel::map_in_order(files, at_once, |path| {
        let checked = match correspond::log::read_limited(path) {
            Err(e) => Checked::Unreadable(unreadable(path, &e, files)),
            Ok(bytes) => match correspond::games::verify_with(&bytes, per_file) {
                Ok(summary) => Checked::Valid(Box::new(summary)),
                Err(e) => Checked::Invalid(e),
            },
        };
        progress.inc();
        checked
    })
}

/// Why a file cannot be read, in words: for a file that is not there, with the names beside it
/// that are nearly its name and are not checked already (`checked`: every file of the command).
fn unreadable(path: &Path, e: &std::io::Error, checked: &[PathBuf]) -> String {
    let near = match e.kind() {
        std::io::ErrorKind::NotFound => crate::cli::shared::places::near_names(path),
        _ => Vec::new(),
    };
    // The same file, however it was spelled (`./a.yaml`, an absolute path, `d/../d/a.yaml`);
    // a near name is a file that exists, so it has one true path.
    let here = |p: &Path| p.strip_prefix(".").unwrap_or(p).to_path_buf();
    let same = |n: &Path, c: &Path| {
        here(n) == here(c)
            || std::fs::canonicalize(n)
                .is_ok_and(|n| std::fs::canonicalize(c).is_ok_and(|c| c == n))
    };
    let near: Vec<PathBuf> = near
        .into_iter()
        .filter(|n| !checked.iter().any(|c| same(n, c)))
        .collect();
    if near.is_empty() {
        e.to_string()
    } else {
        format!("{e}; {}", crate::cli::shared::places::did_you_mean(&near))
    }
}

/// The exit status of a check: 2 if a file cannot be read, 1 if one is invalid, else 0.
pub(crate) fn exit_status<'a>(checked: impl IntoIterator<Item = &'a Checked>) -> ExitStatus {
    let mut status = ExitStatus::Success;
    for c in checked {
        match c {
            Checked::Unreadable(_) => return ExitStatus::Usage,
            Checked::Invalid(_) | Checked::Refused(..) => status = ExitStatus::Rejected,
            Checked::Valid(_) => {}
        }
    }
    status
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let Found {
        games: files,
        tournaments,
        passed,
    } = gather(&args.paths);
    if files.is_empty() && tournaments.is_empty() {
        let error = CliError::usage(
            "no game files to check: the folders given hold no *.yaml or *.yml game files",
        );
        return Err(match passed_over(&passed) {
            Some(line) => error.hint(line),
            None => error,
        });
    }
    let mut checked = check(&files);
    // Copies that fork are named, and the ledger leaves their game out.
    let forks = forks(&files, &checked);
    let events = crate::cli::tournament::check::events(&tournaments, &mut checked, &forks);
    let results: Vec<(PathBuf, Checked)> = files.into_iter().zip(checked).collect();
    if args.json {
        write_json(&results, &forks, &events, out)?;
    } else {
        write_text(&results, &forks, &events, out)?;
        if let Some(line) = passed_over(&passed) {
            writeln!(out, "{line}")?;
        }
    }
    let status = exit_status(results.iter().map(|(_, c)| c));
    Ok(crate::cli::tournament::check::status(&events, status))
}

/// The game files under `paths` (the current folder when none are given), and the files found
/// in folders that were passed over (see [`collect`]).
pub(crate) fn gather(paths: &[PathBuf]) -> Found {
    let here = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &here[..] } else { paths };
    let (mut files, mut passed) = (Vec::new(), Vec::new());
    for path in paths {
        collect(path, &mut files, &mut passed);
    }
    let (tournaments, games) = files.into_iter().partition(|f| is_a_tournament(f));
    Found {
        games,
        tournaments,
        passed,
    }
}

/// Whether the file at `path` starts as a tournament file (one that cannot be read is taken
/// for a game file, whose check says why).
fn is_a_tournament(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    correspond::files::open_regular(path)
        .and_then(|file| file.take(4096).read_to_end(&mut head))
        .is_ok_and(|_| correspond::tournament::file::starts_as_a_tournament(&head))
}

/// The files to check: a path given that is not a folder is checked as it is; a folder is
/// searched for regular `*.yaml` and `*.yml` files (sorted; hidden entries and symbolic links
/// inside it skipped, so a link can neither loop the search nor lead it out of the folder).
/// Those found in a folder that do not start as a game file does (a `docker-compose.yml`) go to
/// `passed`.
pub(crate) fn collect(path: &Path, files: &mut Vec<PathBuf>, passed: &mut Vec<PathBuf>) {
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
            collect(&entry, files, passed);
        } else if kind.is_file() && entry.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            if may_be_a_game_file(&entry) {
                files.push(entry);
            } else {
                passed.push(entry);
            }
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
        "{}, {a} ({a_side}) v {b} ({b_side}), {}: {state}",
        s.game,
        crate::cli::count(s.records, "record")
    )
}

fn write_text(
    results: &[(PathBuf, Checked)],
    forks: &[crate::cli::shared::copies::Forked],
    events: &[CheckedEvent],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (mut valid, mut invalid, mut unreadable) = (0, 0, 0);
    for (path, checked) in results {
        let path = correspond::text::path(path);
        match checked {
            Checked::Valid(s) => {
                valid += 1;
                writeln!(out, "{path}: valid: {}", describe(s))?;
                if let Some(clocks) = &s.clocks {
                    let names = s
                        .players
                        .clone()
                        .map(|(name, side)| format!("{name} ({side})"));
                    writeln!(
                        out,
                        "  clocks: {}",
                        crate::cli::shared::clocks::summary(clocks, &names)
                    )?;
                }
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
                // A defect's words can quote what the file held.
                let e = correspond::text::escape(&e.to_string()).into_owned();
                writeln!(out, "{path}: INVALID: {e}")?;
            }
            Checked::Unreadable(e) => {
                unreadable += 1;
                writeln!(out, "{path}: cannot read: {e}")?;
            }
            Checked::Refused(s, why) => {
                invalid += 1;
                writeln!(out, "{path}: INVALID: {}: {why}", describe(s))?;
            }
        }
    }
    for checked in events {
        let path = correspond::text::path(&checked.path);
        match &checked.state {
            EventState::Valid(event, table) => {
                valid += 1;
                let line = crate::cli::tournament::check::describe(event, table);
                writeln!(out, "{path}: valid: {line}")?;
                if let Some(said) = &checked.unfounded {
                    writeln!(out, "  {said}")?;
                }
            }
            EventState::Invalid(e) => {
                invalid += 1;
                let e = correspond::text::escape(&e.to_string()).into_owned();
                writeln!(out, "{path}: INVALID: {e}")?;
            }
            EventState::Unreadable(e) => {
                unreadable += 1;
                writeln!(out, "{path}: cannot read: {e}")?;
            }
        }
    }
    let ledger = ledger(counted(results.iter().map(|(_, checked)| checked), forks));
    if !ledger.balances.is_empty() {
        let parts: Vec<String> = ledger
            .balances
            .iter()
            .map(|b| format!("{} {} {:+}¢", b.names.join("/"), b.fingerprint, b.cents))
            .collect();
        writeln!(out, "playing for keeps, balances: {}", parts.join(", "))?;
    }
    for id in &ledger.disputed {
        writeln!(
            out,
            "game {id} is here more than once with different results: its stakes are not \
             counted (`correspond compare` tells the copies apart)"
        )?;
    }
    for f in forks {
        writeln!(
            out,
            "{}",
            crate::cli::shared::copies::words(f, &results[f.a].0, &results[f.b].0)
        )?;
    }
    let total = results.len() + events.len();
    let files = if total == 1 { "file" } else { "files" };
    write!(out, "{total} {files}: {valid} valid, {invalid} invalid")?;
    if unreadable > 0 {
        write!(out, ", {unreadable} unreadable")?;
    }
    writeln!(out)?;
    Ok(())
}

/// A file's line of `verify --json`.
#[derive(Serialize)]
struct FileReport<'a> {
    file: String,
    valid: bool,
    #[serde(flatten)]
    what: What<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum What<'a> {
    Valid {
        game: &'a str,
        game_id: String,
        players: Vec<PlayerReport<'a>>,
        records: usize,
        finished: bool,
        winner: Option<&'a str>,
        result: Option<&'a str>,
        status: &'a str,
        stakes: Option<[u32; 2]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        clocks: Option<Box<crate::cli::shared::clocks::ClockReport>>,
        /// The other copies of this game that fork with this one; left out where none.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        forks: Vec<crate::cli::shared::copies::ForkRow>,
    },
    Invalid {
        error: Defect,
    },
    Unreadable {
        unreadable: &'a str,
    },
    Tournament {
        tournament: crate::cli::tournament::check::Report,
    },
}

#[derive(Serialize)]
struct PlayerReport<'a> {
    name: &'a str,
    side: &'a str,
    key: &'a str,
}

#[derive(Serialize)]
struct Defect {
    document: Option<usize>,
    line: usize,
    message: String,
}

fn write_json(
    results: &[(PathBuf, Checked)],
    forks: &[crate::cli::shared::copies::Forked],
    events: &[CheckedEvent],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let named: Vec<PathBuf> = results.iter().map(|(path, _)| path.clone()).collect();
    let mut items: Vec<FileReport<'_>> = results
        .iter()
        .enumerate()
        .map(|(i, (path, checked))| {
            let file = path.to_string_lossy().into_owned();
            let (valid, what) = match checked {
                Checked::Valid(s) => (
                    true,
                    What::Valid {
                        game: &s.game,
                        game_id: s.game_id.to_string(),
                        players: s
                            .players
                            .iter()
                            .zip(&s.fingerprints)
                            .map(|((name, side), key)| PlayerReport { name, side, key })
                            .collect(),
                        records: s.records,
                        finished: s.result.is_some(),
                        winner: s.winner.as_deref(),
                        result: s.result.as_deref(),
                        status: &s.status,
                        stakes: s.stakes,
                        clocks: s
                            .clocks
                            .as_ref()
                            .map(|c| Box::new(crate::cli::shared::clocks::ClockReport::of(c))),
                        forks: crate::cli::shared::copies::rows(i, forks, &named),
                    },
                ),
                Checked::Invalid(e) => (
                    false,
                    What::Invalid {
                        error: Defect {
                            document: e.document,
                            line: e.line,
                            message: e.kind.to_string(),
                        },
                    },
                ),
                Checked::Unreadable(e) => (false, What::Unreadable { unreadable: e }),
                Checked::Refused(s, why) => (
                    false,
                    What::Invalid {
                        error: Defect {
                            document: Some(0),
                            line: s
                                .header
                                .as_deref()
                                .map_or(1, |h| correspond::log::preamble(h).lines().count() + 1),
                            message: why.clone(),
                        },
                    },
                ),
            };
            FileReport { file, valid, what }
        })
        .collect();
    items.extend(events.iter().map(|checked| {
        let file = checked.path.to_string_lossy().into_owned();
        let (valid, what) = match &checked.state {
            EventState::Valid(event, table) => (
                true,
                What::Tournament {
                    tournament: crate::cli::tournament::check::report(
                        event,
                        table,
                        checked.unfounded.as_ref(),
                    ),
                },
            ),
            EventState::Invalid(e) => (
                false,
                What::Invalid {
                    error: Defect {
                        document: e.document,
                        line: e.line,
                        message: e.kind.to_string(),
                    },
                },
            ),
            EventState::Unreadable(e) => (false, What::Unreadable { unreadable: e }),
        };
        FileReport { file, valid, what }
    }));
    let text = serde_json::to_string_pretty(&items).map_err(|e| CliError::usage(e.to_string()))?;
    writeln!(out, "{}", correspond::text::json(text))?;
    Ok(())
}

/// Whether a file found in a folder may be a game file, and so is checked (see
/// [`correspond::log::may_be_a_game_file`]); an unreadable one is, so that the reason is said.
pub(crate) fn may_be_a_game_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read = correspond::files::open_regular(path).and_then(|file| {
        file.take(correspond::log::GAME_FILE_SNIFF as u64)
            .read_to_end(&mut head)
    });
    read.is_err() || correspond::log::may_be_a_game_file(&head)
}

/// The line that says which files found in folders were passed over, if any.
pub(crate) fn passed_over(passed: &[PathBuf]) -> Option<String> {
    let names: Vec<String> = passed
        .iter()
        .map(|p| correspond::text::path(p).to_string())
        .collect();
    match names.len() {
        0 => None,
        1 => Some(format!(
            "passed over 1 file that is not a game file: {}",
            names[0]
        )),
        n => Some(format!(
            "passed over {n} files that are not game files: {}",
            names.join(", ")
        )),
    }
}
