//! `correspond disclose`: show one's hidden conditional lines whole where the opponent's move
//! meets none of them, so that a record other than a move (a claim, an offer) can follow.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::hidden::{self, Answer};
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::Action;
use std::path::Path;

/// Disclose your hidden conditional lines (`play --if ... --hidden`) where your opponent's move
/// meets none: their seed and lines are signed into the file, which shows that no line answers
/// the move, and you play on as usual. `correspond play FILE MOVE` does this before your move by
/// itself; this is for a claim or an offer instead.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    if args.sign.comment.is_some() {
        return Err(CliError::usage(
            "a disclosure carries no comment: say it with the record that follows it; nothing \
             was written",
        ));
    }
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        the_disclosure::<G>(ctx, &args.sign.file)
    }))
}

/// The disclosure, where hidden lines of the signer's owe an answer that no line gives.
fn the_disclosure<G: CliGame>(
    ctx: &record::Context<'_, G>,
    file: &Path,
) -> Result<Action, CliError> {
    let seat = ctx.seat()?;
    let last = ctx.replay.last();
    let Some(standing) = last.conditional.as_ref().filter(|s| s.author == seat) else {
        return Err(CliError::rejected(
            "you have no hidden conditional lines standing",
        ));
    };
    let Some(lines) = standing.hidden.as_ref() else {
        return Err(CliError::rejected(
            "your conditional lines are visible already: there is nothing to disclose",
        ));
    };
    if !lines.owed {
        return Err(CliError::rejected(
            "your opponent has not moved since your hidden lines: there is nothing to answer",
        )
        .hint(format!(
            "`correspond withdraw {}` takes them back, and shows nothing of them",
            correspond::text::path(file)
        )));
    }
    match hidden::answer(ctx, lines)? {
        Answer::Disclose(disclosure) => Ok(Action::Disclose(disclosure)),
        Answer::Reveal(reveal, _) => Err(hidden::reply_due(&last.position, &reveal.mv, file)),
    }
}
