//! A game file that another program writes while a command holds it (a `git pull` while the
//! command waits for a passphrase, a sync tool, an editor): the command builds nothing over it
//! and overwrites nothing, and says to run it again.

use crate::util::{correspond, git, keys_dir, transcript};
use std::path::Path;

/// `correspond ARGS` in `dir`, with SSH_ASKPASS running `askpass` (a shell script's body) before
/// it answers dora's passphrase.
pub(crate) fn run(dir: &Path, args: &[&str], askpass: &str) -> (i32, String, String) {
    let script = dir.join("askpass");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncd '{}'\n{askpass}\necho 'correct horse'\n",
            dir.display()
        ),
    )
    .expect("write");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .expect("chmod");
    transcript(
        correspond()
            .current_dir(dir)
            .env("SSH_ASKPASS", &script)
            .env("SSH_ASKPASS_REQUIRE", "force")
            .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
            .args(args),
    )
}

/// A chess game in `dir/game.yaml` between alice (white) and dora, whose key has a passphrase,
/// started and accepted with `commit` (`--no-commit`, or nothing), and alice's copy of it,
/// `dir/alice.yaml`, one move on: the version a `git pull` would bring into dora's folder.
/// Returns dora's key and that version.
pub(crate) fn started(dir: &Path, commit: &[&str]) -> (String, String) {
    let key = |name: &str| keys_dir().join(name).to_str().expect("UTF-8").to_owned();
    let signed = |args: &[&str]| {
        let (code, out, err) = run(dir, args, "");
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    };
    let (alice, dora, dora_pub) = (key("alice"), key("dora"), key("dora.pub"));
    let mut new = vec![
        "new",
        "chess",
        "game.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "dora",
        "--opponent-key",
        &dora_pub,
        "--key",
        &alice,
    ];
    new.extend(commit);
    signed(&new);
    let mut accept = vec!["accept", "game.yaml", "--key", &dora];
    accept.extend(commit);
    signed(&accept);
    std::fs::copy(dir.join("game.yaml"), dir.join("alice.yaml")).expect("copy");
    signed(&["play", "alice.yaml", "e4", "--key", &alice, "--no-commit"]);
    let pulled = std::fs::read_to_string(dir.join("alice.yaml")).expect("read");
    (dora, pulled)
}

#[test]
fn a_record_that_arrives_while_a_command_waits_for_a_passphrase_is_not_overwritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let (dora, pulled) = started(dir, &["--no-commit"]);
    // dora resigns; while she types her passphrase, alice's move arrives.
    let (code, out, err) = run(
        dir,
        &["resign", "game.yaml", "--key", &dora, "--no-commit"],
        "cp alice.yaml game.yaml",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: game.yaml: it changed after this command read it: another program wrote it \
             (a `git pull`, a sync tool, an editor)\n\
             hint: nothing was signed; run the command again: it reads the file as it is now\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("game.yaml")).expect("read"),
        pulled,
        "the move that arrived is kept"
    );
    // Run again, the resignation is signed on top of the move.
    let (code, out, err) = run(
        dir,
        &["resign", "game.yaml", "--key", &dora, "--no-commit"],
        "",
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out,
        "record 3: dora (black) resigns; game over: white wins: dora (black) resigned\n\
         now: game over: white wins: dora (black) resigned\n"
    );
    let now = std::fs::read_to_string(dir.join("game.yaml")).expect("read");
    assert!(now.starts_with(&pulled), "appended to what arrived");
}

#[test]
fn a_version_committed_by_another_program_meanwhile_is_not_taken_back() {
    // As `git pull --autostash` leaves it: HEAD and the index hold alice's move, the work tree
    // dora's copy as her command read it. Her record is written on the copy she read, and not
    // committed over alice's move.
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "Dora"]);
    git(dir, &["config", "user.email", "dora@example.org"]);
    let (dora, pulled) = started(dir, &[]);
    let (code, out, err) = run(
        dir,
        &["resign", "game.yaml", "--key", &dora],
        "blob=$(git hash-object -w alice.yaml)\n\
         git update-index --cacheinfo \"100644,$blob,game.yaml\"\n\
         git commit -q -m 'game.yaml: alice plays e4' >&2",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: the file was written, but not committed: HEAD holds another version of \
             game.yaml than the one this command read: another program committed it \
             meanwhile\n\
             hint: the file holds the new record on top of the version this command read; to \
             set it beside git's: git show HEAD:game.yaml > committed.yaml && correspond compare \
             game.yaml committed.yaml\n"
        )
    );
    assert_eq!(
        git(dir, &["show", "HEAD:game.yaml"]),
        pulled,
        "alice's move stays"
    );
    // The hint's commands set the two versions side by side: they crossed.
    std::fs::write(dir.join("committed.yaml"), &pulled).expect("write");
    let (code, out, err) =
        transcript(
            correspond()
                .current_dir(dir)
                .args(["compare", "game.yaml", "committed.yaml"]),
        );
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    assert_eq!(
        out,
        "game.yaml and committed.yaml fork at record 2: dora signed resign in game.yaml (line \
         25), alice signed move e2e4 in committed.yaml (line 25)\n\
         both appended after record 1 before seeing the other's record: by the crossing rule \
         committed.yaml stands, since the game awaited alice, and dora's record 2 in game.yaml \
         is void; dora takes that copy and signs again on top of it if it still applies (by \
         mail, `correspond receive --settle` does both); in git the copy on the shared branch \
         stands instead\n"
    );
}
