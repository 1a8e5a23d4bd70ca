//! An arbiter in the replayer: only the header's arbiter adjudicates, only adjudicates, only
//! once the game is accepted and before it ends; the adjudication ends the game.

use super::*;
use crate::log::{Adjudged, Adjudication, AdjudicationReason};

fn adjudication(result: Adjudged, reason: AdjudicationReason) -> Action {
    Action::Adjudicate(Adjudication { result, reason })
}

#[test]
fn the_arbiter_ends_the_game_with_a_result_and_a_reason() {
    let ended = Builder::with_arbiter()
        .started()
        .moves("a2a3")
        .by_arbiter(adjudication(
            Adjudged::OpponentWins,
            AdjudicationReason::Abandoned,
        ))
        .replay()
        .expect("an adjudication");
    let last = ended.last();
    assert_eq!(last.signer, Signatory::Arbiter);
    assert_eq!(
        last.events,
        vec![
            Event::Adjudicated(AdjudicationReason::Abandoned),
            Event::Over("tails wins: adjudicated by the arbiter (the game was abandoned)".into()),
        ]
    );
    let verdict = ended.verdict().expect("over");
    assert_eq!(verdict.winner, Some(Seat::Opponent));
    assert_eq!(
        verdict.ending,
        Ending::Adjudicated(AdjudicationReason::Abandoned)
    );
    assert_eq!(ended.signed_by(last.signer), "the arbiter carol");
    let arbiter = ended.arbiter.as_ref().expect("the header names one");
    assert_eq!(
        arbiter.fingerprint,
        crate::sign::fingerprint(key(4).public_key())
    );
    // The reason is in the state hash: two adjudications for different reasons differ.
    let hash = |reason| {
        Builder::with_arbiter()
            .started()
            .by_arbiter(adjudication(Adjudged::Draw, reason))
            .replay()
            .expect("valid")
            .last()
            .state_hash()
    };
    assert_ne!(
        hash(AdjudicationReason::TournamentEnd),
        hash(AdjudicationReason::TimeDispute)
    );
}

#[test]
fn only_the_arbiter_adjudicates_and_the_arbiter_only_adjudicates() {
    let game = || Builder::with_arbiter().started();
    let draw = || adjudication(Adjudged::Draw, AdjudicationReason::TournamentEnd);
    assert_eq!(
        game().error_after(|b| b.add(0, draw())),
        ErrorKind::Protocol(ProtocolError::NotTheArbiter {
            arbiter: "carol".into()
        })
    );
    assert_eq!(
        game().error_after(|b| b.by_arbiter(Action::Resign)),
        ErrorKind::Protocol(ProtocolError::ArbiterOnlyAdjudicates {
            arbiter: "carol".into()
        })
    );
    assert_eq!(
        Builder::new()
            .started()
            .error_after(|b| b.by_arbiter(draw())),
        ErrorKind::UnknownSigner("carol".into()),
        "a game without an arbiter knows no carol"
    );
    assert_eq!(
        Builder::new().started().error_after(|b| b.add(1, draw())),
        ErrorKind::Protocol(ProtocolError::NoArbiter)
    );
    // Before the opponent accepts the game, with its arbiter, there is nothing to adjudicate.
    assert_eq!(
        Builder::with_arbiter().error_after(|b| b.by_arbiter(draw())),
        ErrorKind::Protocol(ProtocolError::AdjudicateBeforeAccept)
    );
    // Nothing follows the end, not even a second adjudication.
    assert!(matches!(
        game()
            .by_arbiter(draw())
            .error_after(|b| b.by_arbiter(draw())),
        ErrorKind::AfterEnd(_)
    ));
    // A record naming the arbiter, signed by a player, is a forgery; and the other way.
    let forged = game().error_after(|b| {
        let doc = b.document("carol", draw(), &key(1));
        b.push(doc)
    });
    assert_eq!(
        forged,
        ErrorKind::WrongSigner {
            named: "carol".into(),
            actual: "alice".into()
        }
    );
    let forged = game().error_after(|b| {
        let doc = b.document("bob", Action::Resign, &key(4));
        b.push(doc)
    });
    assert_eq!(
        forged,
        ErrorKind::WrongSigner {
            named: "bob".into(),
            actual: "carol".into()
        }
    );
}
