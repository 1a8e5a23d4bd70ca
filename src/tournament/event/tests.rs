//! Tournament files made here with the test keys, record by record: the lot drawn and
//! recomputed from the file alone, and each record out of its place refused at its document.

use super::*;
use crate::flip::{self, Part};
use crate::log::Arbiter;
use crate::sign::{KeySigner, Signer as _};
use crate::tournament::file::{
    Engine, Record, SwissPairing, TournamentFile, TournamentHeader, WithdrawalRule,
    header_document, record_unsigned,
};
use std::collections::BTreeMap;

fn signer(name: &str) -> KeySigner {
    let path = format!("{}/tests/keys/{name}", env!("CARGO_MANIFEST_DIR"));
    let key = ssh_key::PrivateKey::read_openssh_file(std::path::Path::new(&path)).expect("a key");
    KeySigner::new(key).expect("ed25519")
}

/// A tournament file being written: its text, and the minute of its last document.
struct Making {
    text: String,
    minute: u64,
}

impl Making {
    fn new(withdrawals: WithdrawalRule) -> Making {
        Making::of(System::RoundRobin, None, withdrawals)
    }

    fn of(system: System, rounds: Option<u32>, withdrawals: WithdrawalRule) -> Making {
        let director = signer("gina");
        let header = TournamentHeader {
            event: "Test Cup".into(),
            game: "chess".into(),
            options: BTreeMap::new(),
            system,
            rounds,
            time_control: crate::log::TimeControl::Block {
                moves: 10,
                days: 50,
            },
            leave_days: 0,
            rated: true,
            tie_breaks: crate::tournament::crosstable::TieBreak::BAUMBACH.to_vec(),
            withdrawals,
            director: Arbiter {
                name: "gina".into(),
                key: director.public_key().clone(),
            },
            tags: BTreeMap::new(),
            created: Timestamp::from_unix(1_800_000_000),
            salt: Digest([7; 32]),
        };
        let signature = director
            .sign(crate::tournament::file::header_unsigned(&header).as_bytes())
            .expect("signs");
        Making {
            text: header_document(&header, &signature),
            minute: 0,
        }
    }

    fn file(&self) -> TournamentFile {
        TournamentFile::parse(self.text.as_bytes()).expect("well-formed")
    }

    fn id(&self) -> Digest {
        self.file().event_id()
    }

    /// Appends `action`, named as `name`'s and signed by the test key `key`.
    fn add(&mut self, key: &str, name: &str, action: Action) -> &mut Making {
        self.minute += 1;
        let file = self.file();
        let record = Record {
            seq: file.documents() as u64,
            prev: file.digest(file.documents() - 1),
            signer: name.into(),
            action,
            time: Timestamp::from_unix(1_800_000_000 + self.minute * 60),
        };
        let unsigned = record_unsigned(&record);
        let signature = signer(key).sign(unsigned.as_bytes()).expect("signs");
        self.text
            .push_str(&(unsigned + &crate::log::signature_line(&signature)));
        self
    }

    /// `who`'s nonce for the lot, derived from their key as the command line derives it.
    fn nonce(&self, who: &str) -> Digest {
        let message = flip::nonce_message(Part::Commit, &self.id());
        let signature = signer(who)
            .sign_raw(flip::NONCE_NAMESPACE, &message)
            .expect("signs");
        flip::nonce_from_signature(signature.signature_bytes())
    }

    fn enter(&mut self, who: &str) -> &mut Making {
        let commitment = flip::commitment(&self.id(), &self.nonce(who));
        let key = signer(who).public_key().clone();
        self.add(who, who, Action::Enter { key, commitment })
    }

    fn close(&mut self) -> &mut Making {
        let commitment = flip::commitment(&self.id(), &self.nonce("gina"));
        self.add("gina", "gina", Action::Close { commitment })
    }

    fn reveal(&mut self, who: &str) -> &mut Making {
        let nonce = self.nonce(who);
        self.add(who, who, Action::Reveal { nonce })
    }

