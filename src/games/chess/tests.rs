//! Unit tests: published orthodox perft counts for the plain generator, the worked example, and
//! one test per Insurrection ruling; orthodox chess's draws and notation are in
//! `tests/draws_and_san.rs`.

use super::*;
use crate::rules::{Line, MoveError};

fn chess(fen: &str) -> Chess {
    Chess::parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn ins(fen: &str) -> Insurrection {
    Insurrection::parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn assassination(fen: &str) -> Insurrection {
    Insurrection::parse_position_with(
        fen,
        &InsurrectionOptions {
            assassination: true,
        },
    )
    .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name.as_bytes()).expect("square")
}

fn mv<G: Game>(pos: &G, text: &str) -> G::Move {
    pos.parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {pos}: {e}"))
}

fn after<G: Game>(pos: &G, moves: &[&str]) -> G {
    moves.iter().fold(pos.clone(), |p, m| {
        let m = mv(&p, m);
        p.play(&m).expect("legal")
    })
}

fn illegal<G: Game>(pos: &G, text: &str) -> G::Illegal {
    match pos.parse_move(text) {
        Err(MoveError::Illegal(reason)) => reason,
        other => panic!("{text} in {pos}: expected an illegal move, got {other:?}"),
    }
}

fn uci(pos: &Insurrection) -> Vec<String> {
    pos.legal_moves().iter().map(ToString::to_string).collect()
}

const PUBLISHED: &[(&str, &[u64])] = &[
    (START, &[20, 400, 8902, 197_281]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97_862],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812, 43_238],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9467],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486, 62_379],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079, 89_890],
    ),
];

/// Insurrection's generator (every pseudo-legal move made and checked), whatever the variant.
fn plain_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.pseudo_legal(&mut |m| moves.push(m));
    moves.retain(|m| pos.is_legal_pseudo(*m));
    moves.sort_unstable();
    moves
}

#[test]
fn the_plain_generator_matches_the_published_perft_counts() {
    // Run with orthodox rules, to the depth a debug build allows. The fast generator meets every
    // published count in tests/perft/chess.perft.
    fn plain(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        plain_moves(pos)
            .into_iter()
            .map(|m| plain(&pos.play_unchecked(m).0, depth - 1))
            .sum()
    }
    for (fen, counts) in PUBLISHED {
        let pos = chess(fen).0;
        for (d, n) in counts.iter().enumerate().take(3) {
            assert_eq!(plain(&pos, d as u32 + 1), *n, "{fen} depth {}", d + 1);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 32, ..Default::default() })]

    /// The fast orthodox generator and the plain one list the same moves along random games.
    #[test]
    fn the_two_generators_agree(picks in proptest::collection::vec(0..usize::MAX, 0..120)) {
        let mut pos = chess(START).0;
        for pick in picks {
            let mut fast = pos.legal_moves();
            fast.sort_unstable();
            proptest::prop_assert_eq!(&fast, &plain_moves(&pos), "{}", pos);
            let Some(mv) = fast.get(pick % fast.len().max(1)) else {
                break;
            };
            pos = pos.play_unchecked(*mv).0;
        }
    }
}

