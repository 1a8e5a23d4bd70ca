//! Comments signed with records (`-m`), and an offer made with a move (`play --offer-draw`):
//! how the file holds them, and how `log`, `status` and `pgn` show them.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

fn run(dir: &Path, who: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = correspond();
    cmd.current_dir(dir)
        .env("CORRESPOND_TIME", "2026-03-01T10:00:00Z")
        .args(args);
    if let Some(who) = who {
        cmd.arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit");
    }
    transcript(&mut cmd)
}

fn new(dir: &Path, game: &str, side: &str) {
    let args = crate::util::new_game(game, side, "g.yaml", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(run(dir, Some("alice"), &args).0, 0);
    assert_eq!(run(dir, Some("bob"), &["accept", "g.yaml"]).0, 0);
}

#[test]
fn a_comment_is_signed_with_its_record_and_shown_by_log_status_and_pgn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    new(dir, "chess", "white");
    assert_eq!(
        run(
            dir,
            Some("alice"),
            &["play", "g.yaml", "e4", "-m", "the king's pawn"]
        ),
        (
            0,
            "record 2: alice (white) e4; says \"the king's pawn\"\nnow: bob (black) to move\n"
                .into(),
            String::new()
        )
    );
    let text = std::fs::read_to_string(dir.join("g.yaml")).expect("read");
    assert!(
        text.contains("kind: move\nmove: e2e4\ncomment: \"the king's pawn\"\ntime: "),
        "{text}"
    );
    // bob answers with a move and a draw offer, in two records, the comment with the move.
    let (code, out, err) = run(
        dir,
        Some("bob"),
        &["play", "g.yaml", "e5", "--offer-draw", "-m", "fair?"],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "record 3: bob (black) e5; says \"fair?\"\nnow: alice (white) to move\nrecord 4: bob \
             (black) offers a draw\nnow: alice (white) to move\n",
            ""
        )
    );
    let (code, status, _) = run(dir, None, &["status", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        status.contains("\noffer: bob (black) offers a draw, until alice (white)'s next record\n")
            && status.ends_with(
                "\nnext: alice (white): correspond play g.yaml MOVE\nor: alice (white): \
                 correspond accept-draw g.yaml\n"
            ),
        "{status}"
    );
    // bob's offer stands: a second one with a move is refused before the move is signed.
    let before = std::fs::read(dir.join("g.yaml")).expect("read");
    let (code, _, err) = run(dir, Some("bob"), &["play", "g.yaml", "Nf6", "--offer-draw"]);
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "error: g.yaml: your offer of a draw stands already, until your opponent's next record\n"
        )
    );
    assert_eq!(std::fs::read(dir.join("g.yaml")).expect("read"), before);
    assert_eq!(
        run(
            dir,
            Some("alice"),
            &["accept-draw", "g.yaml", "-m", "agreed"]
        )
        .0,
        0
    );
    let (code, status, _) = run(dir, None, &["status", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        status.contains("\ncomment: alice (white) says \"agreed\"\n"),
        "{status}"
    );
    let (code, log, _) = run(dir, None, &["log", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        log.contains("  alice (white)  e4; says \"the king's pawn\"\n"),
        "{log}"
    );
    let (_, json, _) = run(dir, None, &["log", "g.yaml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["documents"][3]["comment"], "fair?");
    assert_eq!(json["documents"][4]["comment"], serde_json::Value::Null);
    let (code, pgn, _) = run(dir, None, &["pgn", "g.yaml"]);
    assert_eq!(code, 0);
    assert!(
        pgn.ends_with(
            "\n1. e4 {alice (white): the king's pawn} 1... e5 {bob (black): fair?} {bob\n\
             (black) offers a draw} {alice (white) accepts the draw: agreed} 1/2-1/2\n"
        ),
        "{pgn}"
    );
    assert_eq!(run(dir, None, &["verify", "g.yaml"]).0, 0);
    let (code, show, _) = run(dir, None, &["show", "g.yaml", "--at", "2", "--ascii"]);
    assert_eq!(code, 0);
    assert!(
        show.starts_with(
            "g.yaml: alice (white) v bob (black), record 2 of 5\nbob (black) to move\nalice \
             (white) says \"the king's pawn\"\n"
        ),
        "{show}"
    );
    let (code, mail, _) = run(dir, None, &["mail", "g.yaml", "--since", "2"]);
    assert_eq!(code, 0);
    assert!(
        mail.contains("record 2: alice (white) e4; says \"the king's pawn\"\n"),
        "{mail}"
    );
}

#[test]
fn a_comment_the_format_cannot_hold_and_an_offer_a_game_has_not_are_refused_before_signing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    new(dir, "chess", "white");
    let before = std::fs::read(dir.join("g.yaml")).expect("read");
    assert_eq!(
        run(
            dir,
            Some("alice"),
            &["play", "g.yaml", "e4", "-m", "say \"hi\""]
        ),
        (
            2,
            String::new(),
            "error: `say \"hi\"` cannot be a comment: a comment is 1 to 280 characters on one \
             line, with no control character, `\"`, `\\`, `{` or `}`, and no space at either \
             end; nothing was written\n"
                .into()
        )
    );
    assert_eq!(std::fs::read(dir.join("g.yaml")).expect("read"), before);
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    new(dir, "guerrilla", "guerrilla");
    let before = std::fs::read(dir.join("g.yaml")).expect("read");
    let (code, out, err) = run(dir, Some("alice"), &["play", "g.yaml", "e5f4", "--offer"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("error: g.yaml: guerrilla has no offers or claims\n"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("g.yaml")).expect("read"),
        before,
        "not even the move"
    );
}