    fn check(&self) -> Result<Event, EventError> {
        Event::check(self.text.as_bytes())
    }

    /// The event's defect: its document and kind.
    fn refused(&self) -> (Option<usize>, EventErrorKind) {
        let e = self.check().expect_err("refused");
        (e.document, e.kind)
    }
}

const PLAYERS: [&str; 4] = ["alice", "bob", "carol", "erin"];

fn drawn(rule: WithdrawalRule) -> Making {
    let mut m = Making::new(rule);
    for who in PLAYERS {
        m.enter(who);
    }
    m.close();
    for who in std::iter::once("gina").chain(PLAYERS) {
        m.reveal(who);
    }
    m
}

#[test]
fn the_lot_is_drawn_from_every_nonce_and_anyone_recomputes_it_from_the_file() {
    let m = drawn(WithdrawalRule::TimeForfeit);
    let event = m.check().expect("valid");
    assert_eq!(event.stage(), "the lot is drawn; the games are played");
    let numbers = event.numbers.clone().expect("drawn");
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2, 3]);
    assert_eq!(event.schedule, berger::single(4).ok());
    // Again from the records alone: each party's commitment and nonce as the file holds them.
    let file = m.file();
    let digest_of = |key: &PublicKey| Digest::of(&key_bytes(key));
    let mut parties: BTreeMap<String, Party> = BTreeMap::new();
    for record in file.records() {
        match &record.action {
            Action::Enter { key, commitment } => {
                parties.insert(
                    record.signer.clone(),
                    Party {
                        key: digest_of(key),
                        commitment: *commitment,
                        nonce: None,
                    },
                );
            }
            Action::Close { commitment } => {
                parties.insert(
                    "gina".into(),
                    Party {
                        key: digest_of(&file.header().director.key),
                        commitment: *commitment,
                        nonce: None,
                    },
                );
            }
            Action::Reveal { nonce } => {
                parties.get_mut(&record.signer).expect("a party").nonce = Some(*nonce);
            }
            _ => {}
        }
    }
    let director = parties.remove("gina").expect("the director");
    let entrants: Vec<Party> = PLAYERS.iter().map(|p| parties[*p]).collect();
    let again = lot::numbers(&file.event_id(), &director, &entrants).expect("a draw");
    let names: Vec<&str> = numbers
        .iter()
        .map(|&e| event.entrants[e].name.as_str())
        .collect();
    let again: Vec<&str> = again
        .iter()
        .map(|k| {
            PLAYERS[entrants
                .iter()
                .position(|p| p.key == *k)
                .expect("an entrant")]
        })
        .collect();
    assert_eq!(names, again);
}

#[test]
fn nobody_is_entered_without_their_own_key() {
    let mut m = Making::new(WithdrawalRule::TimeForfeit);
    m.enter("alice");
    // gina writes bob's entry with bob's key in it, and signs it with her own.
    let commitment = flip::commitment(&m.id(), &Digest([1; 32]));
    let key = signer("bob").public_key().clone();
    m.add("gina", "bob", Action::Enter { key, commitment });
    let (document, kind) = m.refused();
    assert_eq!(document, Some(2));
    assert!(matches!(kind, EventErrorKind::BadSignature(_)), "{kind}");
    // Her own key under a player's name: a director plays no game.
    let mut m = Making::new(WithdrawalRule::TimeForfeit);
    let commitment = flip::commitment(&m.id(), &Digest([1; 32]));
    let key = signer("gina").public_key().clone();
    m.add("gina", "bob", Action::Enter { key, commitment });
    assert_eq!(
        m.refused(),
        (
            Some(1),
            EventErrorKind::Taken(
                "this key is the director's: a director plays no game of the event".into()
            )
        )
    );
}

