//! Records by mail that are refused, or passed over in a mailbox: forged, damaged, another
//! game's, after a gap, forks (races and equivocation, with proofs), bad requests.

use crate::mail::{
    OPERA_ID, arg, fixture, listing, mail_of, mbox, opera, opera_upto, receive, refused,
    refused_in, rival_message, run,
};

/// A message carrying another record 15 of the Opera Game, Black's Qd7 instead of Qe7, signed
/// with Black's key: with the real one, two records with one number by one player.
fn black_signs_twice(dir: &std::path::Path) -> std::path::PathBuf {
    rival_message(dir, 14, &["play", "other.yaml", "Qd7"], "bob")
}

/// A message carrying White's resignation as record 15 of the Opera Game, where Black moved:
/// records that crossed in the mail.
fn white_resigns_instead(dir: &std::path::Path) -> std::path::PathBuf {
    rival_message(dir, 14, &["resign", "other.yaml"], "alice")
}

#[test]
fn a_forged_record_is_refused_with_its_number_and_reason() {
    let err = refused(14, &[arg(&fixture("forged.eml"))]);
    assert!(
        err.contains("forged.eml: the records do not verify: record 15"),
        "{err}"
    );
    assert!(err.contains("bad signature"), "{err}");
}

#[test]
fn a_damaged_block_is_refused() {
    let err = refused(14, &[arg(&fixture("damaged.eml"))]);
    assert!(err.contains("a record block is damaged"), "{err}");
    assert!(err.contains("checksum"), "{err}");
    assert!(err.contains("ask for the message again"), "{err}");
}

#[test]
fn another_games_message_is_refused() {
    let err = refused(14, &[arg(&fixture("other-game.eml"))]);
    assert!(
        err.contains("the records are from another game (99591b579d37"),
        "{err}"
    );
    assert!(err.contains(OPERA_ID), "{err}");
}

#[test]
fn records_after_a_gap_are_refused_until_the_earlier_message_arrives() {
    let err = refused(4, &[arg(&fixture("several-records.eml"))]);
    assert!(
        err.contains("the records start at record 10, but the file ends at record 4"),
        "{err}"
    );
    assert!(err.contains("receive the earlier message first"), "{err}");
    // With the missing messages, in any order, they apply.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(4)).expect("write");
    let mut args = vec!["opera.yaml".to_owned()];
    for name in [
        "several-records.eml",
        "forwarded-inline.eml",
        "forwarded-attached.eml",
    ] {
        args.push(arg(&fixture(name)).to_owned());
    }
    args.push(arg(&fixture("reply.eml")).to_owned());
    args.push(arg(&fixture("html-only.eml")).to_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = receive(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("grown"),
        opera_upto(14)
    );
}

#[test]
fn a_player_who_signed_two_records_with_one_number_is_caught_with_a_proof() {
    // Black's 8th move played differently on another copy, signed with Black's real key.
    let dir = tempfile::tempdir().expect("temp dir");
    let rival = black_signs_twice(dir.path());
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(16)).expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", arg(&rival)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(
            "its record 15 differs from the record 15 already received, and Duke Karl Count \
             Isouard signed both: two different records with one number (equivocation)"
        ),
        "{err}"
    );
    assert!(
        err.contains("a proof of it is in opera.equivocation-15.proof"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera_upto(16)
    );
    let (code, out, err) = run(dir.path(), &["check-proof", "opera.equivocation-15.proof"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("valid proof"), "{out}");
}

#[test]
fn moves_that_crossed_in_the_mail_are_settled_by_the_crossing_rule() {
    // White resigned on another copy while Black's 8th move, which the game awaited, was on
    // its way: the resignation is void, and Black's copy has nothing to do.
    let dir = tempfile::tempdir().expect("temp dir");
    let rival = white_resigns_instead(dir.path());
    std::fs::remove_file(dir.path().join("other.yaml")).expect("remove");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(15)).expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", arg(&rival)]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.ends_with(&format!(
            "passed over {}: its record 15 (Paul Morphy: resign) crossed the record 15 already \
             received (signed by Duke Karl Count Isouard, whom the game awaited) and is void by \
             the crossing rule: Paul Morphy signs it again on top of it where it still applies\n",
            arg(&rival)
        )),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera_upto(15)
    );
}

