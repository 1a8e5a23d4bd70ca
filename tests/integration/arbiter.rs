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
            "error: g.yaml: there is nothing to adjudicate: waiting for bob (black) to accept the game\n"
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
    // The JSON outputs say who adjudicated, and how the game ended, as their schemas say.
    for (args, schema) in [
        (["status", "g.yaml", "--json"], "status.schema.json"),
        (["log", "g.yaml", "--json"], "log.schema.json"),
    ] {
        let (code, out, _) = run(dir, None, &args);
        assert_eq!(code, 0);
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(schema);
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON");
        let validator = jsonschema::validator_for(&schema).expect("a schema");
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        if args[0] == "status" {
            assert_eq!(json["result"]["ending"], "adjudication");
            assert_eq!(json["result"]["code"], "abandoned");
            assert_eq!(json["result"]["winner_seat"], 1);
            assert_eq!(json["arbiter"]["name"], "carol");
        } else {
            assert_eq!(json["documents"][3]["role"], "arbiter");
            assert_eq!(json["documents"][3]["seat"], serde_json::Value::Null);
        }
    }
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
        // PGN's own word for an abandoned game.
        pgn.contains("[Result \"0-1\"]\n[GameId ")
            && pgn.contains("\n[Termination \"abandoned\"]\n")
            // The decision, in the words `log` uses, which import-pgn refuses to sign.
            && pgn.ends_with(
                "\n1. e4 {the arbiter carol adjudicates the game: opponent-wins (abandoned)} \
                 0-1\n"
            ),
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
            "error: g.yaml: this game has no arbiter, so nobody may adjudicate it\n".into()
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

#[test]
fn an_adjudication_replaced_by_a_players_record_is_a_violation_not_a_crossing() {
    use crate::util::git;
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    git(dir, &["init", "-q", "-b", "main"]);
    let commit = |message: &str| {
        git(dir, &["add", "g.yaml"]);
        git(
            dir,
            &[
                "-c",
                "user.name=c",
                "-c",
                "user.email=c@example.org",
                "commit",
                "-q",
                "-m",
                message,
            ],
        );
    };
    game(dir, true);
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
    assert_eq!(run(dir, Some("alice"), &["play", "g.yaml", "e4"]).0, 0);
    commit("e4");
    let before = std::fs::read(dir.join("g.yaml")).expect("read");
    let adjudicate = [
        "adjudicate",
        "g.yaml",
        "--winner",
        "alice",
        "--reason",
        "abandoned",
    ];
    assert_eq!(run(dir, Some("carol"), &adjudicate).0, 0);
    commit("adjudicated");
    // bob, the player the game awaited, signs his move at the adjudication's place on the
    // copy from before it, and commits that over the adjudication.
    std::fs::write(dir.join("g.yaml"), before).expect("write");
    assert_eq!(run(dir, Some("bob"), &["play", "g.yaml", "e5"]).0, 0);
    commit("e5");
    let (code, out, _) = run(dir, None, &["audit", "g.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("      VIOLATION: "), "{out}");
    assert!(!out.contains("void by the crossing rule"), "{out}");
}

#[test]
fn an_arbiter_who_signs_two_adjudications_at_one_place_is_proven_to_have_equivocated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    game(dir, true);
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
    std::fs::copy(dir.join("g.yaml"), dir.join("h.yaml")).expect("copy");
    let adjudicate = |file: &str, winner: &str, journal: &Path| {
        let mut cmd = correspond();
        cmd.current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
            .env("CORRESPOND_JOURNAL", journal)
            .args([
                "adjudicate",
                file,
                "--winner",
                winner,
                "--reason",
                "abandoned",
                "--no-commit",
            ])
            .arg("--key")
            .arg(keys_dir().join("carol"));
        assert_eq!(transcript(&mut cmd).0, 0);
    };
    adjudicate("g.yaml", "alice", &dir.join("journal-1"));
    // On another machine, with a journal of its own: the journal would refuse here.
    adjudicate("h.yaml", "bob", &dir.join("journal-2"));
    let (code, out, _) = run(
        dir,
        None,
        &["compare", "g.yaml", "h.yaml", "--proof", "p.proof"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("EQUIVOCATION: "), "{out}");
    let (code, out, err) = run(dir, None, &["check-proof", "p.proof"]);
    let game_id = out
        .split_whitespace()
        .nth(5)
        .unwrap_or_default()
        .trim_end_matches(',');
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            format!(
                "p.proof: valid proof: in game {game_id}, carol signed two different records \
                 numbered 2: adjudicate creator-wins (abandoned) and adjudicate opponent-wins \
                 (abandoned)\ncarol's key in the proof is {}: check that it is the key you know \
                 to be theirs, and the game id against the game's\n",
                fingerprint("carol")
            )
            .as_str(),
            ""
        )
    );
}

fn fingerprint(who: &str) -> String {
    let key = std::fs::read_to_string(keys_dir().join(format!("{who}.pub"))).expect("a key");
    let key = ssh_key::PublicKey::from_openssh(&key).expect("an OpenSSH key");
    key.fingerprint(ssh_key::HashAlg::Sha256).to_string()
}

#[test]
fn a_winner_named_by_a_word_that_fits_both_players_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let (bob, carol) = (keys_dir().join("bob.pub"), keys_dir().join("carol.pub"));
    let new = [
        "new",
        "chess",
        "g.yaml",
        "--name",
        "black",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob.to_str().expect("UTF-8"),
        "--arbiter",
        "carol",
        "--arbiter-key",
        carol.to_str().expect("UTF-8"),
    ];
    assert_eq!(run(dir, Some("alice"), &new).0, 0);
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
    assert_eq!(
        run(
            dir,
            Some("carol"),
            &[
                "adjudicate",
                "g.yaml",
                "--winner",
                "black",
                "--reason",
                "abandoned"
            ]
        ),
        (
            2,
            String::new(),
            "error: `black` names both players (black (white) v bob (black))\nhint: name the \
             winner by the name the other does not have\n"
                .into()
        )
    );
}
