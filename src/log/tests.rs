//! The form of game files: the bytes rule, the one spelling of each document, and the errors
//! that name where a file is wrong. Signatures here are syntactically valid but not checked:
//! that is the replayer's job.

use super::*;
use crate::log::format::Timestamp;
use ssh_key::PublicKey;
use std::collections::BTreeMap;

mod split;

pub(super) const KEY_A: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILds0wZe0o0et2bR+MLFZGuXPJBF+H/9v0ltm53F6Ynk";
pub(super) const KEY_B: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILSY9ZTxN+JSo/vu4Uld0UiFHscQ0Eo9ZC0osTmqXj+m";
pub(super) const SIG: &str = "U1NIU0lHAAAAAQ==";

pub(super) fn header() -> Header {
    let player = |name: &str, side: &str, key: &str| Player {
        name: name.into(),
        side: side.into(),
        key: PublicKey::from_openssh(key).expect("key"),
    };
    Header {
        game: "campaign".into(),
        options: BTreeMap::from([("spin-doctoring".to_owned(), true)]),
        players: [
            player("alice", "heads", KEY_A),
            player("bob", "tails", KEY_B),
        ],
        created: Timestamp::parse("2026-01-01T00:00:00Z").expect("time"),
        salt: crate::digest::Digest([7; 32]),
        time_control: None,
        leave_days: 0,
        commitment: Some(Digest::of(b"c")),
        arbiter: None,
        tags: BTreeMap::new(),
    }
}

pub(super) fn file_with_one_record() -> String {
    let head = header_document(&header(), SIG);
    let record = Record {
        seq: 1,
        prev: Digest::of(&head.as_bytes()[head.find("---").expect("doc")..]),
        signer: "bob".into(),
        action: Action::Accept {
            nonce: Some(Digest::of(b"n")),
        },
        time: Timestamp::parse("2026-01-01T00:01:00Z").expect("time"),
        comment: None,
    };
    head + &record_unsigned(&record) + &signature_line(SIG)
}

#[test]
fn documents_their_signed_bytes_and_digests_follow_the_bytes_rule() {
    let text = file_with_one_record();
    let file = GameFile::parse(text.as_bytes()).expect("well-formed");
    assert_eq!(file.documents(), 2);
    let header_doc = file.document(0);
    assert!(header_doc.starts_with("---\nformat: correspond/1\n"));
    assert!(header_doc.ends_with(&format!("signature: {SIG}\n")));
    assert_eq!(file.signed_bytes(0), header_unsigned(&header()).as_bytes());
    assert_eq!(file.signature(1), SIG);
    assert_eq!(file.game_id(), Digest::of(header_doc.as_bytes()));
    assert_eq!(file.records()[0].prev, file.game_id());
    assert_eq!(file.line(0), 4, "after three comment lines");
    assert_eq!(file.binding(1), None, "an accept carries no commitment");
    let binding = file.binding(0).expect("the header commits");
    let before = &header_doc[..header_doc.find("commitment: ").expect("line")];
    assert_eq!(binding, Digest::of(before.as_bytes()));
}

#[test]
fn another_spelling_of_the_same_content_is_rejected_at_its_line() {
    let text = file_with_one_record();
    for (from, to, hint) in [
        ("seq: 1\n", "seq: 0x1\n", ""),
        ("kind: accept\n", "kind:  accept\n", ""),
        ("signer: \"bob\"\n", "signer: bob\n", ""),
        ("signer: \"bob\"\n", "signer: 'bob'\n", ""),
        ("kind: accept\n", "kind: accept # ok\n", "comments"),
        ("kind: accept\n", "kind: !!str accept\n", "tags"),
        ("signer: \"bob\"\n", "signer: &s \"bob\"\n", "anchors"),
    ] {
        let changed = text.replacen(from, to, 1);
        let err = GameFile::parse(changed.as_bytes()).expect_err(to);
        assert_eq!(err.document, Some(1), "{to}");
        assert!(
            matches!(&err.kind, LogErrorKind::NotCanonical { hint: h, .. } if h.contains(hint)),
            "{to}: {err}"
        );
    }
}

