//! What a game waits for, as the command to run: shared by `status` (text and JSON), `games`,
//! `mail` and `receive`, so that each names the same command.

use correspond::replay::{Phase, Player, Protocol, Replay, Seat};

/// [`next_step`] after the last record of `replay`, where a conditional reply that is due comes
/// first: its author plays it, or the other player's next `play` appends it before their move.
pub(crate) fn next_after<G: Protocol>(replay: &Replay<G>, file: &str) -> Option<String> {
    let last = replay.last();
    if let Some(standing) = &last.conditional
        && standing.answer_owed().is_some()
    {
        // Only the author knows the lines: their own `play` answers first.
        return Some(format!(
            "{}: correspond play {} MOVE, which reveals the reply a hidden line gives, or \
             discloses the lines first",
            replay.seats[standing.author],
            correspond::text::shell_word(file)
        ));
    }
    let Some((author, command)) = reply_command(replay, file) else {
        return next_step(&last.phase, &replay.seats, file);
    };
    Some(format!(
        "{}: {command} (the conditional reply), or {}: correspond play {} MOVE, which appends \
         it first",
        replay.seats[author],
        replay.seats[author.other()],
        correspond::text::shell_word(file)
    ))
}

/// Where a conditional reply is due after the last record of `replay`: its author, and the
/// command that plays it (`correspond play FILE Nf3`).
pub(crate) fn reply_command<G: Protocol>(replay: &Replay<G>, file: &str) -> Option<(Seat, String)> {
    let last = replay.last();
    let standing = last.conditional.as_ref()?;
    let reply = standing.due.as_ref()?;
    Some((
        standing.author,
        format!(
            "correspond play {} {}",
            correspond::text::shell_word(file),
            correspond::replay::shown_move(&last.position, reply)
        ),
    ))
}

/// Who acts next and the command they run: `bob (tails): correspond play FILE MOVE`. `None`
/// once the game is over.
pub(crate) fn next_step<S: std::fmt::Display>(
    phase: &Phase,
    seats: &[Player<S>; 2],
    file: &str,
) -> Option<String> {
    let seat = phase.awaited()?;
    let command = next_command(phase, file)?;
    let or = if matches!(phase, Phase::Choosing(_)) {
        ", or --defer"
    } else {
        ""
    };
    Some(format!("{}: {command}{or}", seats[seat]))
}

/// The command that accepts a standing offer of `settlement`: `correspond accept-draw FILE`.
pub(crate) fn accept_command(settlement: correspond::log::Settlement, file: &str) -> String {
    format!(
        "correspond accept-{} {}",
        settlement.name(),
        correspond::text::shell_word(file)
    )
}

/// The command the awaited player runs next, as a script would run it (`MOVE` stands for the
/// move): `correspond play FILE MOVE`. `None` once the game is over.
pub(crate) fn next_command(phase: &Phase, file: &str) -> Option<String> {
    let file = correspond::text::shell_word(file);
    Some(match phase {
        Phase::AwaitingAccept(_) => format!("correspond accept {file}"),
        Phase::AwaitingCommit(_) | Phase::AwaitingNonce(_) => format!("correspond flip {file}"),
        Phase::AwaitingReveal(_) => format!("correspond reveal {file}"),
        Phase::Choosing(_) | Phase::Playing(_) => format!("correspond play {file} MOVE"),
        Phase::Over(_) => return None,
    })
}
