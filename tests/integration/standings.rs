//! `correspond standings`: a club's tables over a folder of games, each game counted once
//! however many copies there are, a player being a key; the JSON held to its schema.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(correspond().current_dir(dir).args(args))
}

fn sign(dir: &Path, who: &str, args: &[&str]) {
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T00:00:00Z")
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit"),
    );
    assert_eq!(code, 0, "{who} {args:?}: {err}");
}

/// A chess game in `file`, `white` against `black`, accepted.
fn chess(dir: &Path, file: &str, white: &str, black: &str) {
    let key = keys_dir().join(format!("{black}.pub"));
    let args = [
        "new",
        "chess",
        file,
        "--name",
        white,
        "--side",
        "white",
        "--opponent",
        black,
        "--opponent-key",
        key.to_str().expect("UTF-8"),
    ];
    sign(dir, white, &args);
    sign(dir, black, &["accept", file]);
}

/// alice beats bob (twice: a copy of the game is in another folder), draws with carol, and
/// bob plays carol still; a broken file and a compose file beside them.
fn club(dir: &Path) {
    std::fs::create_dir(dir.join("copies")).expect("mkdir");
    chess(dir, "alice-bob.yaml", "alice", "bob");
    sign(dir, "bob", &["resign", "alice-bob.yaml"]);
    std::fs::copy(
        dir.join("alice-bob.yaml"),
        dir.join("copies/alice-bob.yaml"),
    )
    .expect("copy");
    chess(dir, "alice-carol.yaml", "alice", "carol");
    sign(dir, "alice", &["offer-draw", "alice-carol.yaml"]);
    sign(dir, "carol", &["accept-draw", "alice-carol.yaml"]);
    chess(dir, "bob-carol.yaml", "bob", "carol");
    std::fs::write(
        dir.join("broken.yaml"),
        "# correspond game file\n---\nformat: correspond/1\n",
    )
    .expect("write");
    std::fs::write(dir.join("compose.yml"), "services: {}\n").expect("write");
}

fn fingerprint(who: &str) -> String {
    let key = std::fs::read_to_string(keys_dir().join(format!("{who}.pub"))).expect("a key");
    let key = ssh_key::PublicKey::from_openssh(&key).expect("an OpenSSH key");
    key.fingerprint(ssh_key::HashAlg::Sha256).to_string()
}

#[test]
fn the_standings_count_each_game_once_for_each_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    let (code, out, err) = run(dir, &["standings"]);
    let broken = correspond::games::verify(b"# correspond game file\n---\nformat: correspond/1\n")
        .expect_err("broken");
    let [alice, bob, carol] = ["alice", "bob", "carol"].map(fingerprint);
    assert_eq!(
        (code, out, err),
        (
            1,
            format!(
                "chess (3 games)\n       points  played  won  drawn  lost  going on  player\n\
                 \x20  1.      1½       2    1      1     0         0  alice {alice}\n\
                 \x20  2.       ½       1    0      1     0         1  carol {carol}\n\
                 \x20  3.       0       1    0      0     1         1  bob {bob}\n\
                 not counted: broken.yaml: {broken}\n\
                 passed over 1 file that is not a game file: compose.yml\n"
            ),
            String::new()
        )
    );
}

#[test]
fn the_standings_json_is_held_to_its_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    std::fs::remove_file(dir.join("broken.yaml")).expect("remove");
    let (code, out, err) = run(dir, &["standings", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/standings.schema.json"),
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
    assert_eq!(json["games"], 3);
    let alice = &json["tables"][0]["lines"][0];
    assert_eq!(
        (
            alice["names"][0].as_str(),
            alice["points"].as_f64(),
            alice["played"].as_u64()
        ),
        (Some("alice"), Some(1.5), Some(2))
    );
    // The schema can fail: a point that is not a half is refused, and so is a missing table.
    let mut wrong = json.clone();
    wrong["tables"][0]["lines"][0]["points"] = serde_json::json!(1.25);
    assert!(!validator.is_valid(&wrong));
    let mut wrong = json.clone();
    wrong.as_object_mut().expect("an object").remove("tables");
    assert!(!validator.is_valid(&wrong));
}

/// `sign`, from a second machine of the signer's, whose signing journal knows nothing of the
/// first's: how one player comes to sign two records at one place.
fn sign_elsewhere(dir: &Path, who: &str, args: &[&str]) {
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T00:00:00Z")
            .env("CORRESPOND_JOURNAL", dir.join(format!("{who}-laptop")))
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit"),
    );
    assert_eq!(code, 0, "{who} {args:?}: {err}");
}

