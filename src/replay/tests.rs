//! The replayer's protocol rules, on files built here record by record with fixed keys. The
//! example games and the invalid fixtures in the integration tests cover the rest.

use super::*;
use crate::flip::{self, Part};
use crate::games::campaign::{Campaign, Side};
use crate::log::{
    Action, Header, Player, Record, Settlement, Timestamp, binding_of, header_document,
    header_unsigned, record_unsigned, signature_line,
};
use crate::sign::{KeySigner, Signer};
use ssh_key::PrivateKey;
use ssh_key::private::{Ed25519Keypair, KeypairData};
use std::collections::BTreeMap;

fn key(seed: u8) -> KeySigner {
    let pair = Ed25519Keypair::from_seed(&[seed; 32]);
    KeySigner::new(PrivateKey::new(KeypairData::Ed25519(pair), "").expect("key")).expect("ed25519")
}

fn nonce(signer: &dyn Signer, part: Part, binding: &Digest) -> Digest {
    let sig = signer
        .sign_raw(flip::NONCE_NAMESPACE, &flip::nonce_message(part, binding))
        .expect("sign");
    flip::nonce_from_signature(sig.signature_bytes())
}

/// A game file under construction: alice (seat 0, heads) created it, bob (seat 1) plays tails.
struct Builder {
    text: String,
    keys: [KeySigner; 2],
    last: String,
    seq: u64,
    /// The time the next records carry.
    time: &'static str,
}

impl Builder {
    fn new() -> Builder {
        Builder::with_clock(None)
    }

    fn with_clock(time_control: Option<crate::log::TimeControl>) -> Builder {
        Builder::with_terms(time_control, false)
    }

    /// A game whose header names carol (key 4) its arbiter.
    fn with_arbiter() -> Builder {
        Builder::with_terms(None, true)
    }

    fn with_terms(time_control: Option<crate::log::TimeControl>, arbiter: bool) -> Builder {
        let keys = [key(1), key(2)];
        let player = |name: &str, side: &str, k: &KeySigner| Player {
            name: name.into(),
            side: side.into(),
            key: k.public_key().clone(),
        };
        let mut header = Header {
            game: "campaign".into(),
            options: BTreeMap::from([
                ("playing-for-keeps".into(), false),
                ("spin-doctoring".into(), true),
            ]),
            players: [
                player("alice", "heads", &keys[0]),
                player("bob", "tails", &keys[1]),
            ],
            created: Timestamp::parse("2026-01-01T00:00:00Z").expect("time"),
            salt: crate::digest::Digest([7; 32]),
            commitment: Some(Digest([0; 32])),
            time_control,
            leave_days: 2,
            arbiter: arbiter.then(|| crate::log::Arbiter {
                name: "carol".into(),
                key: key(4).public_key().clone(),
            }),
            tags: BTreeMap::new(),
        };
        let binding = binding_of(&header_unsigned(&header)).expect("binding");
        header.commitment = Some(flip::commitment(
            &binding,
            &nonce(&keys[0], Part::Commit, &binding),
        ));
        let signature = keys[0]
            .sign(header_unsigned(&header).as_bytes())
            .expect("sign");
        let text = header_document(&header, &signature);
        let last = text[text.find("---\n").expect("doc")..].to_owned();
        Builder {
            text,
            keys,
            last,
            seq: 0,
            time: "2026-01-01T00:00:00Z",
        }
    }

    /// The records after this carry `time`.
    fn at(mut self, time: &'static str) -> Builder {
        self.time = time;
        self
    }

    fn file(&self) -> GameFile {
        GameFile::parse(self.text.as_bytes()).expect("well-formed")
    }

    /// The binding of the flip under way: the last document with a commitment.
    fn flip_binding(&self) -> Digest {
        let file = self.file();
        (0..file.documents())
            .rev()
            .find_map(|i| file.binding(i))
            .expect("a commitment")
    }

    fn add(self, seat: usize, action: Action) -> Builder {
        self.add_signed(seat, action, None)
    }

    /// A record naming `seat`'s player but signed by a key of neither player.
    fn forged(self, seat: usize, action: Action) -> Builder {
        self.add_signed(seat, action, Some(&key(3)))
    }

    /// A record of `seat`'s, signed by `key` or else by the player's own.
    fn add_signed(self, seat: usize, action: Action, key: Option<&KeySigner>) -> Builder {
        let doc = self.document(
            ["alice", "bob"][seat],
            action,
            key.unwrap_or(&self.keys[seat]),
        );
        self.push(doc)
    }

