//! Orthodox chess and Insurrection through the commands: `moves`, `perft`, `position` and
//! `show` (SAN typed, coups and governments reported), `--variant assassination`, and PGN both
//! ways, with the error messages and exit codes of each refusal.

use crate::util::{chess_accepted, correspond, failure, keys_dir, signed, stdout_of, transcript};
use std::path::Path;

/// The rule author's worked example (RULINGS.md, Insurrection): Black to move, Kxg5 next.
const WORKED: &str = "2b2r2/5p1p/3p3k/1b4P1/q2N3N/8/P6P/R2NQ1K1 b - - 0 1 Kk";

#[test]
fn moves_perft_and_position_for_both_games() {
    let moves = stdout_of(&["moves", "chess"]);
    assert_eq!(moves.lines().count(), 20);
    assert!(
        moves.starts_with("a2a3\na2a4\nb1a3\nb1c3\nb2b3\n"),
        "{moves}"
    );
    assert_eq!(stdout_of(&["moves", "insurrection"]), moves);
    assert_eq!(stdout_of(&["perft", "chess", "3"]), "8902\n");
    assert_eq!(stdout_of(&["perft", "insurrection", "3"]), "8902\n");
    assert_eq!(
        stdout_of(&["position", "chess", "f3", "e5", "g4", "Qh4#"]),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ncheckmate: black wins\n"
    );
    // SAN and UCI mix freely; the file would store UCI.
    assert_eq!(
        stdout_of(&[
            "position", "chess", "e2e4", "e5", "g1f3", "Nc6", "Bb5", "a7a6"
        ]),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4\n"
    );
    assert_eq!(
        stdout_of(&[
            "moves",
            "chess",
            "--position",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
        ]),
        ""
    );
    assert_eq!(
        stdout_of(&[
            "position",
            "chess",
            "--position",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
        ]),
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ndraw: stalemate\n"
    );
}

#[test]
fn the_worked_example_through_the_commands() {
    assert_eq!(
        stdout_of(&["moves", "insurrection", "--position", WORKED]),
        "h6g5\nh6g7\nh6h5\n",
        "in check from the pawn on g5"
    );
    assert_eq!(
        stdout_of(&["position", "insurrection", "--position", WORKED, "Kxg5"]),
        "2b2r2/5p1p/3p4/1b4k1/q2N3N/8/P6P/R2NQ1K1 w - - 0 2 Pk\ncheckmate: black wins\n"
    );
    let board = stdout_of(&[
        "show",
        "insurrection",
        "--ascii",
        "--position",
        WORKED,
        "Kxg5",
    ]);
    for line in [
        " 5  . b . . . . k .  5",
        "white's government: pawns (Anarcho-syndicalist) on a2, h2",
        "black's government: kings (Monarchy) on g5",
        "last move: Kxg5#",
        "check: white's pawn on a2 is attacked",
        "game over: checkmate: black wins",
    ] {
        assert!(board.lines().any(|l| l == line), "no `{line}` in\n{board}");
    }
}

#[test]
fn a_forked_check_is_named() {
    let board = stdout_of(&[
        "show",
        "insurrection",
        "--position",
        "4k3/8/8/8/3q4/8/1N3N2/4K3 w - - 0 1 Nk",
    ]);
    assert!(
        board.contains(
            "check: white's knight on b2 and knight on f2 are attacked (a forked check)\n"
        ),
        "{board}"
    );
}

#[test]
fn assassination_is_a_variant_of_insurrection_only() {
    // Two government knights: under Assassination the one on b2 may be left to the rook.
    let fen = "1r2k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1 Nk";
    let plain = stdout_of(&["moves", "insurrection", "--position", fen]);
    let spare = stdout_of(&[
        "moves",
        "insurrection",
        "--variant",
        "assassination",
        "--position",
        fen,
    ]);
    assert!(
        !plain.contains("e1d1\n") && spare.contains("e1d1\n"),
        "{plain}\n{spare}"
    );
    // A position only Assassination allows: Black has left a spare government piece attacked.
    let only = "4k3/8/8/8/8/8/1N3N2/1r2K3 b - - 0 1 Nk";
    assert!(
        failure(&["moves", "insurrection", "--position", only], 1)
            .contains("white is not to move, yet its knight on b2 is attacked")
    );
    stdout_of(&[
        "moves",
        "insurrection",
        "--variant",
        "assassination",
        "--position",
        only,
    ]);
    assert_eq!(
        failure(&["moves", "chess", "--variant", "assassination"], 2),
        "error: chess has no variant `assassination` (variants: none)\n"
    );
}

