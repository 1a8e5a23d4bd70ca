//! Records by mail: messages made by another mail library (Python's `email`, by
//! `tests/mail/make_fixtures.py`) in the shapes real clients produce, received onto copies of
//! the Opera Game; mailboxes in order, shuffled and duplicated; the message `mail` writes; and
//! whole games played between two files by `mail` and `receive` alone. The refusals are in
//! `mail_refusals.rs`.

use crate::disputes::before_document;
use crate::util::{correspond, git, keys_dir};
use std::path::{Path, PathBuf};

pub(crate) const OPERA: &str = "games/chess/morphy-opera-game-1858.yaml";
pub(crate) const OPERA_ID: &str =
    "73b6cf72ea1014d0451bf863d285a6887895fc0f1534b0000a78ba74189785ff";
pub(crate) const CAMPAIGN: &str = "games/campaign/fact-check.yaml";

pub(crate) fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

pub(crate) fn fixture(name: &str) -> PathBuf {
    repo("tests/mail").join(name)
}

pub(crate) fn opera() -> String {
    std::fs::read_to_string(repo(OPERA)).expect("the Opera Game")
}

/// The Opera Game up to and including record `last`.
pub(crate) fn opera_upto(last: usize) -> String {
    before_document(&opera(), last + 1).to_owned()
}

/// Runs correspond in `dir`; returns (exit code, stdout, stderr).
pub(crate) fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    crate::util::transcript(
        correspond()
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", dir)
            .args(args),
    )
}

pub(crate) fn receive(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["receive", "--no-commit"];
    all.extend_from_slice(args);
    run(dir, &all)
}

pub(crate) fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// The files in a folder, to show that a refusal left nothing behind.
pub(crate) fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
#[test]
fn messages_in_the_shapes_mail_clients_make_are_received_in_turn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = dir.path().join("opera.yaml");
    let (code, out, err) = receive(
        dir.path(),
        &["--new", "opera.yaml", arg(&fixture("challenge.eml"))],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record 0: Paul Morphy (white) game proposed\n"),
        "{out}"
    );
    assert!(
        out.contains("players: Paul Morphy (white) SHA256:"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&game).expect("made"), opera_upto(0));
    // Each message carries the next records (the reply also quotes two it follows).
    for (name, first, last) in [
        ("quoted-printable.eml", 1, 1),
        ("reflowed.eml", 2, 2),
        ("base64.eml", 3, 3),
        ("crlf.eml", 4, 4),
        ("alternative.eml", 5, 5),
        ("html-only.eml", 6, 6),
        ("reply.eml", 7, 7),
        ("forwarded-attached.eml", 8, 8),
        ("forwarded-inline.eml", 9, 9),
        ("several-records.eml", 10, 14),
    ] {
        let message = fixture(name);
        let (code, out, err) = receive(dir.path(), &["opera.yaml", arg(&message)]);
        assert_eq!(code, 0, "{name}: {err}");
        let arrived: Vec<&str> = out.lines().filter(|l| l.starts_with("record ")).collect();
        assert_eq!(arrived.len(), last - first + 1, "{name}: {out}");
        assert!(
            arrived[0].starts_with(&format!("record {first}: ")),
            "{name}: {out}"
        );
        assert_eq!(
            std::fs::read_to_string(&game).expect("the file"),
            opera_upto(last),
            "{name}"
        );
        // The same message again changes nothing, and says so.
        let (code, out, _) = receive(dir.path(), &["opera.yaml", arg(&message)]);
        assert_eq!(code, 0);
        assert!(
            out.starts_with("nothing new: opera.yaml already holds"),
            "{name}: {out}"
        );
        assert_eq!(
            std::fs::read_to_string(&game).expect("the file"),
            opera_upto(last)
        );
    }
    assert_eq!(listing(dir.path()), ["opera.yaml"]);
}

