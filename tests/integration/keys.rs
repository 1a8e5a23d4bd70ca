//! Choosing the signing key: `--key`, git's `user.signingKey`, `~/.ssh/id_ed25519`;
//! passphrase-protected keys (through SSH_ASKPASS); and keys held by a real `ssh-agent`.

use crate::util::{Agent, correspond, git, keygen, keys_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A new game by alice, waiting for its opponent (whose public key is given) to accept: each
/// test signs that `accept` with a key found in another way. Returns (folder, game file).
fn pending_game(bob_pub: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = dir.path().join("game.yaml");
    let out = correspond()
        .args(["new", "campaign"])
        .arg(&game)
        .args([
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--opponent-key",
        ])
        .arg(bob_pub)
        .arg("--key")
        .arg(keys_dir().join("alice"))
        .arg("--no-commit")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, game)
}

fn accepted(game: &Path) -> bool {
    correspond::games::verify(&std::fs::read(game).expect("read")).is_ok_and(|s| s.records == 1)
}

#[test]
fn the_default_key_is_home_ssh_id_ed25519() {
    let home = tempfile::tempdir().expect("home");
    let ssh = home.path().join(".ssh");
    std::fs::create_dir_all(&ssh).expect(".ssh");
    let key = keygen(&ssh, "id_ed25519");
    let (_dir, game) = pending_game(&key.with_extension("pub"));
    let out = correspond()
        .env("HOME", home.path())
        .arg("accept")
        .arg(&game)
        .arg("--no-commit")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted(&game));
}

#[test]
fn with_no_key_anywhere_the_error_says_where_it_looked() {
    let home = tempfile::tempdir().expect("home");
    let (_dir, game) = pending_game(&keys_dir().join("bob.pub"));
    let out = correspond()
        .env("HOME", home.path())
        .arg("accept")
        .arg(&game)
        .arg("--no-commit")
        .output()
        .expect("run");
    let err =
        String::from_utf8_lossy(&out.stderr).replace(&home.path().display().to_string(), "HOME");
    assert_eq!(
        (out.status.code(), err.as_str()),
        (
            Some(2),
            "error: cannot sign: cannot read the key HOME/.ssh/id_ed25519: No such file or \
             directory (os error 2)\n\
             hint: make a key with `ssh-keygen -t ed25519`, or choose one with --key PATH (or \
             git's user.signingKey)\n"
        )
    );
    assert!(!accepted(&game));
}

#[test]
fn a_file_that_does_not_verify_is_said_before_any_key_is_looked_for() {
    // With no key anywhere and a header changed after signing, the file is what is wrong
    // first: no key is loaded (and so no passphrase asked for) to sign onto it.
    let home = tempfile::tempdir().expect("home");
    let (dir, game) = pending_game(&keys_dir().join("bob.pub"));
    let text = std::fs::read_to_string(&game).expect("read");
    let salt = text.find("salt: ").expect("a salt") + "salt: ".len();
    let digit = if &text[salt..=salt] == "0" { "1" } else { "0" };
    let mut tampered = text.clone();
    tampered.replace_range(salt..=salt, digit);
    std::fs::write(&game, &tampered).expect("write");
    let out = correspond()
        .current_dir(dir.path())
        .env("HOME", home.path())
        .args(["accept", "game.yaml", "--no-commit"])
        .output()
        .expect("run");
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (
            Some(1),
            "error: game.yaml does not verify: header (line 4): bad signature: the signature \
             does not match the signed bytes\n\
             hint: `git log -p game.yaml` shows who changed what, if the file is in git\n\
             hint: nothing was written\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&game).expect("read"), tampered);
}

#[test]
fn git_user_signing_key_names_the_key() {
    let (dir, game) = pending_game(&keys_dir().join("bob.pub"));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["config", "user.name", "Bob"]);
    git(dir.path(), &["config", "user.email", "bob@example.invalid"]);
    git(dir.path(), &["config", "gpg.format", "ssh"]);
    let key = keys_dir().join("bob");
    git(
        dir.path(),
        &["config", "user.signingKey", key.to_str().expect("UTF-8")],
    );
    let home = tempfile::tempdir().expect("home");
    let out = correspond()
        .env("HOME", home.path())
        .env("GIT_CONFIG_GLOBAL", home.path().join("none"))
        .arg("accept")
        .arg(&game)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted(&game));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("committed "),
        "committed in the repository"
    );
}

