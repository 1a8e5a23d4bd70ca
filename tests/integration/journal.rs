//! Signing protection through the binary: the salt that keeps twin games apart, and the signing
//! journal that keeps an honest player from signing two documents at one place, whether from a
//! restored backup, a challenge sent twice or a second machine; and moving the journal.

use crate::util::{correspond, keys_dir};
use std::path::Path;

/// A folder of games with its own journal: (folder, journal).
pub(crate) fn desk() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = dir.path().join("journal");
    (dir, journal)
}

/// Runs `correspond` in `dir` with `journal` and a pinned time: (exit code, stdout, stderr).
pub(crate) fn run(dir: &Path, journal: &Path, time: &str, args: &[&str]) -> (i32, String, String) {
    crate::util::transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_JOURNAL", journal)
            .env("CORRESPOND_TIME", time)
            .args(args),
    )
}

pub(crate) fn key(who: &str) -> String {
    keys_dir().join(who).display().to_string()
}

/// A chess game between alice (white) and bob, accepted: `name` in `dir`.
pub(crate) fn accepted(dir: &Path, journal: &Path, name: &str) {
    accepted_apart(dir, [journal, journal], name);
}

/// [`accepted`], alice signing with the first journal and bob with the second.
pub(crate) fn accepted_apart(dir: &Path, [alices, bobs]: [&Path; 2], name: &str) {
    created(dir, alices, "2026-05-01T10:00:00Z", name);
    let (code, _, err) = run(
        dir,
        bobs,
        "2026-05-01T10:01:00Z",
        &["accept", name, "--key", &key("bob"), "--no-commit"],
    );
    assert_eq!(code, 0, "{err}");
}

/// A chess game between alice (white) and bob, created by alice at `time` (a game of its own
/// for each time): `name` in `dir`, with `journal`.
pub(crate) fn created(dir: &Path, journal: &Path, time: &str, name: &str) {
    let new = [
        "new",
        "chess",
        name,
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        &key("bob.pub"),
        "--key",
        &key("alice"),
        "--no-commit",
    ];
    let (code, _, err) = run(dir, journal, time, &new);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn twin_games_have_two_ids_and_no_false_proof() {
    let (dir, journal) = desk();
    let new = |name: &str| {
        let out = correspond()
            .current_dir(dir.path())
            .env_remove("CORRESPOND_SALT")
            .env("CORRESPOND_JOURNAL", &journal)
            .env("CORRESPOND_TIME", "2026-05-01T10:00:00Z")
            .args(["new", "chess", name, "--name", "alice", "--side", "white"])
            .args(["--opponent", "bob", "--opponent-key", &key("bob.pub")])
            .args(["--key", &key("alice"), "--no-commit"])
            .output()
            .expect("run");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("game id: ").map(str::to_owned))
            .expect("a game id")
    };
    // The same terms, the same second: two games all the same.
    let (one, two) = (new("one.yaml"), new("two.yaml"));
    assert_ne!(one, two);
    for (file, mv) in [("one.yaml", "e4"), ("two.yaml", "d4")] {
        let (code, _, err) = run(
            dir.path(),
            &journal,
            "2026-05-01T10:01:00Z",
            &["accept", file, "--key", &key("bob"), "--no-commit"],
        );
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = run(
            dir.path(),
            &journal,
            "2026-05-01T10:02:00Z",
            &["play", file, mv, "--key", &key("alice"), "--no-commit"],
        );
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = run(
        dir.path(),
        &journal,
        "2026-05-01T10:03:00Z",
        &["compare", "one.yaml", "two.yaml"],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "one.yaml and two.yaml are different games: their headers differ\n",
            ""
        )
    );
    let salts: Vec<String> = ["one.yaml", "two.yaml"]
        .iter()
        .map(|f| {
            std::fs::read_to_string(dir.path().join(f))
                .expect("read")
                .lines()
                .find(|l| l.starts_with("salt: "))
                .expect("a salt line")
                .to_owned()
        })
        .collect();
    assert_ne!(salts[0], salts[1]);
}

