//! The spelling of names, comments and times.
use super::*;

#[test]
fn timestamps_from_unix_seconds() {
    assert_eq!(Timestamp::from_unix(0).as_str(), "1970-01-01T00:00:00Z");
    assert_eq!(
        Timestamp::from_unix(951_782_400).as_str(),
        "2000-02-29T00:00:00Z"
    );
    assert_eq!(
        Timestamp::from_unix(1_796_041_800).as_str(),
        "2026-11-30T12:30:00Z"
    );
    assert!(Timestamp::parse("2026-12-01T12:30:00Z").is_some());
    assert!(Timestamp::parse("2024-02-29T00:00:00Z").is_some());
    for bad in [
        "2026-12-01 12:30:00Z",
        "2026-13-01T12:30:00Z",
        "2026-12-01T12:30:00+01:00",
        "",
        "2026-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:60Z",
    ] {
        assert!(Timestamp::parse(bad).is_none(), "{bad}");
    }
}

#[test]
fn comments_are_one_line_of_plain_text_that_quotes_and_pgn_hold_as_they_are() {
    for good in [
        "gg",
        "the king's pawn",
        "zoë: 1.e4!?",
        &"x".repeat(MAX_COMMENT),
    ] {
        assert!(valid_comment(good), "{good}");
    }
    let long = "x".repeat(MAX_COMMENT + 1);
    for bad in [
        "",
        " gg",
        "gg ",
        "a\nb",
        "a\tb",
        "say \"hi\"",
        "a\\b",
        "{gg}",
        "\u{202e}gg",
        &long,
    ] {
        assert!(!valid_comment(bad), "{bad:?}");
    }
}

#[test]
fn names_are_plain_text_on_one_line() {
    for good in ["alice", "Bob Smith", "o'hara", "zoë", "a.b-c_d@e"] {
        assert!(valid_name(good), "{good}");
    }
    for bad in [
        "",
        " alice",
        "alice ",
        "a  b",
        "a\"b",
        "a\\b",
        "a\nb",
        "a: b",
        "#x",
        &"x".repeat(41),
    ] {
        assert!(!valid_name(bad), "{bad:?}");
    }
}