#[test]
fn records_out_of_their_place_are_refused_at_their_document() {
    use EventErrorKind as K;
    // A reveal before the entries close; a close with one entrant.
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").reveal("alice");
    assert!(matches!(m.refused(), (Some(2), K::Reveal(_))));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").close();
    assert!(matches!(m.refused(), (Some(2), K::Close(_))));
    // An entry after the close, a name taken, a key twice, a close by a player.
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").enter("bob").close().enter("carol");
    assert_eq!(m.refused(), (Some(4), K::Closed));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice");
    let commitment = flip::commitment(&m.id(), &m.nonce("bob"));
    let key = signer("bob").public_key().clone();
    m.add("bob", "alice", Action::Enter { key, commitment });
    assert!(matches!(m.refused(), (Some(2), K::Taken(_))));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").enter("bob");
    m.add(
        "alice",
        "alice",
        Action::Close {
            commitment: Digest([2; 32]),
        },
    );
    assert_eq!(m.refused(), (Some(3), K::NotDirector("close")));
    // A nonce that does not open its commitment; a reveal twice; a stranger's record.
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").enter("bob").close();
    m.add(
        "alice",
        "alice",
        Action::Reveal {
            nonce: Digest([3; 32]),
        },
    );
    assert!(matches!(m.refused(), (Some(4), K::Reveal(_))));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice")
        .enter("bob")
        .close()
        .reveal("bob")
        .reveal("bob");
    assert!(matches!(m.refused(), (Some(5), K::Reveal(_))));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").add("frank", "frank", Action::Withdraw);
    assert_eq!(m.refused(), (Some(2), K::Stranger("frank".into())));
    // A withdrawal while the lot waits; one before the close takes the entry back.
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").enter("bob").enter("carol").close();
    m.add("bob", "bob", Action::Withdraw);
    assert!(matches!(m.refused(), (Some(5), K::Withdraw(_))));
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice").enter("bob").enter("carol");
    m.add("bob", "bob", Action::Withdraw);
    let event = m.check().expect("valid");
    let names: Vec<&str> = event.entrants.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["alice", "carol"]);
}

#[test]
fn the_director_decides_only_on_a_withdrawal_and_as_the_rule_allows() {
    use EventErrorKind as K;
    let decide = |decision| Action::Decide {
        player: "bob".into(),
        decision,
    };
    // No withdrawal to decide on: only a default, of a player who does not play, whatever the
    // rule.
    let mut m = drawn(WithdrawalRule::Cancel);
    m.add("gina", "gina", decide(Decision::Cancel));
    assert!(matches!(m.refused(), (Some(11), K::Decide(_))));
    let mut m = drawn(WithdrawalRule::TimeForfeit);
    m.add("gina", "gina", decide(Decision::Default));
    let event = m.check().expect("valid");
    let bob = &event.entrants[event.entrant("bob").expect("bob")];
    assert_eq!(bob.decision.as_ref().map(|d| d.0), Some(Decision::Default));
    // A decision the rule does not allow; one by a player; a second one.
    for (rule, decision, allowed) in [
        (WithdrawalRule::TimeForfeit, Decision::Cancel, false),
        (WithdrawalRule::Cancel, Decision::Default, false),
        (WithdrawalRule::Default, Decision::Default, true),
        (WithdrawalRule::AnnulUnderHalf, Decision::Annul, true),
        (WithdrawalRule::AnnulUnderHalf, Decision::Default, true),
        (WithdrawalRule::AnnulUnderHalf, Decision::Cancel, false),
    ] {
        let mut m = drawn(rule);
        m.add("bob", "bob", Action::Withdraw);
        m.add("gina", "gina", decide(decision));
        if allowed {
            let event = m.check().expect("valid");
            let bob = &event.entrants[event.entrant("bob").expect("bob")];
            assert_eq!(
                bob.decision.as_ref().map(|d| (d.0, d.1)),
                Some((decision, 12))
            );
            m.add("gina", "gina", decide(decision));
            assert!(matches!(m.refused(), (Some(13), K::Decide(_))));
        } else {
            assert_eq!(
                m.refused(),
                (
                    Some(12),
                    K::Decide(format!(
                        "the event's rule for withdrawals is `{rule}`, which does not allow \
                         `{decision}`"
                    ))
                )
            );
        }
    }
    let mut m = drawn(WithdrawalRule::Cancel);
    m.add("bob", "bob", Action::Withdraw);
    m.add("alice", "alice", decide(Decision::Cancel));
    assert_eq!(m.refused(), (Some(12), K::NotDirector("decide")));
}

