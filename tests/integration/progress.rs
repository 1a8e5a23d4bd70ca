//! Progress on standard error: a command run with its standard error on a real pseudo-terminal
//! (Python's `pty`, tests/pty/run.py) shows it with `--progress always`, and shows nothing with
//! `never`, under `TERM=dumb` or in CI with `auto`; its standard output is byte for byte what it
//! is without progress; with standard error on a pipe, nothing of it is written at all.

use crate::util::{correspond, transcript};
use serde_json::Value;
use std::path::Path;

/// `correspond ARGS` from the repository's root, standard error on a pseudo-terminal:
/// (exit code, standard output, what the terminal received).
fn on_a_terminal(args: &[&str], env: &[(&str, &str)]) -> Option<(i64, String, String)> {
    on_a_pty(&[], args, env)
}

/// `correspond ARGS` from the repository's root with standard output on a pseudo-terminal:
/// (exit code, standard error, what the terminal received).
pub(crate) fn stdout_on_a_terminal(args: &[&str]) -> Option<(i64, String, String)> {
    on_a_pty(&["--stdout"], args, &[])
}

/// tests/pty/run.py with `mode` (see there) on `correspond ARGS`.
fn on_a_pty(mode: &[&str], args: &[&str], env: &[(&str, &str)]) -> Option<(i64, String, String)> {
    if !crate::util::tool_present(
        "python3",
        &["-c", "import pty"],
        "the progress tests need Python 3 with its pty module",
    ) {
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let program = assert_cmd::cargo::cargo_bin("correspond");
    let mut cmd = std::process::Command::new("python3");
    cmd.current_dir(root)
        .arg(root.join("tests/pty/run.py"))
        .args(mode)
        .arg(program)
        .args(args)
        .env_remove("CI")
        .env("TERM", "xterm");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    Some((
        json["code"].as_i64().expect("a code"),
        json["stdout"].as_str().expect("stdout").to_owned(),
        json["terminal"].as_str().expect("the terminal").to_owned(),
    ))
}

#[test]
fn progress_shows_on_a_terminal_and_nowhere_else() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (code, plain, err) = transcript(correspond().current_dir(root).args([
        "verify",
        "games/",
        "--progress",
        "never",
    ]));
    assert_eq!((code, err.as_str()), (0, ""));
    let Some((code, stdout, terminal)) =
        on_a_terminal(&["verify", "games/", "--progress", "always"], &[])
    else {
        return;
    };
    assert_eq!((code, stdout.as_str()), (0, plain.as_str()));
    assert!(
        terminal.contains("Checking [") && terminal.contains("/30 files"),
        "{terminal:?}"
    );
    // Not asked for, not on a dumb terminal, not in CI.
    for (flag, env) in [
        ("never", &[][..]),
        ("auto", &[("TERM", "dumb")][..]),
        ("auto", &[("CI", "true")][..]),
    ] {
        let (code, stdout, terminal) =
            on_a_terminal(&["verify", "games/", "--progress", flag], env).expect("python3");
        assert_eq!(
            (code, stdout.as_str(), terminal.as_str()),
            (0, plain.as_str(), ""),
            "{flag} {env:?}"
        );
    }
    // The other commands that check many files show it too, and print the same.
    for args in [
        &["standings", "games/"][..],
        &["ratings", "games/"],
        &[
            "tournament",
            "standings",
            "games/chess/club-championship-2026",
        ],
        &["audit", "games/chess"],
    ] {
        let (code, plain, _) = transcript(correspond().current_dir(root).args(args));
        let mut with = args.to_vec();
        with.extend(["--progress", "always"]);
        let (got, stdout, terminal) = on_a_terminal(&with, &[]).expect("python3");
        assert_eq!(
            (got, stdout.as_str()),
            (i64::from(code), plain.as_str()),
            "{args:?}"
        );
        assert!(terminal.contains(" ["), "{args:?}: {terminal:?}");
    }
    // On a pipe, `always` writes nothing to standard error.
    let (code, stdout, err) = transcript(correspond().current_dir(root).args([
        "verify",
        "games/",
        "--progress",
        "always",
    ]));
    assert_eq!(
        (code, stdout.as_str(), err.as_str()),
        (0, plain.as_str(), "")
    );
}
