//! Which key signs when no `--key` is given: the key of the game's player to act, wherever the
//! user holds it (git's `user.signingKey`, a running `ssh-agent`, `~/.ssh/id_ed25519`), and a
//! git `user.signingKey` that cannot sign (an OpenPGP key id) named rather than passed over in
//! silence.

use crate::util::{Agent, correspond, git, keygen, keys_dir, transcript};
use std::path::Path;

const TIME: &str = "2026-03-01T12:00:00Z";

/// A chess game alice (white) made against bob in `dir`, waiting for bob's acceptance.
fn pending_chess(dir: &Path) {
    let (code, _, stderr) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", TIME)
            .args([
                "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
            ])
            .args(["--opponent", "bob", "--opponent-key"])
            .arg(keys_dir().join("bob.pub"))
            .arg("--key")
            .arg(keys_dir().join("alice"))
            .arg("--no-commit"),
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
}

/// `correspond ARGS` in `dir` with no `--key`, HOME set to `home` and git's global
/// configuration left out, through the agent when there is one.
fn run(dir: &Path, home: &Path, agent: Option<&Agent>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = correspond();
    cmd.current_dir(dir)
        .env("CORRESPOND_TIME", TIME)
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", home.join("no-such-config"))
        .args(args);
    if let Some(agent) = agent {
        cmd.env("SSH_AUTH_SOCK", &agent.socket);
    }
    let (code, stdout, stderr) = transcript(&mut cmd);
    let home = home.display().to_string();
    (
        code,
        stdout.replace(&home, "HOME"),
        stderr.replace(&home, "HOME"),
    )
}

/// Who signed each record of `dir/g.yaml`, as `log` names them.
fn signers(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("g.yaml")).expect("read the game");
    text.lines()
        .filter_map(|l| l.strip_prefix("signer: "))
        .map(|name| name.trim_matches('"').to_owned())
        .collect()
}

#[test]
fn the_agent_key_of_the_player_to_act_signs_before_id_ed25519() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    pending_chess(dir.path());
    // A key of the user's own that is no player's, where OpenSSH keeps one.
    std::fs::create_dir_all(home.path().join(".ssh")).expect(".ssh");
    keygen(&home.path().join(".ssh"), "id_ed25519");
    let agent = Agent::start(dir.path());
    agent.hold("carol");
    agent.hold("bob");
    assert_eq!(
        run(
            dir.path(),
            home.path(),
            Some(&agent),
            &["accept", "g.yaml", "--no-commit"]
        ),
        (
            0,
            "record 1: bob (black) accepted\nnow: alice (white) to move\n".to_owned(),
            String::new()
        )
    );
    assert_eq!(signers(dir.path()), ["bob"]);
}

#[test]
fn one_user_holding_both_keys_in_the_agent_signs_for_the_player_to_act() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    pending_chess(dir.path());
    let agent = Agent::start(dir.path());
    agent.hold("alice");
    agent.hold("bob");
    let home = home.path();
    for args in [
        ["accept", "g.yaml", "--no-commit"].as_slice(),
        &["play", "g.yaml", "e4", "--no-commit"],
        &["play", "g.yaml", "e5", "--no-commit"],
    ] {
        let (code, _, stderr) = run(dir.path(), home, Some(&agent), args);
        assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}");
    }
    assert_eq!(signers(dir.path()), ["bob", "alice", "bob"]);
    // A key the agent holds that is no player's is not taken for one.
    let other = tempfile::tempdir().expect("temp dir");
    pending_chess(other.path());
    let carol = Agent::start(other.path());
    carol.hold("carol");
    assert_eq!(
        run(
            other.path(),
            home,
            Some(&carol),
            &["accept", "g.yaml", "--no-commit"]
        ),
        (
            2,
            String::new(),
            "error: cannot sign: cannot read the key HOME/.ssh/id_ed25519: No such file or \
             directory (os error 2)\n\
             hint: make a key with `ssh-keygen -t ed25519`, or choose one with --key PATH (or \
             git's user.signingKey)\n"
                .to_owned()
        )
    );
}

