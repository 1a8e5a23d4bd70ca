//! The player's desk: `games` lists a folder's games and where each stands, `--mine` keeps
//! those that wait for a key, most urgent first, and files that are not game files are passed
//! over, by `verify` of a folder too; the JSON is held to its schema.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

fn sign(dir: &Path, time: &str, who: &str, args: &[&str]) {
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", time)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit"),
    );
    assert_eq!(code, 0, "{who} {args:?}: {err}");
}

/// A chess game in `dir/file` between alice (white) and `opponent`, accepted on `day` of March.
fn chess(dir: &Path, file: &str, opponent: &str, day: u32, terms: &[&str]) {
    let key = keys_dir().join(format!("{opponent}.pub"));
    let mut args = vec!["new", "chess", file, "--name", "alice", "--side", "white"];
    args.extend([
        "--opponent",
        opponent,
        "--opponent-key",
        key.to_str().expect("UTF-8"),
    ]);
    args.extend(terms);
    sign(dir, &format!("2026-03-{day:02}T00:00:00Z"), "alice", &args);
    sign(
        dir,
        &format!("2026-03-{day:02}T01:00:00Z"),
        opponent,
        &["accept", file],
    );
}

/// A club's folder: alice to move against bob (no clock) and against carol (3 days a move), bob
/// to move against alice in a third game, a resigned game, and a compose file.
fn club(dir: &Path) {
    std::fs::create_dir(dir.join("round-2")).expect("mkdir");
    chess(dir, "bob.yaml", "bob", 1, &[]);
    chess(
        dir,
        "round-2/carol.yaml",
        "carol",
        2,
        &["--time-control", "3/move"],
    );
    chess(dir, "round-2/bob.yaml", "bob", 3, &[]);
    sign(
        dir,
        "2026-03-03T02:00:00Z",
        "alice",
        &["play", "round-2/bob.yaml", "e4"],
    );
    chess(dir, "resigned.yaml", "carol", 4, &[]);
    sign(
        dir,
        "2026-03-04T02:00:00Z",
        "carol",
        &["resign", "resigned.yaml"],
    );
    std::fs::write(
        dir.join("docker-compose.yml"),
        "services:\n  web:\n    image: nginx\n",
    )
    .expect("write");
}

/// A reading command, at a now after the club's last record and before its one deadline (past
/// it, `games` gives the claim on time too: tests/integration/clocks.rs).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-04T03:00:00Z")
            .args(args),
    )
}