#[test]
fn copies_that_fork_are_named_by_games_and_not_counted_by_the_standings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    club(dir);
    std::fs::remove_file(dir.join("broken.yaml")).expect("remove");
    // bob moves in bob-carol.yaml and, on his laptop, otherwise in a copy: equivocation.
    std::fs::copy(
        dir.join("bob-carol.yaml"),
        dir.join("copies/bob-carol.yaml"),
    )
    .expect("copy");
    sign(dir, "bob", &["play", "bob-carol.yaml", "e4"]);
    sign_elsewhere(dir, "bob", &["play", "copies/bob-carol.yaml", "d4"]);
    // A race: bob resigns in one copy of a new game while carol moves in another.
    chess(dir, "race.yaml", "carol", "bob");
    std::fs::copy(dir.join("race.yaml"), dir.join("copies/race.yaml")).expect("copy");
    sign(dir, "carol", &["play", "race.yaml", "e4"]);
    sign(dir, "bob", &["resign", "copies/race.yaml"]);
    let equivocation = "bob-carol.yaml and copies/bob-carol.yaml are copies of one game that \
                        fork at record 2: EQUIVOCATION: bob signed a different record 2 in each \
                        (`correspond compare bob-carol.yaml copies/bob-carol.yaml` writes the \
                        proof)";
    let race = "copies/race.yaml and race.yaml are copies of one game that fork at record 2, \
                signed by bob in one and carol in the other (`correspond compare \
                copies/race.yaml race.yaml` says which stands)";
    let (code, out, err) = run(dir, &["standings"]);
    let [alice, bob, carol] = ["alice", "bob", "carol"].map(fingerprint);
    assert_eq!(
        (code, out, err),
        (
            0,
            format!(
                "chess (2 games)\n       points  played  won  drawn  lost  going on  player\n\
                 \x20  1.      1½       2    1      1     0         0  alice {alice}\n\
                 \x20  2.       ½       1    0      1     0         0  carol {carol}\n\
                 \x20  3.       0       1    0      0     1         0  bob {bob}\n\
                 not counted: {equivocation}\n\
                 not counted: {race}\n\
                 passed over 1 file that is not a game file: compose.yml\n"
            ),
            String::new()
        )
    );
    let (code, out, err) = run(dir, &["games"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.ends_with(&format!(
            "{equivocation}\n{race}\npassed over 1 file that is not a game file: compose.yml\n"
        )),
        "{out}"
    );
    // verify names them too, as given, before its count; neither copy pays in a ledger.
    let (code, out, err) = run(dir, &["verify", "bob-carol.yaml", "copies", "race.yaml"]);
    assert_eq!(
        (code, out, err),
        (
            0,
            format!(
                "bob-carol.yaml: valid: chess, bob (white) v carol (black), 2 records: in \
                 progress, carol (black) to move\n\
                 copies/alice-bob.yaml: valid: chess, alice (white) v bob (black), 2 records: \
                 white wins: bob (black) resigned\n\
                 copies/bob-carol.yaml: valid: chess, bob (white) v carol (black), 2 records: in \
                 progress, carol (black) to move\n\
                 copies/race.yaml: valid: chess, carol (white) v bob (black), 2 records: white \
                 wins: bob (black) resigned\n\
                 race.yaml: valid: chess, carol (white) v bob (black), 2 records: in progress, \
                 bob (black) to move\n\
                 {equivocation}\n\
                 {race}\n\
                 5 files: 5 valid, 0 invalid\n"
            ),
            String::new()
        )
    );
    // With --mine, only the forks of the games listed: bob's move is awaited in a copy of the
    // race, and not in either copy of the game he equivocated in.
    let bob_pub = keys_dir().join("bob.pub");
    let (code, out, err) = run(
        dir,
        &["games", "--mine", "--key", bob_pub.to_str().expect("UTF-8")],
    );
    assert_eq!(
        (code, out, err),
        (
            0,
            format!(
                "race.yaml: chess, carol (white) v bob (black)\n\
                 \x20 bob (black) to move; last record 2026-03-01T00:00:00Z\n\
                 \x20 forks with copies/race.yaml at record 2 (a race): neither copy is the \
                 game until that is settled, as said below\n\
                 {race}\n\
                 passed over 1 file that is not a game file: compose.yml\n"
            ),
            String::new()
        )
    );
    // Each copy's JSON row names the other, under the schemas.
    let (_, out, _) = run(dir, &["games", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let forks: Vec<(String, serde_json::Value)> = json
        .as_array()
        .expect("an array")
        .iter()
        .filter(|row| row.get("forks").is_some())
        .map(|row| {
            (
                row["file"].as_str().expect("a file").to_owned(),
                row["forks"].clone(),
            )
        })
        .collect();
    assert_eq!(
        forks,
        [
            ("bob-carol.yaml", "copies/bob-carol.yaml", true),
            ("copies/bob-carol.yaml", "bob-carol.yaml", true),
            ("copies/race.yaml", "race.yaml", false),
            ("race.yaml", "copies/race.yaml", false),
        ]
        .map(|(file, with, equivocation)| (
            file.to_owned(),
            serde_json::json!([{ "with": with, "record": 2, "equivocation": equivocation }])
        ))
    );
    let (_, standings, _) = run(dir, &["standings", "--json"]);
    let standings: serde_json::Value = serde_json::from_str(&standings).expect("JSON");
    assert_eq!(
        standings["forks"]
            .as_array()
            .expect("forks")
            .iter()
            .map(|f| (
                f["files"].clone(),
                f["record"].clone(),
                f["equivocation"].clone()
            ))
            .collect::<Vec<_>>(),
        [
            (
                serde_json::json!(["bob-carol.yaml", "copies/bob-carol.yaml"]),
                2.into(),
                true.into()
            ),
            (
                serde_json::json!(["copies/race.yaml", "race.yaml"]),
                2.into(),
                false.into()
            ),
        ]
    );
    // verify's JSON names them as games' does, each file as given.
    let (_, verified, _) = run(
        dir,
        &[
            "verify",
            "--json",
            "bob-carol.yaml",
            "copies/bob-carol.yaml",
        ],
    );
    let verified: serde_json::Value = serde_json::from_str(&verified).expect("JSON");
    assert_eq!(
        (verified[0]["forks"].clone(), verified[1]["forks"].clone()),
        (
            serde_json::json!([{ "with": "copies/bob-carol.yaml", "record": 2, "equivocation": true }]),
            serde_json::json!([{ "with": "bob-carol.yaml", "record": 2, "equivocation": true }])
        )
    );
    for (schema, value) in [
        ("games.schema.json", &json),
        ("standings.schema.json", &standings),
        ("verify.schema.json", &verified),
    ] {
        crate::json::valid(&crate::json::validator(schema), value);
    }
}

#[test]
fn the_command_a_fork_line_names_can_be_pasted_whatever_the_file_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, "g.yaml", "alice", "bob");
    let copy = "my game's copy $(id).yaml";
    std::fs::copy(dir.join("g.yaml"), dir.join(copy)).expect("copy");
    sign(dir, "alice", &["play", "g.yaml", "e4"]);
    sign_elsewhere(dir, "alice", &["play", copy, "d4"]);
    let (code, out, err) = run(dir, &["games"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.lines().last(),
        Some(
            "g.yaml and my game's copy $(id).yaml are copies of one game that fork at record 2: \
             EQUIVOCATION: alice signed a different record 2 in each (`correspond compare \
             g.yaml 'my game'\\''s copy $(id).yaml'` writes the proof)"
        ),
        "{out}"
    );
}

#[test]
fn a_site_names_copies_that_fork_and_leaves_their_game_out_of_its_standings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, "g.yaml", "alice", "bob");
    std::fs::copy(dir.join("g.yaml"), dir.join("h.yaml")).expect("copy");
    sign(dir, "alice", &["play", "g.yaml", "e4"]);
    sign_elsewhere(dir, "alice", &["play", "h.yaml", "d4"]);
    chess(dir, "other.yaml", "carol", "bob");
    sign(dir, "bob", &["resign", "other.yaml"]);
    let (code, _, err) = run(
        dir,
        &["site", "g.yaml", "h.yaml", "other.yaml", "-o", "site"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let index = std::fs::read_to_string(dir.join("site/index.html")).expect("the index");
    assert!(
        index.contains(
            "<p class=\"fork\">g.yaml and h.yaml are copies of one game that fork at record \
             2: EQUIVOCATION: alice signed a different record 2 in each (`correspond compare \
             g.yaml h.yaml` writes the proof)</p>\n<h2>Standings: chess (1 game)</h2>"
        ),
        "{index}"
    );
    assert!(
        index.contains("<tr class=\"forked\"><td><a href=\"h.html\">h.yaml</a>")
            && index.contains("<tr><td><a href=\"other.html\">other.yaml</a>"),
        "{index}"
    );
}

#[test]
fn a_folder_without_games_is_an_empty_list_for_games_and_standings_and_a_usage_error_for_verify() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("notes.txt"), "not a game\n").expect("write");
    assert_eq!(
        run(dir.path(), &["games", "."]),
        (0, "no game files here\n".to_owned(), String::new())
    );
    assert_eq!(
        run(dir.path(), &["standings", "."]),
        (0, "no games to count\n".to_owned(), String::new())
    );
    assert_eq!(
        run(dir.path(), &["verify", "."]),
        (
            2,
            String::new(),
            "error: no game files to check: the folders given hold no *.yaml or *.yml game files\n"
                .to_owned()
        )
    );
}
