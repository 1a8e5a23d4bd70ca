//! An arbiter through the commands: named by `new`, agreed to by `accept`, the only one who may
//! `adjudicate`, which ends the game as `log`, `verify`, `status` and `pgn` then say.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

/// Runs `correspond` in `dir`, as `who` when a key is needed; the whole transcript.
fn run(dir: &Path, who: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = correspond();
    cmd.current_dir(dir)
        .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
        .args(args);
    if let Some(who) = who {
        cmd.arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit");
    }
    transcript(&mut cmd)
}

/// A chess game between alice (white) and bob, with carol its arbiter when `arbiter`.
fn game(dir: &Path, arbiter: bool) {
    let bob = keys_dir().join("bob.pub");
    let carol = keys_dir().join("carol.pub");
    let mut args = vec![
        "new",
        "chess",
        "g.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob.to_str().expect("UTF-8"),
    ];
    if arbiter {
        args.extend([
            "--arbiter",
            "carol",
            "--arbiter-key",
            carol.to_str().expect("UTF-8"),
        ]);
    }
    assert_eq!(run(dir, Some("alice"), &args).0, 0);
}

#[test]
fn the_arbiter_adjudicates_and_nobody_else_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    game(dir, true);
    let header = std::fs::read_to_string(dir.join("g.yaml")).expect("the file");
    let carol = std::fs::read_to_string(keys_dir().join("carol.pub")).expect("carol's key");
    let carol_key: Vec<&str> = carol.split_whitespace().take(2).collect();
    assert!(
        header.contains(&format!(
            "arbiter:\n  name: \"carol\"\n  key: {}\ncreated:",
            carol_key.join(" ")
        )),
        "{header}"
    );
    let adjudicate = [
        "adjudicate",
        "g.yaml",
        "--winner",
        "bob",
        "--reason",
        "abandoned",
    ];
    assert_eq!(
        run(dir, Some("carol"), &adjudicate),
        (
            1,
            String::new(),
            "error: there is nothing to adjudicate: waiting for bob (black) to accept the game\n"
                .into()
        ),
        "before the arbiter is accepted"
    );
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
    assert_eq!(run(dir, Some("alice"), &["play", "g.yaml", "e4"]).0, 0);
    assert_eq!(
        run(dir, Some("alice"), &adjudicate),
        (
            2,
            String::new(),
            "error: only the arbiter, carol, may adjudicate this game, with their key\n".into()
        )
    );
    assert_eq!(
        run(dir, Some("carol"), &["resign", "g.yaml"]),
        (
            2,
            String::new(),
            "error: this is the arbiter's key: an arbiter signs only `correspond adjudicate`\n\
             hint: a player signs with their own key (--key PATH)\n"
                .into()
        )
    );
    assert_eq!(
        run(
            dir,
            Some("carol"),
            &[
                "adjudicate",
                "g.yaml",
                "--winner",
                "dora",
                "--reason",
                "abandoned"
            ]
        ),
        (
            2,
            String::new(),
            "error: `dora` is neither player of this game (alice (white) v bob (black))\n\
             hint: --winner takes a player's name or side; --draw for a draw\n"
                .into()
        )
    );
    assert_eq!(
        run(dir, Some("carol"), &adjudicate),
        (
            0,
            "record 3: the arbiter carol adjudicates: the game was abandoned; game over: black \
             wins: adjudicated by the arbiter (the game was abandoned)\nnow: game over: black \
             wins: adjudicated by the arbiter (the game was abandoned)\n"
                .into(),
            String::new()
        )
    );
    let file = std::fs::read_to_string(dir.join("g.yaml")).expect("the file");
    let record = &file[file.rfind("---\n").expect("a record")..];
    assert!(
        record.starts_with("---\nseq: 3\n")
            && record.contains(
                "\nsigner: \"carol\"\nkind: adjudicate\nresult: opponent-wins\nreason: \
                 abandoned\ntime: \"2026-03-01T10:00:00Z\"\nsignature: "
            ),
        "{record}"
    );
    let (code, log, _) = run(dir, None, &["log", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        log.ends_with(
            "   3  2026-03-01T10:00:00Z  the arbiter carol  adjudicates: the game was abandoned; \
             game over: black wins: adjudicated by the arbiter (the game was abandoned)\nresult: \
             black wins: adjudicated by the arbiter (the game was abandoned)\n"
        ),
        "{log}"
    );
    assert_eq!(
        run(dir, None, &["verify", "g.yaml"]),
        (
            0,
            "g.yaml: valid: chess, alice (white) v bob (black), 3 records: black wins: \
             adjudicated by the arbiter (the game was abandoned)\n1 file: 1 valid, 0 invalid\n"
                .into(),
            String::new()
        )
    );
    let (code, pgn, _) = run(dir, None, &["pgn", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        pgn.contains("[Result \"0-1\"]\n[Termination \"adjudication\"]\n")
            && pgn.ends_with("1. e4 0-1\n"),
        "{pgn}"
    );
    assert_eq!(
        run(
            dir,
            Some("carol"),
            &["adjudicate", "g.yaml", "--draw", "--reason", "time-dispute"]
        )
        .0,
        1,
        "once over, over"
    );
}

#[test]
fn a_game_without_an_arbiter_is_adjudicated_by_nobody_and_an_arbiter_is_someone_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    game(dir, false);
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
    assert_eq!(
        run(
            dir,
            Some("bob"),
            &[
                "adjudicate",
                "g.yaml",
                "--draw",
                "--reason",
                "tournament-end"
            ]
        ),
        (
            1,
            String::new(),
            "error: this game has no arbiter, so nobody may adjudicate it\n".into()
        )
    );
    let bob = keys_dir().join("bob.pub");
    let new = |arbiter: &str, key: &str| {
        let key = keys_dir().join(key);
        run(
            dir,
            Some("alice"),
            &[
                "new",
                "chess",
                "h.yaml",
                "--name",
                "alice",
                "--side",
                "white",
                "--opponent",
                "bob",
                "--opponent-key",
                bob.to_str().expect("UTF-8"),
                "--arbiter",
                arbiter,
                "--arbiter-key",
                key.to_str().expect("UTF-8"),
            ],
        )
    };
    assert_eq!(
        new("bob", "carol.pub"),
        (
            2,
            String::new(),
            "error: the arbiter needs a name of their own, not a player's\n".into()
        )
    );
    assert_eq!(
        new("carol", "bob.pub"),
        (
            2,
            String::new(),
            "error: the arbiter's key is a player's key: an arbiter is someone else\n".into()
        )
    );
    assert!(!dir.join("h.yaml").exists());
}
