//! `correspond ratings`: rating lists from the signed games under folders, one per game, that
//! anyone can recompute from the same files and get byte for byte (src/ratings/; docs/ratings.md).

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::verify::{Checked, Found, gather};
use crate::cli::shared::error::ExitStatus;
use crate::cli::tournament::check::{CheckedEvent, EventState};
use correspond::digest::Digest;
use correspond::ratings::glicko2::Rating;
use correspond::ratings::list::{List, RatedGame, System, list};
use correspond::ratings::{Score, rounded};
use correspond::replay::{Phase, Seat, Summary};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Rating lists of the finished games under folders, one per game: by a club's signed rules
/// (`--rules`, written by `correspond rating-rules`), else Glicko-2 as Glickman's paper gives it
/// (τ 0.5; a new player 1500, deviation 350, volatility 0.06), in rating periods of 30 days
/// counted in UTC from 1970-01-01, the games in one canonical order (the time of the
/// record that ended each, then its id), every figure computed with a pinned pure-Rust math
/// library: the same files give the same list, byte for byte, on any machine. A game counts
/// once however many copies there are; one whose copies fork, one that is not its pairing's in
/// a tournament checked with it, a game of an unrated tournament, and a game that ended before
/// two moves were played are not rated, and are named. Each list carries the digest of the
/// games it rated, in order, and of its parameters. See docs/ratings.md. Exit code: as
/// `verify`'s.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Folders or game files; without any, the current folder.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object (schemas/ratings.schema.json).
    #[arg(long)]
    json: bool,
    /// A club's rating rules (`correspond rating-rules`), signed by its key: the game rated,
    /// the system and its parameters, the periods, and whether only games with a clock count.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Write the list, signed by the club's key (`--key`), to a new file OUT, for anyone to
    /// check with `--check`.
    #[arg(long, value_name = "OUT", requires = "rules", conflicts_with = "check")]
    publish: Option<PathBuf>,
    /// Check a published list: make it again from the games under the paths, under the rules,
    /// and say whether it holds to the bit, and if not, which games and players differ. Exit
    /// code 1 when it does not hold.
    #[arg(long, value_name = "LIST", requires = "rules")]
    check: Option<PathBuf>,
    #[command(flatten)]
    key: crate::cli::shared::keys::KeyArgs,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

impl Rated {
    /// A key's names and fingerprint, as a list names its player.
    pub(crate) fn named(&self, key: &Digest) -> Option<String> {
        let (names, fingerprint) = self.names.get(key)?;
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        Some(format!(
            "{} ({fingerprint})",
            correspond::text::escape(&names.join("/"))
        ))
    }
}

impl Args {
    /// The key options, for `--publish`.
    pub(crate) fn key(&self) -> &crate::cli::shared::keys::KeyArgs {
        &self.key
    }
}

/// The parameters of a list where a club has set none.
pub(crate) const DEFAULT_SYSTEM: System = System::Glicko2 {
    tau: 0.5,
    initial: Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    },
    period: 30 * 24 * 60 * 60,
};

/// A game not rated, and why.
#[derive(Serialize)]
struct Unrated {
    file: String,
    why: String,
    /// Whether the file does not verify (or cannot be read): a game rated by its rules may hide
    /// behind it.
    #[serde(skip)]
    broken: bool,
}

/// Whether every file passed over verifies: none not rated for a defect of its own.
fn unrated_files_verify(unrated: &[Unrated]) -> bool {
    !unrated.iter().any(|u| u.broken)
}

