//! `pgn`, then `import-pgn`, then `pgn` loses nothing: every tag, every move, and every record's
//! words with their signer come back, the offers, acceptances, claims and resignations signed
//! again by the same player; what an imported game cannot hold (a clock's record, an arbiter's,
//! a coin flip's, another program's variations and glyphs, a tag or comment a game file spells
//! otherwise) stops the import with the line and the reason, unless `--lossy`, which says what
//! it changed.

use crate::util::{correspond, keys_dir, signed, transcript};
use std::path::Path;

fn key(who: &str) -> String {
    keys_dir().join(who).display().to_string()
}

/// `correspond ARGS` in `dir`: its transcript.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
            .args(args),
    )
}

/// `correspond pgn FILE`, which must succeed.
fn pgn(dir: &Path, file: &str) -> String {
    let (code, out, err) = run(dir, &["pgn", file]);
    assert_eq!((code, err.as_str()), (0, ""), "pgn {file}");
    out
}

/// `import-pgn PGN FILE` with white's and black's keys and `extra` arguments.
fn import(
    dir: &Path,
    pgn: &str,
    file: &str,
    keys: [&str; 2],
    extra: &[&str],
) -> (i32, String, String) {
    let (white, black) = (key(keys[0]), key(keys[1]));
    let mut args = vec!["import-pgn", pgn, file, "--white-key", &white];
    args.extend(["--black-key", &black, "--no-commit"]);
    args.extend(extra);
    run(dir, &args)
}