#[test]
fn structural_damage_is_named() {
    let text = file_with_one_record();
    let kind = |bytes: &[u8]| GameFile::parse(bytes).expect_err("damaged").kind;
    assert_eq!(kind(b""), LogErrorKind::Empty);
    assert_eq!(
        kind(&text.as_bytes()[..text.len() - 1]),
        LogErrorKind::Truncated
    );
    assert_eq!(
        kind(text.replace('\n', "\r\n").as_bytes()),
        LogErrorKind::CarriageReturn
    );
    assert_eq!(
        kind(format!("hello\n{text}").as_bytes()),
        LogErrorKind::TextBeforeHeader
    );
    assert_eq!(kind(b"# just a comment\n"), LogErrorKind::NoHeader);
    assert_eq!(
        kind(
            text.replacen("# correspond game file", "# a game file", 1)
                .as_bytes()
        ),
        LogErrorKind::Preamble
    );
    assert_eq!(kind(&[b'#', 0xff, b'\n']), LogErrorKind::NotUtf8);
    let unsigned_middle = text.replacen(&format!("signature: {SIG}\n---\nseq"), "---\nseq", 1);
    assert_eq!(
        kind(unsigned_middle.as_bytes()),
        LogErrorKind::MissingSignature
    );
    assert_eq!(
        kind(format!("{text}\n").as_bytes()),
        LogErrorKind::AfterSignature
    );
    assert_eq!(
        kind(format!("{text}# a comment\n").as_bytes()),
        LogErrorKind::AfterSignature
    );
    assert_eq!(
        kind(format!("{text}...\n").as_bytes()),
        LogErrorKind::Marker("...".into())
    );
    let err = GameFile::parse(format!("{text}trailing\n").as_bytes()).expect_err("trailing text");
    assert_eq!(
        (err.document, err.line),
        (Some(1), 28),
        "the line after the last signature"
    );
    let spoof = text.replacen("kind: accept", "kind: \"a\\nfake line\\u202e\"", 1);
    let message = GameFile::parse(spoof.as_bytes())
        .expect_err("bad kind")
        .to_string();
    assert!(
        !message.contains('\n') && !message.contains('\u{202e}'),
        "{message}"
    );
    assert!(message.contains("\\u{a}fake line\\u{202e}"), "{message}");
    assert!(
        matches!(kind(text.replacen("kind: accept", "kind: wave", 1).as_bytes()), LogErrorKind::Field(m) if m.contains("`wave` is not a record kind"))
    );
    assert!(matches!(
        kind(text.replacen("nonce:", "nounce:", 1).as_bytes()),
        LogErrorKind::Yaml(_)
    ));
}

#[test]
fn a_record_kind_takes_exactly_its_payload() {
    let text = file_with_one_record();
    let with_move = text.replacen("kind: accept\n", "kind: accept\nmove: c2c3\n", 1);
    let err = GameFile::parse(with_move.as_bytes()).expect_err("stray field");
    assert!(
        matches!(err.kind, LogErrorKind::Field(m) if m == "a record of kind `accept` must not have a `move` field")
    );
    let no_move = text.replacen("kind: accept\nnonce", "kind: move\nnonce", 1);
    let err = GameFile::parse(no_move.as_bytes()).expect_err("missing move");
    assert!(
        matches!(err.kind, LogErrorKind::Field(m) if m.contains("must not have a `nonce` field"))
    );
}

/// A real game file, cut after each document: every version extends the one before.
fn versions() -> (String, Vec<usize>) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/campaign/run-off-claim.yaml"
    ))
    .expect("an example game");
    let ends: Vec<usize> = text
        .match_indices("\nsignature: ")
        .map(|(at, _)| at + 1 + text[at + 1..].find('\n').expect("a line end") + 1)
        .collect();
    (text, ends)
}

#[test]
fn extending_version_by_version_reads_what_parsing_the_whole_file_reads() {
    let (text, ends) = versions();
    let whole = GameFile::parse(text.as_bytes()).expect("a valid file");
    let mut file = GameFile::parse(&text.as_bytes()[..ends[0]]).expect("the header alone");
    for window in ends.windows(2) {
        assert_eq!(file.extend(&text.as_bytes()[..window[1]]), Ok(1));
    }
    assert_eq!(file.extend(text.as_bytes()), Ok(0), "nothing new");
    assert_eq!(file.documents(), whole.documents());
    assert_eq!(file.records(), whole.records());
    for i in 0..whole.documents() {
        assert_eq!(file.line(i), whole.line(i));
        assert_eq!(file.signed_bytes(i), whole.signed_bytes(i));
        assert_eq!(file.signature(i), whole.signature(i));
    }
}

