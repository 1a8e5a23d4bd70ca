//! `show`: the board turned round (`--flip`, and from the viewer's side when their key is a
//! player's), the move list under the board, and `show --json` held to its schema at every
//! record of the example games.

use crate::json::{example_games, valid, validator};
use crate::util::{chess_accepted, correspond, keys_dir, signed, transcript};
use serde_json::Value;
use std::path::Path;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `correspond ARGS` in `dir` with HOME at `home` (so that no key of the machine's is found),
/// as a transcript.
fn run(dir: &Path, home: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(dir)
            .env("HOME", home)
            .env("GIT_CONFIG_GLOBAL", home.join("no-such-config"))
            .args(args),
    )
}

#[test]
fn flip_turns_the_board_round_for_every_game() {
    let home = tempfile::tempdir().expect("home");
    let show = |args: &[&str]| {
        let (code, out, err) = run(here(), home.path(), args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        out
    };
    assert_eq!(
        show(&["show", "chess", "--ascii", "--flip", "e4", "c5"]),
        "Chess, white to move\n\
         \n    h g f e d c b a\n \
         1  R N B K Q B N R  1\n \
         2  P P P . P P P P  2\n \
         3  . . . . . . . .  3\n \
         4  . . . P . . . .  4\n \
         5  . . . . . p . .  5\n \
         6  . . . . . . . .  6\n \
         7  p p p p p . p p  7\n \
         8  r n b k q b n r  8\n    \
         h g f e d c b a\n\
         \n\
         last move: c5\n\
         position: rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
         moves: 1. e4 c5\n"
    );
    assert_eq!(
        show(&["show", "campaign", "--ascii", "--flip", "c2c3"]),
        "Campaign, move 1, tails to move\n\
         \n   e d c b a\n \
         1 H G C G H 1   heads  spin: A E\n \
         2 I I . I I 2\n \
         3 . . I . . 3\n \
         4 . . . . . 4\n \
         5 . . . . . 5\n \
         6 i i i i i 6\n \
         7 h g c g h 7   tails  spin: a e  <- to move\n   \
         e d c b a\n\
         \n\
         last move: c2c3\n\
         halfmove clock: 0\n\
         position: hgcgh/iiiii/5/5/2I2/II1II/HGCGH t AEae 0 1\n\
         C candidate  S stacked candidate  G guard  H handler  I intern  (upper case: heads, \
         lower case: tails)\n\
         moves: 1. c2c3\n"
    );
    // Guerrilla Checkers: the cells and the points between them both turn; the stones of
    // a1,b1 sit between cell ranks 1 and 2, now at the right.
    let flipped = show(&["show", "guerrilla", "--ascii", "--flip", "a1,b1"]);
    let rows: Vec<&str> = flipped.lines().skip(2).take(18).collect();
    assert_eq!(
        rows,
        [
            "     h   g   f   e   d   c   b   a    cells",
            " 1   .       .       .       .      1",
            "       +   +   +   +   +   S   S       1",
            " 2       .       .       .       .  2",
            "       +   +   +   +   +   +   +       2",
            " 3   .       .       C       .      3",
            "       +   +   +   +   +   +   +       3",
            " 4       .       C       C       .  4",
            "       +   +   +   +   +   +   +       4",
            " 5   .       C       C       .      5",
            "       +   +   +   +   +   +   +       5",
            " 6       .       C       .       .  6",
            "       +   +   +   +   +   +   +       6",
            " 7   .       .       .       .      7",
            "       +   +   +   +   +   +   +       7",
            " 8       .       .       .       .  8",
            "       g   f   e   d   c   b   a       points",
            "",
        ]
    );
    // Turned twice is the usual way up: the picture of a game and of its flip are mirror
    // images, row by row.
    let usual = show(&["show", "guerrilla", "--ascii", "a1,b1"]);
    let cells = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with(' ') && l.trim_end().ends_with(char::is_numeric))
            .map(|l| {
                // The glyphs alone: the rank labels stay at their sides.
                let glyphs = l
                    .split_whitespace()
                    .filter(|w| !w.starts_with(char::is_numeric));
                glyphs.collect::<Vec<_>>().join(" ")
            })
            .collect()
    };
    let mut mirrored: Vec<String> = cells(&flipped)
        .iter()
        .map(|l| l.split(' ').rev().collect::<Vec<_>>().join(" "))
        .collect();
    mirrored.reverse();
    assert_eq!(mirrored, cells(&usual));
}