/// A PGN text without its `GameId` line: an imported game is a new game, with its own id.
fn without_id(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("[GameId "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Every record of a game file but the coin flip's steps: who signed it, what it is, what it
/// did and its words; of the acceptance, its words and who said them (PGN says nothing else of
/// it: not who accepted a game whose colours a coin flip gave out, nor its nonce).
fn records(dir: &Path, file: &str) -> Vec<String> {
    let (code, out, err) = run(dir, &["log", file, "--json"]);
    assert_eq!((code, err.as_str()), (0, ""), "log {file}");
    let log: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let documents = log["documents"].as_array().expect("documents");
    documents[1..]
        .iter()
        .filter(|d| !d["kind"].as_str().is_some_and(|k| k.starts_with("flip-")))
        .map(|d| {
            if d["kind"] == "accept" && d["comment"].is_null() {
                return "accept".to_owned();
            }
            let events = if d["kind"] == "accept" {
                serde_json::Value::Null
            } else {
                d["events"].clone()
            };
            format!("{} {} {events} {}", d["signer"], d["kind"], d["comment"])
        })
        .collect()
}

#[test]
fn every_example_game_of_chess_and_insurrection_comes_back_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<_> = ["games/chess", "games/insurrection"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(root.join(folder)).expect("folder"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10);
    for file in files {
        let name = file.file_stem().and_then(|s| s.to_str()).expect("UTF-8");
        let exported = pgn(root, file.to_str().expect("UTF-8"));
        std::fs::write(dir.path().join(format!("{name}.pgn")), &exported).expect("write");
        let again = format!("{name}.yaml");
        let (code, _, err) = import(
            dir.path(),
            &format!("{name}.pgn"),
            &again,
            ["alice", "bob"],
            &[],
        );
        // Hidden lines' salts and proofs are not in a PGN: such a game does not come back.
        if name == "hidden-conditional-moves" {
            assert_eq!(
                (code, err.as_str()),
                (
                    1,
                    "error: hidden-conditional-moves.pgn line 12: `alice (white) commits to hidden \
                     conditional lines (cd82272c6af63745573903c311ce8…` is a record of hidden \
                     conditional lines, whose salts and proofs a PGN does not carry\n\
                     hint: nothing was written\n"
                )
            );
            assert!(!dir.path().join(&again).exists());
            continue;
        }
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        assert_eq!(
            without_id(&pgn(dir.path(), &again)),
            without_id(&exported),
            "{name}"
        );
        assert_eq!(
            records(dir.path(), &again),
            records(root, file.to_str().expect("UTF-8")),
            "{name}"
        );
    }
}

/// A game with words on every kind of record an imported game can hold: the acceptance, moves,
/// an offer declined by playing on, an offer accepted, a claim; and one resigned.
#[test]
fn offers_acceptances_claims_and_resignations_are_signed_again_by_their_players() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let time = "2026-03-01T12:00:00Z";
    let bob = key("bob.pub");
    let new = [
        "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
    ];
    let sign = |who: &str, args: &[&str]| signed(dir, time, who, args);
    sign(
        "alice",
        &[&new[..], &["--opponent", "bob", "--opponent-key", &bob]].concat(),
    );
    sign("bob", &["accept", "g.yaml", "-m", "good luck; have fun"]);
    sign(
        "alice",
        &["play", "g.yaml", "Nf3", "-m", "two  spaces", "--offer-draw"],
    );
    sign("bob", &["play", "g.yaml", "Nf6", "-m", "no: play on"]);
    for (who, mv) in [
        ("alice", "Ng1"),
        ("bob", "Ng8"),
        ("alice", "Nf3"),
        ("bob", "Nf6"),
    ] {
        sign(who, &["play", "g.yaml", mv]);
    }
    sign("alice", &["play", "g.yaml", "Ng1"]);
    sign("bob", &["offer-draw", "g.yaml", "-m", "a draw?"]);
    sign("bob", &["play", "g.yaml", "Ng8"]);
    sign(
        "alice",
        &["claim-draw", "g.yaml", "repetition", "-m", "the third time"],
    );
    let exported = pgn(dir, "g.yaml");
    assert!(
        exported.ends_with(
            "\n\n{bob (black): good luck; have fun} 1. Nf3 {alice (white): two  spaces} {alice\n\
             (white) offers a draw} 1... Nf6 {bob (black): no: play on} 2. Ng1 Ng8 3. Nf3\n\
             Nf6 4. Ng1 {bob (black) offers a draw: a draw?} 4... Ng8 {alice (white) claims\n\
             a draw (repetition): the third time} 1/2-1/2\n"
        ),
        "{exported}"
    );
    std::fs::write(dir.join("g.pgn"), &exported).expect("write");
    assert_eq!(
        import(dir, "g.pgn", "again.yaml", ["alice", "bob"], &[]),
        (
            0,
            "imported 8 moves into again.yaml: chess, alice (white) v bob (black)\n\
             draw: threefold repetition\n"
                .to_owned(),
            String::new()
        )
    );
    assert_eq!(without_id(&pgn(dir, "again.yaml")), without_id(&exported));
    assert_eq!(records(dir, "again.yaml"), records(dir, "g.yaml"));
}

/// The acceptance's words are the accepter's: after a coin flip made the accepter white, the
/// imported game is made by black and accepted by white, who signs them again.
#[test]
fn an_accepter_the_coin_flip_made_white_signs_the_acceptance_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let time = "2026-03-01T12:00:00Z";
    let bob = key("bob.pub");
    let sign = |who: &str, args: &[&str]| signed(dir, time, who, args);
    let new = [
        "new", "chess", "g.yaml", "--name", "alice", "--side", "toss",
    ];
    sign(
        "alice",
        &[&new[..], &["--opponent", "bob", "--opponent-key", &bob]].concat(),
    );
    sign("bob", &["accept", "g.yaml", "-m", "have fun"]);
    sign("alice", &["flip", "g.yaml"]);
    let (_, status, _) = run(dir, &["status", "g.yaml"]);
    assert!(
        status.contains("\nstatus: bob (white) to move\n"),
        "{status}"
    );
    sign("bob", &["play", "g.yaml", "d4"]);
    let exported = pgn(dir, "g.yaml");
    assert!(
        exported.ends_with("\n\n{bob (white): have fun} 1. d4 *\n"),
        "{exported}"
    );
    std::fs::write(dir.join("g.pgn"), &exported).expect("write");
    let (code, _, err) = import(dir, "g.pgn", "again.yaml", ["bob", "alice"], &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(without_id(&pgn(dir, "again.yaml")), without_id(&exported));
    assert_eq!(records(dir, "again.yaml"), records(dir, "g.yaml"));
    // White and Black are the players', not tags to keep: the imported header holds the day
    // the game was made, and nothing else.
    let again = std::fs::read_to_string(dir.join("again.yaml")).expect("read");
    assert!(
        again.contains("\ntags:\n  Date: \"2026.03.01\"\ncreated: "),
        "{again}"
    );
    // The coin flip's own words have no record to go to in an imported game.
    let revealed = exported.replace(
        "{bob (white): have fun} ",
        "{bob (white): have fun} {alice (black) reveals the coin flip: so be it} ",
    );
    std::fs::write(dir.join("flip.pgn"), &revealed).expect("write");
    assert_eq!(
        import(dir, "flip.pgn", "flip.yaml", ["bob", "alice"], &["--lossy"]),
        (
            1,
            String::new(),
            "error: flip.pgn line 12: `alice (black) reveals the coin flip: so be it` is a step \
             of a coin flip, and an imported game has none: the PGN gives the colours\n\
             hint: nothing was written\n"
                .to_owned()
        )
    );
}

/// What no imported game can make again is refused, whatever `--lossy` says: records of a
/// clock, an arbiter or a coin flip, words that name someone else, or that no record there can
/// carry.
#[test]
fn records_an_imported_game_cannot_hold_are_refused_with_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let game = |movetext: &str| {
        format!("[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]\n\n1. e4 e5 {movetext} *\n")
    };
    let cases = [
        (
            "{alice (white) claims the game on time}",
            "`alice (white) claims the game on time` is a record of a game with a clock, and an \
             imported game has none",
        ),
        (
            "{bob (black) takes 5 days of leave: a holiday}",
            "`bob (black) takes 5 days of leave: a holiday` is a record of a game with a clock, \
             and an imported game has none",
        ),
        (
            "{the arbiter carol adjudicates the game: creator-wins (abandoned)}",
            "`the arbiter carol adjudicates the game: creator-wins (abandoned)` is the arbiter's \
             decision, and an imported game has no arbiter",
        ),
        (
            "{mallory (black): it was me}",
            "`mallory (black): it was me` names mallory as black's player, but the PGN's black \
             is `bob`",
        ),
        (
            "{alice (white): mine}",
            "`alice (white): mine` are alice (white)'s words after a move of bob (black) has \
             spoken: no record of theirs there can carry them",
        ),
        (
            "{bob (black) offers a draw} {bob (black): after it}",
            "`bob (black): after it` comes after bob (black)'s record `offers a draw`, and words \
             after a record that is not a move are that record's, after its `: `",
        ),
    ];
    for (i, (words, why)) in cases.iter().enumerate() {
        let name = format!("c{i}.pgn");
        std::fs::write(dir.join(&name), game(words)).expect("write");
        assert_eq!(
            import(dir, &name, "c.yaml", ["alice", "bob"], &["--lossy"]),
            (
                1,
                String::new(),
                format!("error: {name} line 5: {why}\nhint: nothing was written\n")
            ),
            "{words}"
        );
        assert!(!dir.join("c.yaml").exists());
    }
}

