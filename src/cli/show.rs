//! `correspond show`: a position drawn for a person.

use super::CliError;
use super::game::{self, PositionArgs, with_game};
use super::render::{Charset, Render};
use std::io::Write;

/// Draw a position (after playing MOVEs, if given): the board with coordinates, side to move,
/// check, spin rights, outcome and claims. Colour is used on terminals unless NO_COLOR is set.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves to play first, in order.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// Draw with ASCII letters only, for terminals without Unicode.
    #[arg(long)]
    ascii: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let charset = if args.ascii {
        Charset::Ascii
    } else {
        Charset::Unicode
    };
    with_game!(args.position.game, G => {
        let start = game::start::<G>(args.position.position.as_deref())?;
        let line = game::play_moves(start, &args.moves)?;
        G::render(&line, charset, out)?;
        Ok(())
    })
}
