//! What a report says of a position must be what the game awaits: after every record of every
//! example game, a player asked to move (or to choose after winning a toss) is the one whose
//! side the position gives the move, so that `status`, `moves` and `show` name one side.

use crate::games::GameKind;
use crate::log::GameFile;
use crate::replay::{Phase, Protocol, replay};

/// Every example game file under games/, by path.
fn example_games() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of games") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml")
                && !crate::tournament::file::starts_as_a_tournament(
                    &std::fs::read(&path).expect("read"),
                )
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The steps at which the position's side to move is not the awaited player's side.
fn disagreements<G: Protocol>(file: &GameFile) -> Vec<String> {
    let replayed = replay::<G>(file).expect("an example game verifies");
    let mut found = Vec::new();
    for step in &replayed.steps {
        let (Phase::Playing(seat) | Phase::Choosing(seat)) = step.phase else {
            continue;
        };
        let Some(side) = replayed.seats[seat].side else {
            continue;
        };
        if step.position.side_to_move() != side {
            found.push(format!(
                "document {}: {:?} awaits {side}, the position gives the move to {}",
                step.document,
                step.phase,
                step.position.side_to_move()
            ));
        }
    }
    found
}

#[test]
fn the_side_to_move_is_the_awaited_players_after_every_record_of_every_example_game() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in example_games() {
        let bytes = std::fs::read(&path).expect("read");
        let file = GameFile::parse(&bytes).expect("an example game parses");
        let kind = GameKind::named(&file.header().game).expect("a registered game");
        let found = crate::with_game!(kind, G => disagreements::<G>(&file));
        wrong.extend(
            found
                .into_iter()
                .map(|f| format!("{}: {f}", path.display())),
        );
        checked += 1;
    }
    assert!(checked >= 18, "the example games were found: {checked}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
