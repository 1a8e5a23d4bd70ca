//! Refusals of the signing commands, as whole transcripts: each leaves the file and the
//! history untouched, says why on standard error with what to do, and exits with its code.

use crate::cli_games::Table;
use crate::util::{git, keygen};

#[test]
fn refusals_leave_the_file_untouched_with_a_reason_and_an_exit_code() {
    let t = Table::new();
    t.start();
    t.ok("alice", &["play", "game.yaml", "c2c3"]);
    let before = t.file();
    let commits = git(&t.repo, &["rev-list", "--count", "HEAD"]);
    // Whole transcripts: the exit code, nothing printed, and all of standard error.
    macro_rules! hint {
        (STATUS) => {
            "\nhint: `correspond status game.yaml` says what the game waits for\n"
        };
        (MOVES) => {
            "\nhint: `correspond moves campaign --position 'hgcgh/iiiii/5/5/2I2/II1II/HGCGH t AEae 0 1'` lists the legal moves\n"
        };
    }
    let cases: &[(&str, &[&str], i32, &str)] = &[
        (
            "alice",
            &["play", "game.yaml", "e2e3"],
            1,
            "error: game.yaml: it is not your turn: bob (tails) to move\n",
        ),
        (
            "bob",
            &["play", "game.yaml", "c6c4"],
            1,
            concat!(
                "error: game.yaml: c6c4: an intern moves one square forward",
                hint!(MOVES)
            ),
        ),
        (
            "bob",
            &["play", "game.yaml", "c7c5"],
            1,
            concat!(
                "error: game.yaml: c7c5: a candidate moves one square",
                hint!(MOVES)
            ),
        ),
        (
            "bob",
            &["play", "game.yaml", "c6-c5"],
            1,
            "error: game.yaml: c6-c5: `c6-c5` is not a move: write the from-square and the to-square, like \
             c2c3 or b6b7g\n",
        ),
        (
            "bob",
            &["accept", "game.yaml"],
            1,
            concat!(
                "error: accept: the game was already accepted",
                hint!(STATUS)
            ),
        ),
        (
            "bob",
            &["flip", "game.yaml"],
            1,
            "error: game.yaml: no coin flip step is yours to take: bob (tails) to move\n",
        ),
        (
            "bob",
            &["accept-runoff", "game.yaml"],
            1,
            concat!(
                "error: accept-runoff: there is no run-off offer from alice (heads) to accept",
                hint!(STATUS)
            ),
        ),
        (
            "bob",
            &["claim-runoff", "game.yaml"],
            1,
            "error: game.yaml: there is nothing to claim in this position\n",
        ),
        (
            "bob",
            &["claim-runoff", "game.yaml", "repetition"],
            1,
            concat!(
                "error: claim-runoff: bob (tails) claims repetition, but it cannot be claimed in \
                 this position (hgcgh/iiiii/5/5/2I2/II1II/HGCGH t AEae 0 1; it has occurred \
                 once)",
                hint!(STATUS)
            ),
        ),
        (
            "bob",
            &["claim-runoff", "game.yaml", "boredom"],
            1,
            concat!(
                "error: claim-runoff: `boredom` is not a claim in campaign: its claims are \
                 repetition, halfmove-clock",
                hint!(STATUS)
            ),
        ),
        (
            "bob",
            &["play", "missing.yaml", "c6c5"],
            2,
            "error: missing.yaml: No such file or directory (os error 2)\n\
             hint: check the path; `correspond new` starts a game file\n",
        ),
        (
            "alice",
            &["claim-runoff", "game.yaml"],
            1,
            "error: game.yaml: it is not your turn to claim: bob (tails) to move\n",
        ),
    ];
    for (who, args, code, message) in cases {
        let (got, out, err) = t.run(who, args);
        assert_eq!(
            (got, out.as_str(), err.as_str()),
            (*code, "", *message),
            "{who} {args:?}"
        );
    }
    keygen(&t.keys, "carol");
    let (code, out, err) = t.run("carol", &["play", "game.yaml", "c2c3"]);
    // The keys are made afresh for each run: their fingerprints are masked.
    let masked = mask_fingerprints(&err);
    assert_eq!(
        (code, out.as_str(), masked.as_str()),
        (
            2,
            "",
            "error: the key SHA256:KEY is not a player's key in this game (alice SHA256:KEY, \
             bob SHA256:KEY)\n\
             hint: choose your key with --key PATH\n"
        )
    );
    assert_eq!(t.file(), before, "the file is unchanged");
    assert_eq!(
        git(&t.repo, &["rev-list", "--count", "HEAD"]),
        commits,
        "nothing committed"
    );
    let (code, _, err) = t.run(
        "alice",
        &[
            "new",
            "campaign",
            "game.yaml",
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--opponent-key",
            "bob.pub",
        ],
    );
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "error: game.yaml already exists\n\
             hint: choose another file name; `correspond new` never overwrites a game\n"
        )
    );
}

/// `text` with each key fingerprint (`SHA256:` and 43 base64 characters) written `SHA256:KEY`.
fn mask_fingerprints(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("SHA256:") {
        out.push_str(&rest[..i + 7]);
        out.push_str("KEY");
        let tail = &rest[i + 7..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '/'))
            .unwrap_or(tail.len());
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}
