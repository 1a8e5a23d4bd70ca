//! `html`: a game file as one self-contained page, read by another program's XML parser (the
//! page is well-formed XML as well as HTML): one picture per document, each the position
//! `show --json` gives at that record; one list entry per record; the verdict `status` gives;
//! nothing fetched from elsewhere; and a file that does not verify shown up to its defect.

use crate::util::{correspond, stdout_of, transcript};
use std::path::Path;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A record's number with what the page says of it (a picture's position, an entry's text).
type ByRecord = Vec<(String, String)>;

/// The page's pictures (record, position) and list entries (record, text), checked for what
/// a page that needs nothing else must be.
#[track_caller]
fn read(page: &str, what: &str) -> (ByRecord, ByRecord) {
    let doc = roxmltree::Document::parse_with_options(
        page,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        assert!(
            !["img", "link", "iframe", "object", "embed"].contains(&name),
            "{what}: <{name}>"
        );
        assert!(node.attribute("src").is_none(), "{what}: a src");
        if let Some(href) = node.attribute("href") {
            assert!(href.starts_with('#'), "{what}: {href}");
        }
    }
    // The board the page shows without script is the last record's; the script draws each
    // record's from the data, whose positions are read here.
    let boards = doc
        .descendants()
        .filter(|n| n.has_tag_name("figure"))
        .count();
    assert_eq!(boards, 1, "{what}: one board");
    let data = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("boards"))
        .and_then(|n| n.text())
        .expect("the boards' data");
    let data: serde_json::Value = serde_json::from_str(data).expect("JSON");
    let figures: ByRecord = data["records"]
        .as_array()
        .expect("records")
        .iter()
        .enumerate()
        .map(|(k, r)| (k.to_string(), r[0].as_str().expect("a position").to_owned()))
        .collect();
    let board = doc
        .descendants()
        .find(|n| n.has_tag_name("figure"))
        .expect("a board");
    assert_eq!(
        (
            board.attribute("data-record"),
            board.attribute("data-position")
        ),
        (
            Some(figures.len().saturating_sub(1).to_string().as_str()),
            figures.last().map(|(_, p)| p.as_str())
        ),
        "{what}: the board shown without script is the last"
    );
    let entries = doc
        .descendants()
        .filter(|n| n.has_tag_name("li"))
        .map(|n| {
            let text: String = n
                .descendants()
                .filter(|t| t.is_text())
                .filter_map(|t| t.text())
                .collect();
            (
                n.attribute("data-record").expect("a record").to_owned(),
                text,
            )
        })
        .collect();
    (figures, entries)
}

#[test]
fn every_example_game_is_a_page_with_its_position_at_every_record() {
    let files = crate::json::example_games();
    for file in files {
        let name = file.to_str().expect("UTF-8");
        let page = stdout_of(&["html", name]);
        let (figures, entries) = read(&page, name);
        let status: serde_json::Value =
            serde_json::from_str(&stdout_of(&["status", name, "--json"])).expect("JSON");
        let records = status["records"].as_u64().expect("records");
        assert_eq!(figures.len() as u64, records + 1, "{name}");
        assert_eq!(entries.len(), figures.len(), "{name}");
        for (k, (record, position)) in figures.iter().enumerate() {
            assert_eq!(record, &k.to_string(), "{name}");
            // Every record of the shorter games; a few of the longer ones.
            if records <= 40 || k % 10 == 0 || k as u64 == records {
                let shown: serde_json::Value =
                    serde_json::from_str(&stdout_of(&["show", name, "--json", "--at", record]))
                        .expect("JSON");
                assert_eq!(shown["position"], position.as_str(), "{name} at {k}");
            }
        }
        let verdict = status["result"]["words"].as_str().expect("over");
        assert!(
            page.contains(&format!("<p class=\"verdict\">game over: {verdict}</p>")),
            "{name}: {verdict}"
        );
        assert!(
            page.contains(&format!(
                "<figure class=\"board\" data-record=\"{records}\""
            )),
            "{name}"
        );
        assert_eq!(stdout_of(&["html", name]), page, "{name}: the same bytes");
    }
    // Moves in SAN, numbered; the header and the acceptance in words.
    let page = stdout_of(&["html", "games/chess/morphy-opera-game-1858.yaml"]);
    let (_, entries) = read(&page, "opera");
    let texts: Vec<&str> = entries.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts[..4],
        [
            "game proposed Paul Morphy (white), 2025-12-01T12:00:00Z",
            "accepted Duke Karl Count Isouard (black), 2025-12-01T12:00:00Z",
            "1. e4 Paul Morphy (white), 2025-12-01T12:00:00Z",
            "1... e5 Duke Karl Count Isouard (black), 2025-12-01T12:00:00Z",
        ]
    );
    assert_eq!(
        texts[34],
        "17. Rd8#; game over: white wins: checkmate Paul Morphy (white), 2025-12-01T12:00:00Z"
    );
}