#[test]
fn a_mailbox_in_order_shuffled_or_duplicated_leaves_the_same_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (file, mbox) in [("a.yaml", "games.mbox"), ("b.yaml", "games-shuffled.mbox")] {
        let mbox = fixture(mbox);
        let (code, out, err) = receive(
            dir.path(),
            &[
                "--new",
                file,
                "--game",
                &OPERA_ID[..8],
                "--mbox",
                arg(&mbox),
            ],
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("passed over"), "{out}");
        assert!(out.ends_with("result: white wins: checkmate\n"), "{out}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join(file)).expect("made"),
            opera(),
            "{mbox:?}"
        );
    }
    // The other game in the same mailboxes, onto its challenge received alone.
    let campaign = std::fs::read_to_string(repo(CAMPAIGN)).expect("fact-check");
    std::fs::write(dir.path().join("c.yaml"), before_document(&campaign, 1)).expect("write");
    let (code, out, err) = receive(
        dir.path(),
        &["c.yaml", "--mbox", arg(&fixture("games-shuffled.mbox"))],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record 1: bob (tails) accepted; answered the coin flip\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("c.yaml")).expect("grown"),
        campaign
    );
    // Without --game, a new file from a mailbox of two games is refused.
    let (code, _, err) = receive(
        dir.path(),
        &["--new", "d.yaml", "--mbox", arg(&fixture("games.mbox"))],
    );
    assert_eq!(code, 1);
    assert!(err.contains("blocks start 2 different games"), "{err}");
    assert!(err.contains("--game ID"), "{err}");
    assert!(!dir.path().join("d.yaml").exists());
}

/// A refusal: exit code 1, the reason on standard error, the file untouched and nothing else
/// written.
pub(crate) fn refused(upto: usize, args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    refused_in(dir.path(), upto, args)
}

pub(crate) fn refused_in(dir: &Path, upto: usize, args: &[&str]) -> String {
    let game = dir.join("opera.yaml");
    std::fs::write(&game, opera_upto(upto)).expect("write the copy");
    let mut all = vec!["opera.yaml"];
    all.extend_from_slice(args);
    let before = listing(dir);
    let (code, out, err) = receive(dir, &all);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&game).expect("the file"),
        opera_upto(upto)
    );
    assert_eq!(listing(dir), before);
    err
}
/// A message carrying `record` played on another copy of the Opera Game up to `upto`, signed
/// with `who`'s test key.
pub(crate) fn rival_message(dir: &Path, upto: usize, record: &[&str], who: &str) -> PathBuf {
    std::fs::write(dir.join("other.yaml"), opera_upto(upto)).expect("write");
    let key = keys_dir().join(who);
    let mut args = record.to_vec();
    args.extend(["--no-commit", "--key", arg(&key)]);
    let (code, _, err) = run(dir, &args);
    assert_eq!(code, 0, "{err}");
    let (code, message, err) = run(dir, &["mail", "other.yaml", "--from", "x@example.org"]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("rival.eml");
    std::fs::write(&path, message).expect("write the message");
    path
}
#[test]
fn a_mailed_block_is_the_one_the_format_describes() {
    // The fixture's block was armoured by the Python script from docs/file-format.md alone.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(0)).expect("write");
    let (code, message, err) = run(
        dir.path(),
        &["mail", "opera.yaml", "--from", "morphy@example.org"],
    );
    assert_eq!(code, 0, "{err}");
    let block = |text: &str| {
        let start = text.find("-----BEGIN").expect("a block");
        let end = text[start..].find("-----END").expect("its end") + start;
        text[start..end].to_owned()
    };
    let python = std::fs::read_to_string(fixture("challenge.eml")).expect("fixture");
    assert_eq!(block(&message), block(&python));
}

#[test]
fn the_message_mail_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("opera.yaml"), opera_upto(16)).expect("write");
    let out = correspond()
        .current_dir(dir.path())
        .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
        .args(["mail", "opera.yaml", "--from", "morphy@example.org"])
        .args(["--to", "duke@example.org"])
        .output()
        .expect("run correspond");
    assert!(out.status.success());
    let message = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(message.lines().all(|l| l.len() <= 78), "{message}");
    // The board, in the HTML twin of the text: the position as the recipient (black) sees it.
    let png = image_part(&message);
    let (pixels, width, height) = crate::readback::png_pixels(&png);
    std::fs::write(dir.path().join("flipped.yaml"), opera_upto(16)).expect("write");
    let svg = crate::util::stdout_of(&[
        "show",
        dir.path().join("flipped.yaml").to_str().expect("UTF-8"),
        "--flip",
        "--svg",
    ]);
    let (shape, board) = crate::readback::from_svg(&svg);
    assert_eq!(
        crate::readback::from_pixels(&pixels, 4, width, shape, "the mailed board"),
        board
    );
    // The image's base64 lines, said in a line of their own for the snapshot.
    let start = message.find("Content-Type: image/png").expect("an image");
    let lines = message[start..].find("\n\n").expect("its body") + start + 2;
    let end = message[lines..].find("\n\n").expect("its end") + lines;
    let digest = correspond::digest::Digest::of(&png).to_string();
    let shown = format!(
        "{}[a PNG of {width} by {height} pixels, {} bytes, SHA-256 {}]{}",
        &message[..lines],
        png.len(),
        &digest[..16],
        &message[end..]
    );
    insta::assert_snapshot!(shown);
}