/// The games of one game kind that a list rates, and the keys' names.
#[derive(Default)]
pub(crate) struct Rated {
    pub(crate) games: Vec<RatedGame>,
    names: BTreeMap<Digest, (BTreeSet<String>, String)>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let Found {
        games: files,
        tournaments,
        ..
    } = gather(&args.paths);
    let mut checked = crate::cli::checking::verify::check(&files);
    let forks = crate::cli::checking::verify::forks(&files, &checked);
    let events = crate::cli::tournament::check::events(&tournaments, &mut checked, &forks);
    let status = crate::cli::tournament::check::status(
        &events,
        crate::cli::checking::verify::exit_status(&checked),
    );
    let rules = match &args.rules {
        Some(path) => Some(super::rating_rules::read(path)?),
        None => None,
    };
    let (by_game, unrated) = rated_games(&files, &checked, &events, &forks, rules.as_ref());
    let system = rules.as_ref().map_or(DEFAULT_SYSTEM, |(r, _)| r.system());
    let mut lists = Vec::new();
    for (game, rated) in &by_game {
        let made = list(&rated.games, &system)
            .map_err(|e| CliError::rejected(format!("{game}: the list cannot be made: {e}")))?;
        lists.push((game.as_str(), rated, made));
    }
    if let Some((rules, digest)) = &rules {
        // A list is published, or checked, from files that all verify: one that does not would
        // drop out of the list unseen.
        if (args.publish.is_some() || args.check.is_some()) && !unrated_files_verify(&unrated) {
            let error = CliError::rejected(
                "not every file under the paths verifies, so no list is published or checked \
                 from them",
            );
            return Err(unrated.iter().filter(|u| u.broken).fold(error, |e, u| {
                e.hint(format!("{}: {}", u.file, correspond::text::escape(&u.why)))
            }));
        }
        if let Some(out_path) = &args.publish {
            return super::rating_rules::publish(args, out_path, rules, *digest, &lists, out)
                .map(|()| status);
        }
        if let Some(list_path) = &args.check {
            let held = super::rating_rules::check(list_path, rules, *digest, &lists, &system, out)?;
            if held != ExitStatus::Success {
                // What was not rated may explain it (copies that fork, a game short of two moves).
                write_unrated(&unrated, out)?;
            }
            return Ok(held);
        }
    }
    if args.json {
        write_json(&lists, &unrated, &system, out)?;
    } else {
        write_text(&lists, &unrated, &system, out)?;
    }
    Ok(status)
}

/// The games each list rates, by game kind, and the files not rated with why: every valid,
/// finished game of two moves or more among `files`, once, but for those whose copies fork and
/// the games of unrated tournaments; under a club's `rules`, only its game (and with
/// `timed-only`, only games with a clock).
fn rated_games(
    files: &[PathBuf],
    checked: &[Checked],
    events: &[CheckedEvent],
    forks: &[crate::cli::shared::copies::Forked],
    rules: Option<&(correspond::ratings::rules::Rules, Digest)>,
) -> (BTreeMap<String, Rated>, Vec<Unrated>) {
    let forked: BTreeSet<Digest> = forks.iter().map(|f| f.game).collect();
    let unrated_events = unrated_events(events);
    let mut by_game: BTreeMap<String, Rated> = BTreeMap::new();
    let mut unrated = Vec::new();
    let mut seen = BTreeSet::new();
    let mut timed = BTreeSet::new();
    for (file, c) in files.iter().zip(checked) {
        // Named from the current folder: `g.yaml`, not `./g.yaml`.
        let shown = correspond::text::path(file.strip_prefix(".").unwrap_or(file)).to_string();
        let summary = match c {
            Checked::Valid(s) => s,
            Checked::Invalid(e) => {
                unrated.push(Unrated {
                    file: shown,
                    why: e.to_string(),
                    broken: true,
                });
                continue;
            }
            Checked::Refused(_, why) => {
                unrated.push(Unrated {
                    file: shown,
                    why: why.clone(),
                    broken: true,
                });
                continue;
            }
            Checked::Unreadable(e) => {
                unrated.push(Unrated {
                    file: shown,
                    why: format!("cannot read: {e}"),
                    broken: true,
                });
                continue;
            }
        };
        match rated(summary, &forked, &unrated_events) {
            Err(Some(why)) => unrated.push(Unrated {
                file: shown,
                why,
                broken: false,
            }),
            Err(None) => {}
            Ok(game) => {
                // A copy counts once (a copy behind ends nothing, and is not rated).
                if summary
                    .header
                    .as_ref()
                    .is_some_and(|h| h.time_control.is_some())
                {
                    timed.insert(game.id);
                }
                if seen.insert(game.id) {
                    let list = by_game.entry(summary.game.clone()).or_default();
                    list.games.push(game);
                    note_names(list, summary);
                }
            }
        }
    }
    if let Some((rules, _)) = rules {
        // The club rates its one game, and with `timed-only` the games with a clock.
        by_game.retain(|game, _| *game == rules.game.name());
        if rules.timed_only {
            for rated in by_game.values_mut() {
                rated.games.retain(|g| timed.contains(&g.id));
            }
        }
    }
    (by_game, unrated)
}

/// The rating options of the commands that show ratings where a list exists (`standings`,
/// `games`, `site`).
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct ShowArgs {
    /// Show each player's rating, from the list `correspond ratings` makes of the same games
    /// (Glicko-2 with its default parameters, unless --rules gives the club's).
    #[arg(long)]
    ratings: bool,
    /// Show the ratings of the club's list, made under its signed rating rules (`correspond
    /// rating-rules`).
    #[arg(long = "rating-rules", value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    rules: Option<PathBuf>,
}

