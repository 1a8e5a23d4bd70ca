//! Hidden conditional lines at the command line (docs/conditional-moves.md): the commitment
//! signed with a move (`play --if ... --hidden`), the lines kept beside the signing journal
//! under their commitment, and, after the opponent's move, the author's answer: the reveal of
//! the reply a line gives (`play`), or the disclosure of the lines where none does (`play`
//! before the move, or `disclose`).

use crate::cli::CliError;
use crate::cli::shared::game::CliGame;
use crate::cli::shared::record;
use crate::cli::shared::signing_journal;
use correspond::digest::Digest;
use correspond::hidden::{Tree, key, reply_after, rest_after};
use correspond::log::{Action, Conditional, Disclosure, Reveal};
use correspond::replay::HiddenLines;
use correspond::sign::Signer;
use std::path::Path;

/// The seed of the tree of the lines that follow the move with digest `binding`, derived from
/// the author's key as a coin flip's nonce is, so that any machine holding it makes it again.
fn seed(signer: &dyn Signer, binding: &Digest) -> Result<Digest, CliError> {
    record::derive_secret(
        signer,
        &correspond::hidden::seed_message(binding),
        correspond::hidden::seed_from_signature,
        "the hidden lines' seed",
    )
}

fn tree(binding: &Digest, seed: &Digest, lines: &Conditional) -> Result<Tree, CliError> {
    Tree::new(binding, seed, lines.lines())
        .map_err(|e| CliError::rejected(format!("the hidden lines cannot be committed: {e}")))
}

/// The `hidden-conditional` record of `lines`, after the move that is the file's last
/// document. The lines are kept in the journal's folder first, under the commitment, so that a
/// commitment is never signed that its author could not open.
pub(crate) fn commit<G: CliGame>(
    ctx: &record::Context<'_, G>,
    lines: &Conditional,
) -> Result<Action, CliError> {
    let binding = ctx.file.digest(ctx.file.documents() - 1);
    let seed = seed(ctx.key.signer()?, &binding)?;
    let root = tree(&binding, &seed, lines)?.root();
    signing_journal::open()?
        .keep_lines(&root, lines)
        .map_err(signing_journal::journal_error)?;
    Ok(Action::HiddenConditional(root))
}

/// The author's answer to the opponent's move where `hidden` owes one.
pub(crate) enum Answer {
    /// A line answers it: the reveal of the reply, and whether any line goes on after it.
    Reveal(Reveal, bool),
    /// No line answers it: the disclosure.
    Disclose(Disclosure),
}

/// The answer the lines this machine keeps for `hidden` give to the moves played since,
/// made with the author's key; refused where the lines are not kept here, or do not make the
/// committed tree.
pub(crate) fn answer<G: CliGame>(
    ctx: &record::Context<'_, G>,
    hidden: &HiddenLines,
) -> Result<Answer, CliError> {
    let lines = signing_journal::open()?
        .kept_lines(&hidden.commitment)
        .map_err(signing_journal::journal_error)?
        .ok_or_else(|| {
            CliError::rejected(
                "your hidden conditional lines owe an answer to your opponent's move, and the \
                 signing journal's folder does not keep them: nothing was signed",
            )
            .hint(
                "answer from the machine that signed them, or copy its journal folder's `lines` \
                 folder here",
            )
        })?;
    let seed = seed(ctx.key.signer()?, &hidden.binding)?;
    let tree = tree(&hidden.binding, &seed, &lines)?;
    if tree.root() != hidden.commitment {
        return Err(CliError::rejected(
            "the hidden lines kept for this commitment do not make it with this key: nothing \
             was signed",
        )
        .hint("answer with the key that committed to them"));
    }
    let Some(reply) = reply_after(lines.lines(), &hidden.played) else {
        return Ok(Answer::Disclose(Disclosure { seed, lines }));
    };
    let (_, opening) = tree
        .open(&key(&hidden.binding, &hidden.played))
        .ok_or_else(|| CliError::rejected("the kept lines do not make the committed tree"))?;
    let after = [&hidden.played[..], &[reply.to_owned()]].concat();
    let goes_on = rest_after(lines.lines(), &after).next().is_some();
    Ok(Answer::Reveal(
        Reveal {
            mv: reply.to_owned(),
            salt: opening.salt,
            proof: opening.proof,
        },
        goes_on,
    ))
}

/// The refusal of any move but `reply`, which a hidden line of the player's gives.
pub(crate) fn reply_due<G: CliGame>(position: &G, reply: &str, file: &Path) -> CliError {
    let shown = correspond::replay::shown_move(position, reply);
    CliError::rejected(format!(
        "your hidden conditional line answers your opponent's move with {shown}, which you \
         committed to: that reply is due, and no other move"
    ))
    .hint(format!(
        "`correspond play {} {shown}` reveals it",
        correspond::text::path(file)
    ))
}