#[test]
fn a_later_version_that_is_not_an_append_is_named() {
    let (text, ends) = versions();
    let mut file = GameFile::parse(&text.as_bytes()[..ends[5]]).expect("a prefix");
    // A byte of record 3 changed.
    let at = ends[2] + 10;
    let mut changed = text.clone().into_bytes();
    changed[at] ^= 1;
    let err = file.extend(&changed).expect_err("changed");
    assert_eq!(
        (err.document, err.line, err.kind),
        (Some(3), line_of(text.as_bytes(), at), LogErrorKind::Changed)
    );
    // Records 4 and 5 dropped.
    let err = file
        .extend(&text.as_bytes()[..ends[3]])
        .expect_err("shortened");
    assert_eq!(err.kind, LogErrorKind::Shortened { dropped: 4 });
    // Text after the last signature that is not a document.
    let mut junk = text.as_bytes()[..ends[5]].to_vec();
    junk.extend_from_slice(b"hello\n");
    assert_eq!(
        file.extend(&junk).map_err(|e| e.kind),
        Err(LogErrorKind::AfterSignature)
    );
    // A record cut short.
    let cut = &text.as_bytes()[..ends[6] - 20];
    let err = file.extend(cut).expect_err("truncated");
    assert_eq!((err.document, err.kind), (Some(6), LogErrorKind::Truncated));
    assert_eq!(file.documents(), 6, "a refused version changes nothing");
    assert_eq!(file.extend(&text.as_bytes()[..ends[6]]), Ok(1));
}

