//! Disputes settled from git's evidence: two players with their own clones of one repository,
//! their own keys and git identities, pushing and pulling one game file; then histories that
//! break the append-only rule, which `correspond audit` must catch and name.

use crate::util::{correspond, git, keys_dir};
use std::path::PathBuf;

/// A bare repository both players push to, and each player's clone.
pub(crate) struct Club {
    pub(crate) dir: tempfile::TempDir,
    minute: std::cell::Cell<u64>,
}

impl Club {
    pub(crate) fn new() -> Club {
        let dir = tempfile::tempdir().expect("temp dir");
        git(
            dir.path(),
            &["init", "-q", "--bare", "-b", "main", "origin.git"],
        );
        for (who, name) in [("alice", "Alice Liddell"), ("bob", "Bob Cratchit")] {
            git(dir.path(), &["clone", "-q", "origin.git", who]);
            let clone = dir.path().join(who);
            git(&clone, &["config", "user.name", name]);
            git(
                &clone,
                &["config", "user.email", &format!("{who}@example.org")],
            );
            git(&clone, &["checkout", "-q", "-b", "main"]);
        }
        Club {
            dir,
            minute: std::cell::Cell::new(0),
        }
    }

    pub(crate) fn clone(&self, who: &str) -> PathBuf {
        self.dir.path().join(who)
    }

    /// `who` runs a signing command in their clone (it commits), with the club's signing
    /// journal: each club's own, since a test may start a second club whose game has the same
    /// header (the salt is pinned), which to one journal would be the same game.
    pub(crate) fn sign(&self, who: &str, args: &[&str]) {
        self.sign_with(who, args, &self.dir.path().join("journal"));
    }

    /// `who` signs on another machine, with a signing journal of its own: a second laptop, or
    /// a cheat who threw the journal away. (The same machine refuses to sign twice at a place.)
    pub(crate) fn sign_elsewhere(&self, who: &str, args: &[&str]) {
        self.sign_with(who, args, &self.dir.path().join(format!("{who}-elsewhere")));
    }

    fn sign_with(&self, who: &str, args: &[&str], journal: &std::path::Path) {
        self.minute.set(self.minute.get() + 1);
        let out = correspond()
            .env("CORRESPOND_JOURNAL", journal)
            .current_dir(self.clone(who))
            .env(
                "CORRESPOND_TIME",
                format!("2026-03-01T10:{:02}:00Z", self.minute.get()),
            )
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{who} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub(crate) fn git(&self, who: &str, args: &[&str]) -> String {
        git(&self.clone(who), args)
    }

    /// `correspond audit` in `who`'s clone: (exit code, stdout).
    pub(crate) fn audit(&self, who: &str, extra: &[&str]) -> (i32, String) {
        let out = correspond()
            .current_dir(self.clone(who))
            .args(["audit", "game.yaml"])
            .args(extra)
            .output()
            .expect("run correspond");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    }

    /// alice creates a chess game (she plays White) and bob accepts; then the moves, each
    /// player pulling before and pushing after.
    pub(crate) fn play(&self, moves: &[&str]) {
        if !self.clone("alice").join("game.yaml").exists() {
            let bob_pub = keys_dir().join("bob.pub");
            self.sign(
                "alice",
                &[
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
                ],
            );
            self.git("alice", &["push", "-q", "-u", "origin", "main"]);
            self.git("bob", &["pull", "-q", "origin", "main"]);
            self.git("bob", &["branch", "-q", "--set-upstream-to", "origin/main"]);
            self.sign("bob", &["accept", "game.yaml"]);
            self.git("bob", &["push", "-q"]);
        }
        let mut who = self.to_move();
        for mv in moves {
            self.git(who, &["pull", "-q"]);
            self.sign(who, &["play", "game.yaml", mv]);
            self.git(who, &["push", "-q"]);
            who = if who == "alice" { "bob" } else { "alice" };
        }
        self.git("alice", &["pull", "-q"]);
        self.git("bob", &["pull", "-q"]);
    }

    fn to_move(&self) -> &'static str {
        let text =
            std::fs::read_to_string(self.clone("alice").join("game.yaml")).unwrap_or_default();
        let moves = text.matches("kind: move").count();
        if moves.is_multiple_of(2) {
            "alice"
        } else {
            "bob"
        }
    }
}

pub(crate) fn file(club: &Club, who: &str) -> String {
    std::fs::read_to_string(club.clone(who).join("game.yaml")).expect("the game file")
}

pub(crate) fn write(club: &Club, who: &str, text: &str) {
    std::fs::write(club.clone(who).join("game.yaml"), text).expect("write the game file");
}

/// The text up to the start of document `n` (that is, without documents `n` and after).
pub(crate) fn before_document(text: &str, n: usize) -> &str {
    let at = text
        .match_indices("\n---\n")
        .nth(n)
        .map_or(text.len(), |(at, _)| at + 1);
    &text[..at]
}

