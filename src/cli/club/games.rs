//! `correspond games`: every game under some folders and where it stands, for the question a
//! correspondence player asks each day: where is it my move? With `--mine`, only the games
//! that wait for the user's key, most urgent first.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::verify::Checked;
use crate::cli::shared::error::ExitStatus;
use crate::cli::shared::keys::KeyArgs;
use correspond::log::Timestamp;
use correspond::replay::{self, Phase, Player, Seat, Summary};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// List the games under folders (a repository, a club's folder) or named files: the game, the
/// players, whose turn it is and the command they run, the deadline where there is a clock
/// (and, once it has passed, the other player's claim on time), and the time of the last
/// record. Copies of one game that fork (a race, or one player's two records at one place:
/// equivocation) are named after the list. Files found in folders that
/// are not game files are passed over. Exit code: as `verify`'s, except where there are no game
/// files: that is an empty list (exit code 0), not a check of nothing.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Folders or game files; without any, the current folder.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Only the games that wait for your key, or that your key may claim on time, most urgent
    /// first: the nearest deadline, then the oldest last record.
    #[arg(long)]
    mine: bool,
    /// Your key, for --mine: a public key file, or a private key file (its public half is read,
    /// with no passphrase). Default: every key the signing commands could choose: git's
    /// user.signingKey, the keys ssh-agent holds, and ~/.ssh/id_ed25519.
    #[arg(long, value_name = "PATH", requires = "mine")]
    key: Option<PathBuf>,
    /// Print a JSON array, one object per file (schemas/games.schema.json).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    ratings: crate::cli::club::ratings::ShowArgs,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

/// Each rated player's entry, by game and fingerprint.
type Ratings = std::collections::BTreeMap<(String, String), correspond::ratings::list::Entry>;

/// One file, as the listing shows it.
struct Listed {
    path: PathBuf,
    game: Checked,
    /// The other copies of its game it forks with (see `src/cli/shared/copies.rs`).
    forks: Vec<crate::cli::shared::copies::ForkRow>,
}