#[test]
fn timestamps_convert_to_and_from_unix_seconds() {
    let known = [
        (0, "1970-01-01T00:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (1_764_496_800, "2025-11-30T10:00:00Z"),
        (4_107_542_399, "2100-02-28T23:59:59Z"),
    ];
    for (seconds, text) in known {
        assert_eq!(Timestamp::from_unix(seconds).as_str(), text);
        assert_eq!(Timestamp::parse(text).expect("valid").to_unix(), seconds);
    }
    // One spelling: every other way to write a moment, and moments that are none, are refused.
    for other in [
        "2026-01-01t00:00:00z",
        "2026-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00.0Z",
        "2026-01-01 00:00:00Z",
        "2026-1-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z",
        "2026-12-31T23:59:60Z",
        "2026-12-31T24:00:00Z",
        "1969-12-31T23:59:59Z",
        "+002026-01-01T00:00:00Z",
        "2026-01-01T00:00Z",
        "",
    ] {
        assert_eq!(Timestamp::parse(other), None, "{other:?}");
    }
    assert_eq!(
        Timestamp::from_unix(u64::MAX).as_str(),
        "9999-12-30T22:00:00Z",
        "beyond the last moment jiff holds, that moment"
    );
    // The one spelling is exactly what the writer writes: for the edges of every field, the
    // reader accepts a text when, and only when, the calendar library reads it as a moment
    // that the writer writes the same way.
    let round_trip = |text: &str| {
        let read: jiff::Timestamp = text.parse().ok()?;
        let written = Timestamp::from_unix(u64::try_from(read.as_second()).ok()?);
        (written.as_str() == text).then_some(written)
    };
    for year in ["0000", "1969", "1970", "2000", "2024", "2100", "9999"] {
        for month in ["00", "01", "02", "04", "12", "13"] {
            for day in ["00", "01", "28", "29", "30", "31", "32"] {
                for time in [
                    "00:00:00", "23:59:59", "23:59:60", "24:00:00", "22:00:00", "22:00:01",
                    "12:60:00", "99:99:99",
                ] {
                    let text = format!("{year}-{month}-{day}T{time}Z");
                    assert_eq!(Timestamp::parse(&text), round_trip(&text), "{text}");
                }
            }
        }
    }
    // Every day of four centuries, at an odd time, goes there and back.
    for day in (0..146_097 * 4).step_by(7) {
        let seconds = day * 86_400 + 45_296;
        assert_eq!(Timestamp::from_unix(seconds).to_unix(), seconds);
    }
}

#[test]
fn a_byte_that_is_not_utf8_is_named_with_its_document_and_line() {
    let text = file_with_one_record();
    let at = |needle: &str| {
        let mut bytes = text.clone().into_bytes();
        let i = text.find(needle).expect("the text") + needle.len();
        bytes[i] = 0xff;
        let line = 1 + text[..i].matches('\n').count();
        (bytes, line)
    };
    let (bytes, line) = at("# correspond");
    let err = GameFile::parse(&bytes).expect_err("not UTF-8");
    assert_eq!(
        (err.document, err.line, err.kind),
        (None, line, LogErrorKind::NotUtf8)
    );
    let (bytes, line) = at("\ngame: ");
    let err = GameFile::parse(&bytes).expect_err("not UTF-8");
    assert_eq!((err.document, err.line), (Some(0), line));
    assert_eq!(
        err.to_string(),
        format!(
            "header (line {line}): this line is not UTF-8 text (a program may have saved the file \
             in another encoding; signatures cover the exact bytes)"
        )
    );
    let (bytes, line) = at("signer: \"");
    let err = GameFile::parse(&bytes).expect_err("not UTF-8");
    assert_eq!((err.document, err.line), (Some(1), line));
    // In appended bytes, numbered in the whole file.
    let head = &text[..text.find("---\nseq: 1").expect("record 1")];
    let mut file = GameFile::parse(head.as_bytes()).expect("the header alone");
    let err = file.append(&bytes[head.len()..]).expect_err("not UTF-8");
    assert_eq!((err.document, err.line), (Some(1), line));
    let err = raw_document(&bytes, 1).expect_err("not UTF-8");
    assert_eq!((err.document, err.line), (Some(1), line));
}

/// A file whose one record carries `comment`, spelled `spelled` (as the writer spells it when
/// `None`).
fn with_comment(comment: &str, spelled: Option<&str>) -> String {
    let text = file_with_one_record();
    let head = &text[..text.rfind("---\n").expect("the record")];
    let prev = Digest::of(&head.as_bytes()[head.find("---").expect("doc")..]);
    let record = Record {
        seq: 1,
        prev,
        signer: "bob".into(),
        action: Action::Accept {
            nonce: Some(Digest::of(b"n")),
        },
        time: Timestamp::parse("2026-01-01T00:01:00Z").expect("time"),
        comment: Some(comment.into()),
    };
    let mut unsigned = record_unsigned(&record);
    if let Some(spelled) = spelled {
        unsigned = unsigned.replace(&format!("comment: \"{comment}\"\n"), spelled);
    }
    format!("{head}{unsigned}{}", signature_line(SIG))
}

#[test]
fn a_comment_reads_back_as_written_whatever_yaml_would_make_of_it_unquoted() {
    let four_bytes = "𝄞".repeat(MAX_COMMENT);
    for comment in [
        "# x",
        "a: b",
        "null",
        "~",
        "- x",
        "&a",
        "*a",
        "!t",
        "%",
        "@",
        "`",
        "'",
        "---",
        "é",
        "a\u{a0}b",
        "[1, 2]",
        "true",
        "0x10",
        "1e3",
        &four_bytes,
    ] {
        let text = with_comment(comment, None);
        let file = GameFile::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{comment:?}: {e}"));
        assert_eq!(
            file.records()[0].comment.as_deref(),
            Some(comment),
            "{comment:?}"
        );
    }
}

#[test]
fn a_comment_has_one_spelling() {
    for spelled in [
        "comment: 'gg'\n",
        "comment: gg\n",
        "comment: \"g\\u0067\"\n",
        "comment:  \"gg\"\n",
        "comment: \"gg\" \n",
    ] {
        let text = with_comment("gg", Some(spelled));
        assert!(GameFile::parse(text.as_bytes()).is_err(), "{spelled:?}");
    }
    // After the time, it is out of place.
    let text = with_comment("gg", None).replace(
        "comment: \"gg\"\ntime: \"2026-01-01T00:01:00Z\"\n",
        "time: \"2026-01-01T00:01:00Z\"\ncomment: \"gg\"\n",
    );
    assert!(GameFile::parse(text.as_bytes()).is_err());
    // An empty comment and one with a brace are no comments.
    for comment in ["", "{gg}"] {
        let text = with_comment("gg", Some(&format!("comment: \"{comment}\"\n")));
        assert!(GameFile::parse(text.as_bytes()).is_err(), "{comment:?}");
    }
}

#[test]
fn a_file_is_taken_for_a_game_file_by_an_ascii_trace_whatever_bytes_surround_it() {
    let cases: [(&[u8], bool); 11] = [
        (b"", true),
        (b"# correspond game file\n", true),
        (b"\xff\xfe# correspond\xc3\n", true),
        (b"\xef\xbb\xbf---\nformat: x\nsignature: AAAA\n", true),
        (b"seq: 1\r\nsignature: AAAA\r\n", true),
        (
            b"version: '3'\nservices:\n  web:\n    image: nginx\n",
            false,
        ),
        // A trace broken by a byte that is not UTF-8 is no trace.
        (b"corr\xffespond\n", false),
        (b"x: 1\n  signature: AAAA\n", false),
        (b"x signature: AAAA\n", false),
        (b"\xc3\x28signature: AAAA\n", false),
        (b"\xc3\nsignature: AAAA\n", true),
    ];
    for (bytes, expected) in cases {
        assert_eq!(may_be_a_game_file(bytes), expected, "{bytes:?}");
        // The same answer as the text with each stretch that is not UTF-8 replaced.
        let text = String::from_utf8_lossy(bytes);
        let by_text = bytes.is_empty()
            || text.contains("correspond")
            || text.lines().any(|l| l.starts_with("signature:"));
        assert_eq!(by_text, expected, "{bytes:?}");
    }
    // Only the first GAME_FILE_SNIFF bytes are looked at.
    let mut late = vec![b'x'; GAME_FILE_SNIFF];
    late.extend_from_slice(b"\ncorrespond\n");
    assert!(!may_be_a_game_file(&late));
}

/// A long file of well-formed records (their chain is the replayer's to check, not this
/// module's): long enough to be read on several threads.
fn long_file(records: u64) -> String {
    let mut text = header_document(&header(), SIG);
    for seq in 1..=records {
        let record = Record {
            seq,
            prev: Digest::of(&seq.to_be_bytes()),
            signer: if seq % 2 == 0 { "alice" } else { "bob" }.into(),
            action: Action::Move("a2a3".into()),
            time: Timestamp::parse("2026-01-01T00:01:00Z").expect("time"),
            comment: None,
        };
        text += &(record_unsigned(&record) + &signature_line(SIG));
    }
    text
}

#[test]
fn a_long_file_reads_the_same_and_fails_at_the_same_defect_on_any_number_of_threads() {
    let text = long_file(600);
    let alone = GameFile::parse(text.as_bytes()).expect("well-formed");
    assert_eq!(alone.documents(), 601);
    for threads in [0, 2, 3, 8] {
        let shared = GameFile::parse_with(text.as_bytes(), threads).expect("well-formed");
        assert_eq!(
            format!("{shared:?}"),
            format!("{alone:?}"),
            "{threads} threads"
        );
    }
    // A defect in each half (one per run on two threads), then only in the second: the first
    // in the file is the one reported, however the documents were shared out.
    let damage = |text: &str, seq: u64| {
        text.replace(&format!("seq: {seq}\n"), &format!("seq: {seq}\nbogus: 1\n"))
    };
    let both = damage(&damage(&text, 120), 450);
    let second = damage(&text, 450);
    for (damaged, document) in [(both, 120), (second, 450)] {
        let alone = GameFile::parse(damaged.as_bytes()).expect_err("damaged");
        assert_eq!(alone.document, Some(document));
        for threads in [2, 3, 8] {
            let shared = GameFile::parse_with(damaged.as_bytes(), threads).expect_err("damaged");
            assert_eq!(shared, alone, "{threads} threads");
        }
    }
}
