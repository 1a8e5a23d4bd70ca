//! A journal damaged on disk: found on opening or when its place is consulted,
//! named by its line, and never passed over where signing depends on it; read the same on any
//! number of threads.

use super::*;

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