impl Listed {
    /// The game, when the file is a valid one.
    fn valid(&self) -> Option<&Summary> {
        match &self.game {
            Checked::Valid(game) => Some(game),
            _ => None,
        }
    }
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let crate::cli::checking::verify::Found {
        games: files,
        tournaments,
        passed,
    } = crate::cli::checking::verify::gather(&args.paths);
    let mut games = crate::cli::checking::verify::check(&files);
    let forks = crate::cli::checking::verify::forks(&files, &games);
    // A game that is not the pairing it claims is listed as refused.
    let events = crate::cli::tournament::check::events(&tournaments, &mut games, &forks);
    let shown = crate::cli::club::ratings::shown(&args.ratings, &files, &games, &events, &forks)?;
    let ratings: Ratings = shown
        .iter()
        .flat_map(|l| {
            l.list
                .entries
                .iter()
                .map(|e| ((l.game.clone(), l.fingerprint(&e.key)), *e))
        })
        .collect();
    // Found under the current folder, named from it: `g.yaml`, not `./g.yaml`.
    let named: Vec<PathBuf> = files
        .iter()
        .map(|path| {
            path.strip_prefix(".")
                .map_or(path.clone(), Path::to_path_buf)
        })
        .collect();
    let mut listed: Vec<Listed> = named
        .iter()
        .zip(games)
        .enumerate()
        .map(|(i, (path, game))| Listed {
            path: path.clone(),
            game,
            forks: crate::cli::shared::copies::rows(i, &forks, &named),
        })
        .collect();
    let status = crate::cli::checking::verify::exit_status(listed.iter().map(|l| &l.game));
    let now = crate::cli::shared::keys::now()?;
    if args.mine {
        let near = args.paths.first().map_or(Path::new("."), PathBuf::as_path);
        let mine: Vec<String> = KeyArgs {
            key: args.key.clone(),
        }
        .all_mine(near)?
        .iter()
        .map(correspond::sign::fingerprint)
        .collect();
        // Mine (to act on, or to claim on time), and every file that is not a valid game: a
        // broken game may be mine too.
        listed.retain(|l| {
            l.valid().is_none_or(|g| {
                let claimant = claimant(g, &now).map(|seat| &g.fingerprints[seat.index()]);
                awaited(g)
                    .into_iter()
                    .chain(claimant)
                    .any(|f| mine.contains(f))
            })
        });
        listed.sort_by_cached_key(urgency);
    }
    if args.json {
        let rows: Vec<Row<'_>> = listed.iter().map(|l| Row::of(l, &now, &ratings)).collect();
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
    } else {
        for l in &listed {
            write_text(l, &now, &ratings, out)?;
        }
        // A fork is said once, where either copy is listed.
        for f in &forks {
            let (a, b) = (&named[f.a], &named[f.b]);
            if listed.iter().any(|l| l.path == *a || l.path == *b) {
                writeln!(out, "{}", crate::cli::shared::copies::words(f, a, b))?;
            }
        }
        if listed.is_empty() {
            writeln!(
                out,
                "{}",
                if args.mine {
                    "no game waits for you"
                } else {
                    "no game files here"
                }
            )?;
        }
        if let Some(line) = crate::cli::checking::verify::passed_over_here(&passed) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(status)
}

/// The fingerprint of the player a game waits for, while it goes on.
fn awaited(game: &Summary) -> Option<&String> {
    game.phase
        .awaited()
        .map(|seat| &game.fingerprints[seat.index()])
}

/// The seat that may claim `game` on time at `now`: the other player's, once the awaited
/// player is past their deadline (a claim must be dated after it).
fn claimant(game: &Summary, now: &Timestamp) -> Option<Seat> {
    let (late, at) = game.clocks.as_ref()?.deadline()?;
    let now = i64::try_from(now.to_unix()).ok()?;
    (now > at).then(|| late.other())
}

/// `bob (black): correspond claim-timeout g.yaml`, for the seat that may claim the game.
fn claim_step(game: &Summary, now: &Timestamp, file: &str) -> Option<String> {
    let seat = claimant(game, now)?;
    Some(format!(
        "{}: correspond claim-timeout {}",
        seats(game)[seat.index()],
        correspond::text::shell_word(file)
    ))
}

/// How urgent a game is: the nearest deadline first, then games without one, the oldest last
/// record first; the file's path last, so that the order is always the same.
fn urgency(listed: &Listed) -> (i64, Option<Timestamp>, PathBuf) {
    let game = listed.valid();
    // Games with no deadline after those with one.
    let deadline = game
        .and_then(|g| g.clocks.as_ref())
        .and_then(|c| c.deadline())
        .map_or(i64::MAX, |(_, at)| at);
    let last = game.and_then(|g| g.last_time.clone());
    (deadline, last, listed.path.clone())
}

/// The players, as `Player`s for the words the other commands use.
fn seats(game: &Summary) -> [Player<String>; 2] {
    [0, 1].map(|i| Player {
        name: game.players[i].0.clone(),
        // Before the coin flip that gives out the sides, a player is only a name.
        side: Some(game.players[i].1.clone()).filter(|side| side != replay::TOSS),
        fingerprint: game.fingerprints[i].clone(),
    })
}

fn write_text(
    listed: &Listed,
    now: &Timestamp,
    ratings: &Ratings,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let path = correspond::text::path(&listed.path);
    let game = match &listed.game {
        Checked::Valid(game) => game,
        Checked::Invalid(e) => {
            let e = correspond::text::escape(&e.to_string()).into_owned();
            writeln!(out, "{path}: INVALID: {e}")?;
            return Ok(());
        }
        Checked::Refused(_, why) => {
            writeln!(out, "{path}: INVALID: {why}")?;
            return Ok(());
        }
        Checked::Unreadable(e) => {
            writeln!(out, "{path}: cannot read: {e}")?;
            return Ok(());
        }
    };
    let seats = seats(game);
    writeln!(out, "{path}: {}, {} v {}", game.game, seats[0], seats[1])?;
    let rated: Vec<String> = (0..2)
        .filter_map(|i| {
            let entry = ratings.get(&(game.game.clone(), game.fingerprints[i].clone()))?;
            Some(format!(
                "{} {}",
                game.players[i].0,
                crate::cli::club::ratings::rating_words(entry)
            ))
        })
        .collect();
    if !rated.is_empty() {
        writeln!(out, "  ratings: {}", rated.join(", "))?;
    }
    let last = game
        .last_time
        .as_ref()
        .map_or(String::new(), |t| format!("; last record {}", t.as_str()));
    match &game.phase {
        Phase::Over(_) => writeln!(out, "  {}{last}", game.status)?,
        phase => {
            let file = path.to_string();
            let claim = claim_step(game, now, &file);
            let passed = if claim.is_some() { " (passed)" } else { "" };
            let deadline = game
                .clocks
                .as_ref()
                .and_then(|c| c.deadline_time())
                .map_or(String::new(), |(_, at)| {
                    format!(", by {}{passed}", at.as_str())
                });
            writeln!(out, "  {}{deadline}{last}", game.status)?;
            if let Some(conditional) = &game.conditional {
                writeln!(out, "  conditional: {conditional}")?;
            }
            // A copy that forks is not the game, and a record signed on it would deepen the
            // dispute: what to do is to settle the fork (said below the list).
            if listed.forks.is_empty() {
                if let Some(next) = crate::cli::shared::next::next_step(phase, &seats, &file) {
                    writeln!(out, "  next: {next}")?;
                }
                if let Some(claim) = claim {
                    writeln!(out, "  or a claim on time: {claim}")?;
                }
            }
        }
    }
    for fork in &listed.forks {
        let what = if fork.equivocation {
            "EQUIVOCATION"
        } else {
            "a race"
        };
        writeln!(
            out,
            "  forks with {} at record {} ({what}): neither copy is the game until that is \
             settled, as said below",
            correspond::text::path(fork.with()),
            fork.record
        )?;
    }
    Ok(())
}

/// A file's object in `games --json`.
#[derive(Serialize)]
struct Row<'a> {
    file: String,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<Vec<RowPlayer<'a>>>,
    /// The seat (0: the creator, 1: the opponent) the game waits for; `None` once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    awaited_seat: Option<Option<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<Option<String>>,
    /// Who may claim the game on time, now, and the command they run.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_record: Option<Option<&'a str>>,
    /// The conditional lines that stand, in words; left out where none do.
    #[serde(skip_serializing_if = "Option::is_none")]
    conditional: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Option<&'a str>>,
    /// The other copies of this game that fork with this one; left out where there are none.
    #[serde(skip_serializing_if = "<[crate::cli::shared::copies::ForkRow]>::is_empty")]
    forks: &'a [crate::cli::shared::copies::ForkRow],
}

