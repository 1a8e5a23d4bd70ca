//! `correspond show`: a position drawn for a person, from a position string and moves, or from
//! a game file.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::reading::show_json;
use crate::cli::shared::game::{self, CliGame, GameKind, with_game};
use crate::cli::shared::keys::KeyArgs;
use crate::cli::shared::record;
use correspond::picture::text::{Charset, View};
use correspond::replay::{Event, Player, Replay};
use correspond::rules::Line;
use std::path::Path;

/// Draw a position: the board with coordinates, side to move, check, spin rights, the outcome,
/// what may be claimed and the moves that led there. Colour is used on terminals unless
/// NO_COLOR is set.
///
/// `correspond show campaign [--position POS] [MOVE...]` draws a position of a game;
/// `correspond show FILE [--at N]` draws a game file's position after record N (default: the
/// last), from your side of the board when your key is a player's. A file named like a game is
/// written with its folder: `./campaign`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[arg(value_name = "GAME|FILE", help = target_help())]
    target: String,
    /// With a game: start from this position string instead of the start position.
    #[arg(long, value_name = "POS", value_hint = clap::ValueHint::Other)]
    position: Option<String>,
    /// With a game: play a variant the position string does not show (insurrection:
    /// assassination).
    #[arg(
        long = "variant",
        value_name = "NAME",
        value_parser = game::Offered::variants(),
        hide_possible_values = true
    )]
    variants: Vec<String>,
    /// With a game: moves to play first, in order.
    #[arg(value_name = "MOVE", value_hint = clap::ValueHint::Other)]
    moves: Vec<String>,
    /// With a file: the record after which to draw the position (0: before any).
    #[arg(long, value_name = "N", value_hint = clap::ValueHint::Other)]
    at: Option<usize>,
    /// Turn the board round: the side that moves first (White, Heads, the Guerrilla) at the
    /// top, or, for a file drawn from the second side's seat, at the bottom again.
    #[arg(long)]
    flip: bool,
    /// With a file: your key, to draw the board from your side (a public or private key file;
    /// no passphrase is asked). Default: the keys the signing commands could choose.
    #[arg(long, value_name = "PATH")]
    key: Option<std::path::PathBuf>,
    /// Draw with ASCII letters only, for terminals without Unicode.
    #[arg(long)]
    ascii: bool,
    /// Print the position and its moves as one JSON object (schemas/show.schema.json) instead
    /// of a picture.
    #[arg(long, conflicts_with = "ascii")]
    json: bool,
    /// Print the picture as a standalone SVG document (nothing in it is fetched from elsewhere),
    /// for mail, forums and web pages: `correspond show g.yaml --svg > board.svg`.
    #[arg(long, conflicts_with_all = ["ascii", "json"])]
    svg: bool,
    /// Print the same picture as a PNG image, twice the size it is shown at (800 pixels wide),
    /// drawn with the font the program carries, so the same on every machine: for chats and
    /// forums that show no SVG. `correspond show g.yaml --png > board.png`; never to a terminal.
    #[arg(long, conflicts_with_all = ["ascii", "json", "svg"])]
    png: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let charset = if args.ascii {
        Charset::Ascii
    } else {
        Charset::Unicode
    };
    if let Some(name) = GameKind::named(&args.target) {
        if args.at.is_some() || args.key.is_some() {
            return Err(CliError::usage(
                "--at and --key are for game files; with a game, give the moves to play",
            ));
        }
        return with_game!(name, G => {
            let start = game::start::<G>(args.position.as_deref(), &args.variants)?;
            let played = game::play_moves(start, &args.moves, &args.variants)?;
            let view = View {
                charset,
                flipped: args.flip,
                over: false,
            };
            draw(&Drawn { line: &played.line, view, file: None }, args.output(), out)?;
            match (args.output(), played.played_on()) {
                (Output::Terminal, Some(note)) => Ok(writeln!(out, "{note}")?),
                _ => Ok(()),
            }
        });
    }
    if args.position.is_some() || !args.moves.is_empty() {
        let error = CliError::usage(format!(
            "`{}` is not a game ({}), and moves and --position are for a game, not a game file",
            correspond::text::escape(&args.target),
            GameKind::names_joined("or")
        ));
        return Err(crate::cli::shared::target::with_near_game(
            error,
            &args.target,
        ));
    }
    let path = Path::new(&args.target);
    if let Some(error) = crate::cli::shared::target::neither_game_nor_file(path) {
        return Err(error);
    }
    let (kind, bytes) = record::read_game(path)?;
    with_game!(kind, G => show_file::<G>(path, &bytes, args, charset, out))
}