    /// A record of the arbiter's (carol, key 4).
    fn by_arbiter(self, action: Action) -> Builder {
        let doc = self.document("carol", action, &key(4));
        self.push(doc)
    }

    /// The next record, naming `signer` and signed by `key`.
    fn document(&self, signer: &str, action: Action, key: &KeySigner) -> String {
        let record = Record {
            seq: self.seq + 1,
            prev: Digest::of(self.last.as_bytes()),
            signer: signer.into(),
            action,
            time: Timestamp::parse(self.time).expect("time"),
            comment: None,
        };
        let unsigned = record_unsigned(&record);
        unsigned.clone() + &signature_line(&key.sign(unsigned.as_bytes()).expect("sign"))
    }

    fn push(mut self, doc: String) -> Builder {
        self.seq += 1;
        self.text.push_str(&doc);
        self.last = doc;
        self
    }

    fn accept(self) -> Builder {
        let n = nonce(&self.keys[1], Part::Respond, &self.flip_binding());
        self.add(1, Action::Accept { nonce: Some(n) })
    }

    fn reveal(self, seat: usize) -> Builder {
        let n = nonce(&self.keys[seat], Part::Commit, &self.flip_binding());
        self.add(seat, Action::FlipReveal(n))
    }

    /// Through the toss to alice (heads) to move, whoever won it.
    fn started(self) -> Builder {
        let b = self.accept().reveal(0);
        let winner_is_bob = matches!(
            b.replay().expect("valid").last().phase,
            Phase::Choosing(Seat::Opponent)
        );
        if winner_is_bob {
            b.add(1, Action::Defer)
        } else {
            b
        }
    }

    fn moves(mut self, moves: &str) -> Builder {
        for mv in moves.split_whitespace() {
            let seat = match self.replay().expect("valid").last().phase {
                Phase::Playing(s) | Phase::Choosing(s) => s,
                ref other => panic!("not in play: {other:?}"),
            };
            self = self.add(seat.index(), Action::Move(mv.into()));
        }
        self
    }

    fn replay(&self) -> Result<Replay<Campaign>, ReplayError> {
        replay::<Campaign>(&self.file())
    }

    fn error(&self) -> ErrorKind {
        self.replay().expect_err("invalid").kind
    }

    /// The defect `f` adds to a copy of this file.
    fn error_after(&self, f: impl FnOnce(Builder) -> Builder) -> ErrorKind {
        let copy = Builder {
            text: self.text.clone(),
            keys: [key(1), key(2)],
            last: self.last.clone(),
            seq: self.seq,
            time: self.time,
        };
        f(copy).error()
    }
}

#[test]
fn the_creator_cannot_accept_its_own_game() {
    let b = Builder::new().add(
        0,
        Action::Accept {
            nonce: Some(Digest([7; 32])),
        },
    );
    assert_eq!(
        b.error(),
        ErrorKind::Protocol(ProtocolError::CreatorAccepts {
            creator: "alice (heads)".into(),
            accepter: "bob (tails)".into()
        })
    );
    assert_eq!(
        b.error().to_string(),
        "alice (heads) created the game and cannot accept it; bob (tails) accepts"
    );
}

#[test]
fn before_the_opponent_accepts_there_is_nothing_to_resign() {
    for seat in [0, 1] {
        let b = Builder::new().add(seat, Action::Resign);
        assert_eq!(
            b.error(),
            ErrorKind::Protocol(ProtocolError::NothingToResign {
                accepter: "bob (tails)".into()
            })
        );
    }
}

#[test]
fn only_the_committer_reveals_and_it_may_resign_instead() {
    let b = Builder::new().accept();
    assert!(matches!(
        b.error_after(|b| b.reveal(1)),
        ErrorKind::NotYourTurn { .. }
    ));
    let resigned = b
        .add(0, Action::Resign)
        .replay()
        .expect("a resignation is allowed");
    let verdict = resigned.verdict().expect("over");
    assert_eq!(verdict.winner, Some(Seat::Opponent));
    assert_eq!(verdict.ending, Ending::Resigned(Seat::Creator));
    assert_eq!(resigned.seats[1].side, Some(Side::Tails));
    assert_eq!(
        verdict.describe(&resigned.seats),
        "tails wins: alice (heads) resigned"
    );
}

