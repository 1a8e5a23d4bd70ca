//! `correspond perft`: count the positions a number of turns ahead, to test move generators.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{PositionArgs, with_game};
use correspond::rules::Game;

/// Count the leaf positions reached by exactly DEPTH turns of legal moves (lines that end the
/// game sooner are not counted). The count is the last line.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// How many turns ahead.
    #[arg(value_hint = clap::ValueHint::Other)]
    depth: u32,
    /// First print each legal move with the count below it, sorted by move.
    #[arg(long)]
    divide: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, file) = args.position.resolve()?;
    with_game!(kind, G => {
        let pos = args.position.start::<G>(file.as_deref())?;
        let total = if args.divide && args.depth > 0 {
            let mut total = 0;
            let mut result = Ok(());
            let _ = pos.for_each_legal_move(&mut |mv| {
                let next = pos.play(mv).expect("a listed move is legal");
                let count = next.perft(args.depth - 1);
                total += count;
                match writeln!(out, "{mv} {count}") {
                    Ok(()) => std::ops::ControlFlow::Continue(()),
                    Err(e) => {
                        result = Err(CliError::from(e));
                        std::ops::ControlFlow::Break(())
                    }
                }
            });
            result?;
            total
        } else {
            pos.perft(args.depth)
        };
        writeln!(out, "{total}")?;
        Ok(())
    })
}