#[test]
fn a_resignation_played_over_is_no_crossing() {
    // White's resignation crossed Black's 8th move, and White then played on top of that move
    // instead of signing the resignation again: a resignation withdrawn, for an arbiter.
    let dir = tempfile::tempdir().expect("temp dir");
    let rival = white_resigns_instead(dir.path());
    std::fs::remove_file(dir.path().join("other.yaml")).expect("remove");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(16)).expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", arg(&rival)]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "error: {}: its record 15 (signed by Paul Morphy) differs from the record 15 already \
             received (signed by Duke Karl Count Isouard), and the crossing rule does not settle \
             them: Paul Morphy's resignation is void by the crossing rule, but Paul Morphy's \
             next record in the file, 16, is not that resignation signed again: a resignation \
             stays a resignation\n\
             hint: the other version is in opera.rival-15.copy: `correspond compare opera.yaml \
             opera.rival-15.copy` sets the two side by side\n\
             hint: this is for an arbiter, not for the crossing rule: keep both versions, and \
             the message\n\
             hint: nothing was written to the game file\n",
            arg(&rival)
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera_upto(16)
    );
    let (code, out, err) = run(
        dir.path(),
        &["compare", "opera.yaml", "opera.rival-15.copy"],
    );
    assert_eq!((code, err.as_str()), (1, ""));
    assert_eq!(
        out,
        "opera.yaml and opera.rival-15.copy fork at record 15: Duke Karl Count Isouard signed \
         move d8e7 in opera.yaml (line 135), Paul Morphy signed resign in opera.rival-15.copy \
         (line 135)\n\
         the crossing rule voids Paul Morphy's resignation in opera.rival-15.copy, and Paul \
         Morphy was to sign it again on top of opera.yaml's record 15; Paul Morphy's record 16 \
         in opera.yaml is something else instead: a resignation withdrawn, for an arbiter (a \
         resignation stays a resignation)\n"
    );
}

#[test]
fn a_mailbox_applies_what_verifies_and_lists_what_it_passes_over() {
    // The Opera Game's mailbox, with a forged message and a damaged one added.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut mbox = std::fs::read(fixture("games.mbox")).expect("the mailbox");
    for name in ["forged.eml", "damaged.eml"] {
        mbox.extend_from_slice(b"From mallory Sun Mar  1 12:00:00 2026\n");
        mbox.extend(std::fs::read(fixture(name)).expect("fixture"));
        mbox.push(b'\n');
    }
    std::fs::write(dir.path().join("box.mbox"), mbox).expect("write");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(0)).expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", "--mbox", "box.mbox"]);
    // The game is received whole; the forgery makes the exit code 1.
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains(
            "passed over box.mbox, message 76 (chess): the records do not verify: \
                      record 15: bad signature"
        ),
        "{out}"
    );
    assert!(
        out.contains("passed over box.mbox, message 77 (chess): a record block is damaged"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera()
    );
}
#[test]
fn bad_requests_are_refused_with_advice() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(3)).expect("write");
    std::fs::write(
        dir.path().join("note.eml"),
        "Subject: hello\n\nNo moves today.\n",
    )
    .expect("write");
    let not_a_challenge = fixture("base64.eml");
    // Whole transcripts: the exit code, nothing on standard output, all of standard error.
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["opera.yaml", "note.eml"],
            1,
            "error: note.eml: no correspond record block (a `-----BEGIN CORRESPOND RECORDS-----` \
             line) was found\n\
             hint: give the whole message as your mail client saves it (`.eml`, \"save as\", \
             \"show original\"); nothing was written\n",
        ),
        (
            &["absent.yaml", "note.eml"],
            2,
            "error: absent.yaml does not exist\n\
             hint: to start it from a mailed challenge: correspond receive --new absent.yaml \
             MESSAGE\n",
        ),
        (
            &["opera.yaml", "missing.eml"],
            2,
            "error: missing.eml: No such file or directory (os error 2)\n",
        ),
        (
            &["--new", "opera.yaml", "note.eml"],
            2,
            "error: opera.yaml already exists\n\
             hint: without --new, receive adds the records to it\n",
        ),
        (
            &["--new", "fresh.yaml", arg(&not_a_challenge)],
            1,
            "error: ROOT/tests/mail/base64.eml: no block starts a game (a challenge carries \
             records from 0)\n\
             hint: nothing was written to the game file\n",
        ),
        (
            &["opera.yaml", "--game", "xyz", "note.eml"],
            2,
            "error: --game `xyz` is not a game id or its first 8 characters or more\n\
             hint: `correspond status FILE` shows a game's id\n",
        ),
        // Refused before standard input is read at all.
        (
            &["opera.yaml", "-", "-"],
            2,
            "error: standard input (`-`) is given twice\n",
        ),
        (
            &["opera.yaml", "-", "--mbox", "-"],
            2,
            "error: standard input (`-`) is given twice\n",
        ),
    ];
    for (args, expected, says) in cases {
        let (code, out, err) = receive(dir.path(), args);
        let err = err.replace(env!("CARGO_MANIFEST_DIR"), "ROOT");
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (expected, "", says),
            "{args:?}"
        );
    }
    assert_eq!(listing(dir.path()), ["note.eml", "opera.yaml"]);
    // A game file that does not verify is not grown.
    let broken = opera_upto(3).replace("e7e5", "e7e6");
    std::fs::write(dir.path().join("opera.yaml"), &broken).expect("write");
    let (code, _, err) = receive(dir.path(), &["opera.yaml", arg(&fixture("crlf.eml"))]);
    assert_eq!(code, 1);
    assert!(err.contains("opera.yaml does not verify"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        broken
    );
}

