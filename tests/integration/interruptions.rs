//! Nothing written and left unsaid: the commit is made, under the game file's lock, before
//! anything is printed; concurrent commands in one repository each make exactly their own
//! commit; what an interrupted command left (records not committed, a temporary copy) is put
//! right by the next one; and a command waiting for another one's lock says so, and gives up.

use crate::util::{correspond, git, keys_dir};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A git repository of chess games between alice (White) and bob, accepted and committed.
struct Repo {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Repo {
    fn new(games: &[&str]) -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("repo");
        std::fs::create_dir(&path).expect("mkdir");
        git(&path, &["init", "-q", "-b", "main"]);
        git(&path, &["config", "user.name", "Referee"]);
        git(&path, &["config", "user.email", "referee@example.invalid"]);
        let repo = Repo { _dir: dir, path };
        let bob = keys_dir().join("bob.pub");
        for game in games {
            // Each game its own salt: made in the same second, they are still different games.
            correspond()
                .current_dir(&repo.path)
                .env_remove("CORRESPOND_SALT")
                .args(["new", "chess", game, "--name", "alice", "--side", "white"])
                .args(["--opponent", "bob", "--opponent-key"])
                .arg(&bob)
                .arg("--key")
                .arg(keys_dir().join("alice"))
                .assert()
                .success();
            repo.ok("bob", &["accept", game]);
        }
        repo
    }

    fn command(&self, who: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("correspond"));
        cmd.current_dir(&self.path)
            .env("CORRESPOND_JOURNAL", crate::util::journal_dir())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("SSH_AUTH_SOCK")
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who));
        cmd
    }

    fn run(&self, who: &str, args: &[&str]) -> (i32, String, String) {
        crate::util::transcript(
            correspond()
                .current_dir(&self.path)
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who)),
        )
    }

    fn ok(&self, who: &str, args: &[&str]) -> String {
        let (code, out, err) = self.run(who, args);
        assert_eq!(code, 0, "{who} {args:?}: {err}");
        out
    }

    fn git(&self, args: &[&str]) -> String {
        git(&self.path, args)
    }

    fn file(&self, game: &str) -> String {
        std::fs::read_to_string(self.path.join(game)).expect("read")
    }
}

/// The records (`seq` lines) a commit adds to `game`.
fn added_records(repo: &Repo, commit: &str, game: &str) -> Vec<String> {
    repo.git(&["show", "--format=", commit, "--", game])
        .lines()
        .filter_map(|l| l.strip_prefix("+seq: ").map(str::to_owned))
        .collect()
}

#[test]
fn the_commit_is_made_before_anything_is_printed() {
    let repo = Repo::new(&["g.yaml"]);
    // The reader goes away at once: printing fails with a broken pipe, after the commit.
    let mut child = repo
        .command("alice", &["play", "g.yaml", "e4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]),
        "g.yaml: chess, white plays e4 (record 2)\n"
    );
    // Standard output on a full device: the error says the record was written and committed.
    let out = repo
        .command("bob", &["play", "g.yaml", "e5"])
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write the output: No space left on device (os error 28)\nhint: the \
         record was written and committed\n"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]),
        "g.yaml: chess, black plays e5 (record 3)\n"
    );
}

