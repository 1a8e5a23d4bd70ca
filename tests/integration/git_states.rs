//! A signing command in a repository where a commit now would go wrong: git in the middle of a
//! merge (a commit would clear the conflict it left, and the merge then drop the other side's
//! records), `HEAD` detached (the commit would be on no branch), or a lock of git's taken while
//! the command waited for a passphrase (the record would be written and not committed). Each
//! is refused before anything is signed or written, with the git commands that get out of it.

use crate::util::git;
use crate::written_meanwhile::{run, started};
use std::path::Path;

/// A repository holding dora's game, committed, and a notes file on two branches that
/// conflict.
fn repository(dir: &Path) -> String {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "Dora"]);
    git(dir, &["config", "user.email", "dora@example.org"]);
    let (dora, _) = started(dir, &[]);
    std::fs::write(dir.join("notes.txt"), "base\n").expect("write");
    git(dir, &["add", "notes.txt"]);
    git(dir, &["commit", "-q", "-m", "notes"]);
    git(dir, &["checkout", "-q", "-b", "side"]);
    std::fs::write(dir.join("notes.txt"), "side\n").expect("write");
    git(dir, &["commit", "-q", "-am", "side notes"]);
    git(dir, &["checkout", "-q", "main"]);
    std::fs::write(dir.join("notes.txt"), "main\n").expect("write");
    git(dir, &["commit", "-q", "-am", "main notes"]);
    dora
}

#[test]
fn a_merge_under_way_or_a_detached_head_is_refused_before_signing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let dora = repository(dir);
    let before = std::fs::read(dir.join("game.yaml")).expect("read");
    let head = git(dir, &["rev-parse", "HEAD"]);
    let resign = ["resign", "game.yaml", "--key", &dora];
    let merge = std::process::Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["merge", "-q", "side"])
        .output()
        .expect("run git");
    assert!(!merge.status.success(), "the notes conflict");
    assert_eq!(
        run(dir, &resign, ""),
        (
            2,
            String::new(),
            "error: git is in the middle of a merge; nothing was written\n\
             hint: finish it (git commit) or give it up (git merge --abort), then run the \
             command again: a commit now would be taken into it\n"
                .to_owned()
        )
    );
    git(dir, &["merge", "--abort"]);
    git(dir, &["checkout", "-q", "--detach"]);
    assert_eq!(
        run(dir, &resign, ""),
        (
            2,
            String::new(),
            "error: HEAD is detached: a commit would be on no branch; nothing was written\n\
             hint: check out the game's branch (git switch BRANCH), or pass --no-commit to write \
             the file without committing it\n"
                .to_owned()
        )
    );
    git(dir, &["checkout", "-q", "main"]);
    assert_eq!(std::fs::read(dir.join("game.yaml")).expect("read"), before);
    assert_eq!(git(dir, &["rev-parse", "HEAD"]), head);
    let (code, _, err) = run(dir, &resign, "");
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn a_git_lock_taken_while_the_passphrase_is_asked_for_is_refused_before_signing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let dora = repository(dir);
    let before = std::fs::read(dir.join("game.yaml")).expect("read");
    let resign = ["resign", "game.yaml", "--key", &dora];
    assert_eq!(
        run(dir, &resign, "touch .git/index.lock"),
        (
            2,
            String::new(),
            "error: git's lock .git/index.lock exists: another git command is running, or one \
             was killed and left it; nothing was signed\n\
             hint: wait for the other git command to finish, or remove the lock file if none is \
             running\n"
                .to_owned()
        )
    );
    assert_eq!(std::fs::read(dir.join("game.yaml")).expect("read"), before);
    std::fs::remove_file(dir.join(".git/index.lock")).expect("remove");
    let (code, out, err) = run(dir, &resign, "");
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("\ncommitted "), "{out}");
    assert_eq!(git(dir, &["status", "--porcelain", "game.yaml"]), "");
}
