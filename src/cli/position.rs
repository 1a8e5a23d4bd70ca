//! `correspond position`: play moves and print the position string they reach.

use super::CliError;
use super::game::{self, PositionArgs, with_game};
use crate::cli::Out;

/// Play moves from a position and print the position string reached; if the game is over, a
/// second line gives the outcome (`fact-check: heads wins`, `run-off: stalemate`, ...).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves to play, in order, in the game's notation: campaign `c2c3`, `b6b7g`; guerrilla
    /// `b4,c4`, `f5-g4`, `c4xb3`; chess and insurrection SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or
    /// UCI (`g1f3`).
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    with_game!(args.position.game, G => {
        let start = args.position.start::<G>()?;
        let line = game::play_moves(start, &args.moves, &args.position.variants)?;
        let pos = line.current();
        writeln!(out, "{pos}")?;
        if let Some(outcome) = line.outcome() {
            writeln!(out, "{outcome}")?;
        }
        Ok(())
    })
}