/// Another program's PGN: what a game file cannot keep as it is stops the import, listed by
/// line; `--lossy` imports it with those changes and prints them.
#[test]
fn another_programs_pgn_imports_whole_or_says_what_it_would_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let text = "[Event \"Rated \\\"blitz\\\" game\"]\n[Site \"https://lichess.org/abcd1234\"]\n\
                [Date \"2024.01.05\"]\n[White \"Kasparov, Garry\"]\n[Black \"Deep Blue\"]\n\
                [Result \"0-1\"]\n[Variant \"Standard\"]\n[TimeControl \"180+0\"]\n\
                [Termination \"Time forfeit\"]\n[Event \"Again\"]\n\n\
                { [%clk 0:03:00] } 1. e4 { [%clk 0:03:00] } 1... e5 2. Nf3!? (2. f4 exf4) 2... \
                Nc6 $1 ; a line comment\n0-1\n";
    std::fs::write(dir.join("l.pgn"), text).expect("write");
    let changes = "  line 1: the tag `Event` is `Rated \"blitz\" game`, which a game file keeps as \
                   `Rated 'blitz' game`\n  \
                   line 9: the tag `Termination` is `Time forfeit`, but the imported game, which \
                   has no clock, arbiter or coin flip, ends `normal`\n  \
                   line 10: the tag `Event` again (line 1 has it) is left out\n  \
                   line 12: the annotation glyph `!?` is left out: a game file holds the main \
                   line\n  \
                   line 12: a variation is left out: a game file holds the main line\n  \
                   line 12: the annotation glyph `$1` is left out: a game file holds the main line\n";
    assert_eq!(
        import(dir, "l.pgn", "l.yaml", ["alice", "bob"], &[]),
        (
            1,
            String::new(),
            format!(
                "error: l.pgn: game 1 cannot be imported as the PGN has it:\n{changes}\
                 hint: `--lossy` imports it with these changes; nothing was written\n"
            )
        )
    );
    assert!(!dir.join("l.yaml").exists());
    assert_eq!(
        import(dir, "l.pgn", "l.yaml", ["alice", "bob"], &["--lossy"]),
        (
            0,
            format!(
                "imported 4 moves into l.yaml: chess, Kasparov Garry (white) v Deep Blue (black)\n\
                 black wins: Kasparov Garry (white) resigned\n\
                 changed, as --lossy allows:\n{changes}"
            ),
            String::new()
        )
    );
    // The words before the first move are the acceptance's, the others the mover's.
    assert_eq!(
        pgn(dir, "l.yaml").split("\n\n").nth(1),
        Some(
            "{Deep Blue (black): [%clk 0:03:00]} 1. e4 {Kasparov Garry (white): [%clk\n\
             0:03:00]} 1... e5 2. Nf3 Nc6 {Deep Blue (black): a line comment} {Kasparov\n\
             Garry (white) resigns} 0-1\n"
        )
    );
    // A variant of chess that is not chess is refused outright.
    std::fs::write(dir.join("960.pgn"), "[Variant \"Chess960\"]\n\n1. e4 *\n").expect("write");
    assert_eq!(
        import(dir, "960.pgn", "960.yaml", ["alice", "bob"], &["--lossy"]),
        (
            1,
            String::new(),
            "error: 960.pgn: game 1 is of the variant `Chess960`; import-pgn makes games of \
             chess and insurrection\nhint: nothing was written\n"
                .to_owned()
        )
    );
}