#[test]
fn games_lists_where_each_game_stands_and_mine_puts_the_most_urgent_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    assert_eq!(
        run(dir, &["games"]),
        (
            0,
            "bob.yaml: chess, alice (white) v bob (black)\n  alice (white) to move; last record \
             2026-03-01T01:00:00Z\n  next: alice (white): correspond play bob.yaml MOVE\n\
             resigned.yaml: chess, alice (white) v carol (black)\n  game over: white wins: carol \
             (black) resigned; last record 2026-03-04T02:00:00Z\n\
             round-2/bob.yaml: chess, alice (white) v bob (black)\n  bob (black) to move; last \
             record 2026-03-03T02:00:00Z\n  next: bob (black): correspond play round-2/bob.yaml \
             MOVE\nround-2/carol.yaml: chess, alice (white) v carol (black)\n  alice (white) to \
             move, by 2026-03-05T01:00:00Z; last record 2026-03-02T01:00:00Z\n  next: alice \
             (white): correspond play round-2/carol.yaml MOVE\npassed over 1 file that is not a \
             game file: docker-compose.yml\n"
                .to_owned(),
            String::new()
        )
    );
    // alice's games: the one with a deadline first, then the oldest; a public key will do.
    let alice = keys_dir().join("alice.pub");
    let alice = alice.to_str().expect("UTF-8");
    let mine = run(dir, &["games", "--mine", "--key", alice]).1;
    let files: Vec<&str> = mine
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("passed over"))
        .collect();
    assert_eq!(
        files,
        [
            "round-2/carol.yaml: chess, alice (white) v carol (black)",
            "bob.yaml: chess, alice (white) v bob (black)"
        ]
    );
    // bob's, found from his private key file without a passphrase being asked for.
    let bob = keys_dir().join("bob");
    let theirs = run(
        dir,
        &[
            "games",
            "round-2",
            "--mine",
            "--key",
            bob.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(
        theirs,
        (
            0,
            "round-2/bob.yaml: chess, alice (white) v bob (black)\n  bob (black) to move; last \
             record 2026-03-03T02:00:00Z\n  next: bob (black): correspond play round-2/bob.yaml \
             MOVE\n"
                .to_owned(),
            String::new()
        )
    );
    // An encrypted private key alone in its folder: its public half is read in the clear,
    // with no passphrase asked for (there is no terminal here to ask on).
    let alone = tempfile::tempdir().expect("temp dir");
    std::fs::copy(keys_dir().join("dora"), alone.path().join("dora")).expect("copy");
    let dora = alone.path().join("dora");
    assert_eq!(
        run(
            dir,
            &["games", "--mine", "--key", dora.to_str().expect("UTF-8")]
        ),
        (
            0,
            "no game waits for you\npassed over 1 file that is not a game file: \
             docker-compose.yml\n"
                .to_owned(),
            String::new()
        )
    );
    let carol = keys_dir().join("carol.pub");
    assert_eq!(
        run(
            dir,
            &["games", "--mine", "--key", carol.to_str().expect("UTF-8")]
        )
        .1,
        "no game waits for you\npassed over 1 file that is not a game file: docker-compose.yml\n"
    );
}

#[test]
fn a_folder_passes_over_what_is_not_a_game_but_a_file_named_is_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    let (code, out, _) = run(dir, &["verify", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with(
            "4 files: 4 valid, 0 invalid\npassed over 1 file that is not a game file: \
             ./docker-compose.yml\n"
        ),
        "{out}"
    );
    // A game file damaged before its header (a blank line, as an editor might add) still
    // bears its traces: checked, and invalid, never passed over.
    let game = std::fs::read_to_string(dir.join("resigned.yaml")).expect("read");
    std::fs::write(dir.join("round-2/damaged.yaml"), format!("\n{game}")).expect("write");
    let (code, out, _) = run(dir, &["verify", "round-2"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("round-2/damaged.yaml: INVALID: line 1: "),
        "{out}"
    );
    std::fs::remove_file(dir.join("round-2/damaged.yaml")).expect("remove");
    // A folder of nothing but other YAML: nothing to check, and what was passed over is said.
    let other = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        dir.join("docker-compose.yml"),
        other.path().join("compose.yaml"),
    )
    .expect("copy");
    let (code, _, err) = run(other.path(), &["verify", "."]);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "error: no game files to check: the folders given hold no *.yaml or *.yml game \
             files\nhint: passed over 1 file that is not a game file: ./compose.yaml\n"
        )
    );
    let (code, out, _) = run(dir, &["verify", "docker-compose.yml"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("docker-compose.yml: INVALID: "), "{out}");
    // A damaged game file is still a game file: found, and invalid.
    let text = std::fs::read_to_string(dir.join("bob.yaml")).expect("read");
    std::fs::write(
        dir.join("bob.yaml"),
        text.replace("name: \"bob\"", "name: \"rob\""),
    )
    .expect("write");
    let (code, out, _) = run(dir, &["games"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "bob.yaml: INVALID: line 1: unreadable: the comment lines before the header are not \
             the ones its content calls for\n"
        ),
        "{out}"
    );
}

#[test]
fn games_json_is_fields_held_to_the_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    std::fs::write(
        dir.join("broken.yaml"),
        "# correspond game file\n---\nformat: correspond/1\n",
    )
    .expect("write");
    let (code, out, _) = run(dir, &["games", "--json"]);
    assert_eq!(code, 1, "a broken file is listed, invalid");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/games.schema.json"),
        )
        .expect("the schema"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let carol = &json[4];
    assert_eq!(carol["file"], "round-2/carol.yaml");
    assert_eq!(carol["awaited_seat"], 0);
    assert_eq!(carol["deadline"], "2026-03-05T01:00:00Z");
    assert_eq!(
        carol["next"],
        "alice (white): correspond play round-2/carol.yaml MOVE"
    );
    assert_eq!(json[1]["valid"], false);
    assert_eq!(json[2]["result"], "white wins: carol (black) resigned");
    assert_eq!(json[2]["awaited_seat"], serde_json::Value::Null);
    // The schema can fail: a listing missing its deadline is refused.
    let mut wrong = json.clone();
    wrong[4]
        .as_object_mut()
        .expect("an object")
        .remove("deadline");
    assert!(!validator.is_valid(&wrong));
}
