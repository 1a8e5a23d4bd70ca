//! `correspond position`: play moves and print the position string they reach.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{self, PositionArgs, with_game};

/// Play moves from a position and print the position string reached; if the game is over, a
/// second line gives the outcome (`fact-check: heads wins`, `run-off: stalemate`, ...). A drawn
/// chess or Insurrection position can be played on with the moves `moves` lists; a last line
/// then says after which move the game was over.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    #[arg(
        value_name = "MOVE",
        value_hint = clap::ValueHint::Other,
        help = crate::cli::shared::game::help::notation("Moves to play, in order")
    )]
    moves: Vec<String>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, file) = args.position.resolve()?;
    with_game!(kind, G => {
        let start = args.position.start::<G>(file.as_deref())?;
        let played = game::play_moves(start, &args.moves, &args.position.variants)?;
        let line = &played.line;
        writeln!(out, "{}", line.current())?;
        if let Some(outcome) = line.outcome() {
            writeln!(out, "{outcome}")?;
        }
        if let Some(note) = played.played_on() {
            writeln!(out, "{note}")?;
        }
        Ok(())
    })
}