#[test]
fn typed_moves_are_invalid_illegal_or_ambiguous() {
    let err = failure(&["position", "chess", "Zz9"], 1);
    assert_eq!(
        err,
        "error: move 1: Zz9: `Zz9` is not a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)\n"
    );
    let err = failure(&["position", "chess", "e4", "e5", "Ke3"], 1);
    assert_eq!(
        err,
        "error: move 3: Ke3: no king can move to e3\n\
         hint: `correspond moves chess --position \
         'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'` lists the legal moves \
         there\n"
    );
    assert!(
        err.contains("hint: `correspond moves chess --position '"),
        "{err}"
    );
    let err = failure(&["position", "chess", "d4", "d5", "Nf3", "Nf6", "Nd2"], 1);
    assert!(
        err.starts_with("error: move 5: Nd2: ambiguous: it could be Nbd2 or Nfd2\n"),
        "{err}"
    );
    let err = failure(
        &[
            "position",
            "chess",
            "--position",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "e8",
        ],
        1,
    );
    assert!(
        err.starts_with("error: move 1: e8: a pawn reaching the last rank must promote"),
        "{err}"
    );
    let err = failure(&["position", "chess", "f3", "e5", "g4", "Qh4#", "a3"], 1);
    assert_eq!(
        err,
        "error: move 5: a3: the game is over (checkmate: black wins)\n"
    );
    let cycle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    let moves: Vec<&str> = cycle.split_whitespace().collect();
    let mut args = vec!["position", "chess"];
    args.extend(&moves);
    assert_eq!(
        stdout_of(&args),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9\ndraw: fivefold repetition\n"
    );
    // `moves` lists the moves of the drawn position, and `position` plays them, saying where
    // the game was over.
    args.push("e4");
    assert_eq!(
        stdout_of(&args),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 9\n\
         the game was over after move 16 (draw: fivefold repetition); the moves after it were \
         played on, as `moves` lists them\n"
    );
    let dead = "8/8/8/4k3/8/8/8/4KB2 w - - 0 1";
    assert_eq!(
        stdout_of(&["moves", "chess", "--position", dead]).replace('\n', " "),
        "e1d1 e1d2 e1e2 e1f2 f1a6 f1b5 f1c4 f1d3 f1e2 f1g2 f1h3 "
    );
    assert_eq!(
        stdout_of(&["position", "chess", "--position", dead, "e1d1", "Kd5"]),
        "8/8/8/3k4/8/8/8/3K1B2 w - - 2 2\n\
         draw: insufficient material\n\
         the game was over before the first move (draw: insufficient material); the moves \
         after it were played on, as `moves` lists them\n"
    );
    // `show` draws that line and says the same under it; its JSON and SVG carry the outcome.
    assert_eq!(
        stdout_of(&[
            "show",
            "chess",
            "--position",
            dead,
            "e1d1",
            "Kd5",
            "--ascii"
        ]),
        "Chess, game over\n\
         \n    a b c d e f g h\n\
         \x208  . . . . . . . .  8\n\
         \x207  . . . . . . . .  7\n\
         \x206  . . . . . . . .  6\n\
         \x205  . . . k . . . .  5\n\
         \x204  . . . . . . . .  4\n\
         \x203  . . . . . . . .  3\n\
         \x202  . . . . . . . .  2\n\
         \x201  . . . K . B . .  1\n\
         \x20\x20\x20\x20a b c d e f g h\n\
         \n\
         last move: Kd5\n\
         game over: draw: insufficient material\n\
         position: 8/8/8/3k4/8/8/8/3K1B2 w - - 2 2\n\
         moves: 1. Kd1 Kd5\n\
         the game was over before the first move (draw: insufficient material); the moves \
         after it were played on, as `moves` lists them\n"
    );
    let json = stdout_of(&["show", "chess", "--position", dead, "e1d1", "Kd5", "--json"]);
    assert!(!json.contains("played on"), "{json}");
    // A move the drawn position does not have is refused for itself, not for the draw.
    assert_eq!(
        failure(
            &["position", "chess", "--position", dead, "Kd1", "Kd5", "Kd4"],
            1
        ),
        "error: move 3: Kd4: no king can move to d4\n\
         hint: `correspond moves chess --position '8/8/8/3k4/8/8/8/3K1B2 w - - 2 2'` lists the \
         legal moves there\n"
    );
}

