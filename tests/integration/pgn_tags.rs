//! The PGN tags a game's header holds, given when the game is made: a tag a header cannot hold
//! is refused with nothing written; tags are for the games PGN writes, and a tag about one
//! colour is refused while a coin flip is still to say who plays it; and the reader holds a
//! header to the same rule.

use crate::util::{correspond, keys_dir, ssh_sign, transcript};
use correspond::digest::Digest;
use correspond::games::campaign::Campaign;
use correspond::log::{Header, Player, TimeControl, Timestamp, header_unsigned, preamble};
use correspond::replay::Protocol as _;
use std::collections::BTreeMap;
use std::path::Path;

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
            "error: the tag `White` is `Kasparov`, which is not a spelling of the name of the \
             player of white (`alice`): PGN export writes that name\n"
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
            "error: `tags` are for PGN export, which campaign does not have; a header of \
             campaign holds none\n"
                .to_owned()
        )
    );
    assert_eq!(
        new("chess", "toss", "WhiteElo=2100"),
        (
            2,
            String::new(),
            "error: the tag `WhiteElo` is about white, and a coin flip has still to say who \
             plays it\n\
             hint: choose your side with --side white or --side black\n"
                .to_owned()
        )
    );
}

/// A game file of `game` whose header alone (alice's and bob's sides `sides`, the tags `tags`,
/// a clock of a day a move when `timed`) is signed by alice with OpenSSH: a header this program
/// would not write, made as another program could.
fn header_only(dir: &Path, game: &str, sides: [&str; 2], tags: &[(&str, &str)], timed: bool) {
    let key = |who: &str| {
        let text = std::fs::read_to_string(keys_dir().join(format!("{who}.pub"))).expect("a key");
        ssh_key::PublicKey::from_openssh(text.trim()).expect("an OpenSSH key")
    };
    let player = |name: &str, side: &str| Player {
        name: name.to_owned(),
        side: side.to_owned(),
        key: key(name),
    };
    let header = Header {
        game: game.to_owned(),
        // Campaign's options as `new` sets them; chess has none.
        options: if game == "campaign" {
            Campaign::options_map(&Campaign::usual_options())
        } else {
            BTreeMap::new()
        },
        players: [player("alice", sides[0]), player("bob", sides[1])],
        created: Timestamp::parse("2026-03-01T10:00:00Z").expect("a time"),
        salt: Digest::parse(crate::util::SALT).expect("a salt"),
        commitment: None,
        time_control: timed.then_some(TimeControl::PerMove { days: 1 }),
        leave_days: 0,
        arbiter: None,
        tags: tags
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
    };
    let unsigned = header_unsigned(&header);
    let signature = ssh_sign(dir, "alice", &unsigned);
    let text = format!("{}{unsigned}signature: {signature}\n", preamble(&header));
    std::fs::write(dir.join("g.yaml"), text).expect("write the game");
}

#[test]
fn the_reader_holds_a_header_to_the_rule_new_writes_by() {
    let dir = tempfile::tempdir().expect("temp dir");
    let verify = |game: &str, sides: [&str; 2], tags: &[(&str, &str)], timed: bool| {
        header_only(dir.path(), game, sides, tags, timed);
        transcript(
            correspond()
                .current_dir(dir.path())
                .args(["verify", "g.yaml"]),
        )
    };
    let refused = |why: &str| {
        (
            1,
            format!(
                "g.yaml: INVALID: header (line 4): invalid header: {why}\n\
                 1 file: 0 valid, 1 invalid\n"
            ),
            String::new(),
        )
    };
    let colours = ["white", "black"];
    assert_eq!(
        verify("chess", colours, &[("White", "mallory")], false),
        refused(
            "the tag `White` is `mallory`, which is not a spelling of the name of the player of \
             white (`alice`): PGN export writes that name"
        )
    );
    assert_eq!(
        verify("chess", colours, &[("Black", "alice")], false),
        refused(
            "the tag `Black` is `alice`, which is not a spelling of the name of the player of \
             black (`bob`): PGN export writes that name"
        )
    );
    assert_eq!(
        verify("campaign", ["heads", "tails"], &[("Event", "Club")], false),
        refused(
            "`tags` are for PGN export, which campaign does not have; a header of campaign holds none"
        )
    );
    assert_eq!(
        verify("chess", ["toss", "toss"], &[("WhiteElo", "2100")], false),
        refused("the tag `WhiteElo` is about white, and a coin flip has still to say who plays it")
    );
    assert_eq!(
        verify("chess", colours, &[("TimeControl", "1/86400")], true),
        refused(
            "the tag `TimeControl` stands beside the game's clock (`time-control`), which PGN \
             export writes in its place"
        )
    );
    // Tags and what PGN export writes from the header beside them (the Date it was made, where
    // no tag gives one; the clock as TimeControl) are at most 32, which an import keeps.
    let names: Vec<String> = (1..=32).map(|i| format!("T{i:02}")).collect();
    let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "x")).collect();
    assert_eq!(
        verify("chess", colours, &many, false),
        refused(
            "`tags` holds 32 tags, and PGN export writes Date from the header beside them: at \
             most 32 in all, which a game imported from that PGN keeps"
        )
    );
    assert_eq!(
        verify("chess", colours, &many[..31], true),
        refused(
            "`tags` holds 31 tags, and PGN export writes Date and TimeControl from the header \
             beside them: at most 32 in all, which a game imported from that PGN keeps"
        )
    );
    let mut dated = many[..31].to_vec();
    dated.push(("Date", "2026.03.01"));
    assert_eq!(verify("chess", colours, &dated, false).0, 0);
    assert_eq!(verify("chess", colours, &many[..30], true).0, 0);
    // A tag that names no one (PGN's `?` for an unknown player), as import-pgn kept it.
    assert_eq!(verify("chess", colours, &[("White", "?")], false).0, 0);
    // What a writer may write, the reader accepts: a name as PGN spells it (as `import-pgn`
    // keeps it), an imported game's own TimeControl where the game has no clock, and Date as
    // PGN writes one.
    let tags = [
        ("White", "alice!"),
        ("Black", "bob,"),
        ("TimeControl", "40/7200"),
        ("Date", "2026.??.??"),
    ];
    assert_eq!(
        verify("chess", colours, &tags, false),
        (
            0,
            "g.yaml: valid: chess, alice (white) v bob (black), 0 records: in progress, waiting \
             for bob (black) to accept the game\n1 file: 1 valid, 0 invalid\n"
                .to_owned(),
            String::new()
        )
    );
}