#[test]
fn the_chain_the_numbering_and_the_times_hold() {
    use EventErrorKind as K;
    let m = drawn(WithdrawalRule::Cancel);
    let text = m.text.clone();
    // A record moved: its prev no longer the digest of the document before it.
    let file = m.file();
    let (a, b) = (file.document(2).to_owned(), file.document(3).to_owned());
    let swapped = text
        .replacen(&a, "\u{0}", 1)
        .replacen(&b, &a, 1)
        .replacen('\u{0}', &b, 1);
    let e = Event::check(swapped.as_bytes()).expect_err("refused");
    assert!(matches!(e.kind, K::Seq { .. } | K::Chain), "{e}");
    // A record dated before the one it follows.
    let mut m = Making::new(WithdrawalRule::Cancel);
    m.enter("alice");
    let file = m.file();
    let record = Record {
        seq: 2,
        prev: file.digest(1),
        signer: "bob".into(),
        action: Action::Enter {
            key: signer("bob").public_key().clone(),
            commitment: Digest([5; 32]),
        },
        time: Timestamp::from_unix(1_800_000_000),
    };
    let unsigned = record_unsigned(&record);
    let signature = signer("bob").sign(unsigned.as_bytes()).expect("signs");
    m.text
        .push_str(&(unsigned + &crate::log::signature_line(&signature)));
    assert_eq!(
        m.refused(),
        (Some(2), K::TimeBefore("2027-01-15T08:00:00Z".into()))
    );
}

/// A round's `pair` record, as py4swiss would sign it.
fn pair(round: u32, games: &[(usize, usize)], bye: Option<usize>) -> Action {
    Action::Pair(Box::new(SwissPairing {
        round,
        engine: Engine::Py4swiss,
        version: "0.3.1".into(),
        input: Digest([9; 32]),
        games: games.to_vec(),
        bye,
    }))
}

/// A Swiss of `rounds` rounds with five players, its lot drawn.
fn swiss(rounds: u32) -> Making {
    let mut m = Making::of(System::Swiss, Some(rounds), WithdrawalRule::Default);
    for who in ["alice", "bob", "carol", "erin", "frank"] {
        m.enter(who);
    }
    m.close();
    for who in ["gina", "alice", "bob", "carol", "erin", "frank"] {
        m.reveal(who);
    }
    m
}

