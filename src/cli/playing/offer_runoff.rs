//! `correspond offer-runoff`: offer to settle the game by a coin flip.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;

/// Offer a Run-Off (Campaign): the game is settled by a coin flip if your opponent accepts with
/// their next record. Anything else they sign declines it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |_| Ok(Action::Offer(record::settlement::<G>()?))))
}
