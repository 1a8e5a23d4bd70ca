//! `correspond rating-rules`: a club's rating rules, signed by its key; and what `ratings`
//! does with them: read them, publish a list signed by the same key, check a published list.

use super::ratings::Rated;
use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use crate::cli::shared::game::{self, GameKind};
use crate::cli::shared::keys::{self, KeyArgs};
use correspond::digest::Digest;
use correspond::ratings::list::{List, System};
use correspond::ratings::published::{self, Published};
use correspond::ratings::rules::{self, Method, Rules};
use std::path::{Path, PathBuf};

/// Write a club's rating rules, signed with the club's key, to a new file: the game rated, the
/// system (Glicko-2 or FIDE-style Elo) and its parameters, the rating periods, a new player's
/// rating, and whether only games with a clock count. `correspond ratings --rules FILE` makes
/// the club's lists by them, `--publish` signs a list with the same key, and anyone can
/// `--check` it. See docs/ratings.md.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The new rules file; it must not exist.
    file: PathBuf,
    /// The club's name.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    club: String,
    /// The game rated.
    #[arg(long, value_parser = game::parser())]
    game: GameKind,
    /// The system.
    #[arg(long, default_value = "glicko2", value_parser = ["glicko2", "elo"])]
    system: String,
    /// A new player's rating.
    #[arg(long, default_value_t = 1500, value_hint = clap::ValueHint::Other)]
    initial_rating: u32,
    /// Glicko-2: a new player's rating deviation [default: 350].
    #[arg(long, value_hint = clap::ValueHint::Other)]
    initial_deviation: Option<u32>,
    /// Glicko-2: a new player's volatility, in millionths [default: 60000, that is 0.06].
    #[arg(long, value_hint = clap::ValueHint::Other)]
    initial_volatility_millionths: Option<u32>,
    /// Glicko-2: the system constant τ, in thousandths [default: 500, that is 0.5].
    #[arg(long, value_hint = clap::ValueHint::Other)]
    tau_thousandths: Option<u32>,
    /// The length of a rating period, in days, counted from 1970-01-01 UTC.
    #[arg(long, default_value_t = 30, value_hint = clap::ValueHint::Other)]
    period_days: u32,
    /// Rate only games with a clock.
    #[arg(long)]
    timed_only: bool,
    #[command(flatten)]
    key: KeyArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    if args.file.exists() {
        return Err(CliError::usage(format!(
            "{} already exists",
            correspond::text::path(&args.file)
        ))
        .hint("a rules file is never overwritten"));
    }
    crate::cli::shared::places::in_a_folder(&args.file)?;
    let signer = args.key.signer(&args.file)?;
    let rules = Rules {
        club: args.club.clone(),
        key: signer.public_key().clone(),
        game: args.game,
        method: method(args)?,
        initial: args.initial_rating,
        period_days: args.period_days,
        timed_only: args.timed_only,
        created: keys::now()?,
    };
    let signature = signer
        .sign(rules::unsigned(&rules).as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    let text = rules::file_text(&rules, &signature);
    // The reader decides: rules it refuses are never written.
    let (_, digest) = rules::read(text.as_bytes())
        .map_err(|e| CliError::usage(correspond::text::escape(&e.to_string())))?;
    correspond::log::create_new(&args.file, text.as_bytes())
        .map_err(|e| CliError::io(&args.file, &e))?;
    writeln!(
        out,
        "wrote {}: the rating rules of {} for {}, signed by {}\nrules digest: {digest}",
        correspond::text::path(&args.file),
        rules.club,
        rules.game,
        correspond::sign::fingerprint(&rules.key)
    )?;
    Ok(())
}

/// The system the arguments choose; Glicko-2's parameters are refused for Elo, which has none.
fn method(args: &Args) -> Result<Method, CliError> {
    let glicko = [
        ("--tau-thousandths", args.tau_thousandths),
        ("--initial-deviation", args.initial_deviation),
        (
            "--initial-volatility-millionths",
            args.initial_volatility_millionths,
        ),
    ];
    if args.system == "elo" {
        if let Some((option, _)) = glicko.iter().find(|(_, v)| v.is_some()) {
            return Err(CliError::usage(format!(
                "{option} is a parameter of Glicko-2; Elo has none"
            )));
        }
        return Ok(Method::Elo);
    }
    Ok(Method::Glicko2 {
        tau_thousandths: args.tau_thousandths.unwrap_or(500),
        deviation: args.initial_deviation.unwrap_or(350),
        volatility_millionths: args.initial_volatility_millionths.unwrap_or(60_000),
    })
}

