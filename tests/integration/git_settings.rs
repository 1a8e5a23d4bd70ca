//! Git settings that would break play or evidence: game files kept byte for byte whatever
//! `core.autocrlf` says, a plain `git pull` of diverged histories that runs the merge driver,
//! and `setup-git` bringing an older attributes line up to date while keeping the user's own
//! pull setting.

use crate::disputes::{Club, file, run, try_git};
use crate::forks::setup;
use crate::util::correspond;

#[test]
fn game_files_stay_byte_exact_under_autocrlf_and_a_plain_pull_merges() {
    let club = Club::new();
    club.play(&["e4"]);
    setup(&club);
    // A third clone made the way Git for Windows makes them: core.autocrlf=true.
    let origin = club.dir.path().join("origin.git");
    crate::util::git(
        club.dir.path(),
        &[
            "-c",
            "core.autocrlf=true",
            "clone",
            "-q",
            origin.to_str().expect("UTF-8"),
            "windows",
        ],
    );
    let windows = club.dir.path().join("windows");
    crate::util::git(&windows, &["config", "core.autocrlf", "true"]);
    assert_eq!(
        std::fs::read(windows.join("game.yaml")).expect("read"),
        file(&club, "alice").into_bytes(),
        "checked out byte for byte"
    );
    let out = correspond()
        .current_dir(&windows)
        .args(["verify", "game.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    // Diverged histories: bob had alice's e4 by mail and answered; alice pushed a note. A plain
    // `git pull` (no flag) merges, and the driver keeps the longer game.
    std::fs::write(club.clone("alice").join("notes.txt"), "hello\n").expect("write");
    club.git("alice", &["add", "notes.txt"]);
    club.git("alice", &["commit", "-q", "-m", "notes"]);
    club.git("alice", &["push", "-q"]);
    club.sign("bob", &["play", "game.yaml", "e5"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-edit"]);
    assert!(merged, "{out}");
    assert!(file(&club, "bob").contains("move: e7e5"));
    assert!(club.clone("bob").join("notes.txt").exists());
}

#[test]
fn setup_git_updates_an_old_attributes_line_and_keeps_the_users_pull_setting() {
    let club = Club::new();
    club.play(&[]);
    std::fs::write(
        club.clone("alice").join(".gitattributes"),
        "*.txt text\n*.yaml merge=correspond\n",
    )
    .expect("write");
    club.git("alice", &["config", "pull.rebase", "true"]);
    let (code, out, err) = run(&club, "alice", &["setup-git"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with(
            "updated .gitattributes to `*.yaml merge=correspond -text` (game files are merged \
             by correspond and kept byte for byte)"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(
            "git pull keeps your setting pull.rebase = true: the merge driver runs in merges and \
             rebases alike\n"
        ),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(club.clone("alice").join(".gitattributes")).expect("read"),
        "*.txt text\n*.yaml merge=correspond -text\n*.yml merge=correspond -text\n"
    );
    assert_eq!(
        club.git("alice", &["config", "--local", "pull.rebase"]),
        "true\n"
    );
    // pull.ff = only stops at diverged histories: said as it is.
    club.git("alice", &["config", "--unset", "pull.rebase"]);
    club.git("alice", &["config", "pull.ff", "only"]);
    let (_, out, _) = run(&club, "alice", &["setup-git"]);
    assert!(
        out.ends_with(
            "git pull keeps your setting pull.ff = only: it stops at diverged histories before \
             any merge, so pull those with `git pull --no-ff` (the merge driver then runs)\n"
        ),
        "{out}"
    );
    // Outside a work tree: a clear refusal.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = correspond()
        .current_dir(dir.path())
        .arg("setup-git")
        .env(
            "GIT_CEILING_DIRECTORIES",
            dir.path().parent().expect("parent"),
        )
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: this folder is not in a git work tree\nhint: run it inside the clone that holds \
         the games\n"
    );
}
