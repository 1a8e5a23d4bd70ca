//! Conditional moves through the commands, as whole transcripts (docs/conditional-moves.md):
//! a line that applies through three plies, charged no time; a deviation; a line voided by a
//! draw offer; a repetition reached through a line and claimed; the author's own `play` of a
//! reply left unappended, and of any other move; two conditionals at one place proven as
//! equivocation; a withdrawal that crosses the matching move by mail; and a game by git, its
//! history audited. Hostile records of each kind are in `tests/invalid/conditional-*.yaml`.

use crate::util::{correspond, git, keys_dir, new_chess, new_game, shown_args, transcript};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A folder where alice and bob play, each command at a pinned time an hour after the last,
/// and everything run written down as a transcript.
pub(crate) struct Table {
    dir: PathBuf,
    pub(crate) hour: u32,
    pub(crate) said: String,
    /// Another signing journal than the tests' own, as another machine's.
    pub(crate) journal: Option<PathBuf>,
}

impl Table {
    pub(crate) fn new(dir: &Path) -> Table {
        Table {
            dir: dir.to_owned(),
            hour: 0,
            said: String::new(),
            journal: None,
        }
    }

    /// Runs `correspond ARGS` (with `who`'s key and `--no-commit` when `who` is given) an
    /// hour after the last command; writes the whole transcript down; the exit code.
    pub(crate) fn run(&mut self, who: Option<&str>, args: &[&str]) -> i32 {
        self.hour += 1;
        let time = format!(
            "2026-03-{:02}T{:02}:00:00Z",
            1 + self.hour / 24,
            self.hour % 24
        );
        let mut cmd = correspond();
        cmd.current_dir(&self.dir)
            .env("CORRESPOND_TIME", &time)
            .args(args);
        if let Some(journal) = &self.journal {
            cmd.env("CORRESPOND_JOURNAL", journal);
        }
        if let Some(who) = who {
            cmd.arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit");
        }
        let (code, out, err) = transcript(&mut cmd);
        let by = who.map_or_else(String::new, |w| format!(" ({w}, at {time})"));
        let _ = write!(
            self.said,
            "$ correspond {}{by}\n{out}{}[exit {code}]\n\n",
            shown_args(args),
            err.lines()
                .map(|l| format!("stderr: {l}\n"))
                .collect::<String>()
        );
        code
    }

    /// A signing command that must succeed.
    pub(crate) fn sign(&mut self, who: &str, args: &[&str]) {
        let code = self.run(Some(who), args);
        assert_eq!(code, 0, "{}", self.said);
    }

    /// A chess game in `g.yaml`, alice white, with `terms` for `new`, accepted by bob; the
    /// transcript starts after it.
    pub(crate) fn chess(dir: &Path, terms: &[&str]) -> Table {
        let mut table = Table::new(dir);
        let new = new_chess("g.yaml", terms);
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        table.sign("alice", &new);
        table.sign("bob", &["accept", "g.yaml"]);
        table.said.clear();
        table
    }
}