/// Positions to start random Insurrection games from: the start; governments of pawns, queens
/// and rooks; pieces pinned to one government piece and to two; a government under attack; an
/// en passant capture that would open a rank onto the king.
const INSURRECTION_STARTS: &[&str] = &[
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1 Kk",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Kk",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Pp",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Qr",
    "r3k2r/pp1n1ppp/2p1b3/q7/1b1PP3/2N2N2/PP1B1PPP/R2QKB1R w KQkq - 0 1 Rb",
    "2b2r2/5p1p/3p3k/1b4P1/q2N3N/8/P6P/R2NQ1K1 b - - 0 1 Kk",
    "k4r2/8/8/8/8/1Q6/8/4K2R w K - 0 1 Qk",
    "3r3k/4P3/8/8/8/8/P7/4K3 w - - 0 1 Pk",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// Insurrection's legal moves, judged by the pins where they can be, are the moves the
    /// plain way finds by playing every one, along random games from varied governments, in
    /// both variants.
    #[test]
    fn the_pins_judge_as_playing_every_move_does(
        start in 0..INSURRECTION_STARTS.len(),
        assassinate: bool,
        picks in proptest::collection::vec(0..usize::MAX, 0..160),
    ) {
        let fen = INSURRECTION_STARTS[start];
        let mut pos = if assassinate { assassination(fen).0 } else { ins(fen).0 };
        for pick in picks {
            let mut legal = pos.legal_moves();
            legal.sort_unstable();
            let plain = plain_moves(&pos);
            proptest::prop_assert_eq!(&legal, &plain, "{}", pos);
            // Perft's last ply counts them as sets where the pins judge them.
            proptest::prop_assert_eq!(pos.perft(1), plain.len() as u64, "{}", pos);
            let Some(mv) = legal.get(pick % legal.len().max(1)) else {
                break;
            };
            pos = pos.play_unchecked(*mv).0;
        }
    }
}

#[test]
fn insurrection_starts_like_chess() {
    let start = Insurrection::start(&InsurrectionOptions::default());
    assert_eq!(
        start.to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Kk"
    );
    assert_eq!(
        [start.perft(1), start.perft(2), start.perft(3)],
        [20, 400, 8902]
    );
}

