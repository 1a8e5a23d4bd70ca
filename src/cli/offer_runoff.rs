//! `correspond offer-runoff`: offer to settle the game by a coin flip.

use super::CliError;
use super::game::with_game;
use super::record::{self, SignArgs};
use crate::cli::Out;
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
