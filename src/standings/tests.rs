//! Standings over the example games, copies of them, and a game whose copies disagree.

use super::*;
use crate::replay::{Ending, Seat, Verdict};

fn summary(path: &str) -> Summary {
    let bytes = std::fs::read(format!("{}/games/{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("an example game");
    crate::games::verify(&bytes).expect("valid")
}

/// The lines of `game`'s table as (first name, played, won, drawn, lost, points, in progress).
fn table(s: &Standings, game: &str) -> Vec<(String, u32, u32, u32, u32, f64, u32)> {
    s.tables
        .iter()
        .find(|t| t.game == game)
        .expect("a table")
        .lines
        .iter()
        .map(|l| {
            let name = l.names.join("/");
            (
                name,
                l.played,
                l.won,
                l.drawn,
                l.lost,
                l.points,
                l.in_progress,
            )
        })
        .collect()
}

#[test]
fn each_game_counts_once_for_each_key_and_ranks_by_points() {
    let opera = summary("chess/morphy-opera-game-1858.yaml");
    let immortal = summary("chess/anderssen-immortal-game-1851.yaml");
    let drawn = summary("chess/threefold-repetition-claimed.yaml");
    // The same game twice, and a copy of it from before its end: one game.
    let mut behind = opera.clone();
    behind.phase = Phase::Playing(Seat::Creator);
    behind.records = 10;
    let s = standings([&opera, &immortal, &drawn, &opera, &behind]);
    assert_eq!(s.games, 3);
    assert!(s.disputed.is_empty());
    // The example games were all played with the test keys of alice (White) and bob: one
    // player each, under every name they used.
    assert_eq!(
        table(&s, "chess"),
        vec![
            (
                "Adolf Anderssen/Paul Morphy/alice".into(),
                3,
                2,
                1,
                0,
                2.5,
                0
            ),
            (
                "Duke Karl Count Isouard/Lionel Kieseritzky/bob".into(),
                3,
                0,
                1,
                2,
                0.5,
                0
            ),
        ]
    );
    // A game going on counts for neither player's results.
    let s = standings([&behind]);
    assert_eq!(
        table(&s, "chess"),
        vec![
            ("Duke Karl Count Isouard".into(), 0, 0, 0, 0, 0.0, 1),
            ("Paul Morphy".into(), 0, 0, 0, 0, 0.0, 1),
        ]
    );
}

#[test]
fn a_game_whose_copies_end_differently_is_named_and_not_counted() {
    let opera = summary("chess/morphy-opera-game-1858.yaml");
    let mut other = opera.clone();
    other.phase = Phase::Over(Verdict {
        winner: Some(Seat::Opponent),
        ending: Ending::Resigned(Seat::Creator),
    });
    let s = standings([&opera, &other]);
    assert_eq!(s.games, 0);
    assert_eq!(s.disputed, vec![opera.game_id.to_string()]);
    assert!(s.tables.is_empty());
}

#[test]
fn a_name_is_not_a_player_a_key_is() {
    let opera = summary("chess/morphy-opera-game-1858.yaml");
    let mut other = summary("chess/anderssen-evergreen-game-1852.yaml");
    // The evergreen game's White, under Morphy's name but with another key.
    other.fingerprints[0] = "SHA256:another".into();
    other.players[0].0 = "Paul Morphy".into();
    let s = standings([&opera, &other]);
    let morphys: Vec<(&str, u32)> = s.tables[0]
        .lines
        .iter()
        .filter(|l| l.names == ["Paul Morphy"])
        .map(|l| (l.fingerprint.as_str(), l.won))
        .collect();
    assert_eq!(
        morphys,
        vec![("SHA256:another", 1), (opera.fingerprints[0].as_str(), 1)]
    );
}