#[test]
fn a_challenge_sent_twice_is_accepted_once() {
    let (dir, journal) = desk();
    accepted(dir.path(), &journal, "game.yaml");
    // The creator sends the same header again; bob's second acceptance would be a second
    // record 1 of one game, signed by him.
    let file = std::fs::read_to_string(dir.path().join("game.yaml")).expect("read");
    let header = &file[..file.find("---\nseq: 1\n").expect("record 1")];
    std::fs::write(dir.path().join("again.yaml"), header).expect("write");
    let (code, out, err) = run(
        dir.path(),
        &journal,
        "2026-05-02T08:00:00Z",
        &["accept", "again.yaml", "--key", &key("bob"), "--no-commit"],
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: your key SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U already signed record 1 \
         (accept, signed 2026-05-01T10:01:00Z) of this game, and a different record 1 would be two \
         documents at one place: proof of equivocation against you; nothing was signed\n\
         hint: if that record is in another copy of this game (another clone, another machine, a \
         message not yet received), bring that copy here: git pull, or correspond receive\n\
         hint: otherwise `correspond journal restore again.yaml` appends it to this file\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("again.yaml")).expect("read"),
        header,
        "nothing written"
    );
    // The acceptance bob did sign is the one the journal puts back.
    let (code, out, err) = run(
        dir.path(),
        &journal,
        "2026-05-02T08:01:00Z",
        &["journal", "restore", "again.yaml", "--no-commit"],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "restored record 1 from the signing journal to again.yaml\n",
            ""
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("again.yaml")).expect("read"),
        std::fs::read(dir.path().join("game.yaml")).expect("read")
    );
}

#[test]
fn a_restored_backup_cannot_make_its_player_sign_twice() {
    let (dir, journal) = desk();
    accepted(dir.path(), &journal, "game.yaml");
    let backup = std::fs::read(dir.path().join("game.yaml")).expect("read");
    let play = |mv: &str, time: &str| {
        run(
            dir.path(),
            &journal,
            time,
            &[
                "play",
                "game.yaml",
                mv,
                "--key",
                &key("alice"),
                "--no-commit",
            ],
        )
    };
    let (code, _, err) = play("e4", "2026-05-01T10:02:00Z");
    assert_eq!(code, 0, "{err}");
    let played = std::fs::read(dir.path().join("game.yaml")).expect("read");
    std::fs::write(dir.path().join("game.yaml"), &backup).expect("restore the backup");
    // The same move again is the same document: the journal lets it through.
    let (code, out, err) = play("e4", "2026-05-01T10:02:00Z");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "record 2 was signed already, at 2026-05-01T10:02:00Z, and this copy of the game lacks \
         it: appending that record\nrecord 2: alice (white) e4\nnow: bob (black) to move\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        played
    );
    std::fs::write(dir.path().join("game.yaml"), &backup).expect("restore the backup");
    // Another record 2 is refused.
    let (code, out, err) = play("d4", "2026-05-03T09:00:00Z");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with(
            "error: your key SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w already signed \
             record 2 (move e2e4, signed 2026-05-01T10:02:00Z) of this game"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        backup
    );
    // The same move asked for again, days later: the record signed then is the one appended.
    let (code, out, err) = play("e4", "2026-05-03T09:00:00Z");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "record 2 was signed already, at 2026-05-01T10:02:00Z, and this copy of the game \
             lacks it: appending that record\nrecord 2: alice (white) e4\nnow: bob (black) to \
             move\n",
            ""
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        played
    );
    // `journal restore` does the same without asking for the move.
    std::fs::write(dir.path().join("game.yaml"), &backup).expect("restore the backup");
    let (code, out, _) = run(
        dir.path(),
        &journal,
        "2026-05-03T09:01:00Z",
        &["journal", "restore", "game.yaml", "--no-commit"],
    );
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "restored record 2 from the signing journal to game.yaml\n"
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        played
    );
    // A race: bob moves and offers a draw (records 3 and 4) while alice offers one (record 3).
    // Settled for alice's copy, bob signs again at number 4, on top of her record 3: a place of
    // its own, since no proof of equivocation can hold two records that follow different ones.
    std::fs::write(dir.path().join("other.yaml"), &played).expect("copy");
    let sign = |file: &str, who: &str, args: &[&str]| {
        let key = key(who);
        let mut all = vec![args[0], file];
        all.extend_from_slice(&args[1..]);
        all.extend(["--key", &key, "--no-commit"]);
        run(dir.path(), &journal, "2026-05-03T10:00:00Z", &all)
    };
    assert_eq!(sign("game.yaml", "bob", &["play", "e5"]).0, 0);
    assert_eq!(sign("game.yaml", "bob", &["offer-draw"]).0, 0);
    assert_eq!(sign("other.yaml", "alice", &["offer-draw"]).0, 0);
    std::fs::copy(dir.path().join("other.yaml"), dir.path().join("game.yaml")).expect("settle");
    let (code, out, err) = sign("game.yaml", "bob", &["accept-draw"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.starts_with("record 4: bob (black) "), "{out}");
    let summary =
        correspond::games::verify(&std::fs::read(dir.path().join("game.yaml")).expect("read"))
            .expect("the settled game verifies");
    assert_eq!(summary.result.as_deref(), Some("draw: agreement"));
    // Nothing more to restore: said, and nothing written.
    let (code, out, err) = run(
        dir.path(),
        &journal,
        "2026-05-03T09:02:00Z",
        &["journal", "restore", "game.yaml", "--no-commit"],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "nothing to restore: the signing journal holds no record of yours that follows on \
             from the last record of game.yaml (record 4); nothing was written\n",
            ""
        )
    );
}

