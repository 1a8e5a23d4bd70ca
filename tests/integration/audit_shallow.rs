//! Histories an audit cannot see whole: a shallow clone (CI's default) and a grafted one.
//! Neither may pass: a rewrite can hide where the history was cut.

use crate::disputes::{Club, before_document, file, write};
use crate::util::{correspond, git};

#[test]
fn an_audit_that_cannot_see_the_whole_history_does_not_pass() {
    // The shared branch holds a take-back: alice removed her Nf3 and played d4 instead.
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    write(&club, "alice", before_document(&file(&club, "alice"), 4));
    club.git("alice", &["commit", "-q", "-am", "take back"]);
    club.sign_elsewhere("alice", &["play", "game.yaml", "d4"]);
    club.git("alice", &["push", "-q"]);
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 1, "{out}");
    // CI's default: a clone of depth 1. It holds one commit and must not call that clean.
    let origin = format!("file://{}", club.dir.path().join("origin.git").display());
    git(
        club.dir.path(),
        &["clone", "-q", "--depth", "1", &origin, "ci"],
    );
    let tip = git(&club.dir.path().join("ci"), &["rev-parse", "HEAD"]);
    let out = correspond()
        .current_dir(club.dir.path().join("ci"))
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "game.yaml on main: 1 commit changed it");
    assert_eq!(
        lines[2],
        "      header, records 1-4: bob accept, alice e2e4, bob e7e5, alice d2d4"
    );
    assert_eq!(
        &lines[3..],
        [
            format!(
                "INCOMPLETE: commit {} is the edge of a shallow clone: its parents were not \
                 fetched, and the file is there already, with its header and records 1-4: which \
                 commits wrote them, and whether any record was removed or changed before, \
                 cannot be checked",
                &tip[..10]
            )
            .as_str(),
            "0 violations in 1 commit of the history this clone holds (not all of it); at main: \
             in progress, bob (black) to move",
            "not passed: the history cannot be checked whole here; fetch all of it (git fetch \
             --unshallow; a graft is removed from .git/info/grafts) and audit again",
        ]
    );
    let out = correspond()
        .current_dir(club.dir.path().join("ci"))
        .args(["audit", "game.yaml", "--json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(3));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["complete"], false);
    assert_eq!(report["violations"], 0);
    // A partial clone (file contents left on the server) cannot be audited either.
    git(
        &club.dir.path().join("origin.git"),
        &["config", "uploadpack.allowFilter", "true"],
    );
    git(
        club.dir.path(),
        &[
            "clone",
            "-q",
            "--filter=blob:none",
            "--no-checkout",
            &origin,
            "partial",
        ],
    );
    let out = correspond()
        .current_dir(club.dir.path().join("partial"))
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: game.yaml: a version of the file is not in this clone (")
            && err.ends_with(
                "hint: a partial clone (--filter) leaves file contents on the server: clone \
                 without --filter, or fetch them all, and audit again\n"
            ),
        "{err}"
    );
    // Fetched whole, the same clone finds the take-back.
    git(&club.dir.path().join("ci"), &["fetch", "-q", "--unshallow"]);
    let out = correspond()
        .current_dir(club.dir.path().join("ci"))
        .args(["audit", "game.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("VIOLATION: removes record 4 and what follows"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_grafted_history_does_not_pass_either() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{out}");
    // A graft makes the last commit's parent disappear from what git shows.
    let tip = club.git("bob", &["rev-parse", "HEAD"]);
    let earlier = club.git("bob", &["rev-parse", "HEAD~1"]);
    let grafts = club.clone("bob").join(".git/info/grafts");
    std::fs::create_dir_all(grafts.parent().expect("info")).expect("mkdir");
    std::fs::write(&grafts, &tip).expect("write grafts");
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!(
            "INCOMPLETE: commit {} is grafted: .git/info/grafts gives it other parents, and the \
             file is there already, with its header and records 1-3",
            &tip[..10]
        )),
        "{out}"
    );
    // Grafts that make a commit its own parent, or a cycle, hide commits from the walk itself:
    // they do not pass either.
    let (tip, earlier) = (tip.trim(), earlier.trim());
    for grafts in [
        format!("{earlier} {earlier}\n"),
        format!("{earlier} {tip}\n"),
    ] {
        std::fs::write(club.clone("bob").join(".git/info/grafts"), &grafts).expect("write");
        let (code, out) = club.audit("bob", &[]);
        assert_eq!(code, 3, "{grafts}: {out}");
        assert!(
            out.contains(&format!("INCOMPLETE: commit {} is grafted", &earlier[..10])),
            "{out}"
        );
    }
}