#[test]
fn an_honest_history_audits_clean_commit_by_commit() {
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    // The whole report: with the time pinned, the commits correspond makes are the same on
    // every run, ids included.
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "game.yaml on main: 5 commits changed it
   1  aacc96417b  2026-03-01 10:01:00 +0000  Alice Liddell <alice@example.org>  game.yaml: chess, new game, alice (white) v bob (black)
      header
   2  ac513712dd  2026-03-01 10:02:00 +0000  Bob Cratchit <bob@example.org>  game.yaml: chess, black accepts the game (record 1)
      record 1: bob accept
   3  0f7fb9fd26  2026-03-01 10:03:00 +0000  Alice Liddell <alice@example.org>  game.yaml: chess, white plays e4 (record 2)
      record 2: alice e2e4
   4  c8bfcc34bf  2026-03-01 10:04:00 +0000  Bob Cratchit <bob@example.org>  game.yaml: chess, black plays e5 (record 3)
      record 3: bob e7e5
   5  ed9391ccac  2026-03-01 10:05:00 +0000  Alice Liddell <alice@example.org>  game.yaml: chess, white plays Nf3 (record 4)
      record 4: alice g1f3
0 violations in 5 commits; at main: in progress, bob (black) to move
"
        )
    );
    let (code, json) = club.audit("alice", &["--json"]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(report["violations"], 0);
    assert_eq!(report["commits"][4]["records"][0], "alice g1f3");
    assert_eq!(report["commits"][4]["added"], serde_json::json!([4, 5]));
    // Times are RFC 3339 in the author's zone, as git's own strict ISO format writes them.
    let git_times = club.git(
        "alice",
        &["log", "--reverse", "--format=%aI", "--", "game.yaml"],
    );
    let times: Vec<&str> = report["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| c["time"].as_str().expect("a time"))
        .collect();
    assert_eq!(times, git_times.lines().collect::<Vec<_>>());
}

#[test]
fn a_move_taken_back_and_a_rewritten_record_are_caught() {
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    // bob takes back alice's Nf3 in a commit of his own.
    let text = file(&club, "bob");
    write(&club, "bob", before_document(&text, 4));
    club.git("bob", &["commit", "-q", "-am", "tidy up"]);
    let nf3 = club.git("bob", &["log", "-1", "--format=%H", "HEAD~1"]);
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "      VIOLATION: removes record 4 and what follows, written in commit {}: a commit may only append records",
            &nf3[..10]
        )),
        "{out}"
    );
    assert!(
        out.ends_with("1 violation in 6 commits; at main: in progress, alice (white) to move\n"),
        "{out}"
    );
    // alice turns her e4 into d4 in place.
    let text = file(&club, "alice");
    let forged = text.replacen("move: e2e4", "move: d2d4", 1);
    write(&club, "alice", &forged);
    club.git("alice", &["commit", "-q", "-am", "fix typo"]);
    let e4 = club.git("alice", &["log", "--format=%H", "-1", "--grep", "plays e4"]);
    let line = 1 + text[..text.find("move: e2e4").expect("e4")]
        .matches('\n')
        .count();
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "      VIOLATION: rewrites record 2 (line {line}), written in commit {}: a commit may only append records",
            &e4[..10]
        )),
        "{out}"
    );
    assert!(
        out.contains("at main: the last version does not verify"),
        "{out}"
    );
}

#[test]
fn audit_needs_a_repository_and_a_history() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = correspond()
        .current_dir(dir.path())
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    let hint = "hint: audit reads the file's history from the git repository that holds it\n";
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr)),
        (
            Some(2),
            format!("error: game.yaml is not in a git repository\n{hint}").into()
        )
    );
    git(dir.path(), &["init", "-q"]);
    let out = correspond()
        .current_dir(dir.path())
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr)),
        (
            Some(2),
            format!("error: game.yaml: the repository has no commits yet\n{hint}").into()
        )
    );
}

#[test]
fn a_force_push_that_drops_a_move_is_caught_where_it_was_seen() {
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    let nf3 = club.git("bob", &["rev-parse", "HEAD"]);
    // bob takes alice's Nf3 off the shared branch by rewriting history.
    club.git("bob", &["reset", "-q", "--hard", "HEAD~1"]);
    club.git("bob", &["push", "-q", "--force"]);
    let e5 = club.git("bob", &["rev-parse", "HEAD"]);
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "VIOLATION: refs/heads/main was moved from {} to {}, not a fast-forward (reflog: reset: moving to HEAD~1): the move drops record 4 (line 41), which commit {} wrote",
            &nf3[..10],
            &e5[..10],
            &nf3[..10]
        )),
        "{out}"
    );
    // alice's clone sees it when it fetches.
    club.git("alice", &["fetch", "-q"]);
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION: refs/remotes/origin/main was moved from"),
        "{out}"
    );
    let (_, json) = club.audit("alice", &["--json"]);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        report["rewinds"][0]["reference"],
        "refs/remotes/origin/main"
    );
}

