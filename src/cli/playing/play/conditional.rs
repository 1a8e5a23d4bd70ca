//! `play --if`: the conditional lines a move promises, read as players write them and put in
//! the file's notation and its one order before the move is signed.

use crate::cli::CliError;
use crate::cli::shared::game::CliGame;
use crate::cli::shared::record;
use correspond::log::Conditional;
use correspond::replay::Protocol;

pub(super) use correspond::replay::shown_move as shown;

/// Lines refused where a reply of the player's own is due.
pub(super) fn not_now() -> CliError {
    CliError::rejected(
        "this move is your conditional reply: new lines are signed with a move of your own choice",
    )
}

/// Whether `mv` meets a line of the opponent's that stands, so that its reply follows it.
pub(super) fn meets<G: CliGame>(ctx: &record::Context<'_, G>, mv: &G::Move) -> bool {
    let standing = ctx.replay.last().conditional.as_ref();
    standing.is_some_and(|s| s.expects(&mv.to_string()))
}

/// The lines `texts` that `mv`, about to be played in `position`, promises: each played out
/// from the position after it, written in the file's notation, sorted, a line that is the start
/// of another left to the longer one.
pub(super) fn lines<G: CliGame>(
    ctx: &record::Context<'_, G>,
    position: &G,
    mv: &G::Move,
    texts: &[String],
) -> Result<Conditional, CliError> {
    if meets(ctx, mv) {
        return Err(CliError::rejected(
            "this move meets your opponent's conditional line, whose reply is played at once: \
             sign your lines with your next move",
        ));
    }
    let after = position.play_legal(mv);
    if after.outcome().is_some() {
        return Err(CliError::rejected(
            "this move ends the game: there is nothing to answer",
        ));
    }
    let mut lines = texts
        .iter()
        .map(|text| line(&after, text))
        .collect::<Result<Vec<_>, _>>()?;
    lines.sort();
    lines.dedup();
    let longer = |l: &Vec<String>, all: &[Vec<String>]| {
        all.iter().any(|o| o.len() > l.len() && o.starts_with(l))
    };
    let kept: Vec<Vec<String>> = lines
        .iter()
        .filter(|l| !longer(l, &lines))
        .cloned()
        .collect();
    let lines = Conditional::new(kept)
        .map_err(|e| CliError::usage(format!("--if: {e}")).hint("nothing was written"))?;
    // Played out again with the game's history, which can end it (a repetition), as the
    // replayer will when the lines are signed.
    if let Some(line) = ctx.replay.line() {
        let mut line = line.clone();
        line.play_legal(mv);
        correspond::replay::check_conditional(&line, &lines)
            .map_err(|e| CliError::rejected(format!("--if: {e}")).hint("nothing was written"))?;
    }
    Ok(lines)
}

/// One line, played out from `position`: its moves in the file's notation.
fn line<G: Protocol>(position: &G, text: &str) -> Result<Vec<String>, CliError> {
    let refused = |why: String| {
        CliError::usage(format!("--if '{}': {why}", correspond::text::shown(text)))
            .hint("nothing was written")
    };
    let mut at = position.clone();
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        if at.outcome().is_some() {
            return Err(refused(format!(
                "the game is over before {}",
                correspond::text::shown(word)
            )));
        }
        let mv = at
            .parse_move(word)
            .map_err(|e| refused(format!("{}: {e}", correspond::text::shown(word))))?;
        moves.push(mv.to_string());
        let side = at.side_to_move();
        at = at.play_legal(&mv);
        if at.side_to_move() == side {
            return Err(refused(format!(
                "after {} the same side moves again, and a line alternates the turns",
                correspond::text::shown(word)
            )));
        }
    }
    if moves.is_empty() || moves.len() % 2 == 1 {
        return Err(refused(
            "a line is your opponent's move and your reply, alternately, and ends with a reply"
                .to_owned(),
        ));
    }
    Ok(moves)
}
