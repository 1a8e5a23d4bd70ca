//! `correspond moves`: the legal moves of a position.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{PositionArgs, with_game};
use correspond::rules::Game;

/// List the legal moves of a position in canonical notation, one per line, sorted by byte
/// order. Prints nothing when the game is over by the position alone (checkmate, stalemate,
/// Campaign's and Guerrilla Checkers' endings); chess and Insurrection list the moves of a drawn
/// position, as perft counts them. A game file whose game is over (a resignation, an agreement,
/// an arbiter, a clock, the rules) is refused: no move can be played in it (exit code 1).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON array of the moves (schemas/moves.schema.json).
    #[arg(long)]
    json: bool,
}

/// The bytes of text gathered before each write.
const BLOCK: usize = 1 << 16;

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, file) = args.position.resolve()?;
    with_game!(kind, G => {
        let pos = args.position.playable::<G>(file.as_deref())?;
        // Streamed, in blocks: a crowded Guerrilla Checkers board has tens of millions of
        // moves, gigabytes of text.
        let mut block = String::with_capacity(BLOCK + 256);
        let mut result = Ok(());
        // Moves are written in letters, digits, `,` and `-`: quoted, they are JSON strings.
        let mut first = true;
        if args.json {
            block.push('[');
        }
        let _ = pos.for_each_legal_move_text(&mut |mv| {
            if args.json {
                block.push_str(if first { "\n  \"" } else { ",\n  \"" });
                block.push_str(mv);
                block.push('"');
                first = false;
            } else {
                block.push_str(mv);
                block.push('\n');
            }
            if block.len() < BLOCK {
                return std::ops::ControlFlow::Continue(());
            }
            result = out.write_all(block.as_bytes()).map_err(CliError::from);
            block.clear();
            if result.is_ok() {
                std::ops::ControlFlow::Continue(())
            } else {
                std::ops::ControlFlow::Break(())
            }
        });
        result?;
        if args.json {
            block.push_str(if first { "]\n" } else { "\n]\n" });
        }
        out.write_all(block.as_bytes())?;
        Ok(())
    })
}
