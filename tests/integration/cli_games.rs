//! Whole games through the binary, with keys made by `ssh-keygen` and a real git repository;
//! OpenSSH as the independent peer for signatures; concurrent writers; tampering.

use crate::util::{correspond, git, keygen};
use correspond::log::{Action, GameFile, Record, Timestamp, record_unsigned};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A temporary git repository with two players' keys kept outside it.
pub(crate) struct Table {
    _dir: tempfile::TempDir,
    pub(crate) repo: PathBuf,
    pub(crate) keys: PathBuf,
}

impl Table {
    pub(crate) fn new() -> Table {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("repo");
        let keys = dir.path().join("keys");
        std::fs::create_dir_all(&repo).expect("repo dir");
        std::fs::create_dir_all(&keys).expect("keys dir");
        git(&repo, &["init", "-q", "-b", "main"]);
        git(&repo, &["config", "user.name", "Referee"]);
        git(&repo, &["config", "user.email", "referee@example.invalid"]);
        keygen(&keys, "alice");
        keygen(&keys, "bob");
        Table {
            _dir: dir,
            repo,
            keys,
        }
    }

    pub(crate) fn key(&self, who: &str) -> PathBuf {
        self.keys.join(who)
    }

    /// Runs correspond in the repository as `who`; returns (exit code, stdout, stderr).
    pub(crate) fn run(&self, who: &str, args: &[&str]) -> (i32, String, String) {
        crate::util::transcript(
            correspond()
                .current_dir(&self.repo)
                .env("HOME", &self.keys)
                .args(args)
                .arg("--key")
                .arg(self.key(who)),
        )
    }

    /// Runs a command that reads the file only (no key).
    pub(crate) fn read(&self, args: &[&str]) -> (i32, String, String) {
        crate::util::transcript(correspond().current_dir(&self.repo).args(args))
    }

    pub(crate) fn read_ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.read(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    }

    pub(crate) fn ok(&self, who: &str, args: &[&str]) -> String {
        let (code, out, err) = self.run(who, args);
        assert_eq!(code, 0, "{who} {args:?}: {err}");
        out
    }

    /// Creates a game and settles the toss so that alice (Heads) moves first.
    pub(crate) fn start(&self) {
        let bob_pub = self.keys.join("bob.pub");
        let bob_pub = bob_pub.to_str().expect("UTF-8");
        self.ok(
            "alice",
            &[
                "new",
                "campaign",
                "game.yaml",
                "--name",
                "alice",
                "--side",
                "heads",
                "--opponent",
                "bob",
                "--opponent-key",
                bob_pub,
                "--variant",
                "spin-doctoring",
            ],
        );
        self.ok("bob", &["accept", "game.yaml"]);
        let toss = self.ok("alice", &["reveal", "game.yaml"]);
        if toss.contains("bob (tails) wins the toss") {
            self.ok("bob", &["play", "game.yaml", "--defer"]);
        }
    }

    pub(crate) fn file(&self) -> Vec<u8> {
        std::fs::read(self.repo.join("game.yaml")).expect("the game file")
    }
}

const MOVES: &str = "c2c3 e6e5 c3c4 a6a5 b1e4 d7e6 c1c2 d6d5";