/// A chess game in `dir`: alice (white) against bob (black), accepted, 1. e4 played.
fn game_with_bob_as_black(dir: &Path) {
    let time = "2026-03-01T12:00:00Z";
    chess_accepted(dir, time, "g.yaml", &[]);
    signed(
        dir,
        time,
        "alice",
        &["play", "g.yaml", "e4", "-m", "the king's pawn"],
    );
}

#[test]
fn a_game_file_is_drawn_from_the_side_of_the_viewer_whose_key_is_a_players() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("home");
    game_with_bob_as_black(dir.path());
    let ranks = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with(" 1 ") || l.starts_with(" 8 ") || l.starts_with("    "))
            .map(str::to_owned)
            .collect()
    };
    let bob = keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    let (code, out, err) = run(
        dir.path(),
        home.path(),
        &["show", "g.yaml", "--ascii", "--key", bob],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.lines().take(5).collect::<Vec<_>>(),
        [
            "g.yaml: alice (white) v bob (black), record 2 of 2",
            "bob (black) to move",
            "alice (white) says \"the king's pawn\"",
            "seen from black's side, yours",
            "",
        ]
    );
    assert_eq!(
        ranks(&out),
        [
            "    h g f e d c b a",
            " 1  R N B K Q B N R  1",
            " 8  r n b k q b n r  8",
            "    h g f e d c b a",
        ]
    );
    assert!(out.ends_with("moves: 1. e4\n"), "{out}");
    // --flip turns bob's view back; alice's key, or none, draws White at the bottom.
    let usual = [
        "    a b c d e f g h",
        " 8  r n b q k b n r  8",
        " 1  R N B Q K B N R  1",
        "    a b c d e f g h",
    ];
    let (_, out, _) = run(
        dir.path(),
        home.path(),
        &["show", "g.yaml", "--ascii", "--key", bob, "--flip"],
    );
    assert_eq!(ranks(&out), usual);
    assert!(!out.contains("seen from"), "{out}");
    let alice = keys_dir().join("alice.pub");
    let (_, out, _) = run(
        dir.path(),
        home.path(),
        &[
            "show",
            "g.yaml",
            "--ascii",
            "--key",
            alice.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(ranks(&out), usual);
    let (_, out, _) = run(dir.path(), home.path(), &["show", "g.yaml", "--ascii"]);
    assert_eq!(ranks(&out), usual);
    let (_, out, _) = run(
        dir.path(),
        home.path(),
        &["show", "g.yaml", "--ascii", "--flip"],
    );
    assert_eq!(out.lines().nth(3), Some("seen from black's side"));
    // bob's key where OpenSSH keeps one: found as the signing commands find it.
    let ssh = home.path().join(".ssh");
    std::fs::create_dir_all(&ssh).expect(".ssh");
    std::fs::copy(keys_dir().join("bob.pub"), ssh.join("id_ed25519.pub")).expect("copy");
    std::fs::copy(keys_dir().join("bob"), ssh.join("id_ed25519")).expect("copy");
    let (_, out, _) = run(dir.path(), home.path(), &["show", "g.yaml", "--ascii"]);
    assert_eq!(out.lines().nth(3), Some("seen from black's side, yours"));
    // --key is for files.
    assert_eq!(
        run(dir.path(), home.path(), &["show", "chess", "--key", bob]),
        (
            2,
            String::new(),
            "error: --at and --key are for game files; with a game, give the moves to play\n"
                .to_owned()
        )
    );
}

#[test]
fn the_move_list_is_numbered_from_the_position_and_wrapped() {
    let home = tempfile::tempdir().expect("home");
    let (code, out, err) = run(
        here(),
        home.path(),
        &[
            "show",
            "chess",
            "--ascii",
            "--position",
            "8/8/8/4k3/8/8/8/4KB2 b - - 0 7",
            "Kd5",
            "Kd2",
            "Ke4",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    // A drawn position, played on: said under the list.
    assert!(
        out.ends_with(
            "moves: 7... Kd5 8. Kd2 Ke4\nthe game was over before the first move (draw: \
             insufficient material); the moves after it were played on, as `moves` lists them\n"
        ),
        "{out}"
    );
    let (code, out, err) = run(
        here(),
        home.path(),
        &["show", "games/chess/morphy-opera-game-1858.yaml", "--ascii"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let list: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("moves: "))
        .collect();
    assert_eq!(
        list,
        [
            "moves: 1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3",
            "       Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8",
            "       13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8#",
        ]
    );
}

#[test]
fn show_json_is_held_to_its_schema_at_every_record_and_agrees_with_the_picture() {
    let schema = validator("show.schema.json");
    let home = tempfile::tempdir().expect("home");
    let json = |args: &[&str]| -> Value {
        let (code, out, err) = run(here(), home.path(), args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        serde_json::from_str(&out).expect("JSON")
    };
    for file in example_games() {
        let name = file.strip_prefix(here()).expect("in the project");
        let name = name.to_str().expect("UTF-8");
        let last = json(&["show", name, "--json"]);
        valid(&schema, &last);
        let records = last["records"].as_u64().expect("records");
        // Every record of the shorter games; the moves grow one at a time with the records.
        let step = if records > 40 { records / 4 } else { 1 };
        let mut moves = 0;
        for at in (0..=records).step_by(usize::try_from(step).expect("small")) {
            let shown = json(&["show", name, "--json", "--at", &at.to_string()]);
            valid(&schema, &shown);
            assert_eq!(shown["record"], at, "{name}");
            let now = shown["moves"].as_array().expect("moves").len();
            assert!(
                now >= moves && now <= usize::try_from(at).expect("small"),
                "{name} {at}"
            );
            moves = now;
        }
        // The same position as `position FILE`, and the same outcome as the picture.
        let (_, position, _) = run(here(), home.path(), &["position", name]);
        assert_eq!(position.lines().next(), last["position"].as_str(), "{name}");
        let (_, picture, _) = run(here(), home.path(), &["show", name, "--ascii"]);
        // The board's own lines, below the file's heading (whose phase may say a resignation).
        let (_, picture) = picture.split_once("\n\n").expect("a heading");
        match last["outcome"]["words"].as_str() {
            Some(words) => assert!(picture.contains(&format!("game over: {words}\n")), "{name}"),
            None => assert!(!picture.contains("game over: "), "{name}"),
        }
    }
    // The schema can fail: a side that no game has, a file without its record.
    let shown = json(&["show", "games/chess/morphy-opera-game-1858.yaml", "--json"]);
    let mut wrong = shown.clone();
    let nobodys = "no-such-side";
    assert!(correspond::games::GameKind::ALL.iter().all(|kind| {
        use correspond::replay::Protocol as _;
        correspond::with_game!(*kind, G => G::side_named(nobodys).is_none())
    }));
    wrong["side_to_move"] = nobodys.into();
    assert!(!schema.is_valid(&wrong));
    let mut wrong = shown;
    wrong.as_object_mut().expect("an object").remove("record");
    assert!(!schema.is_valid(&wrong));
}

#[test]
fn after_tails_wins_the_toss_every_report_gives_tails_the_move() {
    // In this game bob (tails) wins the toss at record 2, then defers: at record 2 the game
    // awaits his move or his deferral, and each report must say tails is to move.
    let home = tempfile::tempdir().expect("home");
    let file = "games/campaign/run-off-claim.yaml";
    let (code, out, err) = run(here(), home.path(), &["show", file, "--at", "2"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let head: Vec<&str> = out.lines().take(4).collect();
    assert_eq!(
        head,
        [
            "games/campaign/run-off-claim.yaml: alice (heads) v bob (tails), record 2 of 17",
            "bob (tails) won the toss: to move first or defer",
            "",
            "Campaign, move 1, tails to move",
        ]
    );
    let (code, out, _) = run(here(), home.path(), &["show", file, "--at", "2", "--json"]);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((code, &json["side_to_move"]), (0, &Value::from("tails")));
    let (code, out, _) = run(here(), home.path(), &["show", file, "--at", "2", "--svg"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("<title>Campaign, tails to move</title>"),
        "{out}"
    );
    // After bob's deferral, heads moves first.
    let (code, out, _) = run(here(), home.path(), &["show", file, "--at", "3", "--json"]);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((code, &json["side_to_move"]), (0, &Value::from("heads")));
}
