//! The conformance suite: what every registered game must do, run over the registry, so that a
//! new game is tested by being registered (as OpenSpiel's basic tests run over every game).
//!
//! For each game: a game played through the binary from `new` to the end, driven only by what
//! `status --json` says is awaited (the acceptance, the coin flips the game has, moves picked
//! from `moves`, an offer declined by playing on where the game has offers, then a
//! resignation); every record verified; `status`, `show`, `log`, `moves`, `games`, `standings`
//! and `verify` `--json` held to their schemas; every position's string read back by
//! `position`; every board drawn as SVG that an XML parser reads (turned with `--flip` too) and
//! as text; the page stepped through in headless Chromium; and the game's perft file (counts
//! from outside the engine) checked against the engine at its shallow depths.

use crate::util::{correspond, keys_dir, transcript};
use correspond::games::GameKind;
use serde_json::Value;
use std::path::Path;

const TIME: &str = "2026-03-01T12:00:00Z";

/// `correspond ARGS` in `dir`, which must succeed with nothing on standard error: its stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", TIME)
            .args(args),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    out
}

/// `correspond ARGS --key tests/keys/WHO --no-commit` in `dir`.
fn sign(dir: &Path, who: &str, args: &[&str]) -> String {
    let key = keys_dir().join(who).display().to_string();
    let mut all = args.to_vec();
    all.extend(["--key", &key, "--no-commit"]);
    ok(dir, &all)
}

fn json(dir: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&ok(dir, args)).expect("JSON")
}

/// A schema of schemas/, as a validator; the header schema is what the others refer to.
fn validator(name: &str) -> jsonschema::Validator {
    let read = |name: &str| -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(path).expect("a schema")).expect("JSON")
    };
    jsonschema::validator_for(&read(name)).expect("a valid schema")
}

#[track_caller]
fn holds(schema: &str, value: &Value) {
    let errors: Vec<String> = validator(schema)
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{schema}: {errors:?}\n{value:#}");
}

/// The players, by seat: alice made the game, bob accepts it.
const PLAYERS: [&str; 2] = ["alice", "bob"];

/// Plays a game of `kind` in `dir` as `g.yaml` to its end: what `status` awaits, each in turn,
/// a move picked from `moves` by a fixed rule; once, an offer declined by playing on; after
/// `plies` moves, a resignation. Returns how many records were signed, and the phases met.
fn play_through(dir: &Path, kind: GameKind, plies: usize) -> (usize, Vec<String>) {
    use correspond::replay::Protocol as _;
    let side = correspond::with_game!(kind, G => G::SIDES[0].to_string());
    let offers = correspond::with_game!(kind, G => G::SETTLEMENT.is_some());
    let bob = keys_dir().join("bob.pub").display().to_string();
    let name = kind.name();
    let new = ["new", name, "g.yaml", "--name", "alice", "--side", &side];
    sign(
        dir,
        "alice",
        &[&new[..], &["--opponent", "bob", "--opponent-key", &bob]].concat(),
    );
    let mut records = 0;
    let (mut played, mut offered) = (0, false);
    let mut phases: Vec<String> = Vec::new();
    loop {
        let status = json(dir, &["status", "g.yaml", "--json"]);
        holds("status.schema.json", &status);
        let phase = status["phase"]["kind"]
            .as_str()
            .expect("a phase")
            .to_owned();
        if !phases.contains(&phase) {
            phases.push(phase.clone());
        }
        if phase == "over" {
            break;
        }
        let seat = status["phase"]["awaited_seat"].as_u64().expect("a seat");
        let who = PLAYERS[usize::try_from(seat).expect("a seat")];
        match phase.as_str() {
            "accept" => {
                sign(dir, who, &["accept", "g.yaml"]);
            }
            "commit" | "nonce" | "reveal" => {
                sign(dir, who, &["flip", "g.yaml"]);
            }
            "choose" | "play" if played == plies => {
                sign(dir, who, &["resign", "g.yaml", "-m", "enough"]);
            }
            "choose" | "play" => {
                if offers && !offered && played == 2 {
                    sign(dir, who, &["offer-runoff", "g.yaml"]);
                    offered = true;
                    records += 1;
                    continue;
                }
                let moves = json(dir, &["moves", "g.yaml", "--json"]);
                holds("moves.schema.json", &moves);
                let moves = moves.as_array().expect("moves");
                assert!(!moves.is_empty(), "{name}: a game going on has moves");
                let pick = moves[(played * 7 + 3) % moves.len()]
                    .as_str()
                    .expect("a move");
                sign(dir, who, &["play", "g.yaml", pick]);
                played += 1;
            }
            other => panic!("{name}: a phase no game has: {other}"),
        }
        records += 1;
        assert!(records < 200, "{name}: the game does not end");
    }
    assert!(!offers || offered, "{name}: the offer was made");
    (records, phases)
}

#[test]
fn every_registered_game_plays_through_and_reports_to_its_schemas() {
    for kind in GameKind::ALL {
        let name = kind.name();
        let dir = tempfile::tempdir().expect("temp dir");
        let dir = dir.path();
        // Resigned after four moves: no game may end by its rules sooner (tic-tac-toe, the
        // shortest a game here could be, needs five).
        let (records, phases) = play_through(dir, *kind, 4);
        // What the game has was met: the acceptance, and where a coin flip decides who moves
        // first, its three steps and the winner's choice.
        use correspond::replay::Protocol as _;
        let tosses = correspond::with_game!(*kind, G => G::TOSS_FOR_FIRST_MOVE);
        let expected: &[&str] = if tosses {
            &["accept", "reveal", "choose", "play", "over"]
        } else {
            &["accept", "play", "over"]
        };
        for phase in expected {
            assert!(
                phases.iter().any(|p| p == phase),
                "{name}: {phase} in {phases:?}"
            );
        }
        // The file verifies, and every report of it holds to its schema.
        let verified = json(dir, &["verify", "g.yaml", "--json"]);
        holds("verify.schema.json", &verified);
        let log = json(dir, &["log", "g.yaml", "--json"]);
        holds("log.schema.json", &log);
        let documents = log["documents"].as_array().expect("documents");
        assert_eq!(
            documents.len(),
            records + 1,
            "{name}: the header and every record"
        );
        let status = json(dir, &["status", "g.yaml", "--json"]);
        assert_eq!(status["result"]["ending"], "resignation", "{name}");
        holds("games.schema.json", &json(dir, &["games", ".", "--json"]));
        holds(
            "standings.schema.json",
            &json(dir, &["standings", ".", "--json"]),
        );
        // Every position: its JSON, its string read back, its pictures.
        for at in 0..=records {
            let at = at.to_string();
            let shown = json(dir, &["show", "g.yaml", "--json", "--at", &at]);
            holds("show.schema.json", &shown);
            let position = shown["position"].as_str().expect("a position");
            let read_back = ok(dir, &["position", name, "--position", position]);
            assert_eq!(read_back.lines().next(), Some(position), "{name} at {at}");
            let svg = ok(dir, &["show", "g.yaml", "--svg", "--at", &at]);
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name} at {at}: {e}"));
            // Turned half a turn: another drawing of the same position.
            let flipped = ok(dir, &["show", "g.yaml", "--svg", "--flip", "--at", &at]);
            roxmltree::Document::parse(&flipped)
                .unwrap_or_else(|e| panic!("{name} at {at}, turned: {e}"));
            assert_ne!(flipped, svg, "{name} at {at}: --flip drew the same picture");
            let text = ok(dir, &["show", "g.yaml", "--ascii", "--at", &at]);
            assert!(text.lines().count() > 5, "{name} at {at}: {text}");
        }
        // The page steps through in a real browser, where there is one.
        if let Some(browser) = crate::browser::chromium() {
            let file = dir.join("g.yaml");
            crate::browser::step_through(&browser, dir, file.to_str().expect("UTF-8"), 0);
        }
    }
}

