//! The commands against awkward files and folders: links, loops, pipes, empty folders, damage
//! after the part being read.

use crate::util::{correspond, keys_dir};
use std::os::unix::fs::symlink;
use std::path::Path;

fn game(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/campaign")
        .join(name)
}

#[test]
fn verify_walks_folders_without_following_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    std::fs::create_dir(&games).expect("folder");
    std::fs::copy(game("resignation.yaml"), games.join("one.yaml")).expect("copy");
    symlink(".", games.join("loop1")).expect("link");
    symlink(".", games.join("loop2")).expect("link");
    symlink(game("fact-check.yaml"), games.join("linked.yaml")).expect("link");
    std::fs::create_dir(games.join("folder.yaml")).expect("a folder named like a game");
    let out = correspond()
        .current_dir(dir.path())
        .args(["verify", "games"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.ends_with("1 file: 1 valid, 0 invalid\n"), "{text}");
    // A link named on the command line is followed: the user asked for it.
    let out = correspond()
        .current_dir(dir.path())
        .args(["verify", "games/linked.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn verify_refuses_what_is_not_a_game_file_and_says_when_nothing_was_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("folder");
    let out = correspond()
        .arg("verify")
        .arg(&empty)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game files to check"));
    let fifo = dir.path().join("pipe.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let out = correspond()
        .arg("verify")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("cannot read: not a regular file"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = correspond()
        .args(["verify", "/dev/zero"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_move_through_a_link_grows_the_game_file_and_keeps_the_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("real.yaml");
    let out = correspond()
        .env("CORRESPOND_TIME", "2026-01-01T00:00:00Z")
        .args(["new", "campaign"])
        .arg(&target)
        .args([
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--no-commit",
            "--opponent-key",
        ])
        .arg(keys_dir().join("bob.pub"))
        .arg("--key")
        .arg(keys_dir().join("alice"))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let link = dir.path().join("link.yaml");
    symlink(&target, &link).expect("link");
    let out = correspond()
        .arg("accept")
        .arg(&link)
        .arg("--no-commit")
        .arg("--key")
        .arg(keys_dir().join("bob"))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    let summary = correspond::games::verify(&std::fs::read(&target).expect("read")).expect("valid");
    assert_eq!(summary.records, 1);
}

#[test]
fn extract_reads_only_up_to_the_document_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(game("resignation.yaml")).expect("read");
    let damaged = dir.path().join("damaged.yaml");
    std::fs::write(
        &damaged,
        format!("{}kind: kind: ~\n", &text[..text.len() - 1]),
    )
    .expect("write");
    let out = correspond()
        .arg("extract")
        .arg(&damaged)
        .args(["3", "--signed-bytes"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clean = correspond()
        .arg("extract")
        .arg(game("resignation.yaml"))
        .args(["3", "--signed-bytes"])
        .output()
        .expect("run");
    assert_eq!(out.stdout, clean.stdout);
    let out = correspond()
        .arg("extract")
        .arg(&damaged)
        .args(["5", "--allowed-signers"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = correspond()
        .arg("extract")
        .arg(game("resignation.yaml"))
        .args(["99", "--signature"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("there is no document 99: the file has documents 0 to 11"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Balances count each game once, however many copies a folder holds, and belong to keys, not
/// names: a stranger calling herself alice neither adds to nor takes from alice's balance.
#[test]
fn balances_count_each_game_once_and_belong_to_keys() {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys = keys_dir();
    let key = |who: &str| keys.join(who).display().to_string();
    for copy in ["a.yaml", "b.yaml"] {
        std::fs::copy(game("run-off-bare-candidates.yaml"), dir.path().join(copy)).expect("copy");
    }
    // carol's key, under the name alice, plays bob for keeps, and resigns after his first move.
    let steps: [&[&str]; 4] = [
        &[
            "new",
            "campaign",
            "c.yaml",
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--opponent-key",
            &key("bob.pub"),
            "--variant",
            "playing-for-keeps",
            "--key",
            &key("carol"),
        ],
        &["accept", "c.yaml", "--key", &key("bob")],
        &["reveal", "c.yaml", "--key", &key("carol")],
        &["play", "c.yaml", "c6c5", "--key", &key("bob")],
    ];
    let sign = |args: &[&str]| {
        correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-06-01T10:00:00Z")
            .args(args)
            .arg("--no-commit")
            .assert()
            .success();
    };
    for args in steps {
        sign(args);
    }
    let before_resigning = std::fs::read(dir.path().join("c.yaml")).expect("read");
    sign(&["resign", "c.yaml", "--key", &key("carol")]);
    let out = correspond()
        .current_dir(dir.path())
        .args(["verify", "."])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let verified = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        verified,
        "./a.yaml: valid: campaign, alice (heads) v bob (tails), 82 records: heads wins: run-off: \
         bare candidates (the coin showed heads)\n  stakes: alice 85¢, bob 60¢\n\
         ./b.yaml: valid: campaign, alice (heads) v bob (tails), 82 records: heads wins: run-off: \
         bare candidates (the coin showed heads)\n  stakes: alice 85¢, bob 60¢\n\
         ./c.yaml: valid: campaign, alice (heads) v bob (tails), 4 records: tails wins: alice \
         (heads) resigned\n  stakes: alice 60¢, bob 60¢\n\
         playing for keeps, balances: \
         alice SHA256:0LfYJQ9mKakoqO6Wwop8fxBWNHS1ZPaQVYyH6YnC/PQ -60¢, \
         alice SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w +60¢, \
         bob SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U +0¢\n\
         3 files: 3 valid, 0 invalid\n"
    );
    // A copy of that game in which bob resigned instead: one game, two results, the copies
    // forking at the resignation. Neither counts.
    std::fs::write(dir.path().join("d.yaml"), before_resigning).expect("write");
    sign(&["resign", "d.yaml", "--key", &key("bob")]);
    let out = correspond()
        .current_dir(dir.path())
        .args(["verify", "."])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with(
            "playing for keeps, balances: \
             alice SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w +60¢, \
             bob SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U -60¢\n\
             ./c.yaml and ./d.yaml are copies of one game that fork at record 4, signed by \
             alice in one and bob in the other (`correspond compare ./c.yaml ./d.yaml` says \
             which stands)\n\
             4 files: 4 valid, 0 invalid\n"
        ),
        "{text}"
    );
}
