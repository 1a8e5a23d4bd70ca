//! `correspond accept`: the opponent accepts a new game, answering the opening coin flip.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs, derive_nonce};
use correspond::flip::Part;
use correspond::log::Action;

/// Accept a game your opponent created: sign the header's terms and, where a coin flip decides
/// who moves first, answer it. The creator then reveals the flip with `correspond reveal`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let nonce = match ctx.file.binding(0) {
            Some(binding) => Some(derive_nonce(ctx.key.signer()?, Part::Respond, &binding)?),
            None => None,
        };
        Ok(Action::Accept { nonce })
    }))
}
