//! What one more record costs as a game grows: `play` of one move on games of 250, 1,000 and
//! 2,000 documents, run as a user runs it (the release binary, a process each, the player's
//! signing journal holding the records they signed). Growing a game record by record through
//! the command line is linear in total when this cost does not grow with the game, so the
//! report is each game's cost against the shortest's: 1 is linear; 8 for the longest is what
//! checking every signature again on each move gives (quadratic in total).
//!
//! What still grows with the file, by design, is byte work: the file is read and hashed, its
//! records parsed and their moves replayed, and a whole new copy written and renamed into place
//! (so that a crash never leaves half a record). The ratios show what that costs.
//!
//! Each round times every size (the fastest of five runs, each on a fresh copy of the game and
//! of the mover's journal, so that each signs its record anew); the median of nine rounds is
//! printed with its range. Run with `cargo bench --bench growth`; building the games (signing
//! about 3,250 records) is not timed.

mod common;
use common::{KeptJournal, best, grow, key_path, ms, opening, run};
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIZES: [usize; 3] = [250, 1000, 2000];
const ROUNDS: usize = 9;
/// The ratio, longest game against shortest, at or under which growth is called linear.
const TARGET: f64 = 1.5;

/// A game of one size, ready for its next move.
struct Game {
    documents: usize,
    dir: PathBuf,
    next: &'static str,
    key: PathBuf,
    /// The mover's signing journal, holding the records they signed.
    journal: KeptJournal,
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("growth: run with `cargo bench --bench growth`");
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    let games: Vec<Game> = SIZES.iter().map(|&n| build(root.path(), n)).collect();
    let mut rounds: Vec<Vec<Duration>> = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        rounds.push(games.iter().map(play).collect());
    }
    let shortest = &games[0];
    for (i, game) in games.iter().enumerate() {
        let mut times: Vec<Duration> = rounds.iter().map(|r| r[i]).collect();
        times.sort();
        let mut ratios: Vec<f64> = rounds
            .iter()
            .map(|r| r[i].as_secs_f64() / r[0].as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        println!(
            "play on a game of {:>4} documents: {} (median of {ROUNDS} rounds), {:.2} × the \
             {}-document game's (rounds {:.2} to {:.2})",
            game.documents,
            ms(times[ROUNDS / 2]),
            ratios[ROUNDS / 2],
            shortest.documents,
            ratios[0],
            ratios[ROUNDS - 1]
        );
    }
    let last = games.len() - 1;
    let mut ratios: Vec<f64> = rounds
        .iter()
        .map(|r| r[last].as_secs_f64() / r[0].as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let ratio = ratios[ROUNDS / 2];
    println!(
        "one more record at {} documents against at {}: {ratio:.2} (linear in total: 1; \
         quadratic: {:.0}); target at most {TARGET}: {}",
        games[last].documents,
        shortest.documents,
        games[last].documents as f64 / shortest.documents as f64,
        if ratio <= TARGET { "met" } else { "NOT met" }
    );
}

/// A game of `documents` documents in its own folder under `root`, each player's signing
/// journal holding their records.
fn build(root: &Path, documents: usize) -> Game {
    let dir = root.join(documents.to_string());
    std::fs::create_dir(&dir).expect("mkdir");
    let path = dir.join("game.yaml");
    let mut text = opening(&dir, &path);
    let opened = text.lines().filter(|l| *l == "---").count();
    let journals = [dir.join("alice-journal"), dir.join("bob-journal")];
    let (next, mover) = grow(
        &mut text,
        documents - opened,
        Some(journals.each_ref().map(PathBuf::as_path)),
        |_| {},
    );
    std::fs::write(&path, &text).expect("write");
    Game {
        documents,
        dir,
        next,
        key: key_path(["alice", "bob"][mover.index()]),
        journal: KeptJournal::keep(&journals[mover.index()]),
    }
}

/// The time of one move on a fresh copy of `game` and of its mover's journal, the fastest of a
/// few runs.
fn play(game: &Game) -> Duration {
    let key = game.key.to_str().expect("UTF-8");
    best(|| {
        std::fs::copy(game.dir.join("game.yaml"), game.dir.join("played.yaml")).expect("copy");
        let journal = game.journal.restore();
        let args = [
            "play",
            "played.yaml",
            game.next,
            "--key",
            key,
            "--no-commit",
        ];
        run(&game.dir, &args, Some(journal))
    })
}
