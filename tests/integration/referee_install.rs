//! `correspond referee install`: only into a bare repository whose games all verify, never over
//! someone else's hook, and again over its own with new terms.

use crate::util::{correspond, git, transcript};

#[test]
fn the_referee_goes_only_where_it_can_hold_every_game_already_there() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let install = |args: &[&str]| {
        transcript(
            correspond()
                .current_dir(dir)
                .args(["referee", "install"])
                .args(args),
        )
    };
    // A clone with a work tree is not where players push.
    git(dir, &["init", "-q", "-b", "main", "work"]);
    let hint = "hint: the referee guards the repository players push to, made with `git init \
                --bare`\n";
    assert_eq!(
        install(&["work"]),
        (
            2,
            String::new(),
            format!("error: work is a repository with a work tree, not a bare one\n{hint}")
        )
    );
    assert_eq!(
        install(&["nowhere"]),
        (
            2,
            String::new(),
            format!("error: nowhere is not a git repository\n{hint}")
        )
    );
    // A repository holding a game that does not verify: no record could mend it.
    git(dir, &["init", "-q", "--bare", "-b", "main", "club.git"]);
    git(dir, &["clone", "-q", "club.git", "clone"]);
    let clone = dir.join("clone");
    std::fs::create_dir(clone.join("games")).expect("mkdir");
    let invalid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid");
    for name in ["illegal-move.yaml", "gap.yaml"] {
        std::fs::copy(invalid.join(name), clone.join("games").join(name)).expect("copy");
    }
    std::fs::write(clone.join("compose.yml"), "services: {}\n").expect("write");
    git(&clone, &["add", "."]);
    git(
        &clone,
        &[
            "-c",
            "user.name=c",
            "-c",
            "user.email=c@example.org",
            "commit",
            "-q",
            "-m",
            "games",
        ],
    );
    git(&clone, &["push", "-q", "origin", "HEAD:main"]);
    let (code, out, err) = install(&["club.git"]);
    assert_eq!((code, out.as_str()), (1, ""));
    let gap = correspond::games::verify(&std::fs::read(invalid.join("gap.yaml")).expect("read"))
        .expect_err("invalid");
    let illegal =
        correspond::games::verify(&std::fs::read(invalid.join("illegal-move.yaml")).expect("read"))
            .expect_err("invalid");
    assert_eq!(
        err,
        format!(
            "error: 2 game files on club.git do not verify, and no record appended could mend \
             them\nhint: refs/heads/main: games/gap.yaml: {gap}\nhint: refs/heads/main: \
             games/illegal-move.yaml: {illegal}\nhint: move those games out of the branches, \
             then try again\n"
        )
    );
    for hook in ["pre-receive", "reference-transaction"] {
        assert!(
            !dir.join("club.git/hooks").join(hook).exists(),
            "nothing installed"
        );
    }
    // Someone else's hook is left as it is.
    git(dir, &["init", "-q", "--bare", "-b", "main", "other.git"]);
    let theirs = dir.join("other.git/hooks/pre-receive");
    std::fs::write(&theirs, "#!/bin/sh\nexit 0\n").expect("write");
    let (code, out, err) = install(&["other.git"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(
            "error: other.git/hooks/pre-receive is there already, and is not the referee's; \
             nothing was installed\nhint: run the referee from it: pass its arguments and \
             standard input to `'"
        ) && err.ends_with(
            "' referee hook --max-skew 10 --wait 60` and exit non-zero when that does\n"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).expect("read"),
        "#!/bin/sh\nexit 0\n"
    );
    // The referee's own hook is replaced, with the new terms.
    std::fs::remove_file(&theirs).expect("remove");
    assert_eq!(install(&["other.git"]).0, 0);
    let (code, out, err) = install(&["other.git", "--max-skew", "3"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "installed the referee as the pre-receive and reference-transaction hooks of \
             other.git: pushes that break a game's rules are refused, one at a time, and \
             records must be dated within 3 minutes of this server's clock\nchecked 0 game \
             files on 0 branches: all valid, each game one line; the index holds 0 games\n",
            ""
        )
    );
    let hook = std::fs::read_to_string(&theirs).expect("the hook");
    assert!(
        hook.ends_with(" referee hook --max-skew 3 --wait 60\n"),
        "{hook}"
    );
    let transaction =
        std::fs::read_to_string(dir.join("other.git/hooks/reference-transaction")).expect("read");
    assert!(
        transaction.ends_with(" referee transaction \"$1\"\n"),
        "{transaction}"
    );
    assert_eq!(
        install(&["other.git", "--max-skew", "0"]).0,
        2,
        "at least a minute"
    );
}
