//! `correspond moves`: the legal moves of a position.

use super::CliError;
use super::game::{PositionArgs, with_game};
use crate::cli::Out;
use correspond::rules::Game;

/// List the legal moves of a position in canonical notation, one per line, sorted by byte
/// order. Prints nothing when the game is over by the position alone (checkmate, stalemate,
/// Campaign's and Guerrilla Checkers' endings); chess and Insurrection list the moves of a drawn
/// position, as perft counts them.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    with_game!(args.position.game, G => {
        let pos = args.position.start::<G>()?;
        // Streamed: a crowded Guerrilla Checkers board can have hundreds of thousands of moves.
        let mut result = Ok(());
        let _ = pos.for_each_legal_move(&mut |mv| match writeln!(out, "{mv}") {
            Ok(()) => std::ops::ControlFlow::Continue(()),
            Err(e) => {
                result = Err(CliError::from(e));
                std::ops::ControlFlow::Break(())
            }
        });
        result
    })
}
