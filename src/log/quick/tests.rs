//! The quick readers against the YAML reader: each reads every document the writer makes, and
//! whatever one accepts after any change, the YAML reader accepts with the same content.

use super::super::format::{Header, header_unsigned, signature_line};
use super::super::read::{self, Document};
use super::super::tests::{SIG, header};
use super::super::{Arbiter, GameFile, TimeControl};
use super::{quick_header, quick_record};
use ssh_key::PublicKey;
use std::collections::BTreeMap;

/// One record of each kind and field from the example games: the documents the quick reader is
/// held to.
fn example_records() -> Vec<String> {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut seen = std::collections::BTreeMap::new();
    for game in std::fs::read_dir(games).expect("games/") {
        for file in std::fs::read_dir(game.expect("entry").path()).expect("a game's folder") {
            let path = file.expect("entry").path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let bytes = std::fs::read(&path).expect("read");
            if crate::tournament::file::starts_as_a_tournament(&bytes) {
                continue;
            }
            let file = GameFile::parse(&bytes).expect("an example game is well-formed");
            for i in 1..file.documents() {
                let doc = file.document(i);
                let kind = doc.lines().nth(4).unwrap_or_default();
                let shape: String = kind.chars().take_while(|c| *c != ':').collect();
                let line4 = doc.lines().nth(5).unwrap_or_default();
                let field: String = line4.chars().take_while(|c| *c != ':').collect();
                seen.entry((shape.clone() + kind, field))
                    .or_insert_with(|| doc.to_owned());
            }
        }
    }
    seen.into_values().collect()
}

#[test]
fn the_quick_reader_reads_every_record_the_writer_makes_and_only_what_yaml_reads_alike() {
    let records = example_records();
    assert!(records.len() >= 12, "{} kinds of record", records.len());
    let mut quick = 0;
    for doc in &records {
        let whole = read::read_yaml(doc, 1, 1).expect("an example record");
        assert_eq!(
            quick_record(doc).map(Document::Record),
            Some(whole),
            "{doc}"
        );
        // Every one-byte change, and each value replaced by YAML's nulls: whatever the quick
        // reader accepts, the YAML reader accepts with the same content.
        let mut changed = Vec::new();
        for at in 0..doc.len() {
            for c in ["0", "a", "\"", " ", "\n", "~", ":", "-", "'", "#", "\\"] {
                if doc.is_char_boundary(at) && doc.is_char_boundary(at + 1) {
                    changed.push(format!("{}{c}{}", &doc[..at], &doc[at + 1..]));
                }
            }
        }
        for line in doc.lines().filter(|l| l.contains(": ")) {
            let odd = [
                "null", "~", "Null", "NULL", "\"null\"", "", "-", ",", ",e4", "-e4",
            ];
            for null in odd {
                let (name, _) = line.split_once(": ").expect("a field");
                changed.push(doc.replace(line, &format!("{name}: {null}")));
            }
        }
        for text in &changed {
            if let Some(record) = quick_record(text) {
                quick += 1;
                assert_eq!(
                    read::read_yaml(text, 1, 1),
                    Ok(Document::Record(record)),
                    "{text}"
                );
            }
        }
    }
    // Some changes keep a record well-formed (another digit in a digest, another letter in a
    // move): the check above was met on them, not only passed over.
    assert!(quick > 100, "{quick}");
}

const KEY_C: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC7RMZr/ZSmCgsmSmW7O5JvgUFMkomwEAwLj83RSUVsY";

/// Headers of every shape the writer makes: options none, one or several, a commitment or
/// none, an arbiter, a time control, tags.
fn example_headers() -> Vec<Header> {
    let plain = header();
    let mut bare = header();
    bare.options.clear();
    bare.commitment = None;
    let mut several = header();
    several.options = BTreeMap::from([("a".to_owned(), false), ("b-2".to_owned(), true)]);
    let mut judged = header();
    judged.arbiter = Some(Arbiter {
        name: "carol d'arc".into(),
        key: PublicKey::from_openssh(KEY_C).expect("key"),
    });
    let mut timed = header();
    timed.time_control = Some(TimeControl::PerMove { days: 3 });
    timed.leave_days = 5;
    let mut tagged = header();
    tagged.tags = BTreeMap::from([("Event".to_owned(), "Club cup".to_owned())]);
    vec![plain, bare, several, judged, timed, tagged]
}

#[test]
fn the_quick_reader_reads_every_header_the_writer_makes_and_only_what_yaml_reads_alike() {
    let mut quick = 0;
    for header in example_headers() {
        let doc = header_unsigned(&header) + &signature_line(SIG);
        let whole = read::read_yaml(&doc, 0, 1).expect("an example header");
        assert_eq!(whole, Document::Header(Box::new(header.clone())));
        // A header with a time control or tags is the YAML reader's alone.
        let expected = (header.time_control.is_none() && header.tags.is_empty()).then_some(&whole);
        let read = quick_header(&doc).map(|h| Document::Header(Box::new(h)));
        assert_eq!(read.as_ref(), expected, "{doc}");
        // Every one-byte change, and each value replaced by YAML's nulls and indicators:
        // whatever the quick reader accepts, the YAML reader accepts with the same content.
        let mut changed = Vec::new();
        for at in 0..doc.len() {
            for c in [
                "0", "a", "\"", " ", "\n", "~", ":", "-", "'", "#", "\\", "{",
            ] {
                if doc.is_char_boundary(at) && doc.is_char_boundary(at + 1) {
                    changed.push(format!("{}{c}{}", &doc[..at], &doc[at + 1..]));
                }
            }
        }
        for line in doc.lines().filter(|l| l.contains(": ")) {
            let (name, _) = line.split_once(": ").expect("a field");
            for odd in [
                "null", "~", "Null", "NULL", "", "-", ",", "-x", "true", "0x1f",
            ] {
                changed.push(doc.replace(line, &format!("{name}: {odd}")));
                changed.push(doc.replace(line, &format!("  {odd}: true")));
            }
        }
        for text in &changed {
            if let Some(read) = quick_header(text) {
                quick += 1;
                assert_eq!(
                    read::read_yaml(text, 0, 1),
                    Ok(Document::Header(Box::new(read))),
                    "{text}"
                );
            }
        }
    }
    // Some changes keep a header well-formed (another digit in the salt, another letter in a
    // name): the check above was met on them, not only passed over.
    assert!(quick > 100, "{quick}");
}
