//! `correspond resign`: give up the game.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;

/// Resign: your opponent wins. Allowed at any time before the game has ended.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |_| Ok(Action::Resign)))
}