#[test]
fn concurrent_commands_in_one_repository_each_make_exactly_their_own_commit() {
    let games: Vec<String> = (0..8).map(|i| format!("g{i}.yaml")).collect();
    let names: Vec<&str> = games.iter().map(String::as_str).collect();
    let repo = Repo::new(&names);
    let before: usize = repo
        .git(&["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .expect("a count");
    // Each game twice at once (alice's e4 and d4: one of each pair must be refused), and all
    // games at once.
    let children: Vec<(String, std::process::Child)> = games
        .iter()
        .flat_map(|g| [(g.clone(), "e4"), (g.clone(), "d4")])
        .map(|(g, mv)| {
            let child = repo
                .command("alice", &["play", &g, mv])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn");
            (g, child)
        })
        .collect();
    let mut played = Vec::new();
    for (game, child) in children {
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        match out.status.code() {
            Some(0) => played.push(game),
            Some(1) => assert!(err.contains("it is not your turn"), "{game}: {err}"),
            code => panic!("{game}: exit {code:?}: {err}"),
        }
    }
    played.sort();
    assert_eq!(played, games, "exactly one move a game");
    let log = repo.git(&[
        "log",
        "--format=%H %s",
        &format!("HEAD~{}..HEAD", games.len()),
    ]);
    assert_eq!(log.lines().count(), games.len(), "{log}");
    for line in log.lines() {
        let (commit, subject) = line.split_once(' ').expect("a commit");
        let changed = repo.git(&["show", "--name-only", "--format=", commit]);
        let [game] = changed.lines().collect::<Vec<_>>()[..] else {
            panic!("{commit} changed {changed}");
        };
        assert_eq!(added_records(&repo, commit, game), ["2"], "{subject}");
    }
    let after: usize = repo
        .git(&["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .expect("a count");
    assert_eq!(after, before + games.len());
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[test]
fn what_an_interrupted_command_left_is_put_right_by_the_next_one() {
    let repo = Repo::new(&["g.yaml"]);
    // Written, not committed (as a kill between the write and the commit leaves it).
    repo.ok("alice", &["play", "g.yaml", "e4", "--no-commit"]);
    // And a temporary copy of a killed command.
    std::fs::write(repo.path.join(".g.yaml.4242.correspond-tmp"), "half").expect("write");
    let out = repo.ok("bob", &["play", "g.yaml", "e5"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "removed a temporary copy left by a command that was cut short: .g.yaml.4242.correspond-tmp"
    );
    assert!(
        lines[1].starts_with("committed ")
            && lines[1].ends_with(": g.yaml: chess, record 2, written before but not committed"),
        "{out}"
    );
    assert_eq!(lines[2], "record 3: bob (black) e5");
    assert!(
        lines[4].ends_with(": g.yaml: chess, black plays e5 (record 3)"),
        "{out}"
    );
    assert!(!repo.path.join(".g.yaml.4242.correspond-tmp").exists());
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    let subjects = repo.git(&["log", "-2", "--format=%s"]);
    assert_eq!(
        subjects,
        "g.yaml: chess, black plays e5 (record 3)\ng.yaml: chess, record 2, written before but not committed\n"
    );
    // A file behind its last commit is not signed on: that would drop committed records.
    let committed = repo.file("g.yaml");
    let cut = &committed[..committed.rfind("---\nseq: 3").expect("record 3")];
    std::fs::write(repo.path.join("g.yaml"), cut).expect("write");
    let (code, out, err) = repo.run("alice", &["play", "g.yaml", "Nf3"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "",
            "error: g.yaml is behind its last commit, which holds records up to 3; nothing was \
             written\nhint: `git diff -- g.yaml` shows how; `git checkout -- g.yaml` puts back \
             the committed version\n"
        )
    );
    assert_eq!(repo.file("g.yaml"), cut);
}

#[test]
fn a_command_waiting_for_another_ones_lock_says_so_and_gives_up() {
    let repo = Repo::new(&["g.yaml"]);
    let before = repo.file("g.yaml");
    // Another process holds the file's lock (here, the test itself).
    let held = std::fs::File::open(repo.path.join("g.yaml")).expect("open");
    held.lock().expect("lock");
    let (code, out, err) = repo.run("alice", &["play", "g.yaml", "e4", "--wait", "1"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "waiting for another command to finish with g.yaml (up to 1 s; --wait to change)\n\
             error: g.yaml: another command still holds it after 1 s; nothing was written\n\
             hint: try again when it has finished, or wait longer with --wait SECONDS\n"
        )
    );
    assert_eq!(repo.file("g.yaml"), before);
    // Released, the command goes on.
    drop(held);
    repo.ok("alice", &["play", "g.yaml", "e4", "--wait", "1"]);
}

/// The number of documents of a repository's game file, which must verify.
fn documents(repo: &Repo, game: &str) -> usize {
    let bytes = std::fs::read(repo.path.join(game)).expect("read");
    correspond::games::verify(&bytes)
        .unwrap_or_else(|e| panic!("{game} does not verify: {e}"))
        .records
        + 1
}

#[test]
fn a_command_killed_at_any_moment_leaves_what_the_next_one_puts_right() {
    // Two moves a round at most: the killed one, if it got through, and the next.
    const MOVES: [&str; 24] = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5",
    ];
    let repo = Repo::new(&["g.yaml"]);
    let mut rng = crate::util::Rng::new(11);
    let next = |repo: &Repo| {
        let played = documents(repo, "g.yaml") - 2;
        (
            if played.is_multiple_of(2) {
                "alice"
            } else {
                "bob"
            },
            MOVES[played],
        )
    };
    // Runs the next move to the end; a lock a killed git write left is removed, as the
    // refusal's hint says, and the move tried again. A kill inside a commit can leave two (the
    // index's and the branch's), named one at a time.
    let settle = |repo: &Repo| {
        let (who, mv) = next(repo);
        for _ in 0..3 {
            let (code, out, err) = repo.run(who, &["play", "g.yaml", mv]);
            if code == 2 && err.starts_with("error: git's lock ") {
                let lock = err["error: git's lock ".len()..]
                    .split(' ')
                    .next()
                    .expect("a path");
                std::fs::remove_file(repo.path.join(lock)).expect("remove the stale lock");
            } else {
                assert_eq!(code, 0, "{who} {mv}: {out}{err}");
                return;
            }
        }
        panic!("{who} {mv}: still refused after three stale locks were removed");
    };
    for round in 0..12 {
        let (who, mv) = next(&repo);
        let mut child = repo
            .command(who, &["play", "g.yaml", mv])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(rng.below(60) as u64));
        if round % 2 == 0 {
            let _ = child.kill();
            let _ = child.wait();
        } else {
            // SIGTERM is caught: the step under way finishes, and nothing is left behind.
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let status = child.wait().expect("wait");
            assert!(matches!(status.code(), Some(0 | 130) | None), "{status:?}");
            for left in [
                ".git/index.lock",
                ".git/HEAD.lock",
                ".git/refs/heads/main.lock",
            ] {
                assert!(!repo.path.join(left).exists(), "SIGTERM left {left}");
            }
            let temporary = std::fs::read_dir(&repo.path)
                .expect("list")
                .filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().ends_with(".correspond-tmp"));
            assert!(!temporary, "SIGTERM left a temporary copy");
        }
        // Whenever it was killed, the file is whole and verifies (`documents` checks).
        documents(&repo, "g.yaml");
        settle(&repo);
        // After a command that ran to the end, everything is committed and nothing is left.
        assert_eq!(repo.git(&["status", "--porcelain"]), "");
    }
    let leftovers: Vec<String> = std::fs::read_dir(&repo.path)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".correspond-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let out = correspond()
        .current_dir(&repo.path)
        .args(["audit", "g.yaml"])
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_git_commit_at_the_same_moment_never_commits_a_record_away() {
    let repo = Repo::new(&["g.yaml"]);
    std::fs::write(repo.path.join("note.txt"), "0\n").expect("write");
    repo.git(&["add", "note.txt"]);
    repo.git(&["commit", "-q", "-m", "note"]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // Someone commits other work in a loop while the game goes on.
        s.spawn(|| {
            let mut i = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                i += 1;
                std::fs::write(repo.path.join("note.txt"), format!("{i}\n")).expect("write");
                let _ = Command::new("git")
                    .current_dir(&repo.path)
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .args(["commit", "-q", "-am", &format!("note {i}")])
                    .output();
            }
        });
        // Stopped however the moves end: a failed assertion below fails the test, not hangs it.
        struct Stop<'a>(&'a std::sync::atomic::AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let _stop = Stop(&stop);
        for (who, mv) in [
            ("alice", "e4"),
            ("bob", "e5"),
            ("alice", "Nf3"),
            ("bob", "Nc6"),
            ("alice", "Bb5"),
            ("bob", "a6"),
            ("alice", "Ba4"),
            ("bob", "Nf6"),
            ("alice", "O-O"),
            ("bob", "Be7"),
        ] {
            let (code, out, err) = repo.run(who, &["play", "g.yaml", mv]);
            // A stubborn git lock may refuse a move (nothing written): then it is played again.
            if code != 0 {
                assert!(err.contains("git's lock"), "{out}{err}");
                repo.ok(who, &["play", "g.yaml", mv]);
            }
        }
    });
    let out = correspond()
        .current_dir(&repo.path)
        .args(["audit", "g.yaml"])
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let status = repo.git(&["status", "--porcelain", "g.yaml"]);
    assert_eq!(status, "", "the index agrees with the commit");
}

#[test]
fn an_index_left_behind_its_commit_is_staged_again() {
    let repo = Repo::new(&["g.yaml"]);
    let before = repo.git(&["rev-parse", "HEAD:g.yaml"]);
    repo.ok("alice", &["play", "g.yaml", "e4"]);
    // As a command killed between its commit and its index write leaves it: the index holds the
    // version before the record, which a plain `git commit` would commit.
    repo.git(&[
        "update-index",
        "--cacheinfo",
        &format!("100644,{},g.yaml", before.trim()),
    ]);
    assert_eq!(
        repo.git(&["status", "--porcelain", "g.yaml"]),
        "MM g.yaml\n"
    );
    let out = repo.ok("bob", &["play", "g.yaml", "e5"]);
    assert!(
        out.starts_with(
            "staged g.yaml again: git's index held an older version, left by a command that was \
             cut short\n"
        ),
        "{out}"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[test]
fn a_commit_turn_held_too_long_does_not_make_a_command_wait_for_ever() {
    let repo = Repo::new(&["g.yaml"]);
    // Another correspond command holds the repository's turn (suspended, say).
    let turn = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(repo.path.join(".git/correspond-commit"))
        .expect("open");
    turn.lock().expect("lock");
    let started = std::time::Instant::now();
    let (code, _, err) = repo.run("alice", &["play", "g.yaml", "e4"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: the file was written, but the commit failed: another correspond command has \
             been committing in this repository for ten seconds (is one suspended?)"
        ),
        "{err}"
    );
    drop(turn);
    // The next command commits it.
    let out = repo.ok("bob", &["play", "g.yaml", "e5"]);
    assert!(
        out.contains("record 2, written before but not committed"),
        "{out}"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

/// Two games in one repository: each commit's subject starts with the file it changed, so the
/// history reads game by game.
#[test]
fn each_commit_names_the_game_file_it_changed() {
    let repo = Repo::new(&["a.yaml", "b.yaml"]);
    repo.ok("alice", &["play", "b.yaml", "e4"]);
    repo.ok("alice", &["play", "a.yaml", "d4"]);
    assert_eq!(
        repo.git(&["log", "--format=%s"]),
        "a.yaml: chess, white plays d4 (record 2)\n\
         b.yaml: chess, white plays e4 (record 2)\n\
         b.yaml: chess, black accepts the game (record 1)\n\
         b.yaml: chess, new game, alice (white) v bob (black)\n\
         a.yaml: chess, black accepts the game (record 1)\n\
         a.yaml: chess, new game, alice (white) v bob (black)\n"
    );
    // In a folder, and from inside it: the path from the work tree's top.
    std::fs::create_dir(repo.path.join("round 1")).expect("mkdir");
    let bob = keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    let new = [
        "new",
        "chess",
        "round 1/c.yaml",
        "--name",
        "alice",
        "--side",
        "white",
    ];
    repo.ok(
        "alice",
        &[&new[..], &["--opponent", "bob", "--opponent-key", bob]].concat(),
    );
    let accepted = repo
        .command("bob", &["accept", "c.yaml"])
        .current_dir(repo.path.join("round 1"))
        .output()
        .expect("run");
    assert!(accepted.status.success(), "{accepted:?}");
    assert_eq!(
        repo.git(&["log", "-2", "--format=%s"]),
        "round 1/c.yaml: chess, black accepts the game (record 1)\n\
         round 1/c.yaml: chess, new game, alice (white) v bob (black)\n"
    );
}