/// What a game file keeps only changed is listed, however it came: several comments joined into
/// one record's, words that may be two records' (as an earlier export joined them), a Variant
/// the game is not imported as; and text from the PGN is escaped where it is printed.
#[test]
fn changes_are_listed_and_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let text = "[White \"alice\"]\n[Black \"bob\"]\n[Variant \"Insurrection\"]\n\n\
                1. e4 {alice (white): a} {b} 1... e5 {bob (black): calm; alice (white): too \
                strong} 2. Nf3 $\u{1b}[31mRED *\n";
    std::fs::write(dir.join("c.pgn"), text).expect("write");
    let changes = "  line 3: the tag `Variant` is `Insurrection`, but the game is imported as chess\n  \
                   line 5: the annotation glyph `$\\u{1b}[31mRED` is left out: a game file holds \
                   the main line\n  \
                   line 5: 2 comments (on lines 5, 5) are joined into one, as a record holds one\n  \
                   line 5: `calm; alice (white): too strong` may join the words of more than one \
                   record (the part after `; alice (white)`), as an earlier `correspond pgn` wrote \
                   them, and is kept as one record's; if so, export the game again, which writes \
                   each record's words in a comment of its own\n";
    assert_eq!(
        import(
            dir,
            "c.pgn",
            "c.yaml",
            ["alice", "bob"],
            &["--game", "chess"]
        ),
        (
            1,
            String::new(),
            format!(
                "error: c.pgn: game 1 cannot be imported as the PGN has it:\n{changes}\
                 hint: `--lossy` imports it with these changes; nothing was written\n"
            )
        )
    );
    let (code, out, err) = import(
        dir,
        "c.pgn",
        "c.yaml",
        ["alice", "bob"],
        &["--game", "chess", "--lossy"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!(
            "imported 3 moves into c.yaml: chess, alice (white) v bob (black)\n\
             bob (black) to move\nchanged, as --lossy allows:\n{changes}"
        )
    );
    let file = std::fs::read_to_string(dir.join("c.yaml")).expect("read");
    assert!(file.contains("\ncomment: \"a b\"\n"), "{file}");
}

/// A draw the PGN's records leave standing is accepted by the other player: no offer is made up.
#[test]
fn a_draw_offer_standing_at_the_end_is_the_one_accepted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    std::fs::write(
        dir.join("d.pgn"),
        "[White \"alice\"]\n[Black \"bob\"]\n\n1. e4 e5 {bob (black) offers a draw: hi} 1/2-1/2\n",
    )
    .expect("write");
    let (code, _, err) = import(dir, "d.pgn", "d.yaml", ["alice", "bob"], &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        records(dir, "d.yaml"),
        [
            "accept",
            "\"alice\" \"move\" [\"e4\"] null",
            "\"bob\" \"move\" [\"e5\"] null",
            "\"bob\" \"offer-draw\" [\"offers a draw\"] \"hi\"",
            "\"alice\" \"accept-draw\" [\"accepts the draw\",\"game over: draw: agreement\"] null",
        ]
    );
}
