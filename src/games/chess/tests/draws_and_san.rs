//! Orthodox chess's draws by rule, its notation (SAN read and written), who could still mate
//! for a claim on time, and the light squares.

use super::*;

#[test]
fn chess_draws_by_rule() {
    assert_eq!(
        chess("8/8/8/4k3/8/8/8/4KB2 w - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    assert_eq!(
        chess("8/8/8/4k3/2b5/8/8/4KB2 w - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
        "bishops on one colour"
    );
    assert_eq!(
        chess("8/8/8/4k3/8/2b5/8/4KB2 w - - 0 1").outcome(),
        None,
        "bishops on both colours"
    );
    assert_eq!(
        chess("8/8/8/4k3/8/8/4P3/4K3 w - - 150 100").outcome(),
        Some(Outcome::Draw(DrawReason::SeventyFiveMoves))
    );
    assert_eq!(
        chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::Stalemate))
    );
    let mut line = Line::new(chess(START));
    for round in 0..4 {
        for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            let m = mv(line.current(), m);
            line.play(&m).expect("legal");
        }
        match round {
            0 => assert!(line.claimable().is_empty()),
            1 => assert_eq!(
                line.claimable(),
                [Outcome::Draw(DrawReason::ThreefoldRepetition)]
            ),
            _ => {}
        }
    }
    assert_eq!(line.repetitions(), 5);
    assert_eq!(
        line.outcome(),
        Some(Outcome::Draw(DrawReason::FivefoldRepetition))
    );
    assert!(
        !line.current().legal_moves().is_empty(),
        "draws do not take the moves away"
    );
}

#[test]
fn san_is_read_and_written() {
    let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for (san, uci_text) in [
        ("O-O", "e1g1"),
        ("O-O-O", "e1c1"),
        ("Nxf7", "e5f7"),
        ("dxe6", "d5e6"),
        ("Qxh3", "f3h3"),
        ("Bxa6", "e2a6"),
    ] {
        let m = mv(&pos, san);
        assert_eq!(m.to_string(), uci_text);
        assert_eq!(pos.0.san(m).trim_end_matches('+'), san);
    }
    let two_knights = chess("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(matches!(two_knights.parse_move("Nd2"), Err(MoveError::Ambiguous(m)) if m.len() == 2));
    assert_eq!(two_knights.0.san(mv(&two_knights, "b1d2")), "Nbd2");
    assert!(matches!(
        two_knights.parse_move("Nd3+!?"),
        Err(MoveError::Illegal(Illegal::NoSuchMove(
            Role::Knight,
            false,
            _
        )))
    ));
    assert!(matches!(
        chess(START).parse_move("e5"),
        Err(MoveError::Illegal(Illegal::NoSuchMove(
            Role::Pawn,
            false,
            _
        )))
    ));
    assert!(matches!(
        chess(START).parse_move("Ke2x"),
        Err(MoveError::Invalid(_))
    ));
    assert!(matches!(
        chess(START).parse_move("e2e5"),
        Err(MoveError::Illegal(Illegal::Movement("pawn", _, _)))
    ));
    let mate = after(&chess(START), &["f3", "e5", "g4"]);
    assert_eq!(mate.0.san(mv(&mate, "Qh4")), "Qh4#");
    let promote = chess("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    // A promotion is never guessed, even where only one would be legal.
    assert_eq!(
        illegal(&promote, "e8"),
        Illegal::PromotionRequired(sq("e7"), sq("e8"))
    );
    assert_eq!(
        illegal(&promote, "e7e8"),
        Illegal::PromotionRequired(sq("e7"), sq("e8"))
    );
    let in_check = chess("k7/4P3/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(
        illegal(&in_check, "e8"),
        Illegal::GovernmentAttacked("king", sq("e1")),
        "no promotion helps, so the reason is the check"
    );
    assert_eq!(mv(&promote, "e8=Q").to_string(), "e7e8q");
    assert_eq!(
        illegal(&chess("4k3/8/8/8/8/8/8/4K2r w - - 0 1"), "Kf1"),
        Illegal::GovernmentAttacked("king", sq("f1"))
    );
}

#[test]
fn who_could_still_checkmate_for_a_claim_on_time() {
    let could = |fen: &str, color: Color| chess(fen).0.could_checkmate(color);
    let (white, black) = (Color::White, Color::Black);
    // A lone king, a lone minor piece against a lone king: never.
    assert!(!could("4k3/8/8/8/8/8/8/4K3 w - - 0 1", white));
    assert!(!could("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", white));
    assert!(!could("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", white));
    // Any pawn, rook or queen; two knights; bishops on both colours: some series of moves.
    assert!(could("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", white));
    assert!(could("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", white));
    assert!(could("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", white));
    assert!(could("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", white));
    // A selfmate the opponent's own men could build: a knight against a pawn, a bishop
    // against a knight or a bishop of the other colour.
    assert!(could("4k3/7p/8/8/8/8/8/4KN2 w - - 0 1", white));
    assert!(could("4k1n1/8/8/8/8/8/8/4KB2 w - - 0 1", white));
    assert!(could("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", white));
    // ...but not a bishop against a queen or a bishop of the same colour.
    assert!(!could("3qk3/8/8/8/8/8/8/4KB2 w - - 0 1", white));
    assert!(!could("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", white));
    // The other side is judged on its own material.
    assert!(!could("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", black));
    // Insurrection: a lone king cannot against a king's government that no coup can change;
    // two pieces of one rank (take one: a coup) or a pawn (it promotes) could change it.
    let could_ins = |fen: &str, color: Color| ins(fen).0.could_checkmate(color);
    assert!(!could_ins("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 Kk", black));
    assert!(!could_ins("4k3/8/8/8/8/8/8/1NRQK3 w - - 0 1 Kk", black));
    assert!(could_ins("4k3/8/8/8/8/8/8/R2QK2R w - - 0 1 Kk", black));
    assert!(could_ins("4k3/8/8/8/8/8/P7/3QK3 w - - 0 1 Kk", black));
    assert!(
        ins("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 Qk")
            .0
            .could_checkmate(white)
    );
    assert!(
        ins("4k3/8/8/8/8/8/8/4KN2 w - - 0 1 Kk")
            .0
            .could_checkmate(white)
    );
}

#[test]
fn the_set_of_light_squares_is_the_squares_that_are_light() {
    // The insufficient-material rule reads bishops' colours from this set: h1 light, a1 dark.
    for square in Square::all() {
        assert_eq!(
            board::LIGHT & square.bit() != 0,
            square.is_light(),
            "{square}"
        );
    }
    assert!(sq("h1").is_light() && !sq("a1").is_light() && sq("a2").is_light());
}