#[test]
fn a_game_played_in_git_is_committed_record_by_record_and_verifies_with_openssh() {
    let t = Table::new();
    t.start();
    for (i, mv) in MOVES.split(' ').enumerate() {
        let out = t.ok(
            if i % 2 == 0 { "alice" } else { "bob" },
            &["play", "game.yaml", mv],
        );
        assert!(
            out.contains(&format!(
                ": game.yaml: campaign, {} plays {mv} (record ",
                if i % 2 == 0 { "heads" } else { "tails" }
            )),
            "{out}"
        );
    }
    t.ok("bob", &["resign", "game.yaml"]);
    let status = t.read_ok(&["status", "game.yaml"]);
    assert!(
        status.contains("result: heads wins: bob (tails) resigned"),
        "{status}"
    );

    // One commit per document, each touching the game file only, and a clean work tree.
    let file = GameFile::parse(&t.file()).expect("well-formed");
    let log = git(&t.repo, &["log", "--format=%s"]);
    assert_eq!(log.lines().count(), file.documents(), "{log}");
    assert!(
        log.starts_with("game.yaml: campaign, tails resigns (record "),
        "{log}"
    );
    assert!(
        log.trim_end()
            .ends_with("game.yaml: campaign, new game, alice (heads) v bob (tails)"),
        "{log}"
    );
    assert_eq!(git(&t.repo, &["status", "--porcelain"]), "");

    // Every document, header included, checked by OpenSSH alone.
    let signers = t.repo.join("signers");
    let audit = |args: &[&str], to: &Path| {
        let out = correspond()
            .current_dir(&t.repo)
            .args(args)
            .output()
            .expect("extract");
        assert!(out.status.success(), "{args:?}");
        std::fs::write(to, out.stdout).expect("write");
    };
    audit(
        &["extract", "game.yaml", "0", "--allowed-signers"],
        &signers,
    );
    for i in 0..file.documents() {
        let n = i.to_string();
        let (bytes, sig) = (t.repo.join("doc.bytes"), t.repo.join("doc.sig"));
        audit(&["extract", "game.yaml", &n, "--signed-bytes"], &bytes);
        audit(&["extract", "game.yaml", &n, "--signature"], &sig);
        let signer = if i == 0 {
            "alice".to_owned()
        } else {
            file.records()[i - 1].signer.clone()
        };
        let out = Command::new("ssh-keygen")
            .args(["-Y", "verify", "-f"])
            .arg(&signers)
            .args(["-I", &signer, "-n", "correspond", "-s"])
            .arg(&sig)
            .stdin(std::fs::File::open(&bytes).expect("bytes"))
            .output()
            .expect("ssh-keygen");
        assert!(
            out.status.success(),
            "document {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout)
                .starts_with(&format!("Good \"correspond\" signature for {signer}"))
        );
        // The wrong principal is refused: the allowed_signers file ties each key to its player.
        let other = if signer == "alice" { "bob" } else { "alice" };
        let out = Command::new("ssh-keygen")
            .args(["-Y", "verify", "-f"])
            .arg(&signers)
            .args(["-I", other, "-n", "correspond", "-s"])
            .arg(&sig)
            .stdin(std::fs::File::open(&bytes).expect("bytes"))
            .output()
            .expect("ssh-keygen");
        assert!(!out.status.success(), "document {i} verified for {other}");
    }
}

#[test]
fn a_record_signed_by_ssh_keygen_verifies_in_correspond() {
    let t = Table::new();
    t.start();
    let bytes = t.file();
    let file = GameFile::parse(&bytes).expect("well-formed");
    let record = Record {
        seq: file.documents() as u64,
        prev: file.digest(file.documents() - 1),
        signer: "alice".into(),
        action: Action::Move("c2c3".into()),
        time: Timestamp::parse("2026-01-02T03:04:05Z").expect("time"),
        comment: None,
    };
    let unsigned = record_unsigned(&record);
    let message = t.repo.join("record.bytes");
    std::fs::write(&message, &unsigned).expect("write");
    let out = Command::new("ssh-keygen")
        .args(["-Y", "sign", "-n", "correspond", "-f"])
        .arg(t.key("alice"))
        .arg(&message)
        .output()
        .expect("ssh-keygen");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let armored = std::fs::read_to_string(t.repo.join("record.bytes.sig")).expect("signature");
    let base64: String = armored
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    let grown = [
        bytes,
        format!("{unsigned}signature: {base64}\n").into_bytes(),
    ]
    .concat();
    let summary = correspond::games::verify(&grown).expect("OpenSSH's signature verifies");
    assert_eq!(summary.records, file.documents());
    assert!(
        summary.status.contains("bob (tails) to move"),
        "{}",
        summary.status
    );
    // OpenSSH can also hash with SHA-256; a game file has one spelling of each signature.
    std::fs::remove_file(t.repo.join("record.bytes.sig")).expect("remove");
    let out = Command::new("ssh-keygen")
        .args([
            "-Y",
            "sign",
            "-n",
            "correspond",
            "-O",
            "hashalg=sha256",
            "-f",
        ])
        .arg(t.key("alice"))
        .arg(&message)
        .output()
        .expect("ssh-keygen");
    assert!(out.status.success());
    let armored = std::fs::read_to_string(t.repo.join("record.bytes.sig")).expect("signature");
    let sha256: String = armored
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    let bytes = t.file();
    let lines = bytes.iter().filter(|b| **b == b'\n').count();
    let grown = [
        bytes,
        format!("{unsigned}signature: {sha256}\n").into_bytes(),
    ]
    .concat();
    let err = correspond::games::verify(&grown).expect_err("a SHA-256 signature");
    assert_eq!(
        err.to_string(),
        format!(
            "record {} (line {}): bad signature: the signature hashes the document with sha256; \
             a correspond signature has one spelling: SHA-512, namespace `correspond`, no \
             reserved data",
            file.documents(),
            lines + 1
        )
    );
}

