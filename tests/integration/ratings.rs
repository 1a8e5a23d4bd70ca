//! `ratings`: the lists of the example games, the same from the files in any order and from
//! copies of them, held to their schema; a game whose copies fork left out and named.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

/// `correspond ratings ARGS` in `dir`: (exit code, stdout, stderr).
fn ratings(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(correspond().current_dir(dir).arg("ratings").args(args))
}

/// The lines of a list, without those that name files (which differ between copies).
fn lists(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.starts_with("not rated: "))
        .collect()
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a folder") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a copy");
        }
    }
}

#[test]
fn the_lists_are_the_same_from_the_games_in_any_order_and_from_copies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = ratings(root, &["games"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
    let (_, again, _) = ratings(
        root,
        &[
            "games/insurrection",
            "games/guerrilla",
            "games/chess",
            "games/campaign",
        ],
    );
    assert_eq!(again, out);
    // Two copies of every game: each counted once.
    let dir = tempfile::tempdir().expect("temp dir");
    copy_folder(&root.join("games"), &dir.path().join("one"));
    copy_folder(&root.join("games"), &dir.path().join("two"));
    let (code, copies, err) = ratings(dir.path(), &["two", "one"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(lists(&copies), lists(&out));
    // The JSON: its schema, and the same lists.
    let (code, json, _) = ratings(root, &["games", "--json"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    crate::json::valid(&crate::json::validator("ratings.schema.json"), &value);
    let (_, json_copies, _) = ratings(dir.path(), &["one", "two", "--json"]);
    let copies: serde_json::Value = serde_json::from_str(&json_copies).expect("JSON");
    assert_eq!(value["lists"], copies["lists"]);
    let chess = value["lists"]
        .as_array()
        .expect("lists")
        .iter()
        .find(|l| l["game"] == "chess")
        .expect("a chess list");
    assert_eq!(chess["games"], 11);
}

#[test]
fn a_game_whose_copies_fork_is_not_rated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let game = std::fs::read_to_string(root.join("games/chess/morphy-opera-game-1858.yaml"))
        .expect("the opera game");
    std::fs::write(dir.path().join("a.yaml"), &game).expect("a copy");
    // Another copy, cut after black's 1... e5, where white plays 2. d4 instead of 2. Nf3.
    let cut = game
        .match_indices("\n---\n")
        .nth(4)
        .expect("a fifth document (the first `---` is the header's)")
        .0
        + 1;
    std::fs::write(dir.path().join("b.yaml"), &game[..cut]).expect("a copy");
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-03-10T10:00:00Z")
            .args(["play", "b.yaml", "d2d4", "--no-commit", "--key"])
            .arg(keys_dir().join("alice")),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, out, err) = ratings(dir.path(), &["."]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.ends_with("not rated: a.yaml: its copies fork: which is the game is in dispute\n"),
        "{out}"
    );
    assert!(!out.contains("chess: "), "{out}");
}