fn import(pgn: &Path, file: &Path, extra: &[&str]) -> std::process::Output {
    correspond()
        .env("CORRESPOND_TIME", "2026-01-02T03:04:05Z")
        .arg("import-pgn")
        .arg(pgn)
        .arg(file)
        .args(["--no-commit", "--white-key"])
        .arg(keys_dir().join("alice"))
        .arg("--black-key")
        .arg(keys_dir().join("bob"))
        .args(extra)
        .output()
        .expect("run correspond")
}

#[test]
fn pgn_export_names_the_variant_the_result_and_each_coup() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pgn = stdout_of(&[
        "pgn",
        root.join("games/insurrection/anarcho-syndicalist-mate.yaml")
            .to_str()
            .expect("UTF-8"),
    ]);
    for tag in [
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "[Result \"1-0\"]",
        "[Variant \"Insurrection\"]",
        "[Termination \"normal\"]",
    ] {
        assert!(pgn.lines().any(|l| l == tag), "no {tag} in\n{pgn}");
    }
    assert!(
        pgn.ends_with(
            "1. d4 b5 2. Bg5 Nc6 3. Bxe7 Nxd4 4. exd8+ Kxd8 {coup: white's government is now\n\
             its queens (Matriarchy)} 5. Qxd4# {coup: black's government is now its pawns\n\
             (Anarcho-syndicalist)} 1-0\n"
        ),
        "{pgn}"
    );
    // A game without PGN is input rejected (1), not a usage error (2).
    let out = correspond()
        .current_dir(root)
        .args(["pgn", "games/campaign/fact-check.yaml"])
        .output()
        .expect("run");
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).as_ref(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (
            Some(1),
            "",
            "error: PGN is for chess and insurrection; games/campaign/fact-check.yaml is a game \
             of campaign\n\
             hint: `correspond log games/campaign/fact-check.yaml` lists its records\n"
        )
    );
}

#[test]
fn an_exported_game_imports_back_to_the_same_moves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    for game in [
        "games/chess/anderssen-immortal-game-1851.yaml",
        "games/insurrection/stalemate.yaml",
    ] {
        let first = stdout_of(&["pgn", root.join(game).to_str().expect("UTF-8")]);
        let pgn = dir.path().join("game.pgn");
        std::fs::write(&pgn, &first).expect("write PGN");
        let file = dir.path().join(format!("{}.yaml", first.len()));
        let out = import(&pgn, &file, &[]);
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout_of(&["verify", file.to_str().expect("UTF-8")]);
        let again = stdout_of(&["pgn", file.to_str().expect("UTF-8")]);
        let movetext = |pgn: &str| pgn[pgn.find("\n\n").expect("tags, then moves")..].to_owned();
        assert_eq!(movetext(&again), movetext(&first), "{game}");
        // Every tag comes back, but the id of the new game.
        let tags = |pgn: &str| -> Vec<String> {
            pgn.lines()
                .take_while(|l| l.starts_with('['))
                .filter(|l| !l.starts_with("[GameId "))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(tags(&again), tags(&first), "{game}");
        assert!(
            !std::fs::read_to_string(&file)
                .expect("game file")
                .contains("PRIVATE")
        );
    }
}

