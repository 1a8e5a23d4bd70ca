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
    assert_eq!(chess["games"], 13);
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

/// `correspond ARGS` in `dir` at a pinned time: (exit code, stdout, stderr).
fn at(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-04-01T10:00:00Z")
            .args(args),
    )
}

#[test]
fn a_published_list_holds_and_a_list_of_other_games_or_changed_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    copy_folder(&root.join("games/chess"), &dir.path().join("chess"));
    let gina = keys_dir().join("gina");
    let gina = gina.to_str().expect("UTF-8");
    let (code, out, err) = at(
        dir.path(),
        &[
            "rating-rules",
            "club.rules",
            "--club",
            "Test Club",
            "--game",
            "chess",
            "--key",
            gina,
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with(
            "wrote club.rules: the rating rules of Test Club for chess, signed by SHA256:"
        ),
        "{out}"
    );
    // Only the club's key signs its lists.
    let alice = keys_dir().join("alice");
    let (code, _, err) = at(
        dir.path(),
        &[
            "ratings",
            "chess",
            "--rules",
            "club.rules",
            "--publish",
            "list.yaml",
            "--key",
            alice.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: only the club's key, SHA256:"),
        "{err}"
    );
    let (code, out, err) = at(
        dir.path(),
        &[
            "ratings",
            "chess",
            "--rules",
            "club.rules",
            "--publish",
            "list.yaml",
            "--key",
            gina,
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with(
            "published list.yaml: chess of Test Club, 13 games rated, 5 players; games digest "
        ),
        "{out}"
    );
    let check = || {
        at(
            dir.path(),
            &[
                "ratings",
                "chess",
                "--rules",
                "club.rules",
                "--check",
                "list.yaml",
            ],
        )
    };
    assert_eq!(
        check(),
        (
            0,
            "list.yaml holds: 13 games rated, 5 players, every rating the same to the bit\n"
                .to_owned(),
            String::new()
        )
    );
    // A game left out of the files: the list names it, and the players it moves.
    let opera = dir.path().join("chess/morphy-opera-game-1858.yaml");
    let kept = std::fs::read(&opera).expect("read");
    std::fs::remove_file(&opera).expect("removed");
    let (code, out, _) = check();
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "list.yaml does not hold:");
    assert!(
        lines[1].starts_with("  the list rates game ")
            && lines[1].ends_with(", which is not a rated game of the files given"),
        "{out}"
    );
    assert!(out.contains("): the list says "), "{out}");
    std::fs::write(&opera, &kept).expect("back");
    // A game added: alice beats bob in a new game the list never saw.
    let bob = keys_dir().join("bob.pub");
    for (who, args) in [
        (
            "alice",
            vec![
                "new",
                "chess",
                "chess/extra.yaml",
                "--name",
                "alice",
                "--side",
                "white",
                "--opponent",
                "bob",
                "--opponent-key",
                bob.to_str().expect("UTF-8"),
            ],
        ),
        ("bob", vec!["accept", "chess/extra.yaml"]),
        ("alice", vec!["play", "chess/extra.yaml", "e2e4"]),
        ("bob", vec!["play", "chess/extra.yaml", "e7e5"]),
        ("bob", vec!["resign", "chess/extra.yaml"]),
    ] {
        let mut args = args;
        let key = keys_dir().join(who);
        args.extend(["--no-commit", "--key", key.to_str().expect("UTF-8")]);
        assert_eq!(at(dir.path(), &args).0, 0, "{args:?}");
    }
    let (code, out, _) = check();
    assert_eq!(code, 1);
    assert!(
        out.contains(", and the list leaves it out\n") && out.contains("  game "),
        "{out}"
    );
    std::fs::remove_file(dir.path().join("chess/extra.yaml")).expect("removed");
    // A rating changed in the list: its signature no longer holds.
    let text = std::fs::read_to_string(dir.path().join("list.yaml")).expect("read");
    let at_rating = text.find("  rating: ").expect("a rating") + "  rating: ".len();
    let mut changed = text.clone().into_bytes();
    changed[at_rating + 15] = if changed[at_rating + 15] == b'0' {
        b'1'
    } else {
        b'0'
    };
    std::fs::write(dir.path().join("list.yaml"), &changed).expect("write");
    let (code, out, err) = check();
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: list.yaml: bad signature: "),
        "{err}"
    );
}

#[test]
fn the_rules_and_a_published_list_are_held_to_their_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let gina = keys_dir().join("gina");
    let gina = gina.to_str().expect("UTF-8");
    for (file, system) in [("glicko.rules", "glicko2"), ("elo.rules", "elo")] {
        let (code, _, err) = at(
            dir.path(),
            &[
                "rating-rules",
                file,
                "--club",
                "Test Club",
                "--game",
                "chess",
                "--system",
                system,
                "--key",
                gina,
            ],
        );
        assert_eq!((code, err.as_str()), (0, ""));
    }
    let (code, _, err) = at(
        dir.path(),
        &[
            "ratings",
            root.join("games/chess").to_str().expect("UTF-8"),
            "--rules",
            "elo.rules",
            "--publish",
            "list.yaml",
            "--key",
            gina,
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let header = crate::schema::schema("header.schema.json");
    let build = |name: &str| {
        jsonschema::options()
            .with_retriever(crate::schema::Local(header.clone()))
            .build(&crate::schema::schema(name))
            .expect("a valid schema")
    };
    let document = |file: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.path().join(file)).expect("read");
        let start = text.find("---\n").expect("a document");
        serde_saphyr::from_str(&text[start..]).expect("YAML")
    };
    let rules = build("rating-rules.schema.json");
    for file in ["glicko.rules", "elo.rules"] {
        let value = document(file);
        crate::json::valid(&rules, &value);
        // What the format forbids, the schema refuses: τ for Elo, none for Glicko-2.
        let mut bad = value.clone();
        if value["system"] == "elo" {
            bad["tau-thousandths"] = 500.into();
        } else {
            bad.as_object_mut()
                .expect("a map")
                .remove("tau-thousandths");
        }
        assert!(!rules.is_valid(&bad), "{bad}");
    }
    let list = build("rating-list.schema.json");
    let value = document("list.yaml");
    crate::json::valid(&list, &value);
    assert!(
        value["players"][0].get("deviation").is_none(),
        "Elo has none"
    );
    let mut bad = value.clone();
    bad["players"][0]["rating"] = "1500".into();
    assert!(!list.is_valid(&bad));
}