/// A game kind's list, as the commands that show ratings use it.
pub(crate) struct Shown {
    /// The game.
    pub(crate) game: String,
    /// Its players' names and fingerprints.
    pub(crate) rated: Rated,
    /// The list.
    pub(crate) list: List,
    /// Each player's ratings, period by period.
    pub(crate) history: correspond::ratings::list::History,
}

impl Shown {
    /// The entry of the player with fingerprint `fingerprint`.
    pub(crate) fn of(
        &self,
        fingerprint: &str,
    ) -> Option<(usize, &correspond::ratings::list::Entry)> {
        self.list.entries.iter().enumerate().find(|(_, e)| {
            self.rated
                .names
                .get(&e.key)
                .is_some_and(|(_, f)| f == fingerprint)
        })
    }

    /// A player's names, joined.
    pub(crate) fn names(&self, key: &Digest) -> String {
        self.rated
            .names
            .get(key)
            .map_or_else(String::new, |(names, _)| {
                names
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join("/")
            })
    }

    /// A player's fingerprint.
    pub(crate) fn fingerprint(&self, key: &Digest) -> String {
        self.rated
            .names
            .get(key)
            .map_or_else(String::new, |(_, f)| f.clone())
    }
}

/// A rating as a table shows it: `1562 ±121`, whole numbers (the list's own figures, rounded
/// half away from zero).
pub(crate) fn rating_words(entry: &correspond::ratings::list::Entry) -> String {
    let deviation = entry
        .deviation
        .map(|d| format!(" ±{:.0}", rounded(d, 0)))
        .unwrap_or_default();
    format!("{:.0}{deviation}", rounded(entry.rating, 0))
}

/// The lists to show, one per game kind, when `args` asks for them; none otherwise.
///
/// # Errors
/// The rules cannot be read, or a list cannot be made.
pub(crate) fn shown(
    args: &ShowArgs,
    files: &[PathBuf],
    checked: &[Checked],
    events: &[CheckedEvent],
    forks: &[crate::cli::shared::copies::Forked],
) -> Result<Vec<Shown>, CliError> {
    if !args.ratings && args.rules.is_none() {
        return Ok(Vec::new());
    }
    let rules = match &args.rules {
        Some(path) => Some(super::rating_rules::read(path)?),
        None => None,
    };
    let (by_game, _) = rated_games(files, checked, events, forks, rules.as_ref());
    let system = rules.as_ref().map_or(DEFAULT_SYSTEM, |(r, _)| r.system());
    let mut lists = Vec::new();
    for (game, rated) in by_game {
        let (list, history) =
            correspond::ratings::list::list_with_history(&rated.games, &system)
                .map_err(|e| CliError::rejected(format!("{game}: the list cannot be made: {e}")))?;
        lists.push(Shown {
            game,
            rated,
            list,
            history,
        });
    }
    Ok(lists)
}

/// The ids of the events whose games are not rated, of those checked.
fn unrated_events(events: &[CheckedEvent]) -> BTreeSet<Digest> {
    events
        .iter()
        .filter_map(|e| match &e.state {
            EventState::Valid(event, _) if !event.header.rated => Some(event.id),
            _ => None,
        })
        .collect()
}

/// A valid game as a list rates it; `Err(Some(why))` for a finished game that is not rated,
/// `Err(None)` for a game that goes on.
fn rated(
    summary: &Summary,
    forked: &BTreeSet<Digest>,
    unrated_events: &BTreeSet<Digest>,
) -> Result<RatedGame, Option<String>> {
    let Phase::Over(verdict) = &summary.phase else {
        return Err(None);
    };
    if forked.contains(&summary.game_id) {
        return Err(Some(
            "its copies fork: which is the game is in dispute".into(),
        ));
    }
    let header = summary.header.as_deref().ok_or(None)?;
    if correspond::tournament::pairing::claimed(header)
        .is_some_and(|id| unrated_events.contains(&id))
    {
        return Err(Some("a game of an unrated tournament".into()));
    }
    if summary.moves < 2 {
        return Err(Some(format!(
            "it ended after {} move{}: a game is rated once two moves are played",
            summary.moves,
            if summary.moves == 1 { "" } else { "s" }
        )));
    }
    let ended = summary
        .last_time
        .as_ref()
        .and_then(|t| i64::try_from(t.to_unix()).ok())
        .ok_or(None)?;
    let key = |seat: usize| {
        Digest::of(&correspond::tournament::event::key_bytes(
            &header.players[seat].key,
        ))
    };
    let score = match verdict.winner {
        None => Score::Draw,
        Some(Seat::Creator) => Score::Win,
        Some(Seat::Opponent) => Score::Loss,
    };
    Ok(RatedGame {
        id: summary.game_id,
        ended,
        white: key(0),
        black: key(1),
        score,
    })
}

