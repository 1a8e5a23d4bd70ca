//! The PGN tags a game's header holds, given when the game is made: a tag a header cannot hold
//! is refused with nothing written; tags are for the games PGN writes, and a tag about one
//! colour is refused while a coin flip is still to say who plays it.

use crate::util::{correspond, keys_dir, transcript};

#[test]
fn a_tag_a_header_cannot_hold_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let new = |tags: &[&str]| {
        let mut cmd = correspond();
        cmd.current_dir(dir.path())
            .args([
                "new", "chess", "g.yaml", "--name", "alice", "--side", "white",
            ])
            .args(["--opponent", "bob", "--opponent-key"])
            .arg(keys_dir().join("bob.pub"))
            .arg("--key")
            .arg(keys_dir().join("alice"))
            .arg("--no-commit");
        for tag in tags {
            cmd.args(["--tag", tag]);
        }
        let out = transcript(&mut cmd);
        assert!(!dir.path().join("g.yaml").exists(), "{tags:?}");
        out
    };
    let refused = |value: &str, why: &str| {
        (
            2,
            String::new(),
            format!(
                "error: invalid value '{value}' for '--tag <NAME=VALUE>': {why}\n\n\
                 For more information, try '--help'.\n"
            ),
        )
    };
    assert_eq!(
        new(&["Result=1-0"]),
        refused(
            "Result=1-0",
            "the tag `Result` is written from the game itself; a header cannot set it"
        )
    );
    assert_eq!(
        new(&["Event=\"x\""]),
        refused(
            "Event=\"x\"",
            "the tag `Event` has a value that cannot be stored: `\"x\"` (at most 255 characters, \
             no control character, `\"` or `\\`, no space at either end)"
        )
    );
    assert_eq!(
        new(&["1st=x"]),
        refused(
            "1st=x",
            "`1st` is not a PGN tag name (1 to 40 letters, digits and `_`, starting with a letter)"
        )
    );
    assert_eq!(
        new(&["Round"]),
        refused(
            "Round",
            "a tag is written NAME=VALUE, as Event=Club championship"
        )
    );
    assert_eq!(
        new(&["Round=1", "Round=2"]),
        (
            2,
            String::new(),
            "error: the tag Round is given twice\n".to_owned()
        )
    );
    assert_eq!(
        new(&["Date=yesterday"]),
        refused(
            "Date=yesterday",
            "the tag `Date` is `yesterday`, not a PGN date like 2026.03.01 (`??` for what is \
             unknown)"
        )
    );
    assert_eq!(
        new(&["result=1-0"]),
        refused(
            "result=1-0",
            "the tag `result` is written from the game itself; a header cannot set it"
        )
    );
    assert_eq!(
        new(&["White=Kasparov"]),
        (
            2,
            String::new(),
            "error: the tag White is the player's name, which --name and --opponent give\n"
                .to_owned()
        )
    );
}

#[test]
fn tags_are_for_the_games_pgn_writes_and_wait_for_the_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let new = |game: &str, side: &str, tag: &str| {
        let out = transcript(
            correspond()
                .current_dir(dir.path())
                .args(["new", game, "g.yaml", "--name", "alice", "--side", side])
                .args(["--opponent", "bob", "--opponent-key"])
                .arg(keys_dir().join("bob.pub"))
                .arg("--key")
                .arg(keys_dir().join("alice"))
                .args(["--no-commit", "--tag", tag]),
        );
        assert!(!dir.path().join("g.yaml").exists(), "{game} {tag}");
        out
    };
    assert_eq!(
        new("campaign", "heads", "Event=Club"),
        (
            2,
            String::new(),
            "error: tags are for PGN, which is for chess and insurrection; campaign has none\n"
                .to_owned()
        )
    );
    assert_eq!(
        new("chess", "toss", "WhiteElo=2100"),
        (
            2,
            String::new(),
            "error: the tag WhiteElo is about one colour, and a coin flip will say who plays it\n\
             hint: choose your side with --side white or --side black\n"
                .to_owned()
        )
    );
}
