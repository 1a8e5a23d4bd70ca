//! `correspond withdraw`: take back one's conditional lines before they apply.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;

/// Withdraw your conditional lines (`play --if`) before your opponent's move meets one. A
/// withdrawal that reaches the game after that move, by mail, is too late: the reply stands.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        the_withdrawal::<G>(ctx, &args.sign.file)
    }))
}

/// The withdrawal, when lines of the signer's stand and no reply of theirs is due.
fn the_withdrawal<G: CliGame>(
    ctx: &record::Context<'_, G>,
    file: &std::path::Path,
) -> Result<Action, CliError> {
    let seat = ctx.seat()?;
    match &ctx.replay.last().conditional {
        Some(standing) if standing.author == seat && standing.answer_owed().is_some() => {
            Err(CliError::rejected(
                "your opponent has moved since your hidden conditional lines: they answer first, \
                 and are not withdrawn now",
            )
            .hint(format!(
                "`correspond play {} MOVE` reveals the reply a line gives, or discloses the lines",
                correspond::text::path(file)
            )))
        }
        Some(standing) if standing.author == seat && standing.due.is_none() => Ok(Action::Withdraw),
        Some(standing) if standing.author == seat => Err(CliError::rejected(
            "your opponent's move has met your conditional line already: its reply is due, and \
             stands",
        )),
        _ => Err(CliError::rejected("you have no conditional lines standing")),
    }
}
