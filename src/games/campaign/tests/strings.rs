//! Campaign's two texts: position strings (read, written back, and refused with the field and
//! the reason) and move notation (invalid, illegal and ambiguous moves told apart).

use super::*;

#[test]
fn position_strings_round_trip() {
    for text in [
        START,
        OPEN,
        "4c/5/5/5/S4/5/5 t - 0 1",
        "1S3/5/4c/5/5/I4/5 h - 123 456",
    ] {
        assert_eq!(pos(text).to_string(), text);
    }
}

#[test]
fn position_string_errors_name_the_field() {
    let err = |text: &str| Campaign::parse_position(text).expect_err(text).to_string();
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0"),
        "a position has 5 fields separated by single spaces (placement, side to move, spin \
         rights, halfmove clock, fullmove number); found 4"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH  h AEae 0 1"),
        "fields are separated by single spaces (not tabs), with none before or after"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH\th AEae 0 1"),
        "fields are separated by single spaces (not tabs), with none before or after"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 4294967296 1"),
        "halfmove clock: `4294967296` is too large (at most 4294967295)"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/IIIII/HGCGH h AEae 0 1"),
        "placement: expected 7 ranks separated by `/`, found 6"
    );
    assert_eq!(
        err("hgcgh/iiii/5/5/5/IIIII/HGCGH h AEae 0 1"),
        "placement: rank 6 (`iiii`) covers 4 files; each rank covers 5"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIIK/HGCGH h AEae 0 1"),
        "placement: rank 2: `K` is not a piece (C S G H I for heads, c s g h i for tails) or a \
         count of empty squares (1-5)"
    );
    assert_eq!(
        err("hgcgh/iiiii/23/5/5/IIIII/HGCGH h AEae 0 1"),
        "placement: rank 5: a run of empty squares is one digit, not `23`"
    );
    assert!(err("hgcgh/iiiii/6/5/5/IIIII/HGCGH h AEae 0 1").starts_with("placement: rank 5: `6`"));
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH w AEae 0 1"),
        "side to move: expected `h` (heads) or `t` (tails), found `w`"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h EA 0 1"),
        "spin rights: expected `-` or some of `AEae` in that order, found `EA`"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AAe 0 1"),
        "spin rights: expected `-` or some of `AEae` in that order, found `AAe`"
    );
    assert!(err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae -1 1").starts_with("halfmove clock:"));
    assert!(err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 01 1").starts_with("halfmove clock:"));
    assert!(err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 0").starts_with("fullmove number:"));
    assert!(err("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 +1").starts_with("fullmove number:"));
}

#[test]
fn positions_the_rules_forbid_are_rejected_with_the_reason() {
    let err = |text: &str| Campaign::parse_position(text).expect_err(text);
    assert_eq!(
        err("hgigh/iiiii/5/5/5/IIIII/HGCGH h - 0 1"),
        PositionError::CandidateCount(Side::Tails, 0)
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCSH h - 0 1"),
        PositionError::CandidateCount(Side::Heads, 2)
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCGi h - 0 1"),
        PositionError::InternOnFarRank(Side::Tails, sq("e1"))
    );
    assert_eq!(
        err("hIcgh/iiiii/5/5/5/IIIII/HGCGH h - 0 1"),
        PositionError::InternOnFarRank(Side::Heads, sq("b7"))
    );
    assert_eq!(
        err("4c/5/5/5/S4/5/5 h - 0 1").to_string(),
        "tails is not to move, yet its candidate on e7 is attacked by the stacked candidate on a3"
    );
    assert_eq!(
        err("hgcgh/iiiii/5/5/5/IIIII/HGCG1 h AEae 0 1").to_string(),
        "spin rights: `E` needs heads's unstacked candidate on c1 and its handler on e1, where they started"
    );
}

#[test]
fn notation_errors_are_invalid_illegal_or_ambiguous() {
    let p = pos(START);
    let invalid = |text: &str| match p.parse_move(text) {
        Err(MoveError::Invalid(e)) => e,
        other => panic!("{text}: expected a syntax error, got {other:?}"),
    };
    assert_eq!(invalid(""), SyntaxError::Empty);
    assert_eq!(invalid("c2-c3"), SyntaxError::Shape("c2-c3".into()));
    assert_eq!(invalid("C2C3"), SyntaxError::Shape("C2C3".into()));
    assert_eq!(invalid("c2c3é"), SyntaxError::Shape("c2c3é".into()));
    assert_eq!(invalid("c2c9"), SyntaxError::Square("c9".into()));
    assert_eq!(invalid("f2f3"), SyntaxError::Square("f2".into()));
    assert_eq!(invalid("c2c3q"), SyntaxError::Suffix('q'));
    assert_eq!(
        p.parse_move("c1c3"),
        Err(MoveError::Illegal(Illegal::CandidateStep))
    );
    assert_eq!(
        p.parse_move("c1c3").map_err(|e| e.to_string()),
        Err("a candidate moves one square".to_owned())
    );
    assert_eq!(
        p.parse_move("c2c3").map(|m| m.to_string()),
        Ok("c2c3".to_owned())
    );
}

#[test]
fn a_promotion_that_is_illegal_either_way_says_why_not_which() {
    // The intern on b6 shields its candidate on a5 from the guard on c7, so neither promotion
    // is legal.
    let p = "2g1c/1I3/C4/5/5/5/5 h - 0 1";
    assert_eq!(
        pos(p).parse_move("b6b7"),
        Err(MoveError::Illegal(Illegal::CandidateAttacked(
            sq("a5"),
            "guard",
            sq("c7")
        )))
    );
}