/// The plain text part of a message that `mail` wrote: what a reader without images reads.
pub(crate) fn text_part(message: &str) -> &str {
    let start = message
        .find("Content-Type: text/plain")
        .expect("a text part");
    let body = message[start..].find("\n\n").expect("a body") + start + 2;
    let end = message[body..]
        .find("\n--=_")
        .map_or(message.len(), |e| e + body);
    &message[body..end]
}

/// The PNG image of a message that `mail` wrote, decoded.
fn image_part(message: &str) -> Vec<u8> {
    let parsed = mail_parser::MessageParser::new()
        .parse(message.as_bytes())
        .expect("a message");
    let images: Vec<&mail_parser::MessagePart<'_>> = parsed
        .parts
        .iter()
        .filter(|p| {
            use mail_parser::MimeHeaders as _;
            p.content_type()
                .is_some_and(|t| t.ctype() == "image" && t.subtype() == Some("png"))
        })
        .collect();
    assert_eq!(images.len(), 1, "one image");
    images[0].contents().to_vec()
}
/// One player's side of a game by mail: a folder with their copy of the game, and their key.
struct Player {
    dir: PathBuf,
    name: &'static str,
    address: String,
}

impl Player {
    fn act(&self, args: &[&str]) -> String {
        let key = keys_dir().join(self.name);
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--key", arg(&key)]);
        let (code, out, err) = run(&self.dir, &all);
        assert_eq!(code, 0, "{} {args:?}: {err}", self.name);
        out
    }

