//! `correspond gif`: a game file as an animated GIF, to post where players share games.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::reading::html::{Made, write_made};
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::record;
use correspond::picture::animation::{self, Animation, LAST_FRAME_HELD};
use correspond::replay::Phase;
use correspond::rules::Line;
use std::path::{Path, PathBuf};

/// The shortest time a frame may be shown: browsers show a GIF's shorter frames for a tenth of
/// a second, or not at all.
const SHORTEST_MS: u32 = 20;
/// The longest: a minute.
const LONGEST_MS: u32 = 60_000;

/// Write a game file as an animated GIF: every position from the start, the last move marked,
/// the players under the board and, in the last frame (shown five times as long), how the game
/// ended. Every game; each frame holds only the squares that changed, so a long game's GIF
/// stays small. A file that does not verify is refused, and nothing is written.
///
/// `correspond gif game.yaml -o game.gif`; without -o the GIF goes to standard output, which
/// must not be a terminal.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Where to write the GIF; without it, standard output. A PNG or GIF there is replaced
    /// whole; any other file (a game file above all) is refused.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// Turn the board round: the side that moves first (White, Heads, the Guerrilla) at the top.
    #[arg(long)]
    flip: bool,
    /// How long each position is shown, in milliseconds (20 to 60000; GIF counts hundredths
    /// of a second, so it is rounded to the nearest ten).
    #[arg(long, value_name = "MS", default_value_t = 800, value_hint = clap::ValueHint::Other)]
    delay: u32,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    if !(SHORTEST_MS..=LONGEST_MS).contains(&args.delay) {
        return Err(CliError::usage(format!(
            "--delay {}: a frame is shown for {SHORTEST_MS} to {LONGEST_MS} milliseconds",
            args.delay
        ))
        .hint("browsers show shorter frames for a tenth of a second, or skip them"));
    }
    if args.output.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(
            CliError::usage("a GIF is an image, which a terminal cannot show").hint(format!(
                "name a file for it: `correspond gif {} -o game.gif`",
                correspond::text::path(&args.file)
            )),
        );
    }
    // GIF counts hundredths of a second: what is said is what is shown.
    let delay = (args.delay + 5) / 10 * 10;
    let (kind, bytes) = record::read_game(&args.file)?;
    let gif = with_game!(kind, G => animate::<G>(&args.file, &bytes, args.flip, delay))?;
    match &args.output {
        Some(path) => {
            write_made(path, &gif.bytes, Made::Picture)?;
            writeln!(
                out,
                "wrote {}: {}, the last held {}s",
                correspond::text::path(path),
                crate::cli::count(gif.frames, "frame"),
                f64::from(delay * LAST_FRAME_HELD) / 1000.0
            )?;
        }
        None => out.write_all(&gif.bytes)?,
    }
    Ok(())
}

/// A GIF made, and how many frames it has.
struct Animated {
    bytes: Vec<u8>,
    frames: usize,
}

fn animate<G: CliGame>(
    path: &Path,
    bytes: &[u8],
    flipped: bool,
    delay_ms: u32,
) -> Result<Animated, CliError> {
    let (_, replay) = record::verified::<G>(path, bytes)?;
    let line = replay
        .line
        .clone()
        .unwrap_or_else(|| Line::new(replay.last().position.clone()));
    let phase = &replay.last().phase;
    let result = match phase {
        Phase::Over(_) => phase.describe(&replay.seats),
        _ => format!("so far: {}", phase.describe(&replay.seats)),
    };
    let animation = Animation {
        flipped,
        delay_ms,
        captions: vec![replay.matchup()],
        result,
    };
    let bytes = animation::gif(&line, &animation, crate::cli::cores())
        .map_err(|e| CliError::usage(e.to_string()))?;
    Ok(Animated {
        bytes,
        frames: line.positions().len(),
    })
}
