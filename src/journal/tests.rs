//! The journal in-process: places, refusals, crash leftovers, damage, export and import (a
//! journal damaged on disk: `tests/damage.rs`). The signing commands' use of it is tested
//! through the binary (tests/integration/journal.rs).

use super::*;
use crate::log::{Action, Record, Timestamp, record_unsigned, signature_line};
use crate::sign::{KeySigner, Signer};
use ssh_key::PrivateKey;
use ssh_key::rand_core::OsRng;

fn key() -> KeySigner {
    KeySigner::new(PrivateKey::random(&mut OsRng, ssh_key::Algorithm::Ed25519).expect("keygen"))
        .expect("ed25519")
}

const GAME: Digest = Digest([9; 32]);

/// Record `seq` of GAME, a move, signed by `signer` at `minute`: (unsigned bytes, document).
fn record(signer: &KeySigner, seq: u64, mv: &str, minute: u64) -> (String, String) {
    let unsigned = record_unsigned(&Record {
        seq,
        // Record 1 follows the header, whose digest is the game id.
        prev: if seq == 1 {
            GAME
        } else {
            Digest([seq as u8; 32])
        },
        signer: "alice".into(),
        action: Action::Move(mv.into()),
        time: Timestamp::from_unix(1_800_000_000 + minute * 60),
        comment: None,
    });
    let signature = signer.sign(unsigned.as_bytes()).expect("sign");
    let text = unsigned.clone() + &signature_line(&signature);
    (unsigned, text)
}

fn entry(signer: &KeySigner, seq: u64, text: &str) -> Entry {
    Entry::new(signer.public_key().clone(), GAME, seq, text.to_owned()).expect("an entry")
}

#[test]
fn a_place_holds_one_document_and_refuses_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().join("journal"));
    let alice = key();
    let (e4_bytes, e4) = record(&alice, 5, "e2e4", 0);
    let (d4_bytes, _) = record(&alice, 5, "d2d4", 1);
    {
        let mut game = journal.game(GAME).expect("open");
        game.check(
            alice.public_key(),
            5,
            Some(Digest([5; 32])),
            e4_bytes.as_bytes(),
        )
        .expect("nothing signed there yet");
        game.record(entry(&alice, 5, &e4)).expect("record");
    }
    // A later command, a new lock: the same bytes again are the same document; others are not.
    let game = journal.game(GAME).expect("open again");
    let at = Some(Digest([5; 32]));
    game.check(alice.public_key(), 5, at, e4_bytes.as_bytes())
        .expect("the very same bytes");
    let refused = game
        .check(alice.public_key(), 5, at, d4_bytes.as_bytes())
        .expect_err("another document at a signed place");
    let JournalError::Conflict(earlier) = refused else {
        panic!("not a conflict: {refused}")
    };
    assert_eq!(earlier.text, e4);
    // Another number, or another key at the same number, is another place.
    game.check(alice.public_key(), 6, at, d4_bytes.as_bytes())
        .expect("another number");
    game.check(key().public_key(), 5, at, d4_bytes.as_bytes())
        .expect("another key");
}

#[test]
fn two_commands_at_once_cannot_both_pass_the_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().to_owned());
    let alice = key();
    let docs: Vec<(String, String)> = (0..6)
        .map(|i| record(&alice, 3, &format!("a{i}a3"), i))
        .collect();
    let recorded = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for (unsigned, text) in &docs {
            let (journal, alice, recorded) = (&journal, &alice, &recorded);
            s.spawn(move || {
                let mut game = journal.game(GAME).expect("open");
                if game
                    .check(
                        alice.public_key(),
                        3,
                        Some(Digest([3; 32])),
                        unsigned.as_bytes(),
                    )
                    .is_ok()
                {
                    game.record(entry(alice, 3, text)).expect("record");
                    recorded.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
        }
    });
    assert_eq!(recorded.into_inner(), 1);
    assert_eq!(
        journal
            .game(GAME)
            .expect("open")
            .entries()
            .expect("read")
            .len(),
        1
    );
}

