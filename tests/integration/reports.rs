//! Snapshots of what `verify` and `log --hashes` report for every game in `games/` and every
//! invalid file in `tests/invalid/`: the result or first defect, each record's events, and the
//! state hashes that let two replays be compared record by record. Paths are relative and
//! times come from the files, so the snapshots hold nothing of the machine.

use crate::util::correspond;
use std::path::Path;

fn report(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let relative = path.strip_prefix(root).expect("inside the project");
    let mut text = String::new();
    for args in [vec!["verify"], vec!["log", "--hashes"]] {
        let out = correspond()
            .current_dir(root)
            .args(&args)
            .arg(relative)
            .output()
            .expect("run");
        text.push_str(&format!(
            "$ correspond {} {}\n",
            args.join(" "),
            relative.display()
        ));
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        text.push_str(&format!(
            "(exit code {})\n\n",
            out.status.code().unwrap_or(-1)
        ));
    }
    text
}

#[test]
fn reports_of_the_example_games() {
    insta::glob!("../../games", "**/*.yaml", |path| {
        insta::assert_snapshot!(report(path));
    });
}

#[test]
fn reports_of_the_invalid_files() {
    insta::glob!("../invalid", "*.yaml", |path| {
        insta::assert_snapshot!(report(path));
    });
}

/// `verify --json`, whole: a valid file's fields and an invalid one's defect, in the order the
/// files are given, and exit code 1 for the invalid one.
#[test]
fn verify_json_is_fields_not_prose() {
    let (code, out, err) =
        crate::util::transcript(correspond().current_dir(env!("CARGO_MANIFEST_DIR")).args([
            "verify",
            "games/campaign/fact-check.yaml",
            "tests/invalid/accept-twice.yaml",
            "--json",
        ]));
    assert_eq!((code, err.as_str()), (1, ""));
    assert_eq!(
        out,
        r#"[
  {
    "file": "games/campaign/fact-check.yaml",
    "valid": true,
    "game": "campaign",
    "game_id": "99591b579d3728dbe0ef3a53d8d8fcee6631ebdb54e26892df0d045dd0df0e70",
    "players": [
      {
        "name": "alice",
        "side": "heads",
        "key": "SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w"
      },
      {
        "name": "bob",
        "side": "tails",
        "key": "SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U"
      }
    ],
    "records": 32,
    "finished": true,
    "winner": "tails",
    "result": "tails wins: fact-check",
    "status": "game over: tails wins: fact-check",
    "stakes": null
  },
  {
    "file": "tests/invalid/accept-twice.yaml",
    "valid": false,
    "error": {
      "document": 4,
      "line": 45,
      "message": "the game was already accepted"
    }
  }
]
"#
    );
}
