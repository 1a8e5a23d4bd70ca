//! The journal in-process: places, refusals, crash leftovers, damage, export and import. The
//! signing commands' use of it is tested through the binary (tests/integration/journal.rs).

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

/// A journal of GAME with alice's records 1 to 7: (its folder, the journal, alice, its file).
fn seven() -> (tempfile::TempDir, Journal, KeySigner, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::at(dir.path().to_owned());
    let alice = key();
    {
        let mut game = journal.game(GAME).expect("open");
        for seq in 1..=7 {
            let (_, text) = record(&alice, seq, "e2e4", seq);
            game.record(entry(&alice, seq, &text)).expect("record");
        }
    }
    let path = dir.path().join(format!("{GAME}.jsonl"));
    (dir, journal, alice, path)
}

/// The lines of the journal's file at `path`, line `n` (from 1) replaced by `with`.
fn with_line(path: &std::path::Path, n: usize, with: &str) -> String {
    let text = fs::read_to_string(path).expect("read");
    let lines: Vec<&str> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { with } else { l })
        .collect();
    lines.join("\n") + "\n"
}

#[test]
fn an_export_on_several_threads_reads_the_same_and_names_the_same_damage() {
    let (_dir, journal, _, path) = seven();
    let texts = |journal: &Journal| -> Vec<String> {
        let json = journal.export().expect("export").to_json();
        let entries = Export::parse(&json).expect("parse");
        entries.into_iter().map(|e| e.text).collect()
    };
    let one = texts(&journal);
    assert_eq!(one.len(), 7);
    let game = journal.game(GAME).expect("open");
    let read: Vec<String> = game
        .entries()
        .expect("read")
        .iter()
        .map(|e| e.text.clone())
        .collect();
    assert_eq!(read, one, "what a game's part reads is what is exported");
    drop(game);
    for threads in [2, 3, 8] {
        assert_eq!(texts(&journal.clone().threads(threads)), one, "{threads}");
    }
    fs::write(&path, with_line(&path, 5, "not json")).expect("damage");
    fs::write(&path, with_line(&path, 6, "not json")).expect("damage");
    for threads in [1, 2, 3, 8] {
        let journal = journal.clone().threads(threads);
        for found in [journal.game(GAME).err(), journal.export().err()] {
            let Some(JournalError::Damaged { line, .. }) = found else {
                panic!("damage not found on {threads} threads")
            };
            assert_eq!(line, 5, "the first damaged line, on {threads} threads");
        }
    }
}

#[test]
fn a_line_damaged_past_its_place_stops_signing_at_that_place_when_consulted() {
    let (_dir, journal, alice, path) = seven();
    let whole = fs::read_to_string(&path).expect("read");
    let third = whole.lines().nth(2).expect("line 3");
    // The move inside line 3's document changed: the line starts as an entry of document 3
    // does, and its digest no longer matches its text.
    let edited = third.replacen("move: e2e4", "move: e2e3", 1);
    assert_ne!(edited, third);
    fs::write(&path, with_line(&path, 3, &edited)).expect("damage");
    let mut game = journal
        .game(GAME)
        .expect("opening reads only where each line's place is");
    let key = alice.public_key();
    // Document 3's place is where the damage is: consulting it stops there.
    let Err(JournalError::Damaged { line, reason, .. }) = game.at(key, 3, Some(Digest([3; 32])))
    else {
        panic!("a damaged line consulted")
    };
    assert_eq!(
        (line, reason.as_str()),
        (3, "`digest` is not the SHA-256 of `text`")
    );
    let (unsigned, _) = record(&alice, 3, "d2d4", 9);
    assert!(matches!(
        game.check(key, 3, Some(Digest([3; 32])), unsigned.as_bytes()),
        Err(JournalError::Damaged { line: 3, .. })
    ));
    // Other places hold on: document 6 is known, document 8 is free and recorded.
    assert!(
        game.at(key, 6, Some(Digest([6; 32])))
            .expect("line 6")
            .is_some()
    );
    let (_, eighth) = record(&alice, 8, "e2e4", 8);
    game.record(entry(&alice, 8, &eighth)).expect("record 8");
    assert!(matches!(
        game.entries(),
        Err(JournalError::Damaged { line: 3, .. })
    ));
    assert!(matches!(
        game.check_all(),
        Err(JournalError::Damaged { line: 3, .. })
    ));
    drop(game);
    // An export reads every line.
    assert!(matches!(
        journal.export(),
        Err(JournalError::Damaged { line: 3, .. })
    ));
    // A line whose start is not its game and number is read on opening: any fault there
    // stops signing in the game.
    let other_game = third.replacen(&GAME.to_string(), &Digest([8; 32]).to_string(), 1);
    fs::write(&path, with_line(&path, 2, &other_game)).expect("damage");
    let Err(JournalError::Damaged { line, reason, .. }) = journal.game(GAME) else {
        panic!("an entry of another game passed")
    };
    assert_eq!((line, reason.as_str()), (2, "an entry of another game"));
}