#[derive(Serialize)]
struct RowPlayer<'a> {
    name: &'a str,
    side: &'a str,
    key: &'a str,
    /// With --ratings: the player's rating in the game's list, if it rates them.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deviation: Option<f64>,
}

impl<'a> Row<'a> {
    fn of(listed: &'a Listed, now: &Timestamp, ratings: &Ratings) -> Row<'a> {
        let file = listed.path.to_string_lossy().into_owned();
        let error = match &listed.game {
            Checked::Valid(_) => None,
            Checked::Invalid(e) => Some(e.to_string()),
            Checked::Unreadable(e) => Some(format!("cannot read: {e}")),
            Checked::Refused(_, why) => Some(why.clone()),
        };
        let Some(game) = listed.valid() else {
            return Row {
                file,
                valid: false,
                error,
                game: None,
                players: None,
                awaited_seat: None,
                status: None,
                next: None,
                claim: None,
                deadline: None,
                last_record: None,
                conditional: None,
                result: None,
                forks: &[],
            };
        };
        Row {
            valid: true,
            error: None,
            game: Some(&game.game),
            players: Some(
                game.players
                    .iter()
                    .zip(&game.fingerprints)
                    .map(|((name, side), key)| {
                        let entry = ratings.get(&(game.game.clone(), key.clone()));
                        RowPlayer {
                            name,
                            side,
                            key,
                            rating: entry.map(|e| correspond::ratings::rounded(e.rating, 2)),
                            deviation: entry
                                .and_then(|e| e.deviation)
                                .map(|d| correspond::ratings::rounded(d, 2)),
                        }
                    })
                    .collect(),
            ),
            awaited_seat: Some(game.phase.awaited().map(Seat::index)),
            status: Some(&game.status),
            // As the text says it: a copy that forks is not the game to sign on.
            next: Some(
                crate::cli::shared::next::next_step(&game.phase, &seats(game), &file)
                    .filter(|_| listed.forks.is_empty()),
            ),
            claim: Some(claim_step(game, now, &file).filter(|_| listed.forks.is_empty())),
            deadline: Some(
                game.clocks
                    .as_ref()
                    .and_then(|c| c.deadline_time())
                    .map(|(_, at)| at.as_str().to_owned()),
            ),
            last_record: Some(game.last_time.as_ref().map(Timestamp::as_str)),
            conditional: game.conditional.as_deref(),
            result: Some(game.result.as_deref()),
            forks: &listed.forks,
            file,
        }
    }
}