#[test]
fn a_merge_that_drops_the_other_sides_records_is_caught() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    club.git("alice", &["checkout", "-q", "-b", "side"]);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    let side = club.git("alice", &["rev-parse", "HEAD"]);
    club.git("alice", &["checkout", "-q", "main"]);
    club.git(
        "alice",
        &["merge", "-q", "-s", "ours", "side", "-m", "merge side"],
    );
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "VIOLATION: the merge drops record 4 (line 41) of its other parent {}: a merge must keep both sides' records",
            &side[..10]
        )),
        "{out}"
    );
}

/// Runs correspond in `who`'s clone: (exit code, stdout, stderr).
pub(crate) fn run(club: &Club, who: &str, args: &[&str]) -> (i32, String, String) {
    crate::util::transcript(correspond().current_dir(club.clone(who)).args(args))
}

/// Runs git in `who`'s clone, which may fail: (success, stdout and stderr).
pub(crate) fn try_git(club: &Club, who: &str, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new("git")
        .current_dir(club.clone(who))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(args)
        .output()
        .expect("run git");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// A line of advice run as written, by `sh`, in `who`'s clone: (success, stdout and stderr).
pub(crate) fn try_sh(club: &Club, who: &str, line: &str) -> (bool, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(club.clone(who))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_EDITOR", "true")
        .output()
        .expect("run sh");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn rewrites_off_the_main_line_on_a_detached_head_or_uncommitted_are_caught() {
    // A take-back on a side branch, merged in: the merge itself keeps both sides' records.
    let club = Club::new();
    club.play(&[]);
    std::fs::write(club.clone("bob").join("notes.txt"), "e4 expected\n").expect("write");
    club.git("bob", &["add", "notes.txt"]);
    club.git("bob", &["commit", "-q", "-m", "notes"]);
    club.sign("alice", &["play", "game.yaml", "e4"]);
    let e4 = club.git("alice", &["rev-parse", "HEAD"]);
    write(&club, "alice", before_document(&file(&club, "alice"), 2));
    club.git("alice", &["commit", "-q", "-am", "take back"]);
    let take_back = club.git("alice", &["rev-parse", "HEAD"]);
    club.sign_elsewhere("alice", &["play", "game.yaml", "d4"]);
    club.git("alice", &["push", "-q"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "VIOLATION: commit {}, merged in from a side branch, drops record 2 (line 25), which \
             commit {} wrote: a commit may only append records",
            &take_back[..10],
            &e4[..10]
        )),
        "{out}"
    );
    // A half-written record committed on a side branch, then completed, merged in.
    let club = Club::new();
    club.play(&[]);
    std::fs::write(club.clone("bob").join("notes.txt"), "e4 expected\n").expect("write");
    club.git("bob", &["add", "notes.txt"]);
    club.git("bob", &["commit", "-q", "-m", "notes"]);
    club.sign("alice", &["play", "game.yaml", "e4", "--no-commit"]);
    let whole = file(&club, "alice");
    write(&club, "alice", &whole[..whole.len() - 30]);
    club.git("alice", &["commit", "-q", "-am", "half"]);
    let half = club.git("alice", &["rev-parse", "HEAD"]);
    write(&club, "alice", &whole);
    club.git("alice", &["commit", "-q", "-am", "the rest"]);
    club.git("alice", &["push", "-q"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "VIOLATION: commit {}, merged in from a side branch, does not verify: record 2",
            &half[..10]
        )),
        "{out}"
    );
    // A reset on a detached HEAD.
    let club = Club::new();
    club.play(&["e4", "e5"]);
    club.git("alice", &["checkout", "-q", "--detach"]);
    club.git("alice", &["reset", "-q", "--hard", "HEAD~1"]);
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION: HEAD was moved from")
            && out.contains("(reflog: reset: moving to HEAD~1): the move drops record 3"),
        "{out}"
    );
    // An uncommitted change in the working copy.
    let club = Club::new();
    club.play(&["e4"]);
    let text = file(&club, "alice");
    write(
        &club,
        "alice",
        &text.replacen("move: e2e4", "move: d2d4", 1),
    );
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION: the working copy, not committed, changes record 2"),
        "{out}"
    );
    // The branch moved to a commit without the game: no commit on it holds the file now.
    club.git("alice", &["checkout", "-q", "--", "game.yaml"]);
    club.git("alice", &["checkout", "-q", "--orphan", "fresh"]);
    club.git("alice", &["rm", "-rqf", "."]);
    club.git(
        "alice",
        &["commit", "-q", "--allow-empty", "-m", "a fresh start"],
    );
    club.git("alice", &["branch", "-q", "-f", "main", "fresh"]);
    club.git("alice", &["checkout", "-q", "main"]);
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the move deletes the game file"), "{out}");
    assert!(out.ends_with("at main: the file is not there\n"), "{out}");
}