#[test]
fn a_swiss_round_is_paired_only_as_the_system_allows() {
    use EventErrorKind as K;
    let pair_error = |m: &Making| match m.refused() {
        (Some(doc), K::Pair(why)) => (doc, why),
        other => panic!("{other:?}"),
    };
    // Round 1 paired: its games join the schedule, board by board.
    let mut m = swiss(3);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)));
    let event = m.check().expect("valid");
    assert_eq!(event.swiss.len(), 1);
    let boards: Vec<(usize, usize, usize, usize)> = event
        .pairings()
        .iter()
        .map(|p| (p.round, p.board, p.white, p.black))
        .collect();
    assert_eq!(boards, [(1, 1, 1, 2), (1, 2, 3, 4)]);
    assert_eq!(
        event.stage(),
        "round 1 of 3 is paired; once its games are over, the director pairs round 2"
    );
    // Only the director pairs, and rounds come in order.
    let mut m = swiss(3);
    m.add("alice", "alice", pair(1, &[(1, 2), (3, 4)], Some(5)));
    assert_eq!(m.refused(), (Some(13), K::NotDirector("pair")));
    let mut m = swiss(3);
    m.add("gina", "gina", pair(2, &[(1, 2), (3, 4)], Some(5)));
    assert_eq!(
        pair_error(&m),
        (13, "this pairs round 2; the next round is 1".into())
    );
    // Every player present once: none twice, none left out, no stranger, the bye only when
    // the count is odd.
    type Case<'a> = (&'a [(usize, usize)], Option<usize>, &'a str);
    let cases: [Case; 5] = [
        (
            &[(1, 2), (3, 1)],
            Some(5),
            "player 1 is paired twice in this round",
        ),
        (
            &[(1, 2)],
            Some(5),
            "player 3 is present and not paired: every player present has a game or the bye",
        ),
        (&[(1, 2), (3, 9)], Some(5), "the event has no player 9"),
        (
            &[(1, 2), (3, 4)],
            None,
            "player 5 is present and not paired: every player present has a game or the bye",
        ),
        (
            &[(1, 2), (3, 4), (5, 5)],
            None,
            "player 5 is paired twice in this round",
        ),
    ];
    for (games, bye, why) in cases {
        let mut m = swiss(3);
        m.add("gina", "gina", pair(1, games, bye));
        assert_eq!(pair_error(&m), (13, why.into()), "{games:?}");
    }
    // No second bye; a player who withdrew is not paired, and then no bye is due.
    let mut m = swiss(3);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("gina", "gina", pair(2, &[(1, 3), (2, 4)], Some(5)));
    assert_eq!(
        pair_error(&m),
        (
            14,
            "player 5 had the bye in round 1 already: no player has it twice".into()
        )
    );
    let mut m = swiss(3);
    let event = m.check().expect("valid");
    let frank = event
        .number_of(event.entrant("frank").expect("frank"))
        .expect("numbered");
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("frank", "frank", Action::Withdraw);
    let others: Vec<usize> = (1..=5).filter(|&n| n != frank).collect();
    let four = [(others[0], others[1]), (others[2], others[3])];
    m.add("gina", "gina", pair(2, &four, Some(frank)));
    assert_eq!(
        pair_error(&m),
        (
            15,
            format!(
                "player {frank} withdrew, or was decided on by the director, before this \
                 round, and is not paired"
            )
        )
    );
    let mut m = swiss(3);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("frank", "frank", Action::Withdraw)
        .add("gina", "gina", pair(2, &four, None));
    assert_eq!(m.check().expect("valid").present(16), others);
    // A player the director defaulted for not playing is paired no more.
    let decide = Action::Decide {
        player: "frank".into(),
        decision: Decision::Default,
    };
    let mut m = swiss(3);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("gina", "gina", decide.clone())
        .add("gina", "gina", pair(2, &four, Some(frank)));
    assert_eq!(pair_error(&m).0, 15);
    let mut m = swiss(3);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("gina", "gina", decide)
        .add("gina", "gina", pair(2, &four, None));
    assert_eq!(m.check().expect("valid").present(16), others);
    // No round beyond the last; none in a round robin; none before the lot.
    let mut m = swiss(1);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], Some(5)))
        .add("gina", "gina", pair(2, &[(1, 3), (2, 4)], Some(1)));
    assert_eq!(
        pair_error(&m),
        (
            14,
            "every round of the event is paired already (it plays 1)".into()
        )
    );
    let mut m = drawn(WithdrawalRule::Default);
    m.add("gina", "gina", pair(1, &[(1, 2), (3, 4)], None));
    assert_eq!(
        pair_error(&m),
        (
            11,
            "a round-robin is paired by its lot, not by `pair` records".into()
        )
    );
    let mut m = Making::of(System::Swiss, Some(1), WithdrawalRule::Default);
    m.enter("alice").enter("bob").close();
    m.add("gina", "gina", pair(1, &[(1, 2)], None));
    assert_eq!(
        pair_error(&m),
        (
            4,
            "a round is paired once the lot has numbered the players".into()
        )
    );
    // A Swiss of 4 rounds cannot close with 4 players: two would meet twice.
    let mut m = Making::of(System::Swiss, Some(4), WithdrawalRule::Default);
    m.enter("alice")
        .enter("bob")
        .enter("carol")
        .enter("erin")
        .close();
    assert!(matches!(m.refused(), (Some(5), K::Close(_))));
}
