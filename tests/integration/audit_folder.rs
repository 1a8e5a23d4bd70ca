//! A folder's audit reads its branch once for all its games; a file named alone is read alone.
//! The two readings must report the same thing for every game, on a history that holds each
//! kind of thing an audit reports: a merge, a side branch, a rewind in the reflog, a deletion
//! and a rewrite.

use crate::util::{correspond, git, transcript};
use std::path::Path;

/// The first `n` documents of a game of the repository's `games/chess` (each ends at its
/// `signature:` line).
fn prefix(game: &str, n: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/chess")
        .join(game);
    let text = std::fs::read_to_string(path).expect("a game of the repository");
    let mut kept = String::new();
    let mut documents = 0;
    for line in text.split_inclusive('\n') {
        if documents == n {
            break;
        }
        kept.push_str(line);
        if line.starts_with("signature: ") {
            documents += 1;
        }
    }
    kept
}

/// Writes `text` at `path` under `dir`, making its folders.
fn put(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
}

/// `correspond audit` with these arguments in `dir`: its exit code and output.
fn audit(dir: &Path, args: &[&str]) -> (i32, String) {
    let (code, out, err) = transcript(correspond().current_dir(dir).arg("audit").args(args));
    assert!(code == 0 || code == 1 || code == 3, "{args:?}: {err}");
    (code, out)
}

/// A club's history with every kind of step an audit reports.
fn history(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "Arbiter"]);
    git(dir, &["config", "user.email", "arbiter@example.org"]);
    let (immortal, evergreen, opera, steinitz) = (
        "anderssen-immortal-game-1851.yaml",
        "anderssen-evergreen-game-1852.yaml",
        "morphy-opera-game-1858.yaml",
        "steinitz-von-bardeleben-1895.yaml",
    );
    put(dir, "games/a.yaml", &prefix(immortal, 2));
    put(dir, "games/b.yaml", &prefix(evergreen, 2));
    put(dir, "games/.hidden/e.yaml", &prefix(opera, 2));
    put(dir, "games/notes.yaml", "not: a game\n");
    put(dir, "README", "a club\n");
    commit(dir, "start");
    put(dir, "games/a.yaml", &prefix(immortal, 4));
    put(dir, "games/sub/c.yaml", &prefix(opera, 3));
    put(dir, "games/d.yml", &prefix(steinitz, 2));
    commit(dir, "moves");
    // A side branch: a's game goes on, b's is rewritten, d's deleted; merged back.
    git(dir, &["checkout", "-q", "-b", "side"]);
    put(dir, "games/a.yaml", &prefix(immortal, 6));
    commit(dir, "side: a on");
    put(
        dir,
        "games/b.yaml",
        &prefix(evergreen, 2).replacen("player", "pIayer", 1),
    );
    git(dir, &["rm", "-q", "games/d.yml"]);
    commit(dir, "side: b rewritten, d gone");
    git(dir, &["checkout", "-q", "main"]);
    put(dir, "games/sub/c.yaml", &prefix(opera, 5));
    commit(dir, "c on");
    git(dir, &["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    // A merge that keeps its own c and drops the other side's.
    git(dir, &["checkout", "-q", "-b", "lost", "HEAD~1"]);
    put(dir, "games/sub/c.yaml", &prefix(opera, 7));
    commit(dir, "lost: c on");
    git(dir, &["checkout", "-q", "main"]);
    git(
        dir,
        &["merge", "-q", "-s", "ours", "-m", "merge lost", "lost"],
    );
    // A rewind: a commit dropped by a reset, which the reflog remembers.
    put(dir, "games/b.yaml", &prefix(evergreen, 6));
    commit(dir, "b on");
    git(dir, &["reset", "-q", "--hard", "HEAD~1"]);
    // A rewrite on the line, and a deletion.
    put(dir, "games/a.yaml", &prefix(immortal, 3));
    commit(dir, "a shortened");
    git(dir, &["rm", "-q", "games/sub/c.yaml"]);
    commit(dir, "c gone");
    put(dir, "games/d.yml", &prefix(steinitz, 4));
    commit(dir, "d again");
}

/// Audits `games` in `dir`, and each of its files alone: they must say the same, in JSON and
/// as text. Returns the folder's exit code and text.
fn agree(dir: &Path) -> (i32, String) {
    let (code, json) = audit(dir, &["games", "--json"]);
    let reports: Vec<serde_json::Value> = serde_json::from_str(&json).expect("JSON");
    let files: Vec<String> = reports
        .iter()
        .map(|r| r["file"].as_str().expect("a file").to_owned())
        .collect();
    assert_eq!(
        files,
        [
            "games/a.yaml",
            "games/b.yaml",
            "games/d.yml",
            "games/sub/c.yaml"
        ]
    );
    let (text_code, text) = audit(dir, &["games"]);
    assert_eq!(text_code, code, "{text}");
    let mut alone = Vec::new();
    for (file, report) in files.iter().zip(&reports) {
        let (_, json) = audit(dir, &[file, "--json"]);
        let single: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(&single, report, "{file}");
        alone.push(audit(dir, &[file]).1);
    }
    let joined = alone.join("\n");
    let summary = text
        .strip_prefix(&joined)
        .expect("each file's report, in order");
    assert_eq!(
        summary.lines().filter(|l| !l.is_empty()).count(),
        1,
        "{text}"
    );
    (code, text)
}

#[test]
fn a_folder_audit_reports_what_each_file_audited_alone_reports() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    history(dir);
    let (code, text) = agree(dir);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.ends_with("\n\n4 game files audited: 4 with violations, 0 not seen whole\n"),
        "{text}"
    );
    // Each kind of step is in there, so that agreeing means something.
    for seen in [
        "deletes the game file",
        "the merge drops record 5",
        "reset: moving to HEAD~1",
        "merged in from a side branch",
    ] {
        assert!(text.contains(seen), "{seen}: {text}");
    }
    // A graft that cuts the line where the side branch was merged: what each file held there.
    let merge = git(dir, &["rev-parse", "HEAD~4"]);
    std::fs::write(dir.join(".git/info/grafts"), merge).expect("a graft");
    let (code, text) = agree(dir);
    assert_eq!(code, 1, "{text}");
    assert_eq!(text.matches("INCOMPLETE: ").count(), 4, "{text}");
}