#[test]
fn the_toss_decides_who_moves_first_from_the_coin() {
    let b = Builder::new().accept().reveal(0);
    let replay = b.replay().expect("valid");
    let file = b.file();
    let response = match &file.records()[0].action {
        Action::Accept { nonce: Some(n) } => *n,
        other => panic!("{other:?}"),
    };
    let revealed = match &file.records()[1].action {
        Action::FlipReveal(n) => *n,
        other => panic!("{other:?}"),
    };
    let coin = flip::coin(&file.game_id(), 0, &revealed, &response);
    let winner = if coin == flip::Coin::Tails {
        Seat::Opponent
    } else {
        Seat::Creator
    };
    assert_eq!(replay.last().phase, Phase::Choosing(winner));
    assert!(matches!(&replay.last().events[0], Event::Coin(c, _) if *c == coin));
}

#[test]
fn offers_stand_until_the_other_players_next_record() {
    let b = Builder::new().started().moves("c2c3");
    // bob offers; his own next records do not withdraw it; alice's move declines it.
    let offered = b.add(1, Action::Offer(Settlement::RunOff));
    assert_eq!(
        offered.error_after(|b| b.add(1, Action::Offer(Settlement::RunOff))),
        ErrorKind::Protocol(ProtocolError::OfferStands {
            by: "bob (tails)".into()
        })
    );
    let no_offer = offered.error_after(|b| b.add(1, Action::AcceptOffer(Settlement::RunOff)));
    assert_eq!(
        no_offer.to_string(),
        "there is no run-off offer from alice (heads) to accept"
    );
    let offered = offered.moves("c6c5");
    let declined = offered.error_after(|b| {
        b.moves("e2e3")
            .add(0, Action::AcceptOffer(Settlement::RunOff))
    });
    assert_eq!(
        declined,
        ErrorKind::Protocol(ProtocolError::NoOffer {
            settlement: Settlement::RunOff,
            from: "bob (tails)".into()
        })
    );
    let accepted = offered
        .add(0, Action::AcceptOffer(Settlement::RunOff))
        .replay()
        .expect("valid");
    assert_eq!(
        accepted.last().phase,
        Phase::AwaitingCommit(Seat::Creator),
        "alice is to move, so alice commits"
    );
}

#[test]
fn a_claim_must_hold_and_be_made_on_the_claimants_turn() {
    let b = Builder::new()
        .started()
        .moves("c2c3 c6c5 d1c2 d7c6 c2d1 c6d7 d1c2 d7c6 c2d1");
    assert!(matches!(
        b.error_after(|b| b.add(1, Action::Claim(Settlement::RunOff, "repetition".into()))),
        ErrorKind::Protocol(ProtocolError::NotClaimable { claimant, claim, repetitions: 2, .. })
            if claimant == "bob (tails)" && claim == "repetition"
    ));
    let b = b.moves("c6d7");
    assert!(matches!(
        b.error_after(|b| b.add(1, Action::Claim(Settlement::RunOff, "repetition".into()))),
        ErrorKind::NotYourTurn { .. }
    ));
    let claimed = b
        .add(0, Action::Claim(Settlement::RunOff, "repetition".into()))
        .replay()
        .expect("valid");
    assert_eq!(claimed.last().phase, Phase::AwaitingCommit(Seat::Creator));
}

#[test]
fn during_a_run_off_flip_nothing_else_may_be_signed() {
    let b = Builder::new()
        .started()
        .moves("c2c3 c6c5")
        .add(1, Action::Offer(Settlement::RunOff))
        .add(0, Action::AcceptOffer(Settlement::RunOff));
    assert_eq!(
        b.error_after(|b| b.add(0, Action::Move("e2e3".into()))),
        ErrorKind::Protocol(ProtocolError::CommitDue {
            by: "alice (heads)".into()
        })
    );
    assert!(matches!(
        b.error_after(|b| b.add(1, Action::FlipCommit(Digest([1; 32])))),
        ErrorKind::NotYourTurn { .. }
    ));
}

#[test]
fn identical_files_replay_to_identical_state_hashes_and_steps_differ() {
    let b = Builder::new().started().moves("c2c3 c6c5");
    let (one, two) = (b.replay().expect("valid"), b.replay().expect("valid"));
    let hashes = |r: &Replay<Campaign>| r.steps.iter().map(|s| s.state_hash()).collect::<Vec<_>>();
    assert_eq!(hashes(&one), hashes(&two));
    let mut unique = hashes(&one);
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        one.steps.len(),
        "every step changes the state"
    );
}