/// A script that answers SSH_ASKPASS with a fixed passphrase.
fn askpass(dir: &Path, passphrase: &str) -> PathBuf {
    let script = dir.join(format!("askpass-{}", passphrase.len()));
    std::fs::write(&script, format!("#!/bin/sh\necho '{passphrase}'\n")).expect("write");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .expect("chmod");
    script
}

#[test]
fn a_passphrase_protected_key_is_unlocked_through_askpass() {
    let (dir, game) = pending_game(&keys_dir().join("dora.pub"));
    let run = |askpass: Option<PathBuf>| {
        let mut cmd = correspond();
        cmd.arg("accept")
            .arg(&game)
            .arg("--no-commit")
            .arg("--key")
            .arg(keys_dir().join("dora"));
        if let Some(program) = askpass {
            cmd.env("SSH_ASKPASS", program)
                .env("SSH_ASKPASS_REQUIRE", "force");
        }
        cmd.output().expect("run")
    };
    // Whole transcripts, the project's folder written ROOT.
    let refused = |out: std::process::Output| {
        let err = String::from_utf8_lossy(&out.stderr).replace(env!("CARGO_MANIFEST_DIR"), "ROOT");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            err,
        )
    };
    assert_eq!(
        refused(run(None)),
        (
            Some(2),
            String::new(),
            "error: cannot sign: ROOT/tests/keys/dora is protected by a passphrase and there is \
             no terminal to ask for it\n\
             hint: run it from a terminal, load the key into ssh-agent (ssh-add), or set \
             SSH_ASKPASS with SSH_ASKPASS_REQUIRE=force\n"
                .to_owned()
        )
    );
    assert_eq!(
        refused(run(Some(askpass(dir.path(), "wrong")))),
        (
            Some(2),
            String::new(),
            "error: cannot sign: the passphrase for ROOT/tests/keys/dora is wrong\n\
             hint: nothing was signed; run the command again with the key's passphrase \
             (`ssh-keygen -y -f ROOT/tests/keys/dora` checks it)\n"
                .to_owned()
        )
    );
    assert!(!accepted(&game));
    // A program that answers nothing is named, not taken for a missing terminal.
    let failing = dir.path().join("askpass-failing");
    std::fs::write(&failing, "#!/bin/sh\nexit 1\n").expect("write");
    std::fs::set_permissions(
        &failing,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .expect("chmod");
    assert_eq!(
        refused(run(Some(failing.clone()))),
        (
            Some(2),
            String::new(),
            format!(
                "error: cannot sign: ROOT/tests/keys/dora is protected by a passphrase, and \
                 SSH_ASKPASS ({}) gave none\n\
                 hint: check that the program runs and prints the passphrase, or unset \
                 SSH_ASKPASS_REQUIRE to be asked on the terminal\n",
                failing.display()
            )
        )
    );
    assert!(!accepted(&game));
    let out = run(Some(askpass(dir.path(), "correct horse")));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted(&game));
    let text = std::fs::read_to_string(&game).expect("read");
    assert!(
        !text.contains("PRIVATE KEY") && !text.contains("correct horse"),
        "no secret in the file"
    );
}

#[test]
fn a_key_held_by_ssh_agent_signs_without_its_private_file() {
    let (dir, game) = pending_game(&keys_dir().join("bob.pub"));
    let agent = Agent::start(dir.path());
    // ssh-add refuses private keys readable by others; a copy with strict permissions.
    let private = dir.path().join("bob");
    std::fs::copy(keys_dir().join("bob"), &private).expect("copy");
    std::fs::set_permissions(
        &private,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .expect("chmod");
    agent.add(&private, None);
    std::fs::remove_file(&private).expect("remove the private key");
    let public = dir.path().join("only.pub");
    std::fs::copy(keys_dir().join("bob.pub"), &public).expect("copy");
    let out = correspond()
        .env("SSH_AUTH_SOCK", &agent.socket)
        .arg("accept")
        .arg(&game)
        .args(["--no-commit", "--key"])
        .arg(&public)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted(&game));
    // Without the agent, a public key alone cannot sign.
    let (_dir3, game3) = pending_game(&keys_dir().join("bob.pub"));
    let out = correspond()
        .arg("accept")
        .arg(&game3)
        .args(["--no-commit", "--key"])
        .arg(&public)
        .output()
        .expect("run");
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr)),
        (
            Some(2),
            "error: cannot sign: no private key for \
             SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U: give the private key file, or \
             load the key into ssh-agent\n"
                .into()
        )
    );
}