#[test]
fn mail_refuses_what_would_break_the_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(3)).expect("write");
    let cases: [(&[&str], &str); 4] = [
        (
            &["opera.yaml"],
            "error: no sender address\n\
             hint: pass --from ADDRESS, or set one with `git config --global user.email \
             ADDRESS`\n",
        ),
        (
            &[
                "opera.yaml",
                "--from",
                "duke@example.org\nBcc: eve@example.org",
            ],
            "error: --from `duke@example.org\\u{a}Bcc: eve@example.org` is not a mail address \
             such as alice@example.org\n",
        ),
        (
            &["opera.yaml", "--from", "a@b.org", "--to", "not an address"],
            "error: --to `not an address` is not a mail address such as alice@example.org\n",
        ),
        (
            &["opera.yaml", "--from", "a@b.org", "--since", "4"],
            "error: --since 4: opera.yaml has records 0 to 3\n\
             hint: `correspond log opera.yaml` lists the records\n",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["mail"];
        all.extend_from_slice(args);
        let (code, out, err) = run(dir.path(), &all);
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (2, "", says),
            "{args:?}"
        );
    }
}
#[test]
fn records_that_crossed_in_a_mailbox_are_settled_by_the_crossing_rule() {
    // Black's 8th move (which the game awaited) and White's resignation, both in a mailbox,
    // the file holding neither: in either order, the move stands and the resignation is void.
    let dir = tempfile::tempdir().expect("temp dir");
    let resign = std::fs::read(white_resigns_instead(dir.path())).expect("white's resignation");
    let move15 = mail_of(dir.path(), 15);
    for (name, order) in [
        ("a", [&resign[..], &move15[..]]),
        ("b", [&move15[..], &resign[..]]),
    ] {
        std::fs::write(dir.path().join(format!("{name}.mbox")), mbox(&order)).expect("write");
        std::fs::write(dir.path().join(format!("{name}.yaml")), opera_upto(14)).expect("write");
        let (code, out, err) = receive(
            dir.path(),
            &[&format!("{name}.yaml"), "--mbox", &format!("{name}.mbox")],
        );
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        assert!(
            out.starts_with("record 15: Duke Karl Count Isouard (black) Qe7\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "its record 15 (Paul Morphy: resign) crossed the record 15 already received \
                 (signed by Duke Karl Count Isouard, whom the game awaited) and is void by the \
                 crossing rule"
            ),
            "{out}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join(format!("{name}.yaml"))).expect("read"),
            opera_upto(15)
        );
    }
}

