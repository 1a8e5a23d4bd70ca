//! The crossing rule: records that crossed in the mail (an offer made while the other player
//! moved) are settled the same way by both players alone. The record of the player the game
//! awaited stands; the other is void, and its signer drops it and signs it again on top.

use crate::util::{correspond, git, keys_dir};
use std::path::{Path, PathBuf};

struct Player {
    dir: PathBuf,
    key: &'static str,
    minute: std::cell::Cell<u32>,
}

impl Player {
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.minute.set(self.minute.get() + 1);
        let out = correspond()
            .current_dir(&self.dir)
            .env(
                "CORRESPOND_TIME",
                format!(
                    "2026-07-0{}T10:{:02}:00Z",
                    if self.key == "alice" { 1 } else { 2 },
                    self.minute.get()
                ),
            )
            .env("CORRESPOND_JOURNAL", self.dir.join(".journal"))
            .args(args)
            .output()
            .expect("run correspond");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn sign(&self, args: &[&str]) -> String {
        let key = keys_dir().join(self.key);
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--key", key.to_str().expect("UTF-8")]);
        let (code, out, err) = self.run(&all);
        assert_eq!(code, 0, "{} {args:?}: {err}", self.key);
        out
    }

    /// The message carrying this player's latest records, saved in the other's folder.
    fn mail_to(&self, other: &Player, name: &str) {
        let (code, out, err) = self.run(&["mail", "game.yaml", "--from", "x@example.org"]);
        assert_eq!(code, 0, "{err}");
        std::fs::write(other.dir.join(name), out).expect("write");
    }

    fn file(&self) -> String {
        std::fs::read_to_string(self.dir.join("game.yaml")).expect("read")
    }
}

fn players(root: &Path) -> (Player, Player) {
    let make = |name: &str, key| {
        let dir = root.join(name);
        std::fs::create_dir(&dir).expect("mkdir");
        Player {
            dir,
            key,
            minute: std::cell::Cell::new(0),
        }
    };
    (make("alice", "alice"), make("bob", "bob"))
}

#[test]
fn crossed_records_are_settled_alike_by_both_players() {
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = players(root.path());
    // alice keeps her copy in git, so that her history is audited too.
    git(&alice.dir, &["init", "-q", "-b", "main"]);
    git(&alice.dir, &["config", "user.name", "Alice"]);
    git(&alice.dir, &["config", "user.email", "alice@example.org"]);
    let bob_pub = keys_dir().join("bob.pub");
    alice.sign(&[
        "new",
        "chess",
        "game.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob_pub.to_str().expect("UTF-8"),
    ]);
    alice.mail_to(&bob, "0.eml");
    let (code, _, err) = bob.run(&["receive", "--new", "game.yaml", "0.eml"]);
    assert_eq!(code, 0, "{err}");
    bob.sign(&["accept", "game.yaml"]);
    bob.mail_to(&alice, "1.eml");
    alice.run(&["receive", "game.yaml", "1.eml"]);
    alice.sign(&["play", "game.yaml", "e4"]);
    alice.mail_to(&bob, "2.eml");
    bob.run(&["receive", "game.yaml", "2.eml"]);
    // Crossing: bob, whose turn it is, plays e5; alice, before seeing it, offers a draw.
    bob.sign(&["play", "game.yaml", "e5"]);
    bob.mail_to(&alice, "e5.eml");
    alice.sign(&["offer-draw", "game.yaml"]);
    alice.mail_to(&bob, "offer.eml");
    // The two copies, compared: the rule names which stands.
    std::fs::copy(bob.dir.join("game.yaml"), alice.dir.join("bobs.yaml")).expect("copy");
    let (code, out, _) = alice.run(&["compare", "game.yaml", "bobs.yaml"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "by the crossing rule bobs.yaml stands, since the game awaited bob, and alice's \
             record 3 in game.yaml is void"
        ),
        "{out}"
    );
    std::fs::remove_file(alice.dir.join("bobs.yaml")).expect("remove");
    // bob receives the offer: it crossed his move, which the game awaited; nothing to do.
    let before = bob.file();
    let (code, out, err) = bob.run(&["receive", "game.yaml", "offer.eml"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.starts_with(
            "nothing new: game.yaml already holds every record received (records 0 to 3)\n\
             passed over offer.eml: its record 3 (alice: offer-draw) crossed the record 3 \
             already received (signed by bob, whom the game awaited) and is void by the \
             crossing rule"
        ),
        "{out}"
    );
    assert_eq!(bob.file(), before);
    // alice receives the move: her offer is void. Refused, with the command that settles it.
    let (code, _, err) = alice.run(&["receive", "game.yaml", "e5.eml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "hint: your record 3 is void by the crossing rule, since the game awaited the other \
             player: `correspond receive --settle game.yaml MESSAGE` drops it, takes theirs, and \
             signs yours again where it still applies"
        ),
        "{err}"
    );
    let key = keys_dir().join("alice");
    let (code, out, err) = alice.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "e5.eml",
        "--key",
        key.to_str().expect("UTF-8"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "your record 3 void by the crossing rule (the game awaited the other player): dropped",
            "record 3: bob (black) e5",
            "record 4: alice (white) offers a draw",
        ],
        "{out}"
    );
    // Her history shows the settlement, not a record taken back.
    let (code, audit, _) = alice.run(&["audit", "game.yaml"]);
    assert_eq!(code, 0, "{audit}");
    assert!(
        audit.contains("      record 3 void by the crossing rule (it crossed a record of the player the game awaited), not taken back"),
        "{audit}"
    );
    // She mails her offer again; bob takes it; both copies are one file.
    alice.mail_to(&bob, "offer-again.eml");
    let (code, out, err) = bob.run(&["receive", "game.yaml", "offer-again.eml"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record 4: alice (white) offers a draw\n"),
        "{out}"
    );
    assert_eq!(alice.file(), bob.file());
}

#[test]
fn a_resignation_that_crossed_a_checkmate_is_not_signed_again() {
    // Fool's mate: black mates while white resigns; the mate stands, the game is over.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = players(root.path());
    let bob_pub = keys_dir().join("bob.pub");
    alice.sign(&[
        "new",
        "chess",
        "game.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob_pub.to_str().expect("UTF-8"),
        "--no-commit",
    ]);
    alice.mail_to(&bob, "0.eml");
    bob.run(&["receive", "--new", "game.yaml", "0.eml"]);
    bob.sign(&["accept", "game.yaml"]);
    for (who, other, mv) in [
        (&bob, &alice, None),
        (&alice, &bob, Some("f3")),
        (&bob, &alice, Some("e5")),
        (&alice, &bob, Some("g4")),
    ] {
        if let Some(mv) = mv {
            who.sign(&["play", "game.yaml", mv]);
        }
        who.mail_to(other, "m.eml");
        let (code, _, err) = other.run(&["receive", "game.yaml", "m.eml"]);
        assert_eq!(code, 0, "{err}");
    }
    bob.sign(&["play", "game.yaml", "Qh4"]);
    bob.mail_to(&alice, "mate.eml");
    alice.sign(&["resign", "game.yaml"]);
    let key = keys_dir().join("alice");
    let (code, out, err) = alice.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "mate.eml",
        "--key",
        key.to_str().expect("UTF-8"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.contains("your resignation does not apply after their record, and is not signed again"),
        "{out}"
    );
    assert!(out.contains("result: black wins: checkmate"), "{out}");
    assert_eq!(alice.file(), bob.file());
}