#[test]
fn a_line_written_otherwise_than_this_program_writes_is_read_on_opening() {
    let (_dir, journal, alice, path) = seven();
    let whole = fs::read_to_string(&path).expect("read");
    let fourth: serde_json::Value =
        serde_json::from_str(whole.lines().nth(3).expect("line 4")).expect("JSON");
    // The same entry, its fields in another order and spaced out: still an entry, found at
    // its place.
    let reordered = format!(
        "{{ \"document\": 4, \"text\": {}, \"digest\": {}, \"key\": {}, \"game\": {} }}",
        fourth["text"], fourth["digest"], fourth["key"], fourth["game"]
    );
    fs::write(&path, with_line(&path, 4, &reordered)).expect("rewrite");
    let game = journal.game(GAME).expect("open");
    let found = game
        .at(alice.public_key(), 4, Some(Digest([4; 32])))
        .expect("line 4")
        .expect("an entry at 4");
    assert_eq!(found.text, fourth["text"].as_str().expect("text"));
    drop(game);
    // Spelled otherwise and broken, it stops signing in the game on opening.
    let broken = reordered.replacen("\"document\": 4", "\"document\": four", 1);
    fs::write(&path, with_line(&path, 4, &broken)).expect("break");
    assert!(matches!(
        journal.game(GAME).err(),
        Some(JournalError::Damaged { line: 4, .. })
    ));
}

#[test]
fn a_line_whose_number_is_damaged_at_its_start_stops_signing_on_opening() {
    let (_dir, journal, _, path) = seven();
    let whole = fs::read_to_string(&path).expect("read");
    let third = whole.lines().nth(2).expect("line 3");
    assert!(third.contains("\"document\":3,"), "{third}");
    // One digit changed: the line would hold record 3 at record 2's place, and leave record
    // 3's place looking empty. Its document says 3, so the line is read whole on opening.
    for (damage, reason) in [
        (
            third.replacen("\"document\":3,", "\"document\":2,", 1),
            "the record is numbered 3, not 2",
        ),
        (
            third.replacen("\"document\":3,", "\"document\":03,", 1),
            "invalid number at line 1 column 88",
        ),
    ] {
        fs::write(&path, with_line(&path, 3, &damage)).expect("damage");
        let Err(JournalError::Damaged {
            line,
            reason: found,
            ..
        }) = journal.game(GAME)
        else {
            panic!("a line moved to another place passed: {damage}")
        };
        assert_eq!((line, found.as_str()), (3, reason));
        fs::write(&path, &whole).expect("repair");
    }
    journal.game(GAME).expect("repaired");
}

#[test]
fn a_key_damaged_into_another_key_is_damage_at_its_place_not_another_keys_entry() {
    let (_dir, journal, alice, path) = seven();
    let whole = fs::read_to_string(&path).expect("read");
    let third = whole.lines().nth(2).expect("line 3");
    let theirs = |signer: &KeySigner| {
        let mut key = signer.public_key().clone();
        key.set_comment("");
        key.to_openssh().expect("OpenSSH")
    };
    // Another valid Ed25519 key in the line: its text and digest still agree.
    let damaged = third.replacen(&theirs(&alice), &theirs(&key()), 1);
    assert_ne!(damaged, third);
    fs::write(&path, with_line(&path, 3, &damaged)).expect("damage");
    let game = journal.game(GAME).expect("the line's start is sound");
    // Passed over as someone else's entry, the place would look empty to alice, and she could
    // sign another record 3.
    let (unsigned, _) = record(&alice, 3, "d2d4", 9);
    let Err(JournalError::Damaged { line, reason, .. }) = game.check(
        alice.public_key(),
        3,
        Some(Digest([3; 32])),
        unsigned.as_bytes(),
    ) else {
        panic!("a damaged key passed for another key's")
    };
    // The signature inside the document names the key that made it: alice's.
    assert_eq!(
        (line, reason),
        (
            3,
            format!(
                "its signature: the signature was made with the key {}",
                crate::sign::fingerprint(alice.public_key())
            )
        )
    );
}

#[test]
fn two_lines_joined_where_a_newline_was_lost_stop_signing_on_opening() {
    let (_dir, journal, alice, path) = seven();
    let whole = fs::read_to_string(&path).expect("read");
    let lines: Vec<&str> = whole.lines().collect();
    // Joined, lines 3 and 4 would start as record 3 does, and record 4's place would look
    // empty: the line is read whole, and what follows its entry is damage.
    for join in ["\u{b}", " ", ""] {
        let joined = format!("{}{join}{}", lines[2], lines[3]);
        let mut damaged: Vec<&str> = lines.clone();
        damaged.splice(2..4, [joined.as_str()]);
        fs::write(&path, damaged.join("\n") + "\n").expect("damage");
        let Err(JournalError::Damaged { line, reason, .. }) = journal.game(GAME) else {
            panic!("a line joined with {join:?} passed")
        };
        assert_eq!(line, 3, "{join:?}");
        assert!(
            reason.starts_with("trailing characters at line 1 column "),
            "{reason}"
        );
    }
    fs::write(&path, &whole).expect("repair");
    let game = journal.game(GAME).expect("repaired");
    assert!(
        game.at(alice.public_key(), 4, Some(Digest([4; 32])))
            .expect("line 4")
            .is_some()
    );
}