#[test]
fn equivocation_in_a_mailbox_is_proved_too() {
    // Black's 8th move signed twice, differently, both in the mailbox; the file holds neither.
    let dir = tempfile::tempdir().expect("temp dir");
    let rival = std::fs::read(black_signs_twice(dir.path())).expect("the rival");
    let genuine = mail_of(dir.path(), 15);
    std::fs::write(dir.path().join("box.mbox"), mbox(&[&rival, &genuine])).expect("write");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(14)).expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", "--mbox", "box.mbox"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("(equivocation)"), "{out}");
    assert!(
        out.contains("a proof of it is in opera.equivocation-15.proof"),
        "{out}"
    );
    let (code, out, err) = run(dir.path(), &["check-proof", "opera.equivocation-15.proof"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("valid proof"), "{out}");
}

#[test]
fn a_message_and_a_mailbox_that_crossed_are_settled_by_the_crossing_rule() {
    // The message carries Black's 8th move; the mailbox, White's resignation at the same place.
    // The game awaited Black: the move stands, whichever is tried first.
    let dir = tempfile::tempdir().expect("temp dir");
    let resign = std::fs::read(white_resigns_instead(dir.path())).expect("white's resignation");
    std::fs::write(dir.path().join("box.mbox"), mbox(&[&resign])).expect("write");
    std::fs::write(dir.path().join("move15.eml"), mail_of(dir.path(), 15)).expect("write");
    std::fs::remove_file(dir.path().join("other.yaml")).expect("remove");
    let settled = |upto: usize| {
        std::fs::write(dir.path().join("opera.yaml"), opera_upto(14)).expect("write");
        let (code, out, err) = receive(
            dir.path(),
            &["opera.yaml", "move15.eml", "--mbox", "box.mbox"],
        );
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        assert!(out.contains("is void by the crossing rule"), "{out}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
            opera_upto(upto)
        );
    };
    settled(15);
    // Also when the mailbox carries the message's record itself, with more after it.
    std::fs::write(dir.path().join("other.yaml"), opera_upto(16)).expect("write");
    let (code, both, err) = run(
        dir.path(),
        &[
            "mail",
            "other.yaml",
            "--from",
            "x@example.org",
            "--since",
            "15",
        ],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(dir.path().join("other.yaml")).expect("remove");
    std::fs::write(
        dir.path().join("box.mbox"),
        mbox(&[&resign, both.as_bytes()]),
    )
    .expect("write");
    // White's record 16 plays on where White's resignation was to be signed again: the move
    // that stands is taken, and White's record 16 is not.
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(14)).expect("write");
    let (code, out, err) = receive(
        dir.path(),
        &["opera.yaml", "move15.eml", "--mbox", "box.mbox"],
    );
    assert_eq!((code, err.as_str()), (1, ""));
    assert_eq!(
        out,
        "record 15: Duke Karl Count Isouard (black) Qe7\n\
         passed over box.mbox, message 1 ([correspond] chess 73b6cf72: Paul Morphy v Duke Karl \
         Count Isouard): its record 15 (signed by Paul Morphy) differs from the record 15 \
         already received (signed by Duke Karl Count Isouard), and the crossing rule does not \
         settle them: Paul Morphy's resignation is void by the crossing rule, but Paul Morphy's \
         next record in the file, 16, is not that resignation signed again: a resignation stays a \
         resignation\n  \
         the other version is in opera.rival-15.copy: `correspond compare opera.yaml \
         opera.rival-15.copy` sets the two side by side\n\
         passed over record 16 (Paul Morphy: move b1c3), received now, is not taken: Paul \
         Morphy's resignation, record 15, is void by the crossing rule, and what was signed in \
         its place would withdraw it, which is for an arbiter\n\
         now: Paul Morphy (white) to move\n\
         next: Paul Morphy (white): correspond play opera.yaml MOVE\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera_upto(15)
    );
}