#[test]
fn a_file_that_does_not_verify_is_shown_up_to_its_defect() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("forged.html");
    let (code, stdout, stderr) = transcript(
        correspond()
            .current_dir(here())
            .args(["html", "tests/invalid/forged-move.yaml", "-o"])
            .arg(&out),
    );
    assert_eq!(
        (
            code,
            stdout.replace(&dir.path().display().to_string(), "DIR"),
            stderr.as_str()
        ),
        (
            1,
            "wrote DIR/forged.html\n".to_owned(),
            "error: tests/invalid/forged-move.yaml does not verify: record 5 (line 53): bad \
             signature: the signature does not match the signed bytes; the page shows the game \
             up to there\n"
        )
    );
    let page = std::fs::read_to_string(&out).expect("the page");
    let (figures, _) = read(&page, "forged");
    assert_eq!(figures.len(), 5, "the header and records 1 to 4");
    assert!(
        page.contains(
            "<p class=\"defect\">This file does not verify: record 5 (line 53): bad signature: \
             the signature does not match the signed bytes. The game is shown up to there.</p>"
        ),
        "{page}"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&out).expect("metadata").permissions(),
    );
    assert_eq!(mode & 0o777, 0o644, "a page others may read");
}

#[test]
fn a_file_whose_header_does_not_verify_gets_a_page_that_names_the_defect_and_shows_no_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let html = |file: &str| {
        let out = dir.path().join("page.html");
        let _ = std::fs::remove_file(&out);
        let (code, stdout, stderr) = transcript(
            correspond()
                .current_dir(here())
                .args(["html", file, "-o"])
                .arg(&out),
        );
        let stdout = stdout.replace(&dir.path().display().to_string(), "DIR");
        let page = std::fs::read_to_string(&out).expect("a page was written");
        ((code, stdout, stderr), page)
    };
    let (said, page) = html("tests/invalid/forged-header.yaml");
    assert_eq!(
        said,
        (
            1,
            "wrote DIR/page.html\n".to_owned(),
            "error: tests/invalid/forged-header.yaml does not verify: header (line 4): signed by \
             bob's key, but names alice as its signer; the page names the defect and shows no \
             game\n"
                .to_owned()
        )
    );
    assert!(
        page.contains(
            "<h1>forged-header.yaml</h1>\n<p class=\"defect\">This file does not verify: header \
             (line 4): signed by bob&#39;s key, but names alice as its signer. No game is shown: \
             nothing in it can be trusted before its header is.</p>"
        ),
        "{page}"
    );
    assert!(
        !page.contains("<svg") && !page.contains("<figure"),
        "no game: {page}"
    );
    // A record that cannot be read: the game up to it, as for one that does not verify.
    let (said, page) = html("tests/invalid/unparseable.yaml");
    assert_eq!(
        said,
        (
            1,
            "wrote DIR/page.html\n".to_owned(),
            "error: tests/invalid/unparseable.yaml does not verify: record 4 (line 50): invalid \
             YAML: simple key expected ':'; the page shows the game up to there\n"
                .to_owned()
        )
    );
    let (figures, _) = read(&page, "unparseable");
    assert_eq!(figures.len(), 4, "the header and records 1 to 3");
}

#[test]
fn a_page_goes_over_an_older_page_never_over_a_game_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = dir.path().join("opera.yaml");
    std::fs::copy(
        here().join("games/chess/morphy-opera-game-1858.yaml"),
        &game,
    )
    .expect("copy");
    let before = std::fs::read(&game).expect("read");
    let html = |out: &str| {
        transcript(
            correspond()
                .current_dir(dir.path())
                .args(["html", "opera.yaml", "-o", out]),
        )
    };
    // The game file itself, another saved without its comment lines, and one whose start is
    // damaged (a byte-order mark, a blank line).
    let bare = String::from_utf8(before.clone())
        .expect("UTF-8")
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect::<String>();
    std::fs::write(dir.path().join("other.yaml"), &bare).expect("write");
    let damaged = [&b"\xef\xbb\xbf\n"[..], &before].concat();
    std::fs::write(dir.path().join("damaged.yaml"), &damaged).expect("write");
    for out in ["opera.yaml", "other.yaml", "damaged.yaml"] {
        assert_eq!(
            html(out),
            (
                2,
                String::new(),
                format!(
                    "error: {out} is a game file: a page is never written over one\n\
                     hint: name another file for the page; nothing was written\n"
                )
            )
        );
    }
    assert_eq!(std::fs::read(&game).expect("read"), before);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("other.yaml")).expect("read"),
        bare
    );
    assert_eq!(
        std::fs::read(dir.path().join("damaged.yaml")).expect("read"),
        damaged
    );
    // Someone's other file is not replaced either.
    std::fs::write(dir.path().join("notes.txt"), "my notes\n").expect("write");
    assert_eq!(
        html("notes.txt"),
        (
            2,
            String::new(),
            "error: notes.txt is there, and is not a page: only an older page is replaced\n\
             hint: name another file for the page, or remove that one first; nothing was \
             written\n"
                .to_owned()
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).expect("read"),
        "my notes\n"
    );
    // A pipe in the page's place is not read (nor waited on): it is replaced, as before.
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe.html"))
        .status()
        .expect("mkfifo");
    assert!(fifo.success());
    assert_eq!(
        html("pipe.html"),
        (0, "wrote pipe.html\n".to_owned(), String::new())
    );
    assert!(
        std::fs::metadata(dir.path().join("pipe.html"))
            .expect("the page")
            .is_file()
    );
    // An older page is replaced.
    std::fs::write(dir.path().join("opera.html"), "<!DOCTYPE html>\nold\n").expect("write");
    assert_eq!(
        html("opera.html"),
        (0, "wrote opera.html\n".to_owned(), String::new())
    );
    let page = std::fs::read_to_string(dir.path().join("opera.html")).expect("read");
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("Paul Morphy"));
}