#[test]
fn import_refuses_a_bad_game_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("game.yaml");
    let refused = |pgn_text: &str, extra: &[&str]| {
        let pgn = dir.path().join("bad.pgn");
        std::fs::write(&pgn, pgn_text).expect("write PGN");
        let out = import(&pgn, &file, extra);
        assert!(!file.exists(), "nothing written for {pgn_text}");
        // Whole transcripts: the exit code and all of standard error, the folder named DIR.
        let err =
            String::from_utf8_lossy(&out.stderr).replace(&dir.path().display().to_string(), "DIR");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "",
            "nothing printed for {pgn_text}"
        );
        (out.status.code(), err)
    };
    assert_eq!(
        refused("[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 *\n", &[]),
        (
            Some(1),
            "error: DIR/bad.pgn line 3: move 3. Ke3 is illegal: no king can move to e3\n\
             hint: nothing was written\n"
                .to_owned()
        )
    );
    assert_eq!(
        refused("\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n", &[]),
        (
            Some(1),
            "error: DIR/bad.pgn: the result is 0-1, but the moves end in checkmate: white wins \
             (1-0)\nhint: nothing was written\n"
                .to_owned()
        )
    );
    assert_eq!(
        refused("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n", &[]),
        (
            Some(1),
            "error: DIR/bad.pgn: game 1 starts from the set-up position \
             `4k3/8/8/8/8/8/8/4K3 w - - 0 1`; game files start from the start position\n\
             hint: nothing was written\n"
                .to_owned()
        )
    );
    assert_eq!(
        refused("\n1. e4 *\n", &["--index", "2"]),
        (
            Some(2),
            "error: DIR/bad.pgn holds 1 game(s); there is no game 2\n".to_owned()
        )
    );
    // The same moves as Insurrection: the bishop that takes on f7 becomes a pawn there.
    let pgn = dir.path().join("good.pgn");
    std::fs::write(&pgn, "\n1. e4 e5 2. Bc4 d6 3. Bxf7+ *\n").expect("write PGN");
    let out = import(&pgn, &file, &["--game", "insurrection"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board = stdout_of(&["show", file.to_str().expect("UTF-8"), "--ascii"]);
    assert!(
        board.lines().any(|l| l == " 7  p p p . . P p p  7"),
        "{board}"
    );
}

/// A game won before the coin flip gave out the colours has no PGN result: White did not win,
/// nor Black, and it was no draw. The export says `*`, and why.
#[test]
fn a_game_won_before_the_colours_were_tossed_exports_as_unfinished_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys = crate::util::keys_dir();
    let key = |who: &str| keys.join(who).display().to_string();
    let steps: [&[&str]; 3] = [
        &[
            "new",
            "chess",
            "g.yaml",
            "--name",
            "alice",
            "--side",
            "toss",
            "--opponent",
            "bob",
            "--opponent-key",
            &key("bob.pub"),
            "--key",
            &key("alice"),
        ],
        &["accept", "g.yaml", "--key", &key("bob")],
        &["resign", "g.yaml", "--key", &key("bob")],
    ];
    for args in steps {
        crate::util::correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-06-01T10:00:00Z")
            .args(args)
            .arg("--no-commit")
            .assert()
            .success();
    }
    let out = crate::util::correspond()
        .current_dir(dir.path())
        .args(["pgn", "g.yaml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "\n{bob (toss) resigns} {alice won (bob resigned) before the coin flip gave out\n\
             the colours: PGN has no result for a game won by a player without a colour} *\n"
        ),
        "{text}"
    );
}

/// A draw offer standing in a chess game is called one.
#[test]
fn a_standing_draw_offer_is_named_as_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys = crate::util::keys_dir();
    let key = |who: &str| keys.join(who).display().to_string();
    let steps: [&[&str]; 3] = [
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
            &key("bob.pub"),
            "--key",
            &key("alice"),
        ],
        &["accept", "g.yaml", "--key", &key("bob")],
        &["offer-draw", "g.yaml", "--key", &key("alice")],
    ];
    for args in steps {
        crate::util::correspond()
            .current_dir(dir.path())
            .args(args)
            .arg("--no-commit")
            .assert()
            .success();
    }
    let out = crate::util::correspond()
        .current_dir(dir.path())
        .args(["status", "g.yaml"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("offer: alice (white) offers a draw, until bob (black)'s next record\n"),
        "{text}"
    );
}

/// A game resigned where a draw could have been claimed: once it is over nothing is claimable,
/// in the picture or its JSON; the record before the resignation still offers the claim.
#[test]
fn a_resigned_game_offers_no_claim() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let time = "2026-03-01T10:00:00Z";
    chess_accepted(dir, time, "g.yaml", &[]);
    for (i, mv) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        .into_iter()
        .enumerate()
    {
        signed(dir, time, ["alice", "bob"][i % 2], &["play", "g.yaml", mv]);
    }
    signed(dir, time, "alice", &["resign", "g.yaml"]);
    let show = |args: &[&str]| {
        let (code, out, err) = transcript(correspond().current_dir(dir).args(args));
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        out
    };
    let claim = "claimable by white: draw: threefold repetition\n";
    let before = show(&["show", "g.yaml", "--ascii", "--at", "9"]);
    assert!(before.contains(claim), "{before}");
    assert!(before.contains("\nChess, white to move\n"), "{before}");
    let over = show(&["show", "g.yaml", "--ascii"]);
    assert!(!over.contains("claimable"), "{over}");
    assert!(over.contains("\nChess, game over\n"), "{over}");
    let json: serde_json::Value =
        serde_json::from_str(&show(&["show", "g.yaml", "--json"])).expect("JSON");
    assert_eq!(json["claimable"], serde_json::json!([]), "{json}");
    let json: serde_json::Value =
        serde_json::from_str(&show(&["show", "g.yaml", "--json", "--at", "9"])).expect("JSON");
    assert_eq!(
        json["claimable"],
        serde_json::json!(["draw: threefold repetition"]),
        "{json}"
    );
}
