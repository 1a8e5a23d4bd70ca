//! Crosstables worked by hand, each figure below computed on paper from the games listed.

use super::{Game, Line, Result, TieBreak, crosstable};

fn game(white: usize, black: usize, result: Option<Result>) -> Game {
    Game {
        white,
        black,
        result,
    }
}

/// (player, rank, points in halves, tie-breaks) of each line, in the crosstable's order.
fn summary(lines: &[Line]) -> Vec<(usize, usize, u32, Vec<u32>)> {
    lines
        .iter()
        .map(|l| (l.player, l.rank, l.halves, l.tie_breaks.clone()))
        .collect()
}

/// Four players, FIDE's table for four, every game played:
/// 1-4 ½-½, 2-3 1-0, 4-3 0-1, 1-2 1-0, 2-4 ½-½, 3-1 1-0.
/// Points: 3 has 2; 1 and 2 have 1½; 4 has 1.
/// Wins: 1 one (2), 2 one (3), 3 two (4 with Black, 1 with White), 4 none.
/// Sonneborn-Berger: 1 beat 2 (1½) and drew 4 (½ of 1): 2, in quarters 8; 2 beat 3 (2) and
/// drew 4 (½): 2½, 10; 3 beat 4 (1) and 1 (1½): 2½, 10; 4 drew 1 and 2: ½ of 1½ each, 1½, 6.
/// Koya (opponents on 1½ or more, half their three games): 1 scored 1 against 2 and 3 (2
/// halves); 2 scored 1 (2); 3 scored 1 against 1 and 2 (2); 4 scored 1 (2).
/// Wins with Black: 3 one (4-3), the others none.
fn four() -> Vec<Game> {
    vec![
        game(1, 4, Some(Result::Draw)),
        game(2, 3, Some(Result::WhiteWins)),
        game(4, 3, Some(Result::BlackWins)),
        game(1, 2, Some(Result::WhiteWins)),
        game(2, 4, Some(Result::Draw)),
        game(3, 1, Some(Result::WhiteWins)),
    ]
}

#[test]
fn baumbach_parts_a_tie_on_points_and_wins_by_sonneborn_berger() {
    let lines = crosstable(4, &four(), &[], &TieBreak::BAUMBACH);
    assert_eq!(
        summary(&lines),
        [
            (3, 1, 4, vec![2, 10, 0]),
            (2, 2, 3, vec![1, 10, 0]),
            (1, 3, 3, vec![1, 8, 0]),
            (4, 4, 2, vec![0, 6, 0]),
        ]
    );
    assert!(lines.iter().all(|l| l.played == 3));
}

#[test]
fn fides_round_robin_list() {
    let lines = crosstable(4, &four(), &[], &TieBreak::FIDE_ROUND_ROBIN);
    assert_eq!(
        summary(&lines),
        [
            (3, 1, 4, vec![2, 10, 2, 1]),
            (2, 2, 3, vec![1, 10, 2, 0]),
            (1, 3, 3, vec![1, 8, 2, 0]),
            (4, 4, 2, vec![0, 6, 2, 0]),
        ]
    );
}

/// The direct encounter parts 1 and 2 (1 beat 2) when it is the only tie-break.
#[test]
fn the_direct_encounter_is_counted_among_the_players_still_tied() {
    let lines = crosstable(4, &four(), &[], &[TieBreak::DirectEncounter]);
    assert_eq!(
        summary(&lines),
        [
            (3, 1, 4, vec![0]),
            (1, 2, 3, vec![2]),
            (2, 3, 3, vec![0]),
            (4, 4, 2, vec![0]),
        ]
    );
}

