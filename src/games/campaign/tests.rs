//! One test per rule of Campaign and per edge case the rulings settle. Positions are written as
//! position strings (ranks 7 down to 1), so each test can be read against the rules document.

use super::*;
use crate::rules::{Line, MoveError};

mod strings;

fn pos(text: &str) -> Campaign {
    Campaign::parse_position(text).unwrap_or_else(|e| panic!("test position {text}: {e}"))
}

fn after(start: &str, moves: &[&str]) -> Campaign {
    moves.iter().fold(pos(start), |p, m| {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} in {p}: {e}"));
        p.play(&mv).expect("parse_move returns playable moves")
    })
}

fn illegal(position: &str, text: &str) -> Illegal {
    match pos(position).parse_move(text) {
        Err(MoveError::Illegal(reason)) => reason,
        other => panic!("{text} in {position}: expected an illegal move, got {other:?}"),
    }
}

fn moves(position: &str) -> Vec<String> {
    pos(position)
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn sq(name: &str) -> Square {
    Square::parse(name.as_bytes()).expect("test square")
}

const START: &str = "hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 1";
/// The start with the guards gone, so that both sides can spin toward both wings.
const OPEN: &str = "h1c1h/iiiii/5/5/5/IIIII/H1C1H h AEae 0 1";

#[test]
fn start_position_and_its_moves() {
    let start = Campaign::start(&Options {
        spin_doctoring: true,
        playing_for_keeps: false,
    });
    assert_eq!(start.to_string(), START);
    assert_eq!(start, pos(START));
    assert_eq!(moves(START), ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3"]);
    let plain = Campaign::start(&Options::default());
    assert_eq!(plain.to_string(), "hgcgh/iiiii/5/5/5/IIIII/HGCGH h - 0 1");
}

#[test]
fn interns_step_straight_and_capture_diagonally_forward_only() {
    // Heads intern on c3 with a tails intern ahead on c4 and tails pieces diagonally on b4, d2.
    let p = "4c/5/5/1ii2/2I2/3i1/C4 h - 0 1";
    let intern_moves: Vec<String> = moves(p)
        .into_iter()
        .filter(|m| m.starts_with("c3"))
        .collect();
    assert_eq!(intern_moves, ["c3b4"]);
    assert_eq!(illegal(p, "c3c4"), Illegal::InternBlocked(sq("c4")));
    assert_eq!(illegal(p, "c3d4"), Illegal::InternDiagonal);
    assert_eq!(illegal(p, "c3d2"), Illegal::InternStep);
    assert_eq!(illegal(p, "c3c5"), Illegal::InternStep, "no double step");
}

#[test]
fn an_intern_reaching_the_far_rank_must_promote_to_guard_or_handler() {
    let p = "4c/1I3/5/5/5/5/2C2 h - 0 1";
    assert_eq!(
        moves(p)
            .iter()
            .filter(|m| m.starts_with("b6"))
            .collect::<Vec<_>>(),
        ["b6b7g", "b6b7h"]
    );
    assert_eq!(
        after(p, &["b6b7g"]).piece_at(sq("b7")).map(|p| p.role),
        Some(Role::Guard)
    );
    assert_eq!(
        after(p, &["b6b7h"]).piece_at(sq("b7")).map(|p| p.role),
        Some(Role::Handler)
    );
    assert_eq!(illegal(p, "b6b7s"), Illegal::BadStack);
    let bare = Move {
        from: sq("b6"),
        to: sq("b7"),
        promotion: None,
    };
    assert_eq!(pos(p).play(&bare), Err(Illegal::PromotionRequired));
}

#[test]
fn an_intern_promotes_when_it_captures_onto_the_far_rank_too() {
    let p = "2g1c/1I3/5/5/5/5/2C2 h - 0 1";
    assert!(moves(p).contains(&"b6c7h".to_owned()));
    let next = after(p, &["b6c7h"]);
    assert_eq!(
        next.piece_at(sq("c7")),
        Some(Piece {
            side: Side::Heads,
            role: Role::Handler
        })
    );
}

#[test]
fn tails_interns_promote_on_rank_1() {
    let p = "4c/5/5/5/5/3i1/C4 t - 0 1";
    let next = after(p, &["d2d1g"]);
    assert_eq!(
        next.piece_at(sq("d1")),
        Some(Piece {
            side: Side::Tails,
            role: Role::Guard
        })
    );
    assert_eq!(next.to_string(), "4c/5/5/5/5/5/C2g1 h - 0 2");
}

#[test]
fn a_suffix_short_of_the_far_rank_is_rejected() {
    assert_eq!(illegal(START, "c2c3g"), Illegal::BadPromotion);
    assert_eq!(illegal(START, "c2c3s"), Illegal::BadStack);
}

#[test]
fn promotion_without_a_suffix_is_ambiguous_not_illegal() {
    let p = pos("4c/1I3/5/5/5/5/2C2 h - 0 1");
    let expected: Vec<Move> = ["b6b7g", "b6b7h"]
        .iter()
        .map(|m| p.parse_move(m).expect("legal"))
        .collect();
    assert_eq!(p.parse_move("b6b7"), Err(MoveError::Ambiguous(expected)));
    assert_eq!(
        p.parse_move("b6b7").map_err(|e| e.to_string()),
        Err("ambiguous: it could be b6b7g or b6b7h".to_owned())
    );
}

#[test]
fn a_candidate_on_the_far_rank_may_stack_with_s_or_stay_without_it() {
    let p = "4c/2C2/5/5/5/I4/5 h - 0 1";
    let listed = moves(p);
    assert!(listed.contains(&"c6c7".to_owned()) && listed.contains(&"c6c7s".to_owned()));
    assert_eq!(
        after(p, &["c6c7"]).piece_at(sq("c7")).map(|p| p.role),
        Some(Role::Candidate)
    );
    let stacked = after(p, &["c6c7s"]);
    assert_eq!(
        stacked.piece_at(sq("c7")).map(|p| p.role),
        Some(Role::Stacked)
    );
    // The stacked candidate attacks along the rank: Tails is now in check.
    assert!(stacked.is_check());
    assert_eq!(stacked.checkers(), [sq("c7")]);
}

#[test]
fn a_candidate_that_declined_may_stack_later_moving_along_the_far_rank() {
    let p = after("4c/2C2/5/5/5/I4/5 h - 0 1", &["c6c7", "e7e6"]);
    let next = p
        .play(&p.parse_move("c7b7s").expect("stacking along the far rank"))
        .expect("legal");
    assert_eq!(next.piece_at(sq("b7")).map(|p| p.role), Some(Role::Stacked));
}

#[test]
fn stacking_happens_at_most_once_and_only_on_the_far_rank() {
    let p = "1S3/5/4c/5/5/I4/5 h - 0 1";
    assert_eq!(illegal(p, "b7a7s"), Illegal::BadStack);
    assert!(!moves(p).iter().any(|m| m.ends_with('s')));
    assert_eq!(
        illegal("4c/5/2C2/5/5/I4/5 h - 0 1", "c5c6s"),
        Illegal::BadStack
    );
    assert_eq!(
        illegal("4c/5/5/5/5/I4/2C2 h - 0 1", "c1c2g"),
        Illegal::BadPromotion
    );
}

#[test]
fn a_stacked_candidate_moves_like_a_queen_and_is_blocked() {
    let p = "4c/5/5/5/2S2/2I2/5 h - 0 1";
    assert!(moves(p).contains(&"c3a5".to_owned()));
    assert_eq!(illegal(p, "c3c1"), Illegal::Blocked(sq("c2")));
    assert_eq!(
        illegal(p, "c3d5"),
        Illegal::NotOnLine("stacked candidate", "along a rank, a file or a diagonal")
    );
}

#[test]
fn guards_and_handlers_move_on_their_lines_only() {
    assert_eq!(
        illegal(START, "b1b2"),
        Illegal::OwnPiece(sq("b2"), "intern")
    );
    let p = "3c1/5/5/5/5/5/G1C1H h - 0 1";
    assert_eq!(
        illegal(p, "a1a2"),
        Illegal::NotOnLine("guard", "diagonally")
    );
    assert_eq!(
        illegal(p, "e1d2"),
        Illegal::NotOnLine("handler", "along a rank or a file")
    );
    assert_eq!(illegal(p, "e1b1"), Illegal::Blocked(sq("c1")));
    assert_eq!(illegal(p, "c1c3"), Illegal::CandidateStep);
    assert_eq!(illegal(p, "c1c1"), Illegal::NullMove);
    assert_eq!(illegal(p, "b2b3"), Illegal::Empty(sq("b2")));
    assert_eq!(
        illegal(p, "d7d6"),
        Illegal::NotYours(sq("d7"), Side::Tails, Side::Heads)
    );
}

#[test]
fn a_move_that_leaves_the_candidate_attacked_is_illegal() {
    // The guard on c2 shields its candidate from the handler on c5.
    let pinned = "2c2/5/2h2/5/5/2G2/2C2 h - 0 1";
    assert_eq!(
        illegal(pinned, "c2d3"),
        Illegal::CandidateAttacked(sq("c1"), "handler", sq("c5"))
    );
    assert!(!moves(pinned).iter().any(|m| m.starts_with("c2")));
    // Candidates never stand next to each other.
    let facing = "5/5/2c2/5/2C2/5/I4 h - 0 1";
    assert_eq!(
        illegal(facing, "c3c4"),
        Illegal::CandidateAttacked(sq("c4"), "candidate", sq("c5"))
    );
    // A candidate in check cannot step back along the line it is attacked on.
    let checked = "4c/2h2/5/5/2C2/5/I4 h - 0 1";
    assert!(pos(checked).is_check());
    assert_eq!(
        illegal(checked, "c3c2"),
        Illegal::CandidateAttacked(sq("c2"), "handler", sq("c6"))
    );
    assert!(moves(checked).contains(&"c3b2".to_owned()));
}

#[test]
fn spin_doctoring_toward_both_wings_for_both_sides() {
    assert_eq!(
        after(OPEN, &["c1a1"]).to_string(),
        "h1c1h/iiiii/5/5/5/IIIII/CH2H t ae 1 1"
    );
    assert_eq!(
        after(OPEN, &["c1e1"]).to_string(),
        "h1c1h/iiiii/5/5/5/IIIII/H2HC t ae 1 1"
    );
    let tails = "h1c1h/iiiii/5/5/5/IIIII/H1C1H t AEae 0 1";
    assert_eq!(
        after(tails, &["c7a7"]).to_string(),
        "ch2h/iiiii/5/5/5/IIIII/H1C1H h AE 1 2"
    );
    assert_eq!(
        after(tails, &["c7e7"]).to_string(),
        "h2hc/iiiii/5/5/5/IIIII/H1C1H h AE 1 2"
    );
    let listed = moves(OPEN);
    assert!(listed.contains(&"c1a1".to_owned()) && listed.contains(&"c1e1".to_owned()));
}

#[test]
fn spin_doctoring_needs_the_right_and_the_square_beside_the_corner_empty() {
    assert_eq!(illegal(START, "c1a1"), Illegal::SpinBlocked(sq("b1")));
    assert_eq!(illegal(START, "c1e1"), Illegal::SpinBlocked(sq("d1")));
    let no_rights = "h1c1h/iiiii/5/5/5/IIIII/H1C1H h ae 0 1";
    assert_eq!(
        illegal(no_rights, "c1a1"),
        Illegal::NoSpinRight(Side::Heads, 'a')
    );
    assert_eq!(illegal(OPEN, "c1a1s"), Illegal::BadStack);
}

#[test]
fn spin_doctoring_may_start_in_check() {
    // The guard on e3 attacks c1 through the empty d2.
    let p = "h1c1h/iiiii/5/5/4g/III1I/H1C1H h AEae 0 1";
    assert!(pos(p).is_check());
    let listed = moves(p);
    assert!(listed.contains(&"c1a1".to_owned()) && listed.contains(&"c1e1".to_owned()));
}

#[test]
fn spin_doctoring_may_pass_over_an_attacked_square() {
    // The guard on d3 attacks b1 (through c2), which the candidate crosses.
    let p = "h1c1h/iiiii/5/5/3g1/II1II/H1C1H h AEae 0 1";
    assert!(!pos(p).is_check());
    assert!(moves(p).contains(&"c1a1".to_owned()));
}

#[test]
fn spin_doctoring_may_not_end_on_an_attacked_square() {
    // The handler on a3 attacks a1 through the empty a2.
    let p = "h1c1h/iiiii/5/5/h4/1IIII/H1C1H h AEae 0 1";
    assert_eq!(
        illegal(p, "c1a1"),
        Illegal::CandidateAttacked(sq("a1"), "handler", sq("a3"))
    );
    assert!(!moves(p).contains(&"c1a1".to_owned()));
}

#[test]
fn spin_doctoring_is_judged_with_the_handler_on_its_new_square() {
    // The handler on d1 checks c1 along the rank; after c1a1 the heads handler on b1 blocks it.
    let p = "h1c1h/iiiii/5/5/5/IIIII/H1Ch1 h Aae 0 1";
    assert!(pos(p).is_check());
    assert!(moves(p).contains(&"c1a1".to_owned()));
}

#[test]
fn spin_rights_are_lost_when_the_candidate_moves() {
    let p = after(OPEN, &["c1b1"]);
    assert_eq!(p.spin_rights().to_string(), "ae");
    let p = after(OPEN, &["c1b1", "a6a5", "b1c1"]);
    assert_eq!(
        p.spin_rights().to_string(),
        "ae",
        "returning home does not restore them"
    );
}

#[test]
fn a_wing_right_is_lost_when_a_piece_moves_from_its_corner() {
    assert_eq!(after(OPEN, &["a1b1"]).spin_rights().to_string(), "Eae");
    assert_eq!(after(OPEN, &["e1d1"]).spin_rights().to_string(), "Aae");
    let back = after(OPEN, &["a1b1", "a6a5", "b1a1"]);
    assert_eq!(
        back.spin_rights().to_string(),
        "Eae",
        "the handler's return does not restore it"
    );
}

#[test]
fn a_wing_right_is_lost_when_its_handler_is_captured_on_the_corner() {
    let p = "h1c1h/iiiii/5/5/2g2/I1III/H1C1H t AEae 0 1";
    assert_eq!(after(p, &["c3a1"]).spin_rights().to_string(), "Eae");
}

#[test]
fn halfmove_clock_resets_on_captures_and_intern_moves_only() {
    assert_eq!(
        after("4c/5/5/5/5/I4/2C2 h - 7 1", &["a2a3"]).halfmove_clock(),
        0
    );
    assert_eq!(
        after("4c/5/5/5/5/I4/2C2 h - 7 1", &["c1c2"]).halfmove_clock(),
        8
    );
    assert_eq!(
        after("4c/5/5/5/5/1i3/C4 h - 7 1", &["a1b2"]).halfmove_clock(),
        0
    );
    assert_eq!(
        after("4c/2C2/5/5/5/I4/5 h - 7 1", &["c6c7s"]).halfmove_clock(),
        8,
        "stacking"
    );
    assert_eq!(
        after("h1c1h/iiiii/5/5/5/IIIII/H1C1H h AEae 7 1", &["c1a1"]).halfmove_clock(),
        8,
        "spinning"
    );
}

#[test]
fn the_fullmove_number_grows_after_each_tails_move_even_when_tails_moved_first() {
    let p = "hgcgh/iiiii/5/5/5/IIIII/HGCGH t AEae 0 1";
    assert_eq!(after(p, &["c6c5"]).fullmove_number(), 2);
    assert_eq!(after(p, &["c6c5", "c2c3"]).fullmove_number(), 2);
    assert_eq!(after(p, &["c6c5", "c2c3", "b6b5"]).fullmove_number(), 3);
}

#[test]
fn fact_check_ends_the_game_for_the_attacker() {
    let p = pos("1h2c/5/h4/5/5/5/C4 h - 0 1");
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::FactCheck {
            winner: Side::Tails
        })
    );
    assert_eq!(
        p.outcome().map(|o| o.to_string()),
        Some("fact-check: tails wins".into())
    );
    assert_eq!(
        Campaign::decision(&Outcome::FactCheck {
            winner: Side::Tails
        }),
        Decision::Win(Side::Tails)
    );
    let mv = Move {
        from: sq("a1"),
        to: sq("b1"),
        promotion: None,
    };
    assert!(matches!(p.play(&mv), Err(Illegal::GameOver(_))));
}

