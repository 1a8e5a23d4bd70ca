//! What a record did, in a few words: the lines the signing commands print, and the headlines of
//! commit messages and mail subjects.

use correspond::log::{Action, GameFile, Settlement};
use correspond::replay::{self, Event, Protocol, Replay, Signatory, Step};

/// A record in a few words, for commit messages and mail subjects: `white plays Nf3`, a move
/// as players write it and the screen shows it (SAN in chess), from the record's `step`.
pub(crate) fn headline<G: Protocol>(replay: &Replay<G>, step: &Step<G>, action: &Action) -> String {
    let said = match (
        action,
        step.events.iter().find(|e| matches!(e, Event::Moved(..))),
    ) {
        (Action::Move(_), Some(Event::Moved(mv, _))) => format!("plays {mv}"),
        (Action::Applied(_), Some(Event::Moved(mv, _))) => {
            // The reply is its author's move, whoever appended it.
            let author = step.reply_of().map_or(step.signer, Signatory::Player);
            let who = signer_word(replay, author);
            return format!("{who} plays {mv} (conditional reply)");
        }
        (Action::Reveal(_), Some(Event::Moved(mv, _))) => {
            format!("plays {mv} (hidden conditional reply)")
        }
        (Action::Conditional(c), _) if c.lines().len() == 1 => "promises a conditional line".into(),
        (Action::Conditional(c), _) => format!("promises {} conditional lines", c.lines().len()),
        _ => summary(action),
    };
    format!("{} {said}", signer_word(replay, step.signer))
}

/// Who signed, in a headline: the side, the role a reader of a game's history follows; before
/// a coin flip has assigned the sides, the player.
pub(crate) fn who<S: std::fmt::Display>(seat: &replay::Player<S>) -> String {
    seat.side
        .as_ref()
        .map_or_else(|| seat.name.clone(), ToString::to_string)
}

/// The headline of record `n` (from 1) of a replayed file.
pub(crate) fn document_headline<G: Protocol>(
    file: &GameFile,
    replay: &Replay<G>,
    n: usize,
) -> String {
    headline(replay, &replay.steps[n], &file.records()[n - 1].action)
}

/// Who signed, in a headline: as [`who`] says a player, or `the arbiter carol`.
pub(crate) fn signer_word<G: Protocol>(replay: &Replay<G>, signer: Signatory) -> String {
    match signer {
        Signatory::Player(seat) => who(&replay.seats[seat]),
        Signatory::Arbiter => replay.signed_by(signer),
    }
}

/// What a document did, as the signing commands and `receive` print it:
/// `record 4: alice (heads) c2c3`.
pub(crate) fn step_line<G: Protocol>(replay: &Replay<G>, step: &Step<G>) -> String {
    if let Some(author) = step.reply_of().map(Signatory::Player) {
        // A conditional reply is its author's move, whoever appended it.
        let events: Vec<String> = step
            .events
            .iter()
            .filter(|e| !matches!(e, Event::Replied(..)))
            .map(Event::to_string)
            .collect();
        let by = if author == step.signer {
            String::new()
        } else {
            format!(", appended by {}", replay.signed_by(step.signer))
        };
        return format!(
            "record {}: {} {} (conditional reply{by})",
            step.document,
            replay.signed_by(author),
            events.join("; ")
        );
    }
    let events: Vec<String> = step.events.iter().map(Event::to_string).collect();
    format!(
        "record {}: {} {}",
        step.document,
        replay.signed_by(step.signer),
        events.join("; ")
    )
}

/// What a record does, in a few words.
pub(crate) fn summary(action: &Action) -> String {
    match action {
        Action::Accept { .. } => "accepts the game".into(),
        Action::Move(m) => format!("plays {m}"),
        Action::Defer => "defers the first move".into(),
        Action::FlipCommit(_) => "commits to the coin flip".into(),
        Action::FlipNonce(_) => "answers the coin flip".into(),
        Action::FlipReveal(_) => "reveals the coin flip".into(),
        Action::Resign => "resigns".into(),
        Action::Offer(Settlement::RunOff) => "offers a run-off".into(),
        Action::Offer(Settlement::Draw) => "offers a draw".into(),
        Action::AcceptOffer(Settlement::RunOff) => "accepts the run-off".into(),
        Action::AcceptOffer(Settlement::Draw) => "accepts the draw".into(),
        Action::Claim(Settlement::RunOff, reason) => format!("claims a run-off ({reason})"),
        Action::Claim(Settlement::Draw, reason) => format!("claims a draw ({reason})"),
        Action::ClaimTimeout => "claims the game on time".into(),
        Action::Leave(days) => format!("takes {days} days of leave"),
        // Whole, in the file's notation, so that `import-pgn` reads the lines back.
        Action::Conditional(c) => format!("promises conditional lines ({})", c.texts().join(" | ")),
        Action::Applied(_) => "appends the conditional reply".into(),
        Action::Withdraw => "withdraws the conditional lines".into(),
        Action::HiddenConditional(root) => format!("commits to hidden conditional lines ({root})"),
        Action::Reveal(_) => "reveals the hidden conditional reply".into(),
        Action::Disclose(d) => format!(
            "discloses the hidden conditional lines ({})",
            d.lines.texts().join(" | ")
        ),
        Action::Adjudicate(a) => format!(
            "adjudicates the game: {} ({})",
            a.result.name(),
            a.reason.name()
        ),
    }
}
