//! `correspond audit` over long histories: a Campaign game of 2,000 records, one commit per
//! record, audited at 1,000 and at 2,000 commits. Prints each time and their ratio: a cost
//! linear in the history gives about 2, one that handled every version whole about 4 (the
//! target is at most 2.4).
//!
//! The repository is packed first, as a clone's is: git then stores each version as a delta of
//! another, and reading a version costs a copy of it rather than a decompression.
//!
//! Run with `cargo bench --bench audit`. Building the history (signing 2,000 records and
//! committing each version) takes a while and is not timed.

mod common;
use common::{grow, opening};
use std::process::Command;
use std::time::{Duration, Instant};

const LONG: usize = 2000;
const SHORT: usize = 1000;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("audit: run with `cargo bench --bench audit`");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = git2::Repository::init(dir.path()).expect("git init");
    let file = dir.path().join("game.yaml");
    let mut text = opening(dir.path(), &file);
    let mut commits = Vec::new();
    let _ = grow(&mut text, LONG, None, |text| {
        commits.push(commit(&repo, text));
        if commits.len() % 500 == 0 {
            eprintln!("built {} commits", commits.len());
        }
    });
    std::fs::write(&file, &text).expect("write");
    // As in any clone (and after `git gc`), the versions are packed as deltas of each other.
    let packed = Command::new("git")
        .current_dir(dir.path())
        .args(["gc", "-q"])
        .status()
        .expect("run git gc");
    assert!(packed.success(), "git gc");
    let time = |n: usize| {
        let head = commits[n - 1];
        repo.set_head_detached(head).expect("detach");
        (0..3)
            .map(|_| {
                let started = Instant::now();
                let out = Command::new(env!("CARGO_BIN_EXE_correspond"))
                    .current_dir(dir.path())
                    .args(["audit", "game.yaml"])
                    .output()
                    .expect("run correspond");
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stdout)
                );
                started.elapsed()
            })
            .min()
            .expect("three runs")
    };
    let short = time(SHORT);
    let long = time(LONG);
    let ratio = long.as_secs_f64() / short.as_secs_f64();
    println!("audit of {SHORT} commits: {}", ms(short));
    println!("audit of {LONG} commits: {}", ms(long));
    println!(
        "ratio: {ratio:.2} (linear: {:.0}; every version handled whole: {:.0}); target at most \
         2.4: {}",
        LONG as f64 / SHORT as f64,
        (LONG as f64 / SHORT as f64).powi(2),
        if ratio <= 2.4 { "met" } else { "NOT met" }
    );
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

/// Commits `text` as game.yaml on top of HEAD.
fn commit(repo: &git2::Repository, text: &str) -> git2::Oid {
    let blob = repo.blob(text.as_bytes()).expect("blob");
    let mut tree = repo.treebuilder(None).expect("tree");
    tree.insert("game.yaml", blob, 0o100_644).expect("insert");
    let tree = repo
        .find_tree(tree.write().expect("write tree"))
        .expect("tree");
    let who = git2::Signature::new(
        "Bench",
        "bench@example.org",
        &git2::Time::new(1_767_225_600, 0),
    )
    .expect("signature");
    let parent = repo
        .head()
        .ok()
        .map(|h| h.peel_to_commit().expect("commit"));
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    repo.commit(Some("HEAD"), &who, &who, "move", &tree, &parents)
        .expect("commit")
}