#[test]
fn a_line_applies_through_three_plies_and_charges_its_author_no_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Blocks of moves, so that the replies are counted as alice's moves too.
    let mut t = Table::chess(dir.path(), &["--time-control", "3/10"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "e4", "--if", "e5 Nf3 Nc6 Bb5 a6 Ba4"],
    );
    t.run(None, &["status", "g.yaml"]);
    t.sign("bob", &["play", "g.yaml", "e5"]);
    t.sign("bob", &["play", "g.yaml", "Nc6"]);
    t.run(None, &["show", "g.yaml", "--ascii"]);
    t.sign("bob", &["play", "g.yaml", "a6"]);
    t.run(None, &["status", "g.yaml"]);
    t.run(None, &["log", "g.yaml"]);
    t.run(None, &["pgn", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn in_guerrilla_checkers_a_line_holds_whole_turns_and_insurrection_plays_as_chess() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::new(dir.path());
    for (game, side, file) in [
        ("guerrilla", "guerrilla", "g.yaml"),
        ("insurrection", "white", "i.yaml"),
    ] {
        let new = new_game(game, side, file, &[]);
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        t.sign("alice", &new);
        t.sign("bob", &["accept", file]);
    }
    t.said.clear();
    // Two stones placed, a checker's capture: each turn one move, a reply a whole turn.
    t.sign(
        "alice",
        &["play", "g.yaml", "b4,b5", "--if", "f5-g4 b3,c3 e4-f5 c5,d5"],
    );
    t.sign("bob", &["play", "g.yaml", "f5-g4"]);
    t.run(None, &["status", "g.yaml"]);
    t.sign("alice", &["play", "i.yaml", "d4", "--if", "d5 c4"]);
    t.sign("bob", &["play", "i.yaml", "d5"]);
    t.run(None, &["log", "i.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_deviation_or_any_other_record_voids_the_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &[]);
    t.sign("alice", &["play", "g.yaml", "e4", "--if", "e5 Nf3"]);
    t.sign("bob", &["play", "g.yaml", "c5"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "Nf3", "--if", "d6 d4", "--if", "Nc6 d4"],
    );
    // bob's draw offer comes first: the lines are void, and his move then meets nothing.
    t.sign("bob", &["offer-draw", "g.yaml"]);
    t.sign("bob", &["play", "g.yaml", "d6"]);
    t.run(None, &["status", "g.yaml"]);
    // Nothing stands to withdraw; and lines that give two replies are refused before the
    // move is signed.
    t.run(Some("alice"), &["withdraw", "g.yaml"]);
    t.run(
        Some("alice"),
        &[
            "play",
            "g.yaml",
            "d4",
            "--if",
            "cxd4 Nxd4",
            "--if",
            "cxd4 Qxd4",
        ],
    );
    t.run(Some("alice"), &["play", "g.yaml", "d4", "--if", "cxd4"]);
    t.run(Some("alice"), &["play", "g.yaml", "d4", "--if", "cxd4 Ke3"]);
    t.run(None, &["log", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_repetition_reached_through_a_line_is_claimed_by_the_player_to_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &[]);
    t.sign(
        "alice",
        &[
            "play",
            "g.yaml",
            "Nf3",
            "--if",
            "Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3",
        ],
    );
    for mv in ["Nf6", "Ng8", "Nf6"] {
        t.sign("bob", &["play", "g.yaml", mv]);
    }
    // The position after 1. Nf3 stands for the third time once bob's Ng8 is answered.
    t.sign("bob", &["play", "g.yaml", "Ng8"]);
    t.run(None, &["status", "g.yaml"]);
    t.sign("bob", &["claim-draw", "g.yaml", "repetition"]);
    insta::assert_snapshot!(t.said);
}

/// bob's move, signed with the library alone, as a program that knows no conditional would
/// sign it: the reply is left unappended.
fn move_alone(path: &Path, mv: &str, time: &str) {
    use correspond::games::chess::Chess;
    use correspond::replay::Seat;
    use correspond::sign::KeySigner;
    let bytes = std::fs::read(path).expect("read");
    let writer = correspond::writer::Writer::<Chess>::open(&bytes).expect("a valid game");
    let time = correspond::log::Timestamp::parse(time).expect("a time");
    let record = writer.next(
        Seat::Opponent,
        correspond::log::Action::Move(mv.to_owned()),
        time,
    );
    let key = ssh_key::PrivateKey::read_openssh_file(&keys_dir().join("bob")).expect("a key");
    let signer = KeySigner::new(key).expect("ed25519");
    let written = writer.write(record, &signer, None).expect("signed");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .expect("open");
    std::io::Write::write_all(&mut file, written.text.as_bytes()).expect("append");
}

#[test]
fn the_author_appends_a_reply_left_unappended_and_may_play_nothing_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &[]);
    t.sign("alice", &["play", "g.yaml", "e4", "--if", "e5 Nf3"]);
    move_alone(&dir.path().join("g.yaml"), "e7e5", "2026-03-01T05:00:00Z");
    t.run(None, &["status", "g.yaml"]);
    t.run(Some("alice"), &["offer-draw", "g.yaml"]);
    t.run(Some("alice"), &["play", "g.yaml", "Nc3"]);
    t.run(
        Some("alice"),
        &["play", "g.yaml", "Nf3", "-m", "as promised"],
    );
    t.run(Some("alice"), &["play", "g.yaml", "Nf3"]);
    t.run(None, &["log", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn the_opponent_appends_a_reply_left_unappended_before_moving_on_their_own_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "3/move"]);
    t.sign("alice", &["play", "g.yaml", "e4", "--if", "e5 Nf3"]);
    move_alone(&dir.path().join("g.yaml"), "e7e5", "2026-03-01T04:00:00Z");
    // A day later bob moves on: alice's reply first, dated as his e5, then his move.
    t.hour += 24;
    t.sign("bob", &["play", "g.yaml", "Nc6"]);
    t.run(None, &["status", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn lines_stand_through_leave_and_a_move_that_meets_one_brings_no_offer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "3/move", "--leave", "10"]);
    t.sign("alice", &["play", "g.yaml", "e4", "--if", "e5 Nf3 Nc6 Bb5"]);
    t.sign("alice", &["leave", "g.yaml", "7"]);
    t.run(Some("bob"), &["play", "g.yaml", "e5", "--offer-draw"]);
    t.sign("bob", &["play", "g.yaml", "e5"]);
    t.sign("bob", &["play", "g.yaml", "Nc6"]);
    t.run(None, &["status", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn two_conditionals_at_one_place_are_a_proof_of_equivocation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &[]);
    let game = dir.path().join("g.yaml");
    std::fs::copy(&game, dir.path().join("other.yaml")).expect("copy");
    std::fs::copy(&game, dir.path().join("elsewhere.yaml")).expect("copy");
    t.sign("alice", &["play", "g.yaml", "e4", "--if", "e5 Nf3"]);
    // Her journal refuses a second promise after the same move, even on another copy.
    t.hour -= 1;
    t.run(
        Some("alice"),
        &["play", "other.yaml", "e4", "--if", "c5 Nf3"],
    );
    // Signed at the same time on a machine without that journal, the same move and another
    // promise: two documents at place 3, and proven.
    let elsewhere = dir.path().join("elsewhere");
    let mut cmd = correspond();
    cmd.current_dir(dir.path())
        .env("CORRESPOND_TIME", "2026-03-01T03:00:00Z")
        .env("CORRESPOND_JOURNAL", &elsewhere)
        .args([
            "play",
            "elsewhere.yaml",
            "e4",
            "--if",
            "c5 Nf3",
            "--no-commit",
            "--key",
        ])
        .arg(keys_dir().join("alice"));
    let (code, _, err) = transcript(&mut cmd);
    assert_eq!((code, err.as_str()), (0, ""));
    t.run(
        None,
        &[
            "compare",
            "g.yaml",
            "elsewhere.yaml",
            "--proof",
            "proof.yaml",
        ],
    );
    t.run(None, &["check-proof", "proof.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_withdrawal_that_crosses_the_matching_move_by_mail_is_too_late() {
    use crate::crossing::{exchange, key, started_with};
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started_with(root.path(), &[]);
    alice.sign(&["play", "game.yaml", "e4", "--if", "e5 Nf3"]);
    exchange(&alice, &bob);
    // bob's e5 meets her line, and brings her reply; she withdraws before it reaches her.
    let played = bob.sign(&["play", "game.yaml", "e5"]);
    bob.mail_to(&alice, "e5.eml");
    alice.sign(&["withdraw", "game.yaml"]);
    alice.mail_to(&bob, "withdraw.eml");
    let mut said = format!("$ correspond play game.yaml e5 (bob)\n{played}\n");
    bob.transcribe(&mut said, "bob", &["receive", "game.yaml", "withdraw.eml"]);
    alice.transcribe(&mut said, "alice", &["receive", "game.yaml", "e5.eml"]);
    let alice_key = key("alice");
    let settle = [
        "receive",
        "--settle",
        "game.yaml",
        "e5.eml",
        "--key",
        &alice_key,
    ];
    alice.transcribe(&mut said, "alice", &settle);
    alice.transcribe(&mut said, "alice", &["log", "game.yaml"]);
    insta::assert_snapshot!(crate::crossing::without_keys_dir(&said));
    assert_eq!(alice.file(), bob.file());
}

/// `git clone` of `origin` into `dir`, with a name to commit as.
fn clone(origin: &Path, dir: &Path, name: &str) {
    git(
        origin.parent().expect("a parent"),
        &[
            "clone",
            "-q",
            origin.to_str().expect("UTF-8"),
            dir.to_str().expect("UTF-8"),
        ],
    );
    git(dir, &["config", "user.name", name]);
    git(
        dir,
        &["config", "user.email", &format!("{name}@example.org")],
    );
}

#[test]
fn by_git_the_reply_is_committed_with_the_move_and_the_history_audits_clean() {
    let root = tempfile::tempdir().expect("temp dir");
    let origin = root.path().join("origin.git");
    git(
        root.path(),
        &["init", "-q", "--bare", "-b", "main", "origin.git"],
    );
    let (a, b) = (root.path().join("alice"), root.path().join("bob"));
    clone(&origin, &a, "alice");
    let at = |dir: &Path, time: &str, who: &str, args: &[&str]| {
        let (code, out, err) = transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", time)
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who)),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}: {out}");
        out
    };
    let new = new_chess("g.yaml", &[]);
    let new: Vec<&str> = new.iter().map(String::as_str).collect();
    at(&a, "2026-03-01T09:00:00Z", "alice", &new);
    git(&a, &["push", "-q", "origin", "main"]);
    clone(&origin, &b, "bob");
    at(&b, "2026-03-01T10:00:00Z", "bob", &["accept", "g.yaml"]);
    git(&b, &["push", "-q"]);
    git(&a, &["pull", "-q"]);
    at(
        &a,
        "2026-03-01T11:00:00Z",
        "alice",
        &["play", "g.yaml", "d4", "--if", "d5 c4 e6 Nc3"],
    );
    git(&a, &["push", "-q"]);
    git(&b, &["pull", "-q"]);
    let e = at(&b, "2026-03-01T12:00:00Z", "bob", &["play", "g.yaml", "d5"]);
    let f = at(&b, "2026-03-01T13:00:00Z", "bob", &["play", "g.yaml", "e6"]);
    git(&b, &["push", "-q"]);
    git(&a, &["pull", "-q"]);
    let commits = git(&a, &["log", "--format=%an: %s", "--reverse"]);
    let (code, audit, err) = transcript(correspond().current_dir(&a).args(["audit", "g.yaml"]));
    insta::assert_snapshot!(format!(
        "$ correspond play g.yaml d5 (bob)\n{e}\n$ correspond play g.yaml e6 (bob)\n{f}\n\
         $ git log --format='%an: %s' --reverse\n{commits}\n\
         $ correspond audit g.yaml\n{audit}{err}[exit {code}]\n"
    ));
}
