//! Disputes settled from git's evidence: two players with their own clones of one repository,
//! their own keys and git identities, pushing and pulling one game file; then histories that
//! break the append-only rule, which `correspond audit` must catch and name.

use crate::util::{correspond, git, keys_dir};
use std::path::PathBuf;

/// A bare repository both players push to, and each player's clone.
struct Club {
    dir: tempfile::TempDir,
    minute: std::cell::Cell<u64>,
}

impl Club {
    fn new() -> Club {
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

    fn clone(&self, who: &str) -> PathBuf {
        self.dir.path().join(who)
    }

    /// `who` runs a signing command in their clone (it commits).
    fn sign(&self, who: &str, args: &[&str]) {
        self.minute.set(self.minute.get() + 1);
        let out = correspond()
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

    fn git(&self, who: &str, args: &[&str]) -> String {
        git(&self.clone(who), args)
    }

    /// `correspond audit` in `who`'s clone: (exit code, stdout).
    fn audit(&self, who: &str, extra: &[&str]) -> (i32, String) {
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
    fn play(&self, moves: &[&str]) {
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

fn file(club: &Club, who: &str) -> String {
    std::fs::read_to_string(club.clone(who).join("game.yaml")).expect("the game file")
}

fn write(club: &Club, who: &str, text: &str) {
    std::fs::write(club.clone(who).join("game.yaml"), text).expect("write the game file");
}

/// The text up to the start of document `n` (that is, without documents `n` and after).
fn before_document(text: &str, n: usize) -> &str {
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
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "game.yaml on main: 5 commits changed it", "{out}");
    assert!(
        lines[1].contains(
            "Alice Liddell <alice@example.org>  chess: new game, alice (white) v bob (black)"
        ),
        "{out}"
    );
    assert_eq!(lines[2], "      header");
    assert!(lines[3].contains("Bob Cratchit <bob@example.org>"), "{out}");
    assert_eq!(lines[4], "      record 1: bob accept");
    assert_eq!(lines[6], "      record 2: alice e2e4");
    assert_eq!(
        lines.last(),
        Some(&"0 violations in 5 commits; at main: in progress, bob (black) to move")
    );
    let (code, json) = club.audit("alice", &["--json"]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(report["violations"], 0);
    assert_eq!(report["commits"][4]["records"][0], "alice g1f3");
    assert_eq!(report["commits"][4]["added"], serde_json::json!([4, 5]));
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
    let e4 = club.git("alice", &["log", "--format=%H", "-1", "--grep", "e2e4"]);
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
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not in a git repository"), "{err}");
    git(dir.path(), &["init", "-q"]);
    let out = correspond()
        .current_dir(dir.path())
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no commits yet"));
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
            "VIOLATION: refs/heads/main was moved from {} to {}, not a fast-forward (reflog: reset: moving to HEAD~1): the file there drops record 4",
            &nf3[..10],
            &e5[..10]
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
            "VIOLATION: the merge drops record 4 (line 40) of its other parent {}: a merge must keep both sides' records",
            &side[..10]
        )),
        "{out}"
    );
}

/// Runs correspond in `who`'s clone: (exit code, stdout, stderr).
fn run(club: &Club, who: &str, args: &[&str]) -> (i32, String, String) {
    let out = correspond()
        .current_dir(club.clone(who))
        .args(args)
        .output()
        .expect("run correspond");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn equivocation_is_proved_and_the_proof_checks_with_openssh() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    // alice's second laptop holds a copy from before her third move; she moves on both.
    let laptop = club.dir.path().join("laptop.yaml");
    std::fs::copy(club.clone("alice").join("game.yaml"), &laptop).expect("copy");
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.sign(
        "alice",
        &["play", laptop.to_str().expect("UTF-8"), "d4", "--no-commit"],
    );
    let (code, out, err) = run(&club, "alice", &["compare", "game.yaml", "../laptop.yaml"]);
    assert_eq!(code, 1, "{err}");
    let text = file(&club, "alice");
    let at = text.match_indices("\n---\n").nth(4).expect("record 4").0 + 1;
    let line = 1 + text[..at].matches('\n').count();
    assert_eq!(
        out,
        format!(
            "EQUIVOCATION: alice signed two different records numbered 4: move g1f3 in game.yaml \
             (line {line}), move d2d4 in ../laptop.yaml (line {line})\n\
             proof written to game.equivocation-4.yaml: check it with `correspond check-proof \
             game.equivocation-4.yaml`, or with OpenSSH alone (see the README)\n"
        )
    );
    let (code, out, _) = run(&club, "alice", &["check-proof", "game.equivocation-4.yaml"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("valid proof: in game ")
            && out.ends_with(
                "alice signed two different records numbered 4: move g1f3 and move d2d4\n"
            ),
        "{out}"
    );
    // An arbiter with OpenSSH alone: both records verify as alice's.
    let dir = club.clone("alice");
    let (_, signers, _) = run(
        &club,
        "alice",
        &[
            "extract",
            "game.equivocation-4.yaml",
            "0",
            "--allowed-signers",
        ],
    );
    std::fs::write(dir.join("allowed"), signers).expect("write");
    for document in ["4", "5"] {
        let (_, bytes, _) = run(
            &club,
            "alice",
            &[
                "extract",
                "game.equivocation-4.yaml",
                document,
                "--signed-bytes",
            ],
        );
        let (_, sig, _) = run(
            &club,
            "alice",
            &[
                "extract",
                "game.equivocation-4.yaml",
                document,
                "--signature",
            ],
        );
        assert!(bytes.starts_with("---\nseq: 4\n"), "{bytes}");
        std::fs::write(dir.join("bytes"), &bytes).expect("write");
        std::fs::write(dir.join("sig"), sig).expect("write");
        let out = std::process::Command::new("ssh-keygen")
            .current_dir(&dir)
            .args([
                "-Y",
                "verify",
                "-f",
                "allowed",
                "-I",
                "alice",
                "-n",
                "correspond",
                "-s",
                "sig",
            ])
            .stdin(std::fs::File::open(dir.join("bytes")).expect("bytes"))
            .output()
            .expect("ssh-keygen");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // No proof is written over an existing file.
    let (code, _, err) = run(&club, "alice", &["compare", "game.yaml", "../laptop.yaml"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn two_players_appending_at_once_is_a_race_not_equivocation() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    club.sign("bob", &["resign", "game.yaml"]);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["fetch", "-q"]);
    let theirs = club.git("bob", &["show", "origin/main:game.yaml"]);
    std::fs::write(club.clone("bob").join("theirs.yaml"), theirs).expect("write");
    let (code, out, _) = run(&club, "bob", &["compare", "game.yaml", "theirs.yaml"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "game.yaml and theirs.yaml fork at record 4: bob signed resign in game.yaml"
        ),
        "{out}"
    );
    assert!(
        out.contains("alice signed move g1f3 in theirs.yaml"),
        "{out}"
    );
    assert!(!club.clone("bob").join("game.equivocation-4.yaml").exists());
    // Without bob's resignation, his copy is behind theirs, and nothing is in dispute.
    club.git("bob", &["reset", "-q", "--hard", "HEAD~1"]);
    let (code, out, _) = run(&club, "bob", &["compare", "game.yaml", "theirs.yaml"]);
    assert_eq!(code, 0, "{out}");
}

/// Runs git in `who`'s clone, which may fail: (success, stdout and stderr).
fn try_git(club: &Club, who: &str, args: &[&str]) -> (bool, String) {
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

/// alice sets up the merge driver and commits `.gitattributes`; bob pulls it and sets up his
/// clone.
fn setup(club: &Club) {
    let (code, out, err) = run(club, "alice", &["setup-git"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("added `*.yaml merge=correspond` to .gitattributes"),
        "{out}"
    );
    club.git("alice", &["add", ".gitattributes"]);
    club.git(
        "alice",
        &["commit", "-q", "-m", "merge game files with correspond"],
    );
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["pull", "-q"]);
    let (code, out, err) = run(club, "bob", &["setup-git"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(".gitattributes already has `*.yaml merge=correspond`"),
        "{out}"
    );
}

#[test]
fn the_merge_driver_takes_the_longer_game_and_refuses_a_fork() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    assert_eq!(
        std::fs::read_to_string(club.clone("bob").join(".gitattributes")).expect("attributes"),
        "*.yaml merge=correspond\n"
    );
    // alice plays Nf3 and pushes; bob had it by mail, committed it, and answered Nc6.
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    std::fs::copy(
        club.clone("alice").join("game.yaml"),
        club.clone("bob").join("game.yaml"),
    )
    .expect("the mailed copy");
    club.git("bob", &["commit", "-q", "-am", "alice's Nf3, by mail"]);
    club.sign("bob", &["play", "game.yaml", "Nc6"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    assert!(
        out.contains("game.yaml: ours extends theirs; keeping ours"),
        "{out}"
    );
    assert!(file(&club, "bob").contains("move: b8c6"));
    let (code, audit) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{audit}");
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q", "--no-rebase"]);
    // Now both append record 6 at once: alice's Bb5 reaches the branch first; bob resigned.
    club.sign("alice", &["play", "game.yaml", "Bb5"]);
    club.git("alice", &["push", "-q"]);
    club.sign("bob", &["resign", "game.yaml"]);
    let before = file(&club, "bob");
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    assert!(
        out.contains(
            "game.yaml: both sides appended record 6: alice signed move f1b5 as record 6 while \
             bob signed resign here: theirs is already shared, so take it"
        ),
        "{out}"
    );
    assert_eq!(
        file(&club, "bob"),
        before,
        "bob's version is left as it was"
    );
    let (code, verified, _) = run(&club, "bob", &["verify", "game.yaml"]);
    assert_eq!(code, 0, "{verified}");
}

#[test]
fn the_merge_driver_proves_equivocation() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    // alice, on two machines, signs two different third moves; one reaches the branch.
    std::fs::copy(
        club.clone("alice").join("game.yaml"),
        club.clone("bob").join("game.yaml"),
    )
    .expect("alice's second machine");
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    let other = club.clone("bob").join("game.yaml");
    let out = correspond()
        .current_dir(club.clone("bob"))
        .env("CORRESPOND_TIME", "2026-03-01T11:00:00Z")
        .args([
            "play",
            other.to_str().expect("UTF-8"),
            "d4",
            "--no-commit",
            "--key",
        ])
        .arg(keys_dir().join("alice"))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    club.git("bob", &["commit", "-q", "-am", "alice's d4"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    assert!(
        out.contains(
            "game.yaml: both sides claim record 4, and alice signed both (move d2d4 here, move \
             g1f3 in theirs): that is equivocation; the proof is in game.equivocation-4.yaml"
        ),
        "{out}"
    );
    let (code, checked, _) = run(&club, "bob", &["check-proof", "game.equivocation-4.yaml"]);
    assert_eq!(code, 0, "{checked}");
}

#[test]
fn the_merge_driver_takes_theirs_when_it_extends_ours_and_never_writes_a_bad_file() {
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    let dir = club.clone("alice");
    let full = file(&club, "alice");
    let short = before_document(&full, 4).to_owned();
    std::fs::write(dir.join("base"), before_document(&full, 3)).expect("write");
    std::fs::write(dir.join("ours"), &short).expect("write");
    std::fs::write(dir.join("theirs"), &full).expect("write");
    let (code, out, err) = run(
        &club,
        "alice",
        &["merge-driver", "base", "ours", "theirs", "game.yaml"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "game.yaml: theirs extends ours by record 4; taking theirs\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ours")).expect("read"),
        full
    );
    // Theirs longer but forged: nothing is written.
    std::fs::write(dir.join("ours"), &short).expect("write");
    std::fs::write(dir.join("theirs"), full.replace("move: g1f3", "move: g1h3")).expect("write");
    let (code, _, err) = run(
        &club,
        "alice",
        &["merge-driver", "base", "ours", "theirs", "game.yaml"],
    );
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: game.yaml: their version does not verify: record 4"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ours")).expect("read"),
        short
    );
}