#[test]
fn the_worked_example() {
    let pos = ins("2b2r2/5p1p/3p3k/1b4P1/q2N3N/8/P6P/R2NQ1K1 b - - 0 1 Kk");
    assert!(pos.0.is_check(), "the pawn on g5 checks the king");
    let (next, effects) = pos.0.play_move(mv(&pos, "h6g5")).expect("legal");
    assert_eq!(effects.coup, Some(Role::Pawn), "Anarcho-syndicalist");
    assert_eq!(coup_name(Role::Pawn), "Anarcho-syndicalist");
    assert_eq!(
        effects.changed_rank, None,
        "the king in power keeps its rank"
    );
    assert_eq!(
        next.to_string(),
        "2b2r2/5p1p/3p4/1b4k1/q2N3N/8/P6P/R2NQ1K1 w - - 0 2 Pk"
    );
    assert_eq!(
        next.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(pos.0.san(mv(&pos, "Kxg5")), "Kxg5#");
}

#[test]
fn a_capturing_piece_out_of_power_takes_its_victims_rank() {
    // Succession: a pawn takes a knight and becomes one.
    let pos = ins("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1 Kk");
    let (next, effects) = pos.0.play_move(mv(&pos, "exd5")).expect("legal");
    assert_eq!(
        next.piece_at(sq("d5")),
        Some(Piece {
            color: Color::White,
            role: Role::Knight
        })
    );
    assert_eq!(
        (effects.changed_rank, effects.coup),
        (Some(Role::Knight), None)
    );
    // Decline: a bishop takes a knight and becomes one.
    let pos = ins("4k3/8/8/3n4/8/1B6/8/4K3 w - - 0 1 Kk");
    let next = after(&pos, &["Bxd5"]);
    assert_eq!(
        next.0.piece_at(sq("d5")).map(|p| p.role),
        Some(Role::Knight)
    );
    // En passant takes a pawn: the capturer stays a pawn.
    let pos = ins("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 Kk");
    assert_eq!(
        after(&pos, &["exd6"]).0.piece_at(sq("d6")).map(|p| p.role),
        Some(Role::Pawn)
    );
}

#[test]
fn a_capture_in_power_makes_a_coup_unless_it_takes_the_last_of_a_rank() {
    let pos = ins("4k3/8/8/8/8/8/3n4/4K2n w - - 0 1 Kk");
    let (next, effects) = pos.0.play_move(mv(&pos, "Kxd2")).expect("legal");
    assert_eq!(effects.coup, Some(Role::Knight));
    assert_eq!(coup_name(Role::Knight), "Junta");
    assert_eq!(next.government(Color::Black), Role::Knight);
    assert_eq!(
        next.piece_at(sq("d2")).map(|p| p.role),
        Some(Role::King),
        "the king keeps its rank"
    );
    // The old king is an ordinary piece now.
    assert!(next.to_string().ends_with(" Kn"));
    let last = ins("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1 Kk");
    let (next, effects) = last.0.play_move(mv(&last, "Kxd2")).expect("legal");
    assert_eq!(
        (effects.coup, next.government(Color::Black)),
        (None, Role::King)
    );
}

#[test]
fn a_forked_check_after_a_coup_is_mate_when_no_move_answers_both() {
    let pos = ins("r3k2r/8/8/8/4B3/8/3r4/4K2R w - - 0 1 Kk");
    let (next, effects) = pos.0.play_move(mv(&pos, "Kxd2")).expect("legal");
    assert_eq!(effects.coup, Some(Role::Rook));
    assert_eq!(coup_name(Role::Rook), "Comité de salut public");
    assert!(next.is_check());
    assert_eq!(
        next.attacked_government(Color::Black).count_ones(),
        2,
        "both rooks"
    );
    assert_eq!(
        next.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn a_move_may_not_leave_any_government_piece_attacked_or_none_at_all() {
    // The last government pawn cannot promote: it would leave no government.
    let pos = ins("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 Pk");
    assert_eq!(illegal(&pos, "e7e8q"), Illegal::NoGovernment);
    assert!(!uci(&pos).iter().any(|m| m.starts_with("e7")));
    // Alone, it is stalemated.
    let alone = ins("k7/4P3/8/8/8/8/8/8 w - - 0 1 Pk");
    assert_eq!(alone.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    // A government pawn may not double-step where a pawn can take it en passant.
    let pos = ins("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 Pk");
    assert_eq!(
        illegal(&pos, "e2e4"),
        Illegal::GovernmentAttacked("pawn", sq("e4"))
    );
    let kings = ins("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 Kk");
    assert!(
        uci(&kings).contains(&"e2e4".to_owned()),
        "an ordinary pawn may"
    );
}

#[test]
fn pawns_promote_to_a_king_too() {
    let pos = ins("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 Kk");
    let moves = uci(&pos);
    assert!(moves.contains(&"e7e8k".to_owned()) && moves.contains(&"e7e8q".to_owned()));
    let next = after(&pos, &["e8=K"]);
    assert_eq!(
        next.0.government_pieces(Color::White).count_ones(),
        2,
        "a new royal under a monarchy"
    );
    assert!(
        Chess::parse_position("k7/4P3/8/8/8/8/8/4K3 w - - 0 1").is_ok_and(|p| !p
            .legal_moves()
            .iter()
            .any(|m| m.promotion == Some(Role::King)))
    );
}

#[test]
fn a_pawn_capturing_onto_the_last_rank_takes_the_rank_and_a_government_pawn_promotes() {
    let pos = ins("3r3k/4P3/8/8/8/8/P7/4K3 w - - 0 1 Kk");
    assert!(uci(&pos).contains(&"e7d8".to_owned()));
    assert_eq!(illegal(&pos, "e7d8q"), Illegal::BadPromotion("queen"));
    assert_eq!(illegal(&pos, "exd8=Q"), Illegal::BadPromotion("queen"));
    assert_eq!(
        after(&pos, &["e7d8"]).0.piece_at(sq("d8")).map(|p| p.role),
        Some(Role::Rook)
    );
    let governing = ins("3r3k/4P3/8/8/8/8/P7/4K3 w - - 0 1 Pk");
    assert!(uci(&governing).contains(&"e7d8q".to_owned()));
    assert!(!uci(&governing).contains(&"e7d8".to_owned()));
    assert_eq!(
        illegal(&governing, "exd8"),
        Illegal::PromotionRequired(sq("e7"), sq("d8"))
    );
    let (next, effects) = governing
        .0
        .play_move(mv(&governing, "e7d8q"))
        .expect("legal");
    assert_eq!(effects.coup, None, "d8 held Black's last rook");
    assert_eq!(next.piece_at(sq("d8")).map(|p| p.role), Some(Role::Queen));
}

#[test]
fn a_deposed_king_may_castle_through_an_attacked_square() {
    let deposed = ins("k4r2/8/8/8/8/1Q6/8/4K2R w K - 0 1 Qk");
    assert!(uci(&deposed).contains(&"e1g1".to_owned()));
    assert_eq!(
        after(&deposed, &["O-O"]).to_string(),
        "k4r2/8/8/8/8/1Q6/8/5RK1 b - - 1 1 Qk"
    );
    let reigning = ins("k4r2/8/8/8/8/1Q6/8/4K2R w K - 0 1 Kk");
    assert!(!uci(&reigning).contains(&"e1g1".to_owned()));
    assert!(matches!(
        illegal(&reigning, "O-O"),
        Illegal::Castling("O-O", _)
    ));
    // A deposed king taken at home takes its side's castling rights with it.
    // (The queen, out of power, becomes a king by succession.)
    let exposed = ins("4kn1r/8/8/8/8/8/4Q3/4K3 w k - 0 1 Kr");
    assert_eq!(
        after(&exposed, &["Qxe8"]).to_string(),
        "4Kn1r/8/8/8/8/8/8/4K3 b - - 0 1 Kr"
    );
}

#[test]
fn under_assassination_spare_government_pieces_may_be_left_attacked_and_taken() {
    let fen = "1r2k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1 Nk";
    assert!(
        ins(fen).0.is_check(),
        "without Assassination the knight on b2 is in check"
    );
    assert!(!uci(&ins(fen)).contains(&"e1d1".to_owned()));
    let pos = assassination(fen);
    assert!(!pos.0.is_check());
    let next = after(&pos, &["Kd1"]);
    let (taken, effects) = next
        .0
        .play_move(mv(&next, "Rxb2"))
        .expect("a spare may be taken");
    assert_eq!(
        effects.changed_rank,
        Some(Role::Knight),
        "the rook, out of power, becomes a knight"
    );
    assert_eq!(taken.government_pieces(Color::White).count_ones(), 1);
    // The last one is protected again: it may not step where the new knight on b2 attacks.
    let last = Insurrection(taken);
    assert_eq!(
        illegal(&last, "Nd3"),
        Illegal::GovernmentAttacked("knight", sq("d3"))
    );
}

#[test]
fn two_lone_kings_under_monarchies_draw_and_nothing_else_is_dead() {
    assert_eq!(
        ins("8/8/8/4k3/8/8/8/4K3 w - - 0 1 Kk").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    assert_eq!(
        ins("8/8/8/4k3/8/8/8/4KB2 w - - 0 1 Kk").outcome(),
        None,
        "no insufficient-material table"
    );
}

#[test]
fn insurrection_position_strings() {
    assert_eq!(
        ins("4k3/8/8/8/8/8/8/4K2n w - - 0 1").to_string(),
        "4k3/8/8/8/8/8/8/4K2n w - - 0 1 Kk",
        "a missing 7th field is Kk"
    );
    let err = |fen: &str| {
        Insurrection::parse_position(fen)
            .expect_err(fen)
            .to_string()
    };
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Qk").contains("no queen on the board"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 kK").starts_with("government:"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1 Kk").starts_with("castling:"));
    assert!(
        err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1 Kk")
            .contains("pawns never stand on the first or last rank")
    );
    assert!(
        err("4k2R/8/8/8/8/8/8/4K3 w - - 0 1 Kk")
            .contains("black is not to move, yet its king on e8 is attacked")
    );
    // A government pawn that has just double-stepped past an enemy pawn is attacked en passant.
    assert!(
        err("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1 Pk")
            .contains("white is not to move, yet its pawn on e4 is attacked")
    );
    assert!(Insurrection::parse_position("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1 Pk").is_ok());
}

mod draws_and_san;