#[test]
fn flipping_any_byte_of_a_valid_file_makes_it_fail() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/resignation.yaml");
    let bytes = std::fs::read(path).expect("read");
    correspond::games::verify(&bytes).expect("the original verifies");
    for i in 0..bytes.len() {
        let mut changed = bytes.clone();
        changed[i] ^= if changed[i] == b'\n' { 0x20 } else { 0x01 };
        assert!(
            correspond::games::verify(&changed).is_err(),
            "byte {i} ({:?}) changed, still valid",
            bytes[i] as char
        );
    }
}

#[test]
fn concurrent_plays_never_corrupt_the_file() {
    let t = Table::new();
    t.start();
    // alice is to move. Two moves by alice at once: exactly one is written.
    let spawn = |who: &str, mv: &str| {
        correspond_process(&t, who, &["play", "game.yaml", mv, "--no-commit"])
    };
    for round in 0..3 {
        let before = GameFile::parse(&t.file()).expect("valid").documents();
        let (a, b) = (
            spawn("alice", ["a2a3", "b2b3", "c2c3"][round]),
            spawn("alice", ["e2e3", "d2d3", "c2c3"][round]),
        );
        let (a, b) = (
            a.wait_with_output().expect("wait"),
            b.wait_with_output().expect("wait"),
        );
        assert!(
            a.status.success() != b.status.success(),
            "exactly one of two moves by alice lands"
        );
        let loser = if a.status.success() { &b } else { &a };
        assert_eq!(
            loser.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&loser.stderr)
        );
        assert!(
            String::from_utf8_lossy(&loser.stderr).contains("not your turn"),
            "{}",
            String::from_utf8_lossy(&loser.stderr)
        );
        let after = correspond::games::verify(&t.file()).expect("still valid");
        assert_eq!(after.records + 1, before + 1);
        t.ok(
            "bob",
            &[
                "play",
                "game.yaml",
                ["a6a5", "b6b5", "d6d5"][round],
                "--no-commit",
            ],
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&t.repo)
        .expect("list")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("correspond-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
}

fn correspond_process(t: &Table, who: &str, args: &[&str]) -> std::process::Child {
    let bin = assert_cmd::cargo::cargo_bin("correspond");
    Command::new(bin)
        .current_dir(&t.repo)
        .env_remove("SSH_AUTH_SOCK")
        .env("CORRESPOND_JOURNAL", crate::util::journal_dir())
        .args(args)
        .arg("--key")
        .arg(t.key(who))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn")
}

#[test]
fn without_a_git_identity_nothing_is_written() {
    let t = Table::new();
    t.start();
    git(&t.repo, &["config", "--unset", "user.name"]);
    git(&t.repo, &["config", "--unset", "user.email"]);
    let before = t.file();
    let out = correspond()
        .current_dir(&t.repo)
        .env("HOME", &t.keys)
        .env("GIT_CONFIG_GLOBAL", t.keys.join("no-such-config"))
        .args(["play", "game.yaml", "c2c3", "--key"])
        .arg(t.key("alice"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("git does not know who you are"));
    assert_eq!(t.file(), before);
    t.ok("alice", &["play", "game.yaml", "c2c3", "--no-commit"]);
    assert!(
        git(&t.repo, &["status", "--porcelain"]).contains("game.yaml"),
        "written, not committed"
    );
}

#[test]
fn a_stale_git_lock_is_reported_and_nothing_is_written() {
    let t = Table::new();
    t.start();
    let head = git(&t.repo, &["rev-parse", "HEAD"]);
    let branch = git(&t.repo, &["symbolic-ref", "HEAD"]);
    // Each lock a commit takes, left by a git command that was killed: the index, HEAD, and
    // the branch (a kill during a commit leaves that one).
    for lock in [
        ".git/index.lock".to_owned(),
        ".git/HEAD.lock".to_owned(),
        format!(".git/{}.lock", branch.trim()),
    ] {
        std::fs::write(t.repo.join(&lock), "").expect("a stale lock");
        let before = t.file();
        let (code, out, err) = t.run("alice", &["play", "game.yaml", "c2c3"]);
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (
                2,
                "",
                format!(
                    "error: git's lock {lock} exists: another git command is running, or one \
                     was killed and left it; nothing was written\n\
                     hint: wait for the other git command to finish, or remove the lock file if \
                     none is running\n"
                )
                .as_str()
            )
        );
        assert_eq!(t.file(), before);
        assert_eq!(git(&t.repo, &["rev-parse", "HEAD"]), head, "no commit made");
        std::fs::remove_file(t.repo.join(&lock)).expect("unlock");
    }
    t.ok("alice", &["play", "game.yaml", "c2c3"]);
    assert_eq!(git(&t.repo, &["status", "--porcelain"]), "");
    let (code, out, err) = t.read(&["audit", "game.yaml"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_game_file_git_ignores_is_not_committed() {
    let t = Table::new();
    std::fs::write(t.repo.join(".gitignore"), "game.yaml\n").expect("ignore the game");
    git(&t.repo, &["add", ".gitignore"]);
    git(&t.repo, &["commit", "-q", "-m", "ignore"]);
    t.start();
    assert_eq!(git(&t.repo, &["log", "--format=%s"]), "ignore\n");
    assert_eq!(git(&t.repo, &["status", "--porcelain"]), "");
    // Once tracked (added by force), it is committed like any other game file.
    git(&t.repo, &["add", "-f", "game.yaml"]);
    git(&t.repo, &["commit", "-q", "-m", "the game"]);
    t.ok("alice", &["play", "game.yaml", "c2c3"]);
    assert_eq!(git(&t.repo, &["status", "--porcelain"]), "");
}

#[test]
fn a_game_file_reached_through_a_symbolic_link_is_committed_where_it_lives() {
    let t = Table::new();
    t.start();
    std::fs::create_dir(t.repo.join("games")).expect("a folder");
    git(&t.repo, &["mv", "game.yaml", "games/game.yaml"]);
    git(&t.repo, &["commit", "-q", "-m", "move"]);
    std::os::unix::fs::symlink("games/game.yaml", t.repo.join("game.yaml")).expect("link");
    git(&t.repo, &["add", "game.yaml"]);
    git(&t.repo, &["commit", "-q", "-m", "link"]);
    t.ok("alice", &["play", "game.yaml", "c2c3"]);
    assert_eq!(git(&t.repo, &["status", "--porcelain"]), "");
    let changed = git(&t.repo, &["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(changed, "games/game.yaml\n");
}

#[test]
fn status_show_and_log_describe_the_game() {
    let t = Table::new();
    t.start();
    t.ok("alice", &["play", "game.yaml", "c2c3"]);
    let status = t.read_ok(&["status", "game.yaml"]);
    assert!(status.contains("status: bob (tails) to move\n"), "{status}");
    assert!(
        status.contains("next: bob (tails): correspond play game.yaml MOVE\n"),
        "{status}"
    );
    assert!(
        status.contains("position: hgcgh/iiiii/5/5/2I2/II1II/HGCGH t AEae 0 1\n"),
        "{status}"
    );
    let show = t.read_ok(&["show", "game.yaml", "--ascii"]);
    assert!(show.contains("bob (tails) to move"), "{show}");
    assert!(show.contains(" 3 . . I . . 3"), "{show}");
    assert!(show.contains("last move: c2c3"), "{show}");
    let at_start = t.read_ok(&["show", "game.yaml", "--ascii", "--at", "1"]);
    assert!(at_start.contains("record 1 of "), "{at_start}");
    assert!(
        at_start.contains("waiting for alice (heads) to reveal the coin flip"),
        "{at_start}"
    );
    assert!(!at_start.contains("last move"), "{at_start}");
    // A record the file does not have is a usage error (2), as for `extract` and `mail --since`:
    // the file is sound, the argument is wrong.
    let last = at_start
        .split(" of ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .expect("record 1 of LAST");
    let (code, out, err) = t.read(&["show", "game.yaml", "--at", "99"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            format!(
                "error: game.yaml has records 0 to {last}; there is no record 99\n\
                 hint: `correspond log game.yaml` lists the records\n"
            )
            .as_str()
        )
    );
    let log = t.read_ok(&["log", "game.yaml"]);
    assert!(
        log.lines().any(|l| l.ends_with("alice (heads)  c2c3")),
        "{log}"
    );
}
