//! The stumbles of a new user, each met with what they meant: a file name nearly right, a move
//! typed in the wrong case, and no passphrase asked for before the move is known to be wrong.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

/// A chess game between alice (white) and bob in `dir/g.yaml`, accepted.
fn game(dir: &Path) {
    let bob = keys_dir().join("bob.pub");
    for (who, args) in [
        (
            "alice",
            vec![
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
            ],
        ),
        ("bob", vec!["accept", "g.yaml"]),
    ] {
        correspond()
            .current_dir(dir)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit")
            .assert()
            .success();
    }
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(correspond().current_dir(dir).args(args))
}

#[test]
fn a_missing_file_suggests_the_names_nearly_its_own() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    game(dir);
    std::fs::create_dir(dir.join("club")).expect("mkdir");
    std::fs::copy(dir.join("g.yaml"), dir.join("club/round-1.yaml")).expect("copy");
    let refused = |args: &[&str], message: &str| {
        assert_eq!(
            run(dir, args),
            (2, String::new(), message.to_owned()),
            "{args:?}"
        );
    };
    refused(
        &["status", "g.yml"],
        "error: g.yml: No such file or directory (os error 2)\nhint: did you mean `g.yaml`?\n",
    );
    refused(
        &["log", "club/round1.yaml"],
        "error: club/round1.yaml: No such file or directory (os error 2)\nhint: did you mean \
         `club/round-1.yaml`?\n",
    );
    // A signing command says the same, before any key is looked for.
    refused(
        &["play", "g.yml", "e4", "--no-commit"],
        "error: g.yml: No such file or directory (os error 2)\nhint: did you mean `g.yaml`?\n",
    );
    // Nothing near: how to start a game.
    refused(
        &["show", "tournament.yaml"],
        "error: tournament.yaml: No such file or directory (os error 2)\nhint: check the path; \
         `correspond new` starts a game file\n",
    );
    // The commands over many files name the near names on the file's own line, and go on.
    assert_eq!(
        run(
            dir,
            &["verify", "club/round1.yaml", "g.yaml", "tournament.yaml"]
        ),
        (
            2,
            "club/round1.yaml: cannot read: No such file or directory (os error 2); did you mean \
             `club/round-1.yaml`?\n\
             g.yaml: valid: chess, alice (white) v bob (black), 1 record: in progress, alice \
             (white) to move\n\
             tournament.yaml: cannot read: No such file or directory (os error 2)\n\
             3 files: 1 valid, 0 invalid, 2 unreadable\n"
                .to_owned(),
            String::new()
        )
    );
    // A near name that is checked in the same command is not suggested again.
    assert_eq!(
        run(dir, &["verify", "./g.yaml", "g.yml"]),
        (
            2,
            "./g.yaml: valid: chess, alice (white) v bob (black), 1 record: in progress, alice \
             (white) to move\n\
             g.yml: cannot read: No such file or directory (os error 2)\n\
             2 files: 1 valid, 0 invalid, 1 unreadable\n"
                .to_owned(),
            String::new()
        )
    );
    let whole = dir.join("g.yaml");
    let (code, out, _) = run(dir, &["games", whole.to_str().expect("UTF-8"), "g.yml"]);
    assert_eq!(code, 2);
    assert!(
        out.ends_with("g.yml: cannot read: No such file or directory (os error 2)\n"),
        "{out}"
    );
    assert_eq!(
        run(dir, &["games", "g.yml"]),
        (
            2,
            "g.yml: cannot read: No such file or directory (os error 2); did you mean `g.yaml`?\n"
                .to_owned(),
            String::new()
        )
    );
}

#[test]
fn a_move_in_the_wrong_case_is_named_as_it_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    game(dir);
    let before = std::fs::read(dir.join("g.yaml")).expect("the file");
    let alice = keys_dir().join("alice");
    let key = alice.to_str().expect("UTF-8");
    assert_eq!(
        run(dir, &["play", "g.yaml", "nf3", "--key", key, "--no-commit"]),
        (
            1,
            String::new(),
            "error: g.yaml: nf3: `nf3` is not a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)\n\
             hint: did you mean `Nf3`?\n"
                .to_owned()
        )
    );
    // UCI in capitals is the move too, shown as the game shows it.
    assert_eq!(
        run(
            dir,
            &["play", "g.yaml", "G1F3", "--key", key, "--no-commit"]
        )
        .2,
        "error: g.yaml: G1F3: `G1F3` is not a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)\n\
         hint: did you mean `Nf3`?\n"
    );
    assert_eq!(std::fs::read(dir.join("g.yaml")).expect("the file"), before);
}