/// A cycle: 1 beat 2, 2 beat 3, 3 beat 1, and 4 drew all three. Everyone has 1½; 1, 2 and 3
/// have one win each and Sonneborn-Berger 1½ + ½ of 1½ = 2¼ (9 quarters); among the three, a
/// point each. Nothing parts them: they share the first rank, and 4 is fourth.
#[test]
fn players_no_tie_break_parts_share_a_rank() {
    let games = [
        game(1, 2, Some(Result::WhiteWins)),
        game(2, 3, Some(Result::WhiteWins)),
        game(3, 1, Some(Result::WhiteWins)),
        game(4, 1, Some(Result::Draw)),
        game(2, 4, Some(Result::Draw)),
        game(4, 3, Some(Result::Draw)),
    ];
    let lines = crosstable(4, &games, &[], &TieBreak::BAUMBACH);
    assert_eq!(
        summary(&lines),
        [
            (1, 1, 3, vec![1, 9, 2]),
            (2, 1, 3, vec![1, 9, 2]),
            (3, 1, 3, vec![1, 9, 2]),
            (4, 4, 3, vec![0, 9, 0]),
        ]
    );
}

/// While games go on: a game without a result counts for nobody, and the direct encounter
/// parts no one while the tied players have not all met.
#[test]
fn a_running_event_counts_what_is_finished() {
    let games = [
        game(1, 2, None),
        game(3, 4, Some(Result::BlackWins)),
        game(1, 3, Some(Result::WhiteWins)),
        game(2, 4, Some(Result::Draw)),
    ];
    // 4 beat 3 with Black and drew 2: 1½; 1 beat 3: 1; 2 drew 4: ½; 3 nothing.
    let lines = crosstable(4, &games, &[], &[TieBreak::DirectEncounter]);
    assert_eq!(
        summary(&lines),
        [
            (4, 1, 3, vec![0]),
            (1, 2, 2, vec![0]),
            (2, 3, 1, vec![0]),
            (3, 4, 0, vec![0]),
        ]
    );
    assert_eq!(
        lines.iter().map(|l| l.played).collect::<Vec<_>>(),
        [2, 1, 1, 2]
    );
}

/// Two players tied on points who have not met, or whose game goes on, are not parted by the
/// direct encounter; a game of a player against themselves, or of a number outside the section,
/// counts for nothing (Koya's bar included).
#[test]
fn the_direct_encounter_waits_for_the_tied_players_games_and_stray_games_count_for_nothing() {
    // 1 and 2 both beat 3, and their own game goes on: tied on 1 point, not parted yet.
    let games = [
        game(1, 3, Some(Result::WhiteWins)),
        game(3, 2, Some(Result::BlackWins)),
        game(1, 2, None),
    ];
    let lines = crosstable(3, &games, &[], &[TieBreak::DirectEncounter]);
    assert_eq!(
        summary(&lines),
        [(1, 1, 2, vec![0]), (2, 1, 2, vec![0]), (3, 3, 0, vec![0])]
    );
    let strays = [
        game(1, 2, Some(Result::Draw)),
        game(1, 3, Some(Result::WhiteWins)),
        game(1, 1, Some(Result::WhiteWins)),
    ];
    let lines = crosstable(2, &strays, &[], &[TieBreak::Koya]);
    assert_eq!(summary(&lines), [(1, 1, 1, vec![1]), (2, 1, 1, vec![1])]);
    assert!(lines.iter().all(|l| l.played == 1));
}

/// A Swiss's first two rounds, three players: round 1, 1-2 1-0 and 3 has the bye; round 2,
/// 2-3 ½-½ and 1 has the bye. Points: 1 has 2 (a win, a bye), 3 has 1½, 2 has ½.
/// Buchholz: 1 met 2 (½) and had a bye, counted as an opponent with 1's own 2: 2½, 5 halves;
/// 2 met 1 (2) and 3 (1½): 3½, 7; 3 met 2 (½) and had a bye (1½): 2, 4.
/// Cut 1 drops each one's lowest: 1 keeps 2 (4), 2 keeps 2 (4), 3 keeps 1½ (3).
#[test]
fn buchholz_counts_a_bye_as_an_opponent_with_the_players_own_score() {
    let games = [
        game(1, 2, Some(Result::WhiteWins)),
        game(2, 3, Some(Result::Draw)),
    ];
    let lines = crosstable(3, &games, &[3, 1], &TieBreak::SWISS);
    assert_eq!(
        summary(&lines),
        [
            (1, 1, 4, vec![4, 5, 2]),
            (3, 2, 3, vec![3, 4, 1]),
            (2, 3, 1, vec![4, 7, 3]),
        ]
    );
}
