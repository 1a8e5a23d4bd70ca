//! `correspond position`: play moves and print the position string they reach.

use super::CliError;
use super::game::{self, PositionArgs, with_game};
use crate::rules::Game;
use std::io::Write;

/// Play moves from a position and print the position string reached; if the game is over, a
/// second line gives the outcome (`fact-check: heads wins`, `run-off: stalemate`, ...).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves to play, in order, in the game's notation (Campaign: `c2c3`, `b6b7g`, `c6c7s`).
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    with_game!(args.position.game, G => {
        let start = args.position.start::<G>()?;
        let line = game::play_moves(start, &args.moves)?;
        let pos = line.current();
        writeln!(out, "{pos}")?;
        if let Some(outcome) = pos.outcome() {
            writeln!(out, "{outcome}")?;
        }
        Ok(())
    })
}