#[test]
fn everything_is_checked_before_a_passphrase_is_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let dora = keys_dir().join("dora.pub");
    let signed = |who: &str, args: &[&str], askpass: Option<&Path>| {
        let mut cmd = correspond();
        cmd.current_dir(dir)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit");
        if let Some(program) = askpass {
            cmd.env("SSH_ASKPASS", program)
                .env("SSH_ASKPASS_REQUIRE", "force");
        }
        transcript(&mut cmd)
    };
    // dora's key has a passphrase; the script gives it, where a test has no terminal.
    let askpass = dir.join("askpass");
    std::fs::write(&askpass, "#!/bin/sh\necho 'correct horse'\n").expect("write");
    std::fs::set_permissions(
        &askpass,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .expect("chmod");
    let new = [
        "new",
        "chess",
        "g.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "dora",
        "--opponent-key",
        dora.to_str().expect("UTF-8"),
    ];
    assert_eq!(signed("alice", &new, None).0, 0);
    assert_eq!(signed("dora", &["accept", "g.yaml"], Some(&askpass)).0, 0);
    assert_eq!(signed("alice", &["play", "g.yaml", "e4"], None).0, 0);
    let before = std::fs::read(dir.join("g.yaml")).expect("the file");
    // With no way to ask for the passphrase, what is wrong with the move is said first...
    assert_eq!(
        signed("dora", &["play", "g.yaml", "Zz9"], None),
        (
            1,
            String::new(),
            "error: g.yaml: Zz9: `Zz9` is not a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)\n"
                .to_owned()
        )
    );
    assert_eq!(
        signed("dora", &["claim-timeout", "g.yaml"], None),
        (
            1,
            String::new(),
            "error: g.yaml: this game has no time control: there is nothing to claim on time\n"
                .to_owned()
        )
    );
    // ...and only a record that would be signed needs the key.
    let (code, out, err) = signed("dora", &["play", "g.yaml", "e5"], None);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: cannot sign: ") && err.contains("is protected by a passphrase"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("g.yaml")).expect("the file"), before);
    assert_eq!(
        signed("dora", &["play", "g.yaml", "e5"], Some(&askpass)).0,
        0
    );
}

#[test]
fn moves_position_and_perft_start_from_a_game_files_current_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let sign = |who: &str, args: &[&str]| {
        let (code, _, err) = transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit"),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    };
    let bob = keys_dir().join("bob.pub");
    sign(
        "alice",
        &[
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
        ],
    );
    sign("bob", &["accept", "g.yaml"]);
    sign("alice", &["play", "g.yaml", "e4"]);
    let run = |args: &[&str]| transcript(correspond().current_dir(dir).args(args));
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(
        run(&["position", "g.yaml"]),
        (0, format!("{after_e4}\n"), String::new())
    );
    assert_eq!(
        run(&["moves", "g.yaml"]),
        run(&["moves", "chess", "--position", after_e4])
    );
    assert_eq!(
        run(&["position", "g.yaml", "e5"]),
        (
            0,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n".into(),
            String::new()
        )
    );
    assert_eq!(run(&["perft", "g.yaml", "1"]).1, "20\n");
    assert_eq!(
        run(&["moves", "g.yaml", "--position", after_e4]),
        (
            2,
            String::new(),
            "error: --position and --variant are for a game; a game file has its own position \
             and variants\n"
                .into()
        )
    );
    // A game that is over has no moves to play, whatever its last position would allow: said,
    // with where to see that position, for a resignation as for any other ending.
    sign("bob", &["resign", "g.yaml"]);
    let over = "g.yaml: no move can be played: game over: white wins: bob (black) resigned";
    assert_eq!(
        run(&["moves", "g.yaml"]),
        (
            1,
            String::new(),
            format!("error: {over}\nhint: `correspond position g.yaml` shows its last position\n")
        )
    );
    assert_eq!(run(&["moves", "g.yaml", "--json"]).0, 1);
    assert_eq!(
        run(&["position", "g.yaml"]),
        (0, format!("{after_e4}\n"), String::new())
    );
    let played = transcript(
        correspond()
            .current_dir(dir)
            .args(["play", "g.yaml", "e5", "--no-commit", "--key"])
            .arg(keys_dir().join("bob")),
    );
    assert_eq!(
        played,
        (
            1,
            String::new(),
            "error: g.yaml: you cannot move now: game over: white wins: bob (black) resigned\n"
                .to_owned()
        ),
        "a refusal names its file"
    );
}

#[test]
fn a_newcomer_without_a_key_is_told_how_to_make_one_and_a_private_key_given_as_the_opponents_is_caught()
 {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("mkdir");
    // No --key, no git signing key, nothing in ~/.ssh.
    let bob = keys_dir().join("bob.pub");
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .env("HOME", &home)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args([
                "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
            ])
            .args(["--opponent", "bob", "--opponent-key"])
            .arg(&bob)
            .arg("--no-commit"),
    );
    assert_eq!(
        (code, out.as_str(), err),
        (
            2,
            "",
            format!(
                "error: cannot sign: cannot read the key {}/.ssh/id_ed25519: No such file or \
                 directory (os error 2)\nhint: make a key with `ssh-keygen -t ed25519`, or \
                 choose one with --key PATH (or git's user.signingKey)\n",
                home.display()
            )
        )
    );
    // bob's private key where his public key belongs; bob.pub lies beside it.
    let (code, out, err) = transcript(
        correspond()
            .current_dir(keys_dir())
            .args(["new", "chess"])
            .arg(dir.path().join("g.yaml"))
            .args(["--name", "alice", "--side", "white", "--opponent", "bob"])
            .args(["--opponent-key", "bob", "--key", "alice", "--no-commit"]),
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: bob is a private key; a game file holds the opponent's public key\nhint: did \
             you mean bob.pub?\n"
        )
    );
    assert!(!dir.path().join("g.yaml").exists(), "nothing written");
}
