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
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |_| Ok(Action::Resign)))
}