/// A rules file read and checked, with its digest.
pub(crate) fn read(path: &Path) -> Result<(Rules, Digest), CliError> {
    let bytes = correspond::log::read_limited(path).map_err(|e| {
        let error = CliError::io(path, &e);
        if e.kind() == std::io::ErrorKind::NotFound {
            error.hint("check the path; `correspond rating-rules` writes a club's rating rules")
        } else {
            error
        }
    })?;
    rules::read(&bytes).map_err(|e| {
        CliError::rejected(format!(
            "{}: {}",
            correspond::text::path(path),
            correspond::text::escape(&e.to_string())
        ))
    })
}

/// The rules' game's list among `lists` (an empty one where no game of it is rated), and its
/// games' ids in the canonical order.
fn the_list(
    rules: &Rules,
    lists: &[(&str, &Rated, List)],
    system: &System,
) -> Result<(List, Vec<Digest>), CliError> {
    match lists.iter().find(|(game, ..)| *game == rules.game.name()) {
        Some((_, rated, made)) => {
            let mut games = rated.games.clone();
            games.sort_by_key(|g| (g.ended, g.id));
            Ok((made.clone(), games.iter().map(|g| g.id).collect()))
        }
        None => Ok((
            correspond::ratings::list::list(&[], system)
                .map_err(|e| CliError::rejected(e.to_string()))?,
            Vec::new(),
        )),
    }
}

/// `ratings --publish OUT`: the list, signed by the club's key, written to a new file.
pub(crate) fn publish(
    args: &super::ratings::Args,
    path: &Path,
    rules: &Rules,
    digest: Digest,
    lists: &[(&str, &Rated, List)],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if path.exists() {
        return Err(
            CliError::usage(format!("{} already exists", correspond::text::path(path)))
                .hint("a published list is never overwritten; give another file"),
        );
    }
    let (list, games) = the_list(rules, lists, &rules.system())?;
    let signer = args.key().signer(path)?;
    if signer.public_key().key_data() != rules.key.key_data() {
        return Err(CliError::usage(format!(
            "only the club's key, {}, signs its lists",
            correspond::sign::fingerprint(&rules.key)
        ))
        .hint("choose the club's key with --key PATH"));
    }
    let published = Published {
        club: rules.club.clone(),
        rules: digest,
        list,
        games,
        created: keys::now()?,
    };
    let signature = signer
        .sign(published::unsigned(&published).as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    let text = published::file_text(&published, &signature);
    correspond::log::create_new(path, text.as_bytes()).map_err(|e| CliError::io(path, &e))?;
    writeln!(
        out,
        "published {}: {} of {}, {} rated, {}; games digest {}",
        correspond::text::path(path),
        rules.game,
        rules.club,
        crate::cli::count(published.games.len(), "game"),
        crate::cli::count(published.list.entries.len(), "player"),
        published.list.inputs
    )?;
    Ok(())
}

/// `ratings --check LIST`: the published list made again from the games, compared to the bit.
pub(crate) fn check(
    path: &Path,
    rules: &Rules,
    digest: Digest,
    lists: &[(&str, &Rated, List)],
    system: &System,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    let bytes = crate::cli::shared::record::read(path)?;
    let shown = correspond::text::path(path).to_string();
    let published = published::read(&bytes, rules).map_err(|e| {
        CliError::rejected(format!(
            "{shown}: {}",
            correspond::text::escape(&e.to_string())
        ))
    })?;
    let (made, games) = the_list(rules, lists, system)?;
    let names = lists
        .iter()
        .find(|(game, ..)| *game == rules.game.name())
        .map(|(_, rated, _)| *rated);
    let name = |key: &Digest| {
        names
            .and_then(|rated| rated.named(key))
            .unwrap_or_else(|| format!("the key {key}"))
    };
    let last = lists
        .iter()
        .find(|(game, ..)| *game == rules.game.name())
        .and_then(|(_, rated, _)| rated.games.iter().map(|g| g.ended).max())
        .and_then(|t| u64::try_from(t).ok());
    let differences = published::differences(
        &published,
        (digest, &rules.club),
        &made,
        (&games, last),
        &name,
    );
    if differences.is_empty() {
        writeln!(
            out,
            "{shown} holds: {} rated, {}, every rating the same to the bit",
            crate::cli::count(games.len(), "game"),
            crate::cli::count(made.entries.len(), "player")
        )?;
        return Ok(ExitStatus::Success);
    }
    writeln!(out, "{shown} does not hold:")?;
    for line in &differences {
        writeln!(out, "  {line}")?;
    }
    Ok(ExitStatus::Rejected)
}
