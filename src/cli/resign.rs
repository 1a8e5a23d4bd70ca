//! `correspond resign`: give up the game.

use super::CliError;
use super::game::with_game;
use super::record::{self, SignArgs};
use crate::cli::Out;
use correspond::log::Action;

/// Resign: your opponent wins. Allowed at any time before the game has ended.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    with_game!(record::game_of(&args.sign.file)?, G => record::append::<G>(&args.sign, out, |_| Ok(Action::Resign)))
}
