//! What the benchmarks share: the test keys, and a Campaign game's opening made by the
//! program itself.

use correspond::sign::KeySigner;
use std::path::Path;
use std::process::Command;

/// A test key from tests/keys, as a signer.
pub fn key(name: &str) -> KeySigner {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/keys")
        .join(name);
    KeySigner::new(ssh_key::PrivateKey::read_openssh_file(&path).expect("a test key"))
        .expect("ed25519")
}

/// The game's header, acceptance and toss, written to `file` in `dir` by the program itself;
/// heads to move. Returns the file's text.
pub fn opening(dir: &Path, file: &Path) -> String {
    let keys = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/keys");
    let run = |who: &str, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_correspond"))
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-01-01T00:00:00Z")
            .args(args)
            .arg("--key")
            .arg(keys.join(who))
            .arg("--no-commit")
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let path = file.to_str().expect("UTF-8");
    let bob = keys.join("bob.pub");
    run(
        "alice",
        &[
            "new",
            "campaign",
            path,
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--opponent-key",
            bob.to_str().expect("UTF-8"),
        ],
    );
    run("bob", &["accept", path]);
    if run("alice", &["reveal", path]).contains("bob (tails) wins the toss") {
        run("bob", &["play", path, "--defer"]);
    }
    std::fs::read_to_string(file).expect("the opening")
}