#[test]
fn a_line_cut_short_or_damaged_is_named_and_a_lost_newline_put_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().to_owned());
    let alice = key();
    let (_, e4) = record(&alice, 1, "e2e4", 0);
    journal
        .game(GAME)
        .expect("open")
        .record(entry(&alice, 1, &e4))
        .expect("record");
    let path = dir.path().join(format!("{GAME}.jsonl"));
    let whole = fs::read_to_string(&path).expect("read");
    // A whole entry whose newline was lost: kept, and the newline put back.
    fs::write(&path, whole.trim_end()).expect("write");
    let game = journal.game(GAME).expect("a whole last entry");
    assert_eq!(game.entries().expect("read").len(), 1);
    drop(game);
    assert_eq!(fs::read_to_string(&path).expect("read"), whole);
    // A last line cut short is never dropped silently: it may be a record's only trace.
    fs::write(&path, format!("{whole}{}", &whole[..40])).expect("write a torn line");
    let Err(JournalError::Damaged { line, reason, .. }) = journal.game(GAME) else {
        panic!("a torn line not named")
    };
    assert_eq!(line, 2);
    assert!(reason.starts_with("the last line is cut short"), "{reason}");
    assert!(matches!(
        journal.export(),
        Err(JournalError::Damaged { line: 2, .. })
    ));
    for damage in [b"not json\n".to_vec(), vec![0xff, b'\n']] {
        fs::write(&path, [damage, whole.clone().into_bytes()].concat()).expect("damage");
        let Err(JournalError::Damaged { line, .. }) = journal.game(GAME) else {
            panic!("damage not found")
        };
        assert_eq!(line, 1);
    }
}

#[test]
fn a_place_is_the_record_a_document_follows_too() {
    // After a race, the player whose record lost signs again at its number, on top of the
    // other player's record: no proof of equivocation can hold those two.
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().to_owned());
    let bob = key();
    let mut game = journal.game(GAME).expect("open");
    let (_, lost) = record(&bob, 4, "d7d5", 0);
    game.record(entry(&bob, 4, &lost)).expect("record");
    let mut other = crate::log::read_alone(&lost, 4).expect("a record").0;
    let crate::log::Document::Record(r) = &mut other else {
        panic!("a record")
    };
    r.prev = Digest([1; 32]);
    r.action = Action::Move("e7e5".into());
    let unsigned = record_unsigned(r);
    game.check(bob.public_key(), 4, Some(r.prev), unsigned.as_bytes())
        .expect("another place");
}

#[test]
fn an_entry_must_be_what_its_key_signed_at_its_place() {
    let alice = key();
    let (_, e4) = record(&alice, 4, "e2e4", 0);
    let bob = key();
    let wrong_key = Entry::new(bob.public_key().clone(), GAME, 4, e4.clone());
    assert!(
        wrong_key
            .expect_err("bob did not sign it")
            .contains("signature")
    );
    let wrong_place = Entry::new(alice.public_key().clone(), GAME, 5, e4.clone());
    assert!(
        wrong_place
            .expect_err("numbered 4")
            .contains("numbered 4, not 5")
    );
    let forged = e4.replace("e2e4", "e2e3");
    assert!(Entry::new(alice.public_key().clone(), GAME, 4, forged).is_err());
}

#[test]
fn export_and_import_move_the_journal_and_report_conflicts() {
    let (one, two) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let (desktop, laptop) = (
        Journal::at(one.path().to_owned()),
        Journal::at(two.path().to_owned()),
    );
    let alice = key();
    let (_, r1) = record(&alice, 1, "e2e4", 0);
    let (_, r3) = record(&alice, 3, "g1f3", 2);
    let (_, r3_other) = record(&alice, 3, "b1c3", 3);
    let mut game = desktop.game(GAME).expect("open");
    game.record(entry(&alice, 1, &r1)).expect("record");
    game.record(entry(&alice, 3, &r3)).expect("record");
    drop(game);
    laptop
        .game(GAME)
        .expect("open")
        .record(entry(&alice, 3, &r3_other))
        .expect("record");
    let json = desktop.export().expect("export").to_json();
    assert!(json.starts_with("{\n  \"format\": \"correspond-journal/1\",\n"));
    let report = laptop
        .import(Export::parse(&json).expect("parse"))
        .expect("import");
    assert_eq!((report.added, report.known), (1, 0));
    let [(ours, theirs)] = &report.conflicts[..] else {
        panic!("one conflict: {report:?}")
    };
    assert_eq!((&ours.text, &theirs.text), (&r3_other, &r3));
    // Imported again: nothing new, the same conflict, and the laptop keeps its own record 3.
    let again = laptop
        .import(Export::parse(&json).expect("parse"))
        .expect("import");
    assert_eq!((again.added, again.known, again.conflicts.len()), (0, 1, 1));
    let game = laptop.game(GAME).expect("open");
    assert_eq!(
        game.at(alice.public_key(), 3, Some(Digest([3; 32])))
            .expect("sound")
            .map(|e| &e.text),
        Some(&r3_other)
    );
    assert_eq!(
        game.at(alice.public_key(), 1, Some(GAME))
            .expect("sound")
            .map(|e| &e.text),
        Some(&r1)
    );
}