    fn mail(&self, to: &Player) -> Vec<u8> {
        let out = correspond()
            .current_dir(&self.dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args([
                "mail",
                "game.yaml",
                "--from",
                &self.address,
                "--to",
                &to.address,
            ])
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Takes a message in through standard input, as a mail filter would.
    fn receive(&self, message: &[u8], new: bool) -> String {
        let mut cmd = correspond();
        cmd.current_dir(&self.dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .arg("receive");
        if new {
            cmd.arg("--new");
        }
        let out = cmd
            .arg("game.yaml")
            .write_stdin(message)
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    }

    fn status(&self) -> String {
        let (code, out, err) = run(&self.dir, &["status", "game.yaml"]);
        assert_eq!(code, 0, "{err}");
        out
    }
}

#[test]
fn a_whole_game_with_a_coin_flip_is_played_by_mail_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let player = |name: &'static str| {
        let dir = dir.path().join(name);
        std::fs::create_dir(&dir).expect("a folder each");
        Player {
            dir,
            name,
            address: format!("{name}@example.org"),
        }
    };
    let (alice, bob) = (player("alice"), player("bob"));
    // Alice keeps her copy in git: what arrives by mail is committed.
    git(&alice.dir, &["init", "-q", "-b", "main"]);
    git(&alice.dir, &["config", "user.name", "Alice"]);
    git(&alice.dir, &["config", "user.email", "alice@example.org"]);
    let bob_pub = keys_dir().join("bob.pub");
    alice.act(&[
        "new",
        "chess",
        "game.yaml",
        "--name",
        "alice",
        "--side",
        "toss",
        "--opponent",
        "bob",
        "--opponent-key",
        arg(&bob_pub),
    ]);
    let mut sent = Vec::new();
    let mut subjects = Vec::new();
    let challenge = alice.mail(&bob);
    sent.push(challenge.clone());
    let out = bob.receive(&challenge, true);
    assert!(
        out.contains("next: bob: correspond accept game.yaml"),
        "{out}"
    );
    // Fool's mate, whoever the coin makes White.
    let mut moves = ["f3", "e5", "g4", "Qh4#"].into_iter();
    let players = [&alice, &bob];
    for _ in 0..12 {
        let status = alice.status();
        if status.contains("result:") {
            break;
        }
        let next = status
            .lines()
            .find_map(|l| l.strip_prefix("next: "))
            .expect("whose turn");
        let (mover, other) = if next.starts_with("alice") {
            (players[0], players[1])
        } else {
            (players[1], players[0])
        };
        assert_eq!(bob.status(), status, "the copies agree");
        let command = next
            .split_whitespace()
            .skip_while(|w| *w != "correspond")
            .nth(1)
            .expect("a command");
        match command {
            "play" => mover.act(&["play", "game.yaml", moves.next().expect("a move")]),
            verb => mover.act(&[verb, "game.yaml"]),
        };
        let message = mover.mail(other);
        let subject = String::from_utf8_lossy(&message)
            .lines()
            .find(|l| l.starts_with("Subject: [correspond] chess "))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&message)));
        // One subject for the whole game: clients that group by subject show one conversation.
        subjects.push(subject);
        let out = other.receive(&message, false);
        assert!(out.starts_with("record "), "{out}");
        sent.push(message);
    }
    assert!(moves.next().is_none(), "every move was played");
    assert!(
        subjects.windows(2).all(|w| w[0] == w[1]),
        "one subject for the game: {subjects:?}"
    );
    let (a, b) = (
        std::fs::read(alice.dir.join("game.yaml")).expect("alice's copy"),
        std::fs::read(bob.dir.join("game.yaml")).expect("bob's copy"),
    );
    assert_eq!(a, b, "both copies are the same file");
    assert!(bob.status().contains("result: "), "{}", bob.status());
    assert!(bob.status().contains("wins: checkmate"), "{}", bob.status());
    // Alice's history holds one commit per message she received, and it audits clean.
    let log = git(&alice.dir, &["log", "--format=%s"]);
    assert!(
        log.lines().any(|l| l.ends_with("received by mail)")),
        "{log}"
    );
    let (code, out, err) = run(&alice.dir, &["audit", "game.yaml"]);
    assert_eq!(code, 0, "{out}{err}");
    // Every message, as a mailbox in reverse, rebuilds the game from nothing.
    let mut mbox = Vec::new();
    for message in sent.iter().rev() {
        mbox.extend_from_slice(b"From correspond Sun Mar  1 12:00:00 2026\n");
        mbox.extend_from_slice(message);
        mbox.push(b'\n');
    }
    std::fs::write(dir.path().join("spool.mbox"), mbox).expect("write the mailbox");
    let (code, _, err) = receive(
        dir.path(),
        &["--new", "rebuilt.yaml", "--mbox", "spool.mbox"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(dir.path().join("rebuilt.yaml")).expect("rebuilt"),
        a
    );
}
/// `correspond mail` of the Opera Game's record `n` alone.
pub(crate) fn mail_of(dir: &Path, n: usize) -> Vec<u8> {
    std::fs::write(dir.join("other.yaml"), opera_upto(n)).expect("write");
    let n = n.to_string();
    let (code, message, err) = run(
        dir,
        &[
            "mail",
            "other.yaml",
            "--from",
            "x@example.org",
            "--since",
            &n,
        ],
    );
    assert_eq!(code, 0, "{err}");
    message.into_bytes()
}

/// An mbox mailbox of these messages.
pub(crate) fn mbox(messages: &[&[u8]]) -> Vec<u8> {
    let mut mbox = Vec::new();
    for message in messages {
        mbox.extend_from_slice(b"From x Sun Mar  1 12:00:00 2026\n");
        mbox.extend_from_slice(message);
        mbox.push(b'\n');
    }
    mbox
}