#[test]
fn a_journal_carried_to_a_second_machine_protects_it_and_conflicts_are_reported() {
    let (dir, desktop) = desk();
    let laptop = dir.path().join("laptop-journal");
    accepted(dir.path(), &desktop, "game.yaml");
    std::fs::copy(dir.path().join("game.yaml"), dir.path().join("copy.yaml")).expect("copy");
    let (code, _, err) = run(
        dir.path(),
        &desktop,
        "2026-05-01T10:02:00Z",
        &[
            "play",
            "game.yaml",
            "e4",
            "--key",
            &key("alice"),
            "--no-commit",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(
        dir.path(),
        &desktop,
        "2026-05-01T10:03:00Z",
        &["journal", "export", "-o", "journal.json"],
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let (code, out, err) = run(
        dir.path(),
        &laptop,
        "2026-05-01T10:04:00Z",
        &["journal", "import", "journal.json"],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "imported journal.json: 3 new, 0 already here\n", "")
    );
    let (code, _, err) = run(
        dir.path(),
        &laptop,
        "2026-05-01T10:05:00Z",
        &[
            "play",
            "copy.yaml",
            "d4",
            "--key",
            &key("alice"),
            "--no-commit",
        ],
    );
    assert_eq!(code, 1);
    assert!(err.contains("already signed record 2 (move e2e4"), "{err}");
    // A third machine that never got the journal signs d4; carried back, it is a conflict.
    let third = dir.path().join("third-journal");
    let (code, _, err) = run(
        dir.path(),
        &third,
        "2026-05-01T10:06:00Z",
        &[
            "play",
            "copy.yaml",
            "d4",
            "--key",
            &key("alice"),
            "--no-commit",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = run(
        dir.path(),
        &third,
        "2026-05-01T10:07:00Z",
        &["journal", "export", "-o", "third.json"],
    );
    assert_eq!(code, 0);
    let (code, out, err) = run(
        dir.path(),
        &desktop,
        "2026-05-01T10:08:00Z",
        &["journal", "import", "third.json"],
    );
    assert_eq!((code, err.as_str()), (1, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "imported third.json: 0 new, 0 already here");
    assert!(
        lines[1].starts_with(
            "CONFLICT: key SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w signed two \
             different documents numbered 2 in game "
        ),
        "{out}"
    );
    // The export is the documented, versioned format, and export never overwrites.
    let export: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("journal.json")).expect("read"),
    )
    .expect("JSON");
    assert_eq!(export["format"], "correspond-journal/1");
    assert_eq!(export["entries"].as_array().map(Vec::len), Some(3));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/journal.schema.json"),
        )
        .expect("read the schema"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let problems: Vec<String> = validator
        .iter_errors(&export)
        .map(|e| e.to_string())
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    let mut unknown = export.clone();
    unknown["entries"][0]["note"] = serde_json::json!("x");
    assert!(!validator.is_valid(&unknown), "an unknown field");
    let mut cut = export.clone();
    cut["entries"][1]["text"] = serde_json::json!("---\nseq: 1\n");
    assert!(
        !validator.is_valid(&cut),
        "a document without its signature line"
    );
    let (code, _, err) = run(
        dir.path(),
        &desktop,
        "2026-05-01T10:09:00Z",
        &["journal", "export", "-o", "journal.json"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("journal.json: File exists"), "{err}");
}

#[test]
fn import_pgn_and_new_record_what_they_sign() {
    let (dir, journal) = desk();
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess/classics.pgn");
    let pgn = pgn.to_str().expect("UTF-8");
    let (code, _, err) = run(
        dir.path(),
        &journal,
        "2026-05-01T10:00:00Z",
        &[
            "import-pgn",
            pgn,
            "opera.yaml",
            "--white-key",
            &key("alice"),
            "--black-key",
            &key("bob"),
            "--no-commit",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = run(
        dir.path(),
        &journal,
        "2026-05-01T10:00:00Z",
        &["journal", "export"],
    );
    let export: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let entries = export["entries"].as_array().expect("entries");
    let file = correspond::log::GameFile::parse(
        &std::fs::read(dir.path().join("opera.yaml")).expect("read"),
    )
    .expect("a game file");
    assert_eq!(entries.len(), file.documents());
    for entry in entries {
        let n = usize::try_from(entry["document"].as_u64().expect("a number")).expect("small");
        assert_eq!(entry["text"], file.document(n));
        assert_eq!(entry["game"], file.game_id().to_string());
    }
}