#[test]
fn a_replayer_carried_forward_agrees_with_a_whole_replay() {
    for game in [
        "campaign/run-off-stalemate.yaml",
        "chess/anderssen-immortal-game-1851.yaml",
    ] {
        let text = std::fs::read_to_string(format!("{}/games/{game}", env!("CARGO_MANIFEST_DIR")))
            .expect("an example game");
        let whole = GameFile::parse(text.as_bytes()).expect("valid");
        // Versions two documents apart, as commits that append a move and an answer.
        let cuts: Vec<usize> = text
            .match_indices("\n---\n")
            .map(|(at, _)| at + 1)
            .skip(2)
            .step_by(2)
            .chain([text.len()])
            .collect();
        let check = |expected: Vec<Digest>, replayed: Vec<Digest>| {
            assert_eq!(expected, replayed, "{game}");
        };
        if game.starts_with("chess") {
            use crate::games::chess::Chess;
            let hashes = |r: &Replay<Chess>| r.steps.iter().map(|s| s.state_hash()).collect();
            let mut file = GameFile::parse(&text.as_bytes()[..cuts[0]]).expect("header");
            let mut replayer = Replayer::<Chess>::start(&file).expect("header");
            for cut in &cuts[1..] {
                file.extend(&text.as_bytes()[..*cut]).expect("an append");
                replayer = replayer.advance(&file).expect("valid records");
            }
            check(
                hashes(&replay::<Chess>(&whole).expect("valid")),
                hashes(&replayer.finish()),
            );
        } else {
            let hashes = |r: &Replay<Campaign>| r.steps.iter().map(|s| s.state_hash()).collect();
            let mut file = GameFile::parse(&text.as_bytes()[..cuts[0]]).expect("header");
            let mut replayer = Replayer::<Campaign>::start(&file).expect("header");
            for cut in &cuts[1..] {
                file.extend(&text.as_bytes()[..*cut]).expect("an append");
                replayer = replayer.advance(&file).expect("valid records");
            }
            let replayed = replayer.finish();
            assert!(replayed.verdict().is_some(), "the game ends");
            check(
                hashes(&replay::<Campaign>(&whole).expect("valid")),
                hashes(&replayed),
            );
        }
    }
}

#[test]
fn each_games_options_are_one_table_read_and_written_alike() {
    fn check<G: Protocol>(unknown: &str)
    where
        G::Options: PartialEq + std::fmt::Debug,
    {
        let names: Vec<&str> = G::OPTIONS.iter().map(|s| s.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(
            names,
            sorted,
            "{}: the table is sorted as the map is",
            G::NAME
        );
        for on in [false, true] {
            let map: BTreeMap<String, bool> = names.iter().map(|n| ((*n).to_owned(), on)).collect();
            let options = G::options_from(&map).expect("every option given");
            assert_eq!(G::options_map(&options), map, "{}", G::NAME);
        }
        let mut map = G::options_map(&G::Options::default());
        map.insert("castling".into(), true);
        assert_eq!(G::options_from(&map), Err(unknown.to_owned()));
        if let Some(first) = names.first() {
            let mut missing = G::options_map(&G::Options::default());
            missing.remove(*first);
            assert_eq!(
                G::options_from(&missing),
                Err(format!("the option `{first}` must be given, true or false"))
            );
        }
    }
    check::<Campaign>(
        "campaign has no option `castling` (its options are playing-for-keeps and spin-doctoring)",
    );
    check::<crate::games::guerrilla::Guerrilla>(
        "guerrilla has no options, and no option `castling`",
    );
    check::<crate::games::chess::Chess>("chess has no options, and no option `castling`");
    check::<crate::games::chess::Insurrection>(
        "insurrection has no option `castling` (its option is assassination)",
    );
}

mod arbiter;
mod clocks;
mod sides;
mod vouched;

#[test]
fn a_move_that_calls_for_a_run_off_voids_hidden_lines() {
    // games/campaign/run-off-stalemate.yaml: tails' last move stalemates, and a Run-Off is due.
    let moves = "c2c3 b6b5 b1d3 a6a5 d3b5 a7a6 b5a4 e6e5 c1a1 d7e6 d1b3 c7e7 a2a3 e6b3 e1c1 \
                 b3d1 c1c2 a6b6 a4b5 d1c2 c3c4 d7c7 d2d3 b6b5 a1a2 c2b1 a2a1 b5b2 e2e3 c6c5 \
                 e3e4 b2b6 a3a4 b7e4 d3e4";
    let b = Builder::new()
        .started()
        .moves(moves)
        .add(0, Action::HiddenConditional(Digest([9; 32])))
        .moves("c7a7");
    let replay = b.replay().expect("valid");
    assert!(matches!(replay.last().phase, Phase::AwaitingCommit(_)));
    assert_eq!(replay.last().conditional, None);
    let events = &replay.steps.last().expect("steps").events;
    assert!(
        events.contains(&Event::LinesVoid(
            "alice (heads)".into(),
            "the game waits for a coin flip, not a reply".into()
        )),
        "{events:?}"
    );
}