/// Keeps the names each key played under, and its fingerprint.
fn note_names(list: &mut Rated, summary: &Summary) {
    let Some(header) = summary.header.as_deref() else {
        return;
    };
    for (seat, player) in header.players.iter().enumerate() {
        let key = Digest::of(&correspond::tournament::event::key_bytes(&player.key));
        let entry = list
            .names
            .entry(key)
            .or_insert_with(|| (BTreeSet::new(), summary.fingerprints[seat].clone()));
        entry.0.insert(player.name.clone());
    }
}

/// The parameters in words.
fn parameters_words(system: &System) -> String {
    match *system {
        System::Glicko2 {
            tau,
            initial,
            period,
        } => format!(
            "Glicko-2, τ {tau}, a new player {} (deviation {}, volatility {}), periods of {} \
             from 1970-01-01 UTC",
            initial.rating,
            initial.deviation,
            initial.volatility,
            crate::cli::count(usize::try_from(period / 86_400).unwrap_or(0), "day")
        ),
        System::Elo { initial, period } => format!(
            "FIDE-style Elo, a new player {initial}, periods of {} from 1970-01-01 UTC",
            crate::cli::count(usize::try_from(period / 86_400).unwrap_or(0), "day")
        ),
    }
}

fn write_text(
    lists: &[(&str, &Rated, List)],
    unrated: &[Unrated],
    system: &System,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    writeln!(out, "ratings: {}", parameters_words(system))?;
    for (game, rated, made) in lists {
        writeln!(out)?;
        writeln!(
            out,
            "{game}: {} rated; games digest {}, parameters digest {}",
            crate::cli::count(rated.games.len(), "game"),
            made.inputs,
            made.parameters
        )?;
        for (i, entry) in made.entries.iter().enumerate() {
            let (names, fingerprint) = &rated.names[&entry.key];
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let deviation = entry
                .deviation
                .map(|d| format!(" ± {:.1}", rounded(d, 1)))
                .unwrap_or_default();
            writeln!(
                out,
                "{:>3}  {:.1}{deviation}  {}  {}  {fingerprint}",
                i + 1,
                rounded(entry.rating, 1),
                crate::cli::count(entry.games as usize, "game"),
                correspond::text::escape(&names.join("/"))
            )?;
        }
    }
    write_unrated(unrated, out)
}

/// The games not rated, each with why.
fn write_unrated(unrated: &[Unrated], out: &mut Out<'_>) -> Result<(), CliError> {
    for u in unrated {
        writeln!(
            out,
            "not rated: {}: {}",
            u.file,
            correspond::text::escape(&u.why)
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
struct Json<'a> {
    system: &'static str,
    parameters: String,
    lists: Vec<ListJson>,
    not_rated: &'a [Unrated],
}

#[derive(Serialize)]
struct ListJson {
    game: String,
    games: usize,
    games_digest: String,
    parameters_digest: String,
    players: Vec<PlayerJson>,
}

#[derive(Serialize)]
struct PlayerJson {
    place: usize,
    names: Vec<String>,
    key: String,
    rating: f64,
    deviation: Option<f64>,
    /// The rating's exact IEEE 754 bits, in hex: what two machines compare.
    rating_bits: String,
    games: u32,
}

fn write_json(
    lists: &[(&str, &Rated, List)],
    unrated: &[Unrated],
    system: &System,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let json = Json {
        system: match system {
            System::Glicko2 { .. } => "glicko2",
            System::Elo { .. } => "elo",
        },
        parameters: parameters_words(system),
        lists: lists
            .iter()
            .map(|(game, rated, made)| ListJson {
                game: (*game).to_owned(),
                games: rated.games.len(),
                games_digest: made.inputs.to_string(),
                parameters_digest: made.parameters.to_string(),
                players: made
                    .entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let (names, key) = &rated.names[&e.key];
                        PlayerJson {
                            place: i + 1,
                            names: names.iter().cloned().collect(),
                            key: key.clone(),
                            rating: rounded(e.rating, 2),
                            deviation: e.deviation.map(|d| rounded(d, 2)),
                            rating_bits: format!("{:016x}", e.rating.to_bits()),
                            games: e.games,
                        }
                    })
                    .collect(),
            })
            .collect(),
        not_rated: unrated,
    };
    let text = serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
    writeln!(out, "{}", correspond::text::json(text))?;
    Ok(())
}
