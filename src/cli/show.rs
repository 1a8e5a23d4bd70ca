//! `correspond show`: a position drawn for a person, from a position string and moves, or from
//! a game file.

use super::CliError;
use super::game::{self, CliGame, GameKind, with_game};
use super::record;
use super::render::{Charset, Render};
use crate::cli::Out;
use correspond::replay::Event;
use correspond::rules::Line;
use std::path::Path;

/// Draw a position: the board with coordinates, side to move, check, spin rights, the outcome
/// and what may be claimed. Colour is used on terminals unless NO_COLOR is set.
///
/// `correspond show campaign [--position POS] [MOVE...]` draws a position of a game;
/// `correspond show FILE [--at N]` draws a game file's position after record N (default: the
/// last). A file named like a game is written with its folder: `./campaign`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[arg(value_name = "GAME|FILE", help = target_help())]
    target: String,
    /// With a game: start from this position string instead of the start position.
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// With a game: play a variant the position string does not show (insurrection:
    /// assassination).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// With a game: moves to play first, in order.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// With a file: the record after which to draw the position (0: before any).
    #[arg(long, value_name = "N")]
    at: Option<usize>,
    /// Draw with ASCII letters only, for terminals without Unicode.
    #[arg(long)]
    ascii: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let charset = if args.ascii {
        Charset::Ascii
    } else {
        Charset::Unicode
    };
    if let Some(name) = GameKind::named(&args.target) {
        if args.at.is_some() {
            return Err(CliError::usage(
                "--at is for game files; with a game, give the moves to play",
            ));
        }
        return with_game!(name, G => {
            let start = game::start::<G>(args.position.as_deref(), &args.variants)?;
            let line = game::play_moves(start, &args.moves, &args.variants)?.line;
            out.picture(|w| G::render(&line, charset, w))?;
            Ok(())
        });
    }
    if args.position.is_some() || !args.moves.is_empty() {
        return Err(CliError::usage(format!(
            "`{}` is not a game ({}); for a game file, --position and moves do not apply",
            correspond::text::escape(&args.target),
            GameKind::names_in_words()
        )));
    }
    let path = Path::new(&args.target);
    let (kind, bytes) = record::read_game(path)?;
    with_game!(kind, G => show_file::<G>(path, &bytes, args.at, charset, out))
}

fn show_file<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    at: Option<usize>,
    charset: Charset,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    let last = replay.steps.len() - 1;
    let at = at.unwrap_or(last);
    let Some(step) = replay.steps.get(at) else {
        return Err(CliError::rejected(format!(
            "{} has records 0 to {last}; there is no record {at}",
            correspond::text::path(path)
        ))
        .hint(format!(
            "`correspond log {}` lists the records",
            correspond::text::path(path)
        )));
    };
    writeln!(
        out,
        "{}: {}, record {at} of {last}",
        correspond::text::path(path),
        replay.matchup()
    )?;
    writeln!(out, "{}", step.phase.describe(&replay.seats))?;
    if let Some(comment) = at
        .checked_sub(1)
        .and_then(|n| file.records()[n].comment.as_ref())
    {
        writeln!(
            out,
            "{} says \"{}\"",
            replay.signed_by(step.signer),
            correspond::text::escape(comment)
        )?;
    }
    // The clocks are those after the last record.
    if let Some(clocks) = replay.clocks.as_ref().filter(|_| at == last) {
        let names = replay.seats.each_ref().map(ToString::to_string);
        writeln!(out, "clocks: {}", super::clocks::summary(clocks, &names))?;
    }
    writeln!(out)?;
    let moves = replay.steps[..=at]
        .iter()
        .flat_map(|s| &s.events)
        .filter(|e| matches!(e, Event::Moved(..)))
        .count();
    let line = match &replay.line {
        Some(line) => line.prefix(moves),
        None => Line::new(step.position.clone()),
    };
    out.picture(|w| G::render(&line, charset, w))?;
    Ok(())
}

/// The help of `show`'s first argument, naming the registry's games.
fn target_help() -> String {
    format!(
        "A game ({}) or a game file",
        GameKind::names_in_words().replace(" and ", ", ")
    )
}