#[test]
fn no_legal_move_without_check_is_a_run_off_not_a_draw() {
    let p = pos("1h2c/5/5/5/5/4h/C4 h - 0 1");
    assert!(!p.is_check());
    assert_eq!(p.outcome(), Some(Outcome::RunOff(RunOffReason::Stalemate)));
    assert_eq!(
        p.outcome().map(|o| o.to_string()),
        Some("run-off: stalemate".into())
    );
    assert_eq!(
        Campaign::decision(&Outcome::RunOff(RunOffReason::Stalemate)),
        Decision::CoinFlip
    );
}

#[test]
fn bare_candidates_end_the_game_with_no_legal_moves() {
    let p = after("4c/5/5/5/5/1i3/C4 h - 0 1", &["a1b2"]);
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome().map(|o| o.to_string()),
        Some("run-off: bare candidates".into())
    );
    // Stacked or not, and even with one candidate attacking the other: the reason is bare
    // candidates.
    let checked = pos("4c/5/5/5/S4/5/5 t - 0 1");
    assert!(checked.is_check());
    assert_eq!(
        checked.outcome(),
        Some(Outcome::RunOff(RunOffReason::BareCandidates))
    );
    assert_eq!(checked.perft(1), 0);
}

#[test]
fn threefold_repetition_and_the_halfmove_clock_are_claimable() {
    let mut line = Line::new(pos("4c/5/5/5/5/I4/2C2 h - 0 1"));
    for (i, text) in [
        "c1d1", "e7e6", "d1c1", "e6e7", "c1d1", "e7e6", "d1c1", "e6e7",
    ]
    .iter()
    .enumerate()
    {
        assert!(
            line.claimable().is_empty(),
            "nothing to claim before ply {i}"
        );
        let mv = line.current().parse_move(text).expect("legal");
        line.play(&mv).expect("legal");
    }
    assert_eq!(line.repetitions(), 3);
    assert_eq!(
        line.claimable(),
        [Outcome::RunOff(RunOffReason::Repetition)]
    );
    let clock = pos("4c/5/5/5/5/I4/2C2 h - 100 60");
    assert_eq!(
        clock.claimable(1),
        [Outcome::RunOff(RunOffReason::HalfmoveClock)]
    );
    assert!(pos("4c/5/5/5/5/I4/2C2 h - 99 60").claimable(2).is_empty());
}

#[test]
fn repetition_counts_placement_side_and_spin_rights_but_not_clocks() {
    let a = pos("h1c1h/iiiii/5/5/5/IIIII/H1C1H h AEae 0 1");
    assert!(a.is_repetition_of(&pos("h1c1h/iiiii/5/5/5/IIIII/H1C1H h AEae 12 9")));
    assert!(!a.is_repetition_of(&pos("h1c1h/iiiii/5/5/5/IIIII/H1C1H h Aae 0 1")));
    assert!(!a.is_repetition_of(&pos("h1c1h/iiiii/5/5/5/IIIII/H1C1H t AEae 0 1")));
}
