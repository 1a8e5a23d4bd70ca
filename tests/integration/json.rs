//! The JSON outputs for scripts, each held to its schema in schemas/: `status --json` of every
//! game in games/ and of a game going on; the schemas refuse what they must, so that these
//! checks can fail.

use crate::util::{correspond, keys_dir, transcript};
use serde_json::Value;
use std::path::Path;

pub fn validator(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("a schema")).expect("JSON");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

/// The JSON `correspond` prints for `args` in `dir`, after checking it succeeded quietly.
fn json(dir: &Path, args: &[&str]) -> Value {
    let (code, out, err) = transcript(correspond().current_dir(dir).args(args));
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    serde_json::from_str(&out).expect("JSON")
}

#[track_caller]
pub fn valid(validator: &jsonschema::Validator, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value:#}");
}

pub fn example_games() -> Vec<std::path::PathBuf> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .expect("games")
        .flat_map(|d| std::fs::read_dir(d.expect("entry").path()).expect("a folder"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn status_json_of_every_example_game_is_held_to_its_schema() {
    let schema = validator("status.schema.json");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in example_games() {
        let status = json(here, &["status", "--json", file.to_str().expect("UTF-8")]);
        valid(&schema, &status);
        assert_eq!(status["phase"]["kind"], "over", "{}", file.display());
        assert!(status["result"]["ending"].is_string());
    }
}

#[test]
fn status_json_of_a_game_going_on_says_whose_turn_and_the_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let sign = |who: &str, args: &[&str]| {
        let (code, _, err) = transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit"),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    };
    let bob = keys_dir().join("bob.pub");
    sign(
        "alice",
        &[
            "new",
            "chess",
            "g.yaml",
            "--name",
            "alice",
            "--side",
            "white",
            "--opponent",
            "bob",
            "--opponent-key",
            bob.to_str().expect("UTF-8"),
            "--time-control",
            "3/move",
        ],
    );
    sign("bob", &["accept", "g.yaml"]);
    sign("alice", &["play", "g.yaml", "e4"]);
    sign("bob", &["offer-draw", "g.yaml"]);
    let status = json(dir, &["status", "g.yaml", "--json"]);
    valid(&validator("status.schema.json"), &status);
    assert_eq!(status["phase"]["kind"], "play");
    assert_eq!(status["phase"]["awaited_seat"], 1);
    assert_eq!(
        status["offer"],
        serde_json::json!({
            "by_seat": 1,
            "settlement": "draw",
            "accept_command": "correspond accept-draw g.yaml"
        })
    );
    assert_eq!(
        status["next"],
        serde_json::json!({ "seat": 1, "command": "correspond play g.yaml MOVE" })
    );
    assert_eq!(status["clocks"]["deadline"]["time"], "2026-03-04T10:00:00Z");
    assert_eq!(status["records"], 3);
    assert!(status.get("result").is_none());
    // The schema can fail: a phase of another kind, a seat 2, a missing position.
    let schema = validator("status.schema.json");
    for (pointer, value) in [
        ("/phase/kind", serde_json::json!("waiting")),
        ("/phase/awaited_seat", serde_json::json!(2)),
        ("/next/command", serde_json::json!("rm -rf /")),
    ] {
        let mut wrong = status.clone();
        *wrong.pointer_mut(pointer).expect("the field") = value;
        assert!(!schema.is_valid(&wrong), "{pointer}");
    }
    let mut wrong = status.clone();
    wrong.as_object_mut().expect("an object").remove("position");
    assert!(!schema.is_valid(&wrong));
}

#[test]
fn verify_json_and_audit_json_are_held_to_their_schemas() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Valid games, an invalid one and a timed one: verify exits 1 for the invalid file.
    let mut args = vec!["verify".to_owned(), "--json".to_owned()];
    args.extend(example_games().iter().map(|p| p.display().to_string()));
    args.push("tests/invalid/gap.yaml".into());
    let (code, out, _) = transcript(correspond().current_dir(here).args(&args));
    assert_eq!(code, 1);
    let verified: Value = serde_json::from_str(&out).expect("JSON");
    let schema = validator("verify.schema.json");
    valid(&schema, &verified);
    let last = verified
        .as_array()
        .and_then(|a| a.last())
        .expect("the invalid file");
    assert_eq!(last["error"]["document"], 5);
    let mut wrong = verified.clone();
    wrong[0]["valid"] = Value::Bool(false);
    assert!(!schema.is_valid(&wrong), "a valid game said invalid");
    // An audit of a club's history, one file and a folder.
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    crate::util::git(dir, &["init", "-q", "-b", "main"]);
    std::fs::copy(&example_games()[0], dir.join("a.yaml")).expect("copy");
    std::fs::copy(&example_games()[1], dir.join("b.yaml")).expect("copy");
    crate::util::git(dir, &["add", "."]);
    crate::util::git(
        dir,
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
    let schema = validator("audit.schema.json");
    let one = json(dir, &["audit", "a.yaml", "--json"]);
    valid(&schema, &one);
    assert_eq!(one["violations"], 0);
    let all = json(dir, &["audit", ".", "--json"]);
    valid(&schema, &all);
    assert_eq!(all.as_array().map(Vec::len), Some(2));
    let mut wrong = one.clone();
    wrong["commits"][0]["time"] = Value::String("2026-03-01 10:00:00 +0000".into());
    assert!(!schema.is_valid(&wrong), "a time that is not RFC 3339");
}

#[test]
fn log_json_of_every_example_game_is_held_to_its_schema_and_the_record_kinds() {
    let schema = validator("log.schema.json");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in example_games() {
        let log = json(here, &["log", "--json", file.to_str().expect("UTF-8")]);
        valid(&schema, &log);
        let documents = log["documents"].as_array().expect("documents");
        assert_eq!(documents[0]["kind"], "header");
        let text = std::fs::read_to_string(&file).expect("read");
        assert_eq!(
            documents.len(),
            text.matches("\nsignature: ").count(),
            "{}",
            file.display()
        );
        // A move is its signer's; a conditional reply its author's, whoever appended it.
        for document in documents {
            let mover = &document["mover_seat"];
            match document["kind"].as_str() {
                Some("move" | "reveal") => assert_eq!(mover, &document["seat"]),
                Some("applied") => {
                    assert!(mover.is_u64() && *mover != document["seat"], "{document}");
                }
                _ => assert!(mover.is_null(), "{document}"),
            }
        }
    }
    // The schema lists the program's record kinds, and no other.
    let listed: Vec<String> = serde_json::from_str::<Value>(
        &std::fs::read_to_string(here.join("schemas/log.schema.json")).expect("read"),
    )
    .expect("JSON")["properties"]["documents"]["items"]["properties"]["kind"]["enum"]
        .as_array()
        .expect("kinds")
        .iter()
        .map(|k| k.as_str().expect("a kind").to_owned())
        .collect();
    let mut kinds: Vec<String> = correspond::log::Kind::ALL
        .iter()
        .map(|k| k.name().to_owned())
        .collect();
    kinds.insert(0, "header".to_owned());
    assert_eq!(listed, kinds);
}

#[test]
fn moves_json_lists_what_moves_prints_and_is_held_to_its_schema() {
    let schema = validator("moves.schema.json");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in correspond::games::GameKind::ALL.iter().map(|k| k.name()) {
        let moves = json(here, &["moves", game, "--json"]);
        valid(&schema, &moves);
        let (_, text, _) = transcript(correspond().args(["moves", game]));
        let listed: Vec<&str> = moves
            .as_array()
            .expect("an array")
            .iter()
            .map(|m| m.as_str().expect("a move"))
            .collect();
        assert_eq!(listed, text.lines().collect::<Vec<_>>(), "{game}");
        assert!(!listed.is_empty(), "{game}");
    }
    // Checkmate: no move, an empty array.
    let mate = json(
        here,
        &[
            "moves",
            "chess",
            "--position",
            "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1",
            "--json",
        ],
    );
    assert_eq!(mate, serde_json::json!([]));
    assert!(
        !schema.is_valid(&serde_json::json!(["e2e4", "e2e4"])),
        "a move twice"
    );
    assert!(
        !schema.is_valid(&serde_json::json!(["E4"])),
        "not canonical"
    );
}

#[test]
fn compare_json_says_how_two_copies_relate_as_its_schema_says() {
    let schema = validator("compare.schema.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let games = example_games();
    let whole = std::fs::read(&games[0]).expect("read");
    let text = String::from_utf8(whole.clone()).expect("UTF-8");
    let cut = text.as_bytes()[..text.rfind("---\n").expect("a record")].to_vec();
    std::fs::write(dir.join("whole.yaml"), &whole).expect("write");
    std::fs::write(dir.join("cut.yaml"), &cut).expect("write");
    std::fs::copy(&games[1], dir.join("other.yaml")).expect("copy");
    let compare = |a: &str, b: &str, code: i32| {
        let (got, out, err) = transcript(
            correspond()
                .current_dir(dir)
                .args(["compare", a, b, "--json"]),
        );
        assert_eq!((got, err.as_str()), (code, ""), "{a} {b}");
        let json: Value = serde_json::from_str(&out).expect("JSON");
        valid(&schema, &json);
        json
    };
    assert_eq!(compare("whole.yaml", "whole.yaml", 0)["relation"], "same");
    let extends = compare("cut.yaml", "whole.yaml", 0);
    assert_eq!(
        (extends["relation"].as_str(), extends["longer"].as_str()),
        (Some("extends"), Some("b"))
    );
    let documents = text.matches("\nsignature: ").count();
    assert_eq!(
        extends["added"],
        serde_json::json!([documents - 1, documents])
    );
    assert_eq!(
        compare("whole.yaml", "other.yaml", 1)["relation"],
        "unrelated"
    );
    // A fork: bob signs two different moves at one place, on two machines.
    let bob = keys_dir().join("bob.pub");
    let sign = |who: &str, args: &[&str], journal: &str| {
        let (code, _, err) = transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
                .env("CORRESPOND_JOURNAL", dir.join(journal))
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit"),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    };
    let new = [
        "new",
        "chess",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob.to_str().expect("UTF-8"),
        "g.yaml",
    ];
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
            .env("CORRESPOND_JOURNAL", dir.join("a"))
            .args(new)
            .arg("--key")
            .arg(keys_dir().join("alice"))
            .arg("--no-commit"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    sign("bob", &["accept", "g.yaml"], "b1");
    sign("alice", &["play", "g.yaml", "e4"], "a");
    std::fs::copy(dir.join("g.yaml"), dir.join("h.yaml")).expect("copy");
    sign("bob", &["play", "g.yaml", "e5"], "b1");
    sign("bob", &["play", "h.yaml", "c5"], "b2");
    let fork = compare("g.yaml", "h.yaml", 1);
    assert_eq!(fork["relation"], "fork");
    assert_eq!(fork["fork"]["record"], 3);
    assert_eq!(fork["fork"]["equivocation"], true);
    assert_eq!(fork["fork"]["records"][0]["action"], "move e7e5");
    assert_eq!(fork["fork"]["proof"], "g.equivocation-3.proof");
    assert!(dir.join("g.equivocation-3.proof").is_file());
    let mut wrong = fork.clone();
    wrong.as_object_mut().expect("an object").remove("fork");
    assert!(!schema.is_valid(&wrong), "a fork without its fork");
}
