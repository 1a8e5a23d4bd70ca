//! The crossing rule: records that crossed in the mail (an offer made while the other player
//! moved) are settled the same way by both players alone. The record of the player the game
//! awaited stands; the other is void, and its signer drops it and signs it again on top.

use crate::util::{correspond, git, keys_dir};
use std::path::{Path, PathBuf};

pub(crate) struct Player {
    pub(crate) dir: PathBuf,
    key: &'static str,
    minute: std::cell::Cell<u32>,
}

impl Player {
    pub(crate) fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_with(&self.dir.join(".journal"), args)
    }

    /// [`Player::run`], with the signing journal `journal`.
    fn run_with(&self, journal: &Path, args: &[&str]) -> (i32, String, String) {
        self.minute.set(self.minute.get() + 1);
        crate::util::transcript(
            correspond()
                .current_dir(&self.dir)
                .env(
                    "CORRESPOND_TIME",
                    format!(
                        "2026-07-0{}T10:{:02}:00Z",
                        if self.key == "alice" { 1 } else { 2 },
                        self.minute.get()
                    ),
                )
                .env("CORRESPOND_JOURNAL", journal)
                .args(args),
        )
    }

    pub(crate) fn sign(&self, args: &[&str]) -> String {
        let key = keys_dir().join(self.key);
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--key", key.to_str().expect("UTF-8")]);
        let (code, out, err) = self.run(&all);
        assert_eq!(code, 0, "{} {args:?}: {err}", self.key);
        out
    }

    /// The message carrying this player's latest records, saved in the other's folder.
    pub(crate) fn mail_to(&self, other: &Player, name: &str) {
        let (code, out, err) = self.run(&["mail", "game.yaml", "--from", "x@example.org"]);
        assert_eq!(code, 0, "{err}");
        std::fs::write(other.dir.join(name), out).expect("write");
    }

    pub(crate) fn file(&self) -> String {
        std::fs::read_to_string(self.dir.join("game.yaml")).expect("read")
    }

    /// Runs `args` as this player, named `name` in the transcript, and writes the whole
    /// transcript (command, stdout, stderr, exit code) into `said`.
    pub(crate) fn transcribe(&self, said: &mut String, name: &str, args: &[&str]) {
        let (code, out, err) = self.run(args);
        let err: String = err.lines().map(|l| format!("stderr: {l}\n")).collect();
        said.push_str(&format!(
            "$ correspond {} ({name})\n{out}{err}[exit {code}]\n\n",
            crate::util::shown_args(args)
        ));
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
            "nothing taken: game.yaml holds records 0 to 3; what was received and not taken:\n\
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
            "hint: record 3 of game.yaml is alice's, void by the crossing rule since the game \
             awaited bob: alice settles it with `correspond receive --settle game.yaml MESSAGE`, \
             which drops it, takes bob's, and signs it again where it still applies"
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
    let (alice, bob) = started(root.path());
    for (who, other, mv) in [
        (&alice, &bob, "f3"),
        (&bob, &alice, "e5"),
        (&alice, &bob, "g4"),
    ] {
        who.sign(&["play", "game.yaml", mv]);
        exchange(who, other);
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

/// A chess game by mail, alice white: accepted, alice to move at record 2, both copies alike.
fn started(root: &Path) -> (Player, Player) {
    started_with(root, &[])
}

/// [`started`], with `terms` given to `new` as well.
pub(crate) fn started_with(root: &Path, terms: &[&str]) -> (Player, Player) {
    let (alice, bob) = players(root);
    let bob_pub = keys_dir().join("bob.pub");
    let mut new = vec![
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
    ];
    new.extend(terms);
    alice.sign(&new);
    alice.mail_to(&bob, "0.eml");
    let (code, _, err) = bob.run(&["receive", "--new", "game.yaml", "0.eml"]);
    assert_eq!(code, 0, "{err}");
    bob.sign(&["accept", "game.yaml"]);
    exchange(&bob, &alice);
    (alice, bob)
}

/// `from` mails its latest records, and `to` takes them.
pub(crate) fn exchange(from: &Player, to: &Player) {
    from.mail_to(to, "m.eml");
    let (code, _, err) = to.run(&["receive", "game.yaml", "m.eml"]);
    assert_eq!(code, 0, "{err}");
}

/// A transcript with the test keys' folder written `tests/keys`, as the repository names it.
pub(crate) fn without_keys_dir(said: &str) -> String {
    let keys = keys_dir().to_str().expect("UTF-8").to_owned();
    said.replace(&keys, "tests/keys")
}

pub(crate) fn key(name: &str) -> String {
    keys_dir().join(name).to_str().expect("UTF-8").to_owned()
}

#[test]
fn a_record_signed_on_top_of_the_other_is_not_taken_back_as_a_crossing() {
    // bob offers a draw out of turn; alice plays on top of it, and the game ends in mate. Then
    // alice signs e4 at the offer's place on an old copy: her later records show she had seen
    // the offer, so this is no crossing, and bob's copy stands.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    std::fs::copy(alice.dir.join("game.yaml"), alice.dir.join("old.yaml")).expect("copy");
    bob.sign(&["offer-draw", "game.yaml"]);
    exchange(&bob, &alice);
    for (who, other, mv) in [
        (&alice, &bob, "f3"),
        (&bob, &alice, "e5"),
        (&alice, &bob, "g4"),
        (&bob, &alice, "Qh4"),
    ] {
        who.sign(&["play", "game.yaml", mv]);
        exchange(who, other);
    }
    // On a machine her journal was not carried to: hers refuses (tests/integration/
    // stale_copies.rs).
    let alice_key = key("alice");
    let elsewhere = alice.dir.join(".journal-elsewhere");
    let (code, _, err) =
        alice.run_with(&elsewhere, &["play", "old.yaml", "e4", "--key", &alice_key]);
    assert_eq!(code, 0, "{err}");
    let (code, message, err) = alice.run(&["mail", "old.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(bob.dir.join("e4.eml"), message).expect("write");
    let before = bob.file();
    for settle in [false, true] {
        let mut args = vec!["receive", "game.yaml", "e4.eml"];
        let bob_key = key("bob");
        if settle {
            args.extend(["--settle", "--key", &bob_key]);
        }
        let (code, out, err) = bob.run(&args);
        assert_eq!((code, out.as_str()), (1, ""));
        assert_eq!(
            err,
            "error: e4.eml: its record 2 (signed by alice) differs from the record 2 already \
             received (signed by bob), and the crossing rule does not settle them: alice's \
             record 3 in the file follows the record 2 there, so alice had seen it, and signed \
             another record 2, taking back what they had built on\n\
             hint: the other version is in game.rival-2.copy: `correspond compare game.yaml \
             game.rival-2.copy` sets the two side by side\n\
             hint: this is for an arbiter, not for the crossing rule: keep both versions, and \
             the message\n\
             hint: nothing was written to the game file\n"
        );
        assert_eq!(bob.file(), before);
    }
    let (code, out, _) = bob.run(&["compare", "game.yaml", "game.rival-2.copy"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "game.yaml and game.rival-2.copy fork at record 2: bob signed offer-draw in game.yaml \
         (line 25), alice signed move e2e4 in game.rival-2.copy (line 25)\n\
         these did not cross: alice's record 3 in game.yaml follows the record 2 there, so alice \
         had seen it, and signed another record 2 in game.rival-2.copy, taking back what they \
         had built on; game.yaml stands (both players signed it after record 1), and \
         game.rival-2.copy is evidence for an arbiter\n"
    );
}

#[test]
fn only_the_void_records_signer_settles_and_a_settlement_is_signed_once() {
    // alice plays e4 while bob resigns: bob's resignation is void and is signed again.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    alice.sign(&["play", "game.yaml", "e4"]);
    alice.mail_to(&bob, "e4.eml");
    bob.sign(&["resign", "game.yaml"]);
    std::fs::copy(bob.dir.join("game.yaml"), bob.dir.join("game2.yaml")).expect("copy");
    let before = bob.file();
    // Another player's key settles nothing.
    let (code, out, err) = bob.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "e4.eml",
        "--key",
        &key("alice"),
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: the void records are bob's, and --key is alice's: only bob settles them\n\
         hint: give your own key with --key PATH; nothing was written\n"
    );
    assert_eq!(bob.file(), before);
    // bob's own key: the resignation stands, on top of e4.
    let settle = |file: &str| {
        let (code, out, err) =
            bob.run(&["receive", "--settle", file, "e4.eml", "--key", &key("bob")]);
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        out
    };
    let out = settle("game.yaml");
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        [
            "your record 2 void by the crossing rule (the game awaited the other player): dropped",
            "record 2: alice (white) e4",
            "record 3: bob (black) resigns; game over: white wins: bob (black) resigned",
        ]
    );
    // Settled again on another copy (or after a run cut short): the same record, not a second.
    settle("game2.yaml");
    assert_eq!(
        std::fs::read(bob.dir.join("game2.yaml")).expect("read"),
        std::fs::read(bob.dir.join("game.yaml")).expect("read")
    );
    exchange(&bob, &alice);
    assert_eq!(alice.file(), bob.file());
}

#[test]
fn a_void_record_in_a_mailbox_is_settled_with_settle() {
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    alice.sign(&["play", "game.yaml", "e4"]);
    let (code, message, err) = alice.run(&["mail", "game.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        bob.dir.join("in.mbox"),
        format!("From alice Wed Jul  1 10:00:00 2026\n{message}\n"),
    )
    .expect("write");
    bob.sign(&["offer-draw", "game.yaml"]);
    let before = bob.file();
    let (code, out, err) = bob.run(&["receive", "game.yaml", "--mbox", "in.mbox"]);
    assert_eq!((code, err.as_str()), (1, ""));
    assert_eq!(
        out,
        "nothing taken: game.yaml holds records 0 to 2; what was received and not taken:\n\
         passed over in.mbox, message 1 ([correspond] chess bc833595: alice v bob): its record 2 \
         (signed by alice, whom the game awaited) crossed the record 2 already received (signed \
         by bob), which is void by the crossing rule\n  \
         record 2 of game.yaml is bob's, void by the crossing rule since the game awaited \
         alice: bob settles it with `correspond receive --settle game.yaml MESSAGE`, which \
         drops it, takes alice's, and signs it again where it still applies\n"
    );
    assert_eq!(bob.file(), before);
    let (code, out, err) = bob.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "--mbox",
        "in.mbox",
        "--key",
        &key("bob"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        [
            "your record 2 void by the crossing rule (the game awaited the other player): dropped",
            "record 2: alice (white) e4",
            "record 3: bob (black) offers a draw",
        ]
    );
}

#[test]
fn two_void_records_of_one_player_at_one_place_are_proved() {
    // bob offers a draw and, on another machine, resigns, both at record 2, while alice moves.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    std::fs::copy(bob.dir.join("game.yaml"), bob.dir.join("other.yaml")).expect("copy");
    bob.sign(&["offer-draw", "game.yaml"]);
    bob.mail_to(&alice, "offer.eml");
    let elsewhere = correspond()
        .current_dir(&bob.dir)
        .env("CORRESPOND_TIME", "2026-07-02T11:00:00Z")
        .env("CORRESPOND_JOURNAL", bob.dir.join(".other-journal"))
        .args(["resign", "other.yaml", "--key", &key("bob")])
        .output()
        .expect("run");
    assert!(elsewhere.status.success());
    let (code, resign, _) = bob.run(&["mail", "other.yaml", "--from", "b@example.org"]);
    assert_eq!(code, 0);
    std::fs::write(alice.dir.join("resign.eml"), resign).expect("write");
    alice.sign(&["play", "game.yaml", "e4"]);
    let before = alice.file();
    let (code, out, err) = alice.run(&["receive", "game.yaml", "offer.eml", "resign.eml"]);
    assert_eq!((code, err.as_str()), (1, ""));
    assert_eq!(
        out,
        "nothing taken: game.yaml holds records 0 to 2; what was received and not taken:\n\
         passed over offer.eml: its record 2 (bob: offer-draw) crossed the record 2 already \
         received (signed by alice, whom the game awaited) and is void by the crossing rule: \
         bob signs it again on top of it where it still applies\n\
         passed over resign.eml: its record 2 differs from the record 2 already received, and \
         bob signed both: two different records with one number (equivocation)\n  \
         a proof of it is in game.equivocation-2.proof, for an arbiter: `correspond check-proof \
         game.equivocation-2.proof` checks it\n\
         passed over resign.eml: its record 2 (bob: resign) crossed the record 2 already \
         received (signed by alice, whom the game awaited) and is void by the crossing rule: \
         bob signs it again on top of it where it still applies\n"
    );
    assert_eq!(alice.file(), before);
    let (code, out, err) = alice.run(&["check-proof", "game.equivocation-2.proof"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.contains("bob signed two different records numbered 2"),
        "{out}"
    );
}

#[test]
fn an_offer_the_other_player_made_too_is_not_made_again() {
    // Both offer a draw at once, alice on her turn: bob's is void, and signing it again would
    // let alice's lapse; he is told to accept hers instead.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    alice.sign(&["offer-draw", "game.yaml"]);
    alice.mail_to(&bob, "offer.eml");
    bob.sign(&["offer-draw", "game.yaml"]);
    let (code, out, err) = bob.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "offer.eml",
        "--key",
        &key("bob"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        [
            "your record 2 void by the crossing rule (the game awaited the other player): dropped",
            "your draw offer is not signed again: the other player offered the same, and yours \
             would let their offer lapse; `correspond accept-draw game.yaml` accepts it",
            "record 2: alice (white) offers a draw",
        ]
    );
    let (code, out, err) = bob.run(&["accept-draw", "game.yaml", "--key", &key("bob")]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out,
        "record 3: bob (black) accepts the draw; game over: draw: agreement\n\
         now: game over: draw: agreement\n"
    );
}

/// A settlement written and not committed (`receive --settle` cut short between its write and
/// its commit) is not an append to the last commit, since it drops the void records: the next
/// command that signs commits it as the settlement it is, then its own record.
#[test]
fn a_settlement_left_uncommitted_is_committed_by_the_next_command() {
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    git(&alice.dir, &["init", "-q", "-b", "main"]);
    git(&alice.dir, &["config", "user.name", "Alice"]);
    git(&alice.dir, &["config", "user.email", "alice@example.org"]);
    git(&alice.dir, &["add", "game.yaml"]);
    git(&alice.dir, &["commit", "-q", "-m", "the game"]);
    alice.sign(&["play", "game.yaml", "e4"]);
    exchange(&alice, &bob);
    bob.sign(&["play", "game.yaml", "e5"]);
    bob.mail_to(&alice, "move.eml");
    alice.sign(&["offer-draw", "game.yaml"]);
    let (code, _, err) = alice.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "move.eml",
        "--key",
        &key("alice"),
        "--no-commit",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        git(&alice.dir, &["status", "--porcelain", "game.yaml"]),
        " M game.yaml\n"
    );
    let out = alice.sign(&["play", "game.yaml", "Nf3"]);
    let subjects = git(&alice.dir, &["log", "--format=%s", "-2"]);
    assert_eq!(
        subjects,
        "game.yaml: chess, white plays Nf3 (record 5)\n\
         game.yaml: chess, record 3 void by the crossing rule, settled before but not committed\n",
        "{out}"
    );
    assert_eq!(git(&alice.dir, &["status", "--porcelain", "game.yaml"]), "");
    let (code, audit, err) = alice.run(&["audit", "game.yaml"]);
    assert_eq!((code, err.as_str()), (0, ""), "{audit}");
}

/// A crossing settled on one copy, and played on, then settled again on a copy kept from
/// before, with the other player's whole file: the void offer is in what was received, signed
/// again already, and is not signed a second time (the other player could accept it).
#[test]
fn a_crossing_settled_already_elsewhere_signs_nothing_a_second_time() {
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started(root.path());
    alice.sign(&["play", "game.yaml", "e4"]);
    exchange(&alice, &bob);
    bob.sign(&["play", "game.yaml", "e5"]);
    exchange(&bob, &alice);
    alice.sign(&["play", "game.yaml", "Nf3"]);
    alice.mail_to(&bob, "nf3.eml");
    bob.sign(&["offer-draw", "game.yaml"]);
    std::fs::copy(bob.dir.join("game.yaml"), bob.dir.join("copy2.yaml")).expect("copy");
    let bob_key = key("bob");
    let (code, _, err) = bob.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "nf3.eml",
        "--key",
        &bob_key,
    ]);
    assert_eq!(code, 0, "{err}");
    exchange(&bob, &alice);
    bob.sign(&["play", "game.yaml", "Nc6"]);
    exchange(&bob, &alice);
    alice.sign(&["play", "game.yaml", "Bb5"]);
    std::fs::copy(alice.dir.join("game.yaml"), bob.dir.join("alice.yaml")).expect("copy");
    let (code, out, err) = bob.run(&[
        "receive",
        "--settle",
        "copy2.yaml",
        "alice.yaml",
        "--key",
        &bob_key,
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.contains(
            "your draw offer was signed again already, as record 5, and is not signed a second \
             time"
        ),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(bob.dir.join("copy2.yaml")).expect("read"),
        alice.file(),
        "nothing of bob's signed anew"
    );
}