/// A position to draw: the line that reached it, how, and the file it comes from.
struct Drawn<'a, G: CliGame> {
    line: &'a Line<G>,
    view: View,
    file: Option<FileContext>,
}

/// What a game file adds to its picture.
struct FileContext {
    /// The lines above the board: the file, the players, the phase, a comment, the clocks.
    heading: Vec<String>,
    /// The lines under a picture: the players and the record, the comment and the clocks.
    captions: Vec<String>,
    /// How the game ended, where it has: said in place of the position's own line.
    verdict: Option<String>,
    json: show_json::FilePart,
}

/// What `show` prints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Terminal,
    Json,
    Svg,
    Png,
}

impl Args {
    fn output(&self) -> Output {
        match (self.json, self.svg, self.png) {
            (true, _, _) => Output::Json,
            (_, true, _) => Output::Svg,
            (_, _, true) => Output::Png,
            _ => Output::Terminal,
        }
    }
}

fn draw<G: CliGame>(
    drawn: &Drawn<'_, G>,
    output: Output,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if matches!(output, Output::Svg | Output::Png) {
        let options = correspond::picture::Options {
            flipped: drawn.view.flipped,
            captions: drawn
                .file
                .as_ref()
                .map(|f| f.captions.clone())
                .unwrap_or_default(),
            verdict: drawn.file.as_ref().and_then(|f| f.verdict.clone()),
        };
        let svg = G::svg(drawn.line, &options);
        if output == Output::Png {
            if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                return Err(
                    CliError::usage("--png writes an image, which a terminal cannot show")
                        .hint("send it to a file: `correspond show ... --png > board.png`"),
                );
            }
            let png = correspond::picture::raster::png(&svg)
                .map_err(|e| CliError::usage(e.to_string()))?;
            out.write_all(&png)?;
            return Ok(());
        }
        write!(out, "{svg}")?;
        return Ok(());
    }
    if output == Output::Json {
        let shown = show_json::show(
            drawn.line,
            drawn.view.flipped,
            drawn.view.over,
            drawn.file.as_ref().map(|f| &f.json),
        );
        let text =
            serde_json::to_string_pretty(&shown).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
        return Ok(());
    }
    if let Some(file) = &drawn.file {
        for line in &file.heading {
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
    }
    out.picture(&G::text(drawn.line, drawn.view))?;
    let list = move_list(drawn.line);
    if !list.is_empty() {
        for line in wrapped("moves:", &list, 80) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn show_file<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    args: &Args,
    charset: Charset,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (file, replay) = record::verified::<G>(path, bytes)?;
    let last = replay.steps.len() - 1;
    let at = args.at.unwrap_or(last);
    let Some(step) = replay.steps.get(at) else {
        return Err(no_record(path, at, last));
    };
    let comment = at
        .checked_sub(1)
        .and_then(|n| file.records()[n].comment.clone());
    let mut heading = heading(path, &replay, at, comment.as_deref());
    let moves = replay.steps[..=at]
        .iter()
        .flat_map(|s| &s.events)
        .filter(|e| matches!(e, Event::Moved(..)))
        .count();
    let line = line_after(&replay, step, moves);
    let mut captions = vec![format!("{}, record {at} of {last}", replay.matchup())];
    captions.extend(heading[2..].iter().cloned());
    let over = matches!(step.phase, correspond::replay::Phase::Over(_));
    let verdict = over.then(|| step.phase.describe(&replay.seats));
    let viewer = viewer_side(&replay.seats, &args.key, path)?;
    let flipped = viewer.is_some_and(|side| side != G::SIDES[0]) != args.flip;
    if flipped {
        let side = if viewer.is_some() && !args.flip {
            viewer.map(|s| format!("{s}'s side, yours"))
        } else {
            Some(format!("{}'s side", G::SIDES[1]))
        };
        heading.push(format!("seen from {}", side.unwrap_or_default()));
    }
    let file = FileContext {
        heading,
        captions,
        verdict,
        json: show_json::FilePart {
            // As given; the JSON writer escapes what must be.
            file: path.to_string_lossy().into_owned(),
            record: at,
            records: last,
            comment,
        },
    };
    let view = View {
        charset,
        flipped,
        over,
    };
    draw(
        &Drawn {
            line: &line,
            view,
            file: Some(file),
        },
        args.output(),
        out,
    )
}

/// `--at` past the file's last record: the file is sound, the argument names what it lacks.
fn no_record(path: &Path, at: usize, last: usize) -> CliError {
    CliError::usage(format!(
        "{} has records 0 to {last}; there is no record {at}",
        correspond::text::path(path)
    ))
    .hint(format!(
        "`correspond log {}` lists the records",
        correspond::text::path(path)
    ))
}

/// The lines above the board: the file, who plays whom and the record shown; what the game
/// waits for; what the record's signer said with it; and, at the last record, the clocks.
fn heading<G: CliGame>(
    path: &Path,
    replay: &Replay<G>,
    at: usize,
    comment: Option<&str>,
) -> Vec<String> {
    let last = replay.steps.len() - 1;
    let step = &replay.steps[at];
    let mut heading = vec![
        format!(
            "{}: {}, record {at} of {last}",
            correspond::text::path(path),
            replay.matchup()
        ),
        step.phase.describe(&replay.seats),
    ];
    if let Some(comment) = comment {
        heading.push(format!(
            "{} says \"{}\"",
            replay.signed_by(step.signer),
            correspond::text::prose(comment)
        ));
    }
    if let Some(standing) = &step.conditional {
        heading.push(standing.describe(&replay.seats, &step.position));
    }
    // The clocks are those after the last record.
    if let Some(clocks) = replay.clocks.as_ref().filter(|_| at == last) {
        let names = replay.seats.each_ref().map(ToString::to_string);
        heading.push(format!(
            "clocks: {}",
            crate::cli::shared::clocks::summary(clocks, &names)
        ));
    }
    heading
}

/// The side of the player whose key is the user's, when exactly one seat is theirs and the
/// sides are given out: the keys are those `--key` names, else those the signing commands
/// could choose. None found is no error: the board is then drawn the usual way up.
fn viewer_side<S: Copy>(
    seats: &[Player<S>; 2],
    key: &Option<std::path::PathBuf>,
    near: &Path,
) -> Result<Option<S>, CliError> {
    let args = KeyArgs { key: key.clone() };
    let mine = match args.all_mine(near) {
        Ok(mine) => mine,
        // A key named that cannot be read is an error; none found is no error.
        Err(e) if key.is_some() => return Err(e),
        Err(_) => return Ok(None),
    };
    let mine: Vec<String> = mine.iter().map(correspond::sign::fingerprint).collect();
    let mut theirs = seats.iter().filter(|p| mine.contains(&p.fingerprint));
    Ok(match (theirs.next(), theirs.next()) {
        (Some(player), None) => player.side,
        _ => None,
    })
}

/// The moves of `line` as a move list shows them, numbered from its start: `1. e4`, `e5`,
/// `2. Nf3`; a list that starts with the second side's move starts `1... e5`.
pub(crate) fn move_list<G: CliGame>(line: &Line<G>) -> Vec<String> {
    show_json::moves(line)
        .into_iter()
        .enumerate()
        .map(|(i, m)| match (m.first_side, i) {
            (true, _) => format!("{}. {}", m.number, m.shown),
            (false, 0) => format!("{}... {}", m.number, m.shown),
            (false, _) => m.shown,
        })
        .collect()
}

/// `words` after `label`, in lines of at most `width` characters where the words allow it,
/// the lines after the first indented under the first word.
fn wrapped(label: &str, words: &[String], width: usize) -> Vec<String> {
    let indent = " ".repeat(label.chars().count());
    let mut lines = Vec::new();
    let mut current = label.to_owned();
    for word in words {
        let fresh = current.chars().count() == indent.chars().count();
        if !fresh && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut current, indent.clone()));
        }
        current.push(' ');
        current.push_str(word);
    }
    lines.push(current);
    lines
}

/// The help of `show`'s first argument, naming the registry's games.
fn target_help() -> String {
    format!(
        "A game ({}) or a game file",
        GameKind::names_in_words().replace(" and ", ", ")
    )
}

/// The line of moves as it stands after `step`, `moves` moves into the game. Before the first
/// move, the step's own position: the game's line starts with the side that moved first, which
/// a toss won, and not yet used or deferred, does not give.
pub(crate) fn line_after<G: CliGame>(
    replay: &Replay<G>,
    step: &correspond::replay::Step<G>,
    moves: usize,
) -> Line<G> {
    match &replay.line {
        Some(line) if moves > 0 => line.prefix(moves),
        _ => Line::new(step.position.clone()),
    }
}