/// A Campaign game of `records` records after its opening, written to `dir/NAME`: the opening
/// by the commands, the rest by the library's writer (the handlers shuffle, which Campaign
/// allows for ever).
fn long_game(dir: &Path, name: &str, records: usize) -> std::path::PathBuf {
    use correspond::games::campaign::Campaign;
    use correspond::log::{Action, Timestamp};
    use correspond::replay::Seat;
    use correspond::writer::Writer;
    let time = "2026-01-01T00:00:00Z";
    let bob = crate::util::keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    // A creator's name of its own for each game: each is a game of its own for the journal.
    let creator = format!("alice{records}");
    let new = [
        "new",
        "campaign",
        name,
        "--name",
        &creator,
        "--side",
        "heads",
        "--opponent",
        "bob",
        "--opponent-key",
        bob,
    ];
    crate::util::signed(dir, time, "alice", &new);
    crate::util::signed(dir, time, "bob", &["accept", name]);
    let revealed = crate::util::signed(dir, time, "alice", &["reveal", name]);
    if revealed.contains("bob (tails) wins the toss") {
        crate::util::signed(dir, time, "bob", &["play", name, "--defer"]);
    }
    let path = dir.join(name);
    let mut text = std::fs::read_to_string(&path).expect("the opening");
    let signers = ["alice", "bob"].map(|who| {
        let key = ssh_key::PrivateKey::read_openssh_file(&crate::util::keys_dir().join(who))
            .expect("a test key");
        correspond::sign::KeySigner::new(key).expect("ed25519")
    });
    let cycle = ["a2a3", "a6a5", "a1a2", "a7a6", "a2a1", "a6a7"];
    let mut moves = cycle[..2].iter().chain(cycle[2..].iter().cycle());
    let mut writer = Writer::<Campaign>::open(text.as_bytes()).expect("a valid opening");
    let time = Timestamp::parse(time).expect("time");
    let opened = writer.file().documents();
    for n in 0..records - opened {
        let mover = Seat::BOTH[n % 2];
        let action = Action::Move((*moves.next().expect("a cycle")).into());
        let record = writer.next(mover, action, time.clone());
        let written = writer
            .write(record, &signers[mover.index()], None)
            .expect("a legal move");
        text.push_str(&written.text);
        writer = written.writer;
    }
    std::fs::write(&path, &text).expect("write the game");
    path
}

/// A page holds each record's board as data, not as a picture of its own: from 50 records to
/// 2,000 it grows by a few hundred bytes a record (the list entry, the position, each square's
/// look as a digit or two, the captions), where an SVG a record was 15 KB.
#[test]
fn a_page_grows_by_a_few_hundred_bytes_a_record() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sizes: Vec<(usize, usize)> = [50, 500, 2000]
        .into_iter()
        .map(|records| {
            let name = format!("g{records}.yaml");
            let path = long_game(dir.path(), &name, records);
            let page = stdout_of(&["html", path.to_str().expect("UTF-8")]);
            let (figures, entries) = read(&page, &name);
            assert_eq!((figures.len(), entries.len()), (records, records));
            (records, page.len())
        })
        .collect();
    let per_record = |(a, sa): (usize, usize), (b, sb): (usize, usize)| (sb - sa) / (b - a);
    let small = per_record(sizes[0], sizes[1]);
    let large = per_record(sizes[1], sizes[2]);
    assert!(
        small <= 300 && large <= 300,
        "{sizes:?}: {small} and {large} bytes a record"
    );
    // The fixed base (style, script, the last board drawn whole, the looks) is what 50 records
    // weigh beyond theirs.
    let base = sizes[0].1 - 50 * large;
    assert!(base < 40_000, "{sizes:?}: a base of {base} bytes");
}