#[test]
fn an_export_that_is_not_one_is_refused_whole() {
    assert!(matches!(
        Export::parse("{\"format\":\"correspond-journal/2\",\"entries\":[]}"),
        Err(JournalError::Import { entry: None, .. })
    ));
    assert!(matches!(
        Export::parse("{\"format\":\"correspond-journal/1\",\"entries\":[],\"x\":1}"),
        Err(JournalError::Import { entry: None, .. })
    ));
    let alice = key();
    let (_, r1) = record(&alice, 1, "e2e4", 0);
    let mut wire = entry(&alice, 1, &r1).wire();
    wire.digest = Digest([0; 32]).to_string();
    let json =
        serde_json::json!({"format": FORMAT, "entries": [entry(&alice, 1, &r1).wire(), wire]});
    let Err(JournalError::Import {
        entry: Some(1),
        reason,
    }) = Export::parse(&json.to_string())
    else {
        panic!("entry 1 is wrong")
    };
    assert!(reason.contains("digest"), "{reason}");
}

#[test]
fn a_signature_is_checked_when_its_entry_is_consulted_and_export_checks_them_all() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().to_owned());
    let alice = key();
    let (_, e4) = record(&alice, 1, "e2e4", 0);
    let (_, d5) = record(&alice, 2, "d7d5", 1);
    {
        let mut game = journal.game(GAME).expect("open");
        game.record(entry(&alice, 1, &e4)).expect("record");
        game.record(entry(&alice, 2, &d5)).expect("record");
    }
    // Line 2's move changed after signing, its digest made to match: well-formed, not signed.
    let forged = d5.replace("d7d5", "d7d6");
    let mut wire = entry(&alice, 2, &d5).wire();
    wire.text = forged.clone();
    wire.digest = Digest::of(forged.as_bytes()).to_string();
    let path = dir.path().join(format!("{GAME}.jsonl"));
    let lines = fs::read_to_string(&path).expect("read");
    let first = lines.lines().next().expect("line 1");
    let json = serde_json::to_string(&wire).expect("json");
    fs::write(&path, format!("{first}\n{json}\n")).expect("write");
    let game = journal
        .game(GAME)
        .expect("the signatures wait until an entry is consulted");
    let key = alice.public_key();
    assert_eq!(
        game.at(key, 1, Some(GAME))
            .expect("line 1 is sound")
            .map(|e| &e.text),
        Some(&e4)
    );
    let Err(JournalError::Damaged { line, reason, .. }) = game.at(key, 2, Some(Digest([2; 32])))
    else {
        panic!("a forged entry consulted")
    };
    assert_eq!(
        (line, reason.as_str()),
        (
            2,
            "its signature: the signature does not match the signed bytes"
        )
    );
    let unsigned = &forged.as_bytes()[..forged.find("signature:").expect("a signature line")];
    assert!(matches!(
        game.check(key, 2, Some(Digest([2; 32])), unsigned),
        Err(JournalError::Damaged { line: 2, .. })
    ));
    drop(game);
    assert!(matches!(
        journal.export(),
        Err(JournalError::Damaged { line: 2, .. })
    ));
    // An import into the damaged game is refused before it writes anything.
    let (_, c6) = record(&alice, 3, "c7c6", 2);
    let other = tempfile::tempdir().expect("temp dir");
    let source = Journal::at(other.path().to_owned());
    source
        .game(GAME)
        .expect("open")
        .record(entry(&alice, 3, &c6))
        .expect("record");
    let export = source.export().expect("export").to_json();
    let before = fs::read(&path).expect("read");
    assert!(matches!(
        journal.import(Export::parse(&export).expect("parse")),
        Err(JournalError::Damaged { line: 2, .. })
    ));
    assert_eq!(
        fs::read(&path).expect("read"),
        before,
        "nothing was written"
    );
}

mod damage;