#[test]
fn an_agent_holding_an_encrypted_key_spares_the_passphrase() {
    let (dir, game) = pending_game(&keys_dir().join("dora.pub"));
    let agent = Agent::start(dir.path());
    let private = dir.path().join("dora");
    std::fs::copy(keys_dir().join("dora"), &private).expect("copy");
    std::fs::set_permissions(
        &private,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .expect("chmod");
    agent.add(&private, Some(&askpass(dir.path(), "correct horse")));
    let out = correspond()
        .env("SSH_AUTH_SOCK", &agent.socket)
        .arg("accept")
        .arg(&game)
        .args(["--no-commit", "--key"])
        .arg(&private)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted(&game));
}

/// Keys of other kinds, made by `ssh-keygen`, are named as such wherever they are met: the
/// opponent's key, the signing key (private or public file), and a key in a header.
#[test]
fn keys_that_are_not_ed25519_are_named_by_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (kind, name) in [("ecdsa", "ec"), ("rsa", "rsa")] {
        let status = Command::new("ssh-keygen")
            .args(["-q", "-t", kind, "-N", "", "-f"])
            .arg(dir.path().join(name))
            .status()
            .expect("ssh-keygen");
        assert!(status.success());
    }
    let new = |opponent: &str, key: &Path| {
        let out = correspond()
            .current_dir(dir.path())
            .args([
                "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
            ])
            .args(["--opponent", "bob", "--opponent-key", opponent, "--key"])
            .arg(key)
            .arg("--no-commit")
            .output()
            .expect("run");
        assert!(out.stdout.is_empty());
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let alice = keys_dir().join("alice");
    let bob_pub = keys_dir().join("bob.pub");
    let bob_pub = bob_pub.to_str().expect("UTF-8");
    assert_eq!(
        new("ec.pub", &alice),
        (
            Some(2),
            "error: ec.pub is an ECDSA key (ecdsa-sha2-nistp256); correspond signs with Ed25519 \
             keys only\nhint: ask your opponent for an Ed25519 key (made with `ssh-keygen -t \
             ed25519`)\n"
                .to_owned()
        )
    );
    // Given inline, the key is named the same way.
    let inline = std::fs::read_to_string(dir.path().join("ec.pub")).expect("read");
    assert!(
        new(inline.trim(), &alice)
            .1
            .starts_with("error: the key given is an ECDSA key (ecdsa-sha2-nistp256);"),
        "inline"
    );
    assert_eq!(
        new("rsa.pub", &alice).1,
        "error: rsa.pub is an RSA key (ssh-rsa); correspond signs with Ed25519 keys only\nhint: \
         ask your opponent for an Ed25519 key (made with `ssh-keygen -t ed25519`)\n"
    );
    for own in ["ec", "ec.pub"] {
        assert_eq!(
            new(bob_pub, &dir.path().join(own)),
            (
                Some(2),
                format!(
                    "error: cannot sign: {} is an ECDSA key (ecdsa-sha2-nistp256); correspond \
                     signs with Ed25519 keys only\nhint: make an Ed25519 key (ssh-keygen -t \
                     ed25519) and choose it with --key PATH\n",
                    dir.path().join(own).display()
                )
            )
        );
    }
    assert!(!dir.path().join("g.yaml").exists());
    // In a header: bob's key swapped for the ECDSA one.
    let game = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/resignation.yaml"),
    )
    .expect("read");
    let bob_key = std::fs::read_to_string(keys_dir().join("bob.pub")).expect("read");
    let bob_key: Vec<&str> = bob_key.split_whitespace().take(2).collect();
    let ec_key = std::fs::read_to_string(dir.path().join("ec.pub")).expect("read");
    let ec_key: Vec<&str> = ec_key.split_whitespace().take(2).collect();
    std::fs::write(
        dir.path().join("bad.yaml"),
        game.replace(&bob_key.join(" "), &ec_key.join(" ")),
    )
    .expect("write");
    let out = correspond()
        .current_dir(dir.path())
        .args(["verify", "bad.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "bad.yaml: INVALID: header (line 4): unreadable: the key of bob is an ECDSA key \
         (ecdsa-sha2-nistp256); game files use Ed25519 keys, whose signatures are \
         deterministic\n1 file: 0 valid, 1 invalid\n"
    );
}