#[test]
fn every_registered_game_has_perft_counts_the_engine_matches() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for kind in GameKind::ALL {
        let name = kind.name();
        let path = root.join(format!("tests/perft/{name}.perft"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut position = None;
        let mut checked = 0;
        for line in text.lines() {
            if let Some(epd) = line.strip_prefix("epd ") {
                position = Some(epd.to_owned());
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                // The shallow counts through the binary; the deep ones are perft_files.rs's.
                if depth.parse::<u32>().expect("a depth") > 2 {
                    continue;
                }
                let position = position.as_deref().expect("an epd line first");
                let counted = ok(root, &["perft", name, "--position", position, depth]);
                assert_eq!(counted.trim(), nodes, "{name} {position} depth {depth}");
                checked += 1;
            }
        }
        assert!(checked > 0, "{name}: no shallow count to check");
    }
}

/// Every registered game has its rules page and example games, which every test of the examples
/// (verify, pictures, pages, schemas) then takes in; and nothing in games/ or docs/rules/ is of
/// a game the registry does not know.
#[test]
fn every_registered_game_has_its_rules_page_and_example_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    for name in &names {
        let examples = std::fs::read_dir(root.join("games").join(name))
            .unwrap_or_else(|e| panic!("games/{name}: {e}"))
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "yaml"))
            })
            .count();
        assert!(examples > 0, "games/{name} holds no example game");
        assert!(
            root.join(format!("docs/rules/{name}.md")).is_file(),
            "docs/rules/{name}.md"
        );
    }
    for folder in std::fs::read_dir(root.join("games")).expect("games") {
        let folder = folder.expect("entry").file_name();
        let folder = folder.to_str().expect("UTF-8");
        assert!(
            names.contains(&folder),
            "games/{folder} is no registered game"
        );
    }
}