#[test]
fn a_block_whose_game_line_lies_is_damaged() {
    // The Campaign game's whole file, under the Opera Game's id.
    let dir = tempfile::tempdir().expect("temp dir");
    let campaign = std::fs::read_to_string(crate::mail::repo(crate::mail::CAMPAIGN)).expect("read");
    std::fs::write(dir.path().join("c.yaml"), campaign).expect("write");
    let (code, message, err) = run(
        dir.path(),
        &["mail", "c.yaml", "--from", "x@example.org", "--since", "0"],
    );
    assert_eq!(code, 0, "{err}");
    let campaign_id = message
        .lines()
        .find_map(|l| l.strip_prefix("Game: "))
        .expect("a Game line")
        .to_owned();
    let lying = message.replace(
        &format!("Game: {campaign_id}"),
        &format!("Game: {OPERA_ID}"),
    );
    std::fs::write(dir.path().join("lying.eml"), lying).expect("write");
    std::fs::remove_file(dir.path().join("c.yaml")).expect("remove");
    let err = refused_in(dir.path(), 3, &["lying.eml"]);
    assert!(err.contains("a record block is damaged"), "{err}");
    assert!(err.contains("is not this game's"), "{err}");
}

#[test]
fn empty_mailboxes_and_other_mail_are_nothing_new() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(3)).expect("write");
    std::fs::write(dir.path().join("empty.mbox"), "").expect("write");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", "--mbox", "empty.mbox"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "nothing new: opera.yaml already holds every record received (records 0 to 3)\n"
    );
    // Of several messages, one that is other mail is passed over and said to be.
    std::fs::write(dir.path().join("note.eml"), "Subject: hi\n\nNo moves.\n").expect("write");
    let crlf = fixture("crlf.eml");
    let (code, out, err) = receive(dir.path(), &["opera.yaml", "note.eml", arg(&crlf)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("record 4: "), "{out}");
    assert!(
        out.contains("passed over note.eml: no correspond record block"),
        "{out}"
    );
}

#[test]
fn an_equivocation_received_again_points_to_the_proof_already_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rival = std::fs::read(black_signs_twice(dir.path())).expect("the rival");
    std::fs::write(dir.path().join("box.mbox"), mbox(&[&rival])).expect("write");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(16)).expect("write");
    for _ in 0..2 {
        let (code, out, err) = receive(dir.path(), &["opera.yaml", "--mbox", "box.mbox"]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            out.contains("a proof of it is in opera.equivocation-15.proof"),
            "{out}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("opera.yaml")).expect("read"),
        opera_upto(16)
    );
}

/// Messages given on their own are each judged on their own, as a mailbox's are: one that is
/// refused is said, with its reason and advice, and the others are taken (exit code 1); where
/// every message is refused, nothing is written, as for one alone.
#[test]
fn one_refused_message_does_not_sink_the_others() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    std::fs::write(dir.join("good.eml"), mail_of(dir, 15)).expect("write");
    std::fs::write(dir.join("opera.yaml"), opera_upto(14)).expect("write");
    let other = arg(&fixture("other-game.eml")).to_owned();
    let another = "the records are from another game \
         (99591b579d3728dbe0ef3a53d8d8fcee6631ebdb54e26892df0d045dd0df0e70), not this file's \
         (73b6cf72ea1014d0451bf863d285a6887895fc0f1534b0000a78ba74189785ff)";
    let (code, out, err) = receive(dir, &["opera.yaml", "good.eml", &other]);
    assert_eq!(
        (code, out, err),
        (
            1,
            format!(
                "record 15: Duke Karl Count Isouard (black) Qe7\n\
                 refused {other}: {another}\n\
                 \x20 is it the right game file?\n\
                 now: Paul Morphy (white) to move\n\
                 next: Paul Morphy (white): correspond play opera.yaml MOVE\n"
            ),
            String::new()
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("opera.yaml")).expect("read"),
        opera_upto(15)
    );
    // Every message refused: nothing written, the first refusal said with the others.
    let damaged = arg(&fixture("damaged.eml")).to_owned();
    std::fs::write(dir.join("opera.yaml"), opera_upto(14)).expect("write");
    let (code, out, err) = receive(dir, &["opera.yaml", &other, &damaged]);
    assert_eq!(
        (code, out.as_str(), err),
        (
            1,
            "",
            format!(
                "error: {damaged}: a record block is damaged: its content does not match its \
                 checksum (was a line lost or changed?)\n\
                 hint: also passed over: {other}: {another}\n\
                 hint: ask for the message again, or for the game file itself as an attachment\n\
                 hint: nothing was written to the game file\n"
            )
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("opera.yaml")).expect("read"),
        opera_upto(14)
    );
}
