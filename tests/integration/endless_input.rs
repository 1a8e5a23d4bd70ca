//! Nothing a user names makes a command wait or read without end: a pipe or a device where a
//! game file, a key or a mailbox is expected is refused at once (or, for a mailbox, read as
//! the empty mailbox it is), never waited on.

use crate::util::{correspond, keys_dir};
use std::process::Command;

#[test]
fn a_pipe_in_place_of_a_game_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("g.yaml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    for args in [
        vec!["play", "g.yaml", "e4", "--no-commit"],
        vec!["status", "g.yaml"],
        vec!["verify", "g.yaml"],
    ] {
        let out = correspond()
            .current_dir(dir.path())
            .args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .expect("run");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("not a regular file")
                || String::from_utf8_lossy(&out.stdout).contains("not a regular file"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn nothing_a_user_names_makes_a_command_wait_or_read_without_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("g.yaml"), crate::mail::opera_upto(3)).expect("write");
    assert!(
        Command::new("mkfifo")
            .arg(dir.path().join("pipe"))
            .status()
            .expect("mkfifo")
            .success()
    );
    let bob = keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    for (args, says) in [
        (
            vec!["play", "g.yaml", "e4", "--key", "pipe"],
            "not a regular file",
        ),
        (
            vec!["play", "g.yaml", "e4", "--key", "/dev/zero"],
            "not a regular file",
        ),
        (
            vec![
                "new",
                "chess",
                "n.yaml",
                "--name",
                "a",
                "--side",
                "white",
                "--opponent",
                "b",
                "--opponent-key",
                "pipe",
            ],
            "not a regular file",
        ),
        (
            vec![
                "import-pgn",
                "/dev/zero",
                "i.yaml",
                "--white-key",
                bob,
                "--black-key",
                bob,
            ],
            "not a regular file",
        ),
        (
            vec!["receive", "g.yaml", "--mbox", "/dev/zero"],
            "neither a file nor a pipe",
        ),
        (
            vec!["receive", "g.yaml", "pipe"],
            "no correspond record block",
        ),
    ] {
        let out = correspond()
            .current_dir(dir.path())
            .args(&args)
            .arg("--no-commit")
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(1 | 2)) && err.contains(says),
            "{args:?}: {:?} {err}",
            out.status.code()
        );
    }
    // A mailbox that is a pipe nobody writes to is an empty mailbox: no mail yet.
    let out = correspond()
        .current_dir(dir.path())
        .args(["receive", "g.yaml", "--mbox", "pipe", "--no-commit"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
}