#[test]
fn an_openpgp_signing_key_is_named_when_no_key_signs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    pending_chess(dir.path());
    git(dir.path(), &["init", "-q"]);
    git(
        dir.path(),
        &["config", "user.signingKey", "3AA5C34371567BD2"],
    );
    let accept = ["accept", "g.yaml", "--no-commit"];
    assert_eq!(
        run(dir.path(), home.path(), None, &accept),
        (
            2,
            String::new(),
            "error: cannot sign: cannot read the key HOME/.ssh/id_ed25519: No such file or \
             directory (os error 2)\n\
             hint: git's user.signingKey `3AA5C34371567BD2` is an OpenPGP key (gpg.format is \
             not set), and records are signed with SSH keys only, so it was passed over\n\
             hint: make a key with `ssh-keygen -t ed25519`, or choose one with --key PATH (or \
             git's user.signingKey)\n"
                .to_owned()
        )
    );
    // A key of the user's that is no player's: the refusal names the OpenPGP key too.
    std::fs::create_dir_all(home.path().join(".ssh")).expect(".ssh");
    let own = keygen(&home.path().join(".ssh"), "id_ed25519");
    let (code, stdout, stderr) = run(dir.path(), home.path(), None, &accept);
    let fingerprint = fingerprint_of(&own.with_extension("pub"));
    assert_eq!(
        (code, stdout.as_str(), stderr),
        (
            2,
            "",
            format!(
                "error: the key {fingerprint} is not a player's key in this game (alice \
                 SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w, bob \
                 SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U)\n\
                 hint: choose your key with --key PATH\n\
                 hint: git's user.signingKey `3AA5C34371567BD2` is an OpenPGP key (gpg.format \
                 is not set), and records are signed with SSH keys only, so it was passed over\n"
            )
        )
    );
    // With gpg.format = ssh, a path that holds no key is named as such.
    git(dir.path(), &["config", "gpg.format", "ssh"]);
    git(dir.path(), &["config", "user.signingKey", "~/.ssh/gone"]);
    let (code, _, stderr) = run(dir.path(), home.path(), None, &accept);
    assert_eq!(
        (code, stderr.lines().last()),
        (
            2,
            Some(
                "hint: git's user.signingKey names HOME/.ssh/gone, which is not an SSH key file \
                 that can be read, so it was passed over"
            )
        )
    );
    // bob's key where OpenSSH keeps one: it signs, and the OpenPGP key is no obstacle.
    std::fs::copy(keys_dir().join("bob"), &own).expect("copy");
    std::fs::copy(keys_dir().join("bob.pub"), own.with_extension("pub")).expect("copy");
    let (code, _, stderr) = run(dir.path(), home.path(), None, &accept);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(signers(dir.path()), ["bob"]);
}

#[test]
fn games_mine_finds_the_games_that_wait_for_any_key_the_agent_holds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    pending_chess(dir.path());
    let agent = Agent::start(dir.path());
    agent.hold("carol");
    let mine = ["games", "--mine"];
    assert_eq!(
        run(dir.path(), home.path(), Some(&agent), &mine),
        (0, "no game waits for you\n".to_owned(), String::new())
    );
    agent.hold("bob");
    let (code, stdout, stderr) = run(dir.path(), home.path(), Some(&agent), &mine);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "g.yaml: chess, alice (white) v bob (black)\n  \
         waiting for bob (black) to accept the game; last record 2026-03-01T12:00:00Z\n  \
         next: bob (black): correspond accept g.yaml\n"
    );
}

fn fingerprint_of(public: &Path) -> String {
    let text = std::fs::read_to_string(public).expect("read the public key");
    let key = ssh_key::PublicKey::from_openssh(text.trim()).expect("a public key");
    key.fingerprint(ssh_key::HashAlg::Sha256).to_string()
}

#[test]
fn a_claim_on_time_is_signed_by_the_player_the_game_does_not_wait_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", TIME)
            .args([
                "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
            ])
            .args([
                "--opponent",
                "bob",
                "--time-control",
                "3/move",
                "--opponent-key",
            ])
            .arg(keys_dir().join("bob.pub"))
            .arg("--key")
            .arg(keys_dir().join("alice"))
            .arg("--no-commit"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let agent = Agent::start(dir.path());
    agent.hold("alice");
    agent.hold("bob");
    for args in [["accept", "g.yaml"], ["play", "g.yaml"]] {
        let mut all = args.to_vec();
        if args[0] == "play" {
            all.push("e4");
        }
        all.push("--no-commit");
        let (code, _, err) = run(dir.path(), home.path(), Some(&agent), &all);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    }
    // bob is past his deadline; the game waits for him, and alice claims.
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-03-05T12:00:00Z")
            .env("HOME", home.path())
            .env("GIT_CONFIG_GLOBAL", home.path().join("none"))
            .env("SSH_AUTH_SOCK", &agent.socket)
            .args(["claim-timeout", "g.yaml", "--no-commit"]),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(signers(dir.path()), ["bob", "alice", "alice"]);
}

/// An agent that takes the connection and never answers: the command goes on without it.
#[test]
fn an_agent_that_never_answers_is_no_agent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("silent.sock");
    let mut silent = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import socket, sys, time\n\
             s = socket.socket(socket.AF_UNIX)\n\
             s.bind(sys.argv[1]); s.listen(8)\n\
             held = []\n\
             while True:\n    c, _ = s.accept(); held.append(c)\n",
        )
        .arg(&socket)
        .spawn()
        .expect("python3");
    for _ in 0..200 {
        if socket.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let home = tempfile::tempdir().expect("home");
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/chess/threefold-repetition-claimed.yaml");
    let (code, out, err) = transcript(
        correspond()
            .env("HOME", home.path())
            .env("GIT_CONFIG_GLOBAL", home.path().join("none"))
            .env("SSH_AUTH_SOCK", &socket)
            .arg("show")
            .arg(&game)
            .arg("--ascii")
            .timeout(std::time::Duration::from_secs(60)),
    );
    let _ = silent.kill();
    let _ = silent.wait();
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("position: "), "{out}");
}
