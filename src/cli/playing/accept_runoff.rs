//! `correspond accept-runoff`: accept the opponent's standing Run-Off offer.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;

/// Accept your opponent's Run-Off offer. The player to move then commits to the coin flip.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |_| Ok(Action::AcceptOffer(record::settlement::<G>()?))))
}
