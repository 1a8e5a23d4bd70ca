//! Perft from the start positions. Divan prints the leaf nodes per second in the `items/s`
//! column (Campaign's target: at least 10 million on one core in the release build).
//!
//! Run with `cargo bench --bench perft`.

use correspond::games::campaign::{Campaign, Options};
use correspond::rules::Game;
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

fn start() -> Campaign {
    Campaign::start(&Options {
        spin_doctoring: true,
        playing_for_keeps: false,
    })
}

/// Perft from the start; the counter is the number of leaves, so `items/s` is leaf nodes per
/// second.
#[divan::bench(args = [5, 6, 7])]
fn campaign_perft(bencher: Bencher, depth: u32) {
    let pos = start();
    let leaves = pos.perft(depth);
    bencher
        .counter(ItemsCount::new(leaves))
        .bench(|| black_box(&pos).perft(black_box(depth)));
}

/// Listing the sorted legal moves of a middlegame position, as `moves` does.
#[divan::bench]
fn campaign_legal_moves(bencher: Bencher) {
    let pos = Campaign::parse_position("h1c1h/i1gii/2i2/1G1I1/2I2/II2I/H1C1H h AEae 0 5")
        .expect("a valid position");
    bencher.bench(|| black_box(&pos).legal_moves());
}

/// Guerrilla Checkers perft from the start (two-stone turns and checker moves).
#[divan::bench(args = [3, 4])]
fn guerrilla_perft(bencher: Bencher, depth: u32) {
    let pos = correspond::games::guerrilla::Guerrilla::start(&());
    let leaves = pos.perft(depth);
    bencher
        .counter(ItemsCount::new(leaves))
        .bench(|| black_box(&pos).perft(black_box(depth)));
}

/// Counting the capture chains of one checker among 48 stones (36 377 482 of them), which
/// `moves` and `perft` stream rather than collect.
#[divan::bench(sample_count = 3)]
fn guerrilla_crowded_chains(bencher: Bencher) {
    let pos = correspond::games::guerrilla::Guerrilla::parse_position(
        "SSSSSSS/SSSSSSS/SSSSSSS/SSS1SSS/SSSSSSS/SSSSSSS/SSSSSSS 8/8/8/8/4C3/8/8/8 c 18",
    )
    .expect("a valid position");
    bencher
        .counter(ItemsCount::new(36_377_482u64))
        .bench(|| black_box(&pos).perft(1));
}

/// Insurrection perft from the start: pseudo-legal moves judged by the pins where they can be,
/// played and checked otherwise. Orthodox chess's fast generator is measured against shakmaty in
/// `benches/vs_shakmaty.rs`; `insurrection_against_chess` compares the two.
#[divan::bench(args = [3, 4])]
fn insurrection_perft(bencher: Bencher, depth: u32) {
    use correspond::games::chess::{Insurrection, InsurrectionOptions};
    let pos = Insurrection::start(&InsurrectionOptions::default());
    let leaves = pos.perft(depth);
    bencher
        .counter(ItemsCount::new(leaves))
        .bench(|| black_box(&pos).perft(black_box(depth)));
}

/// Insurrection's perft against orthodox chess's on the same start position, at depth 4: the
/// ratio of their rates is what `cargo bench` prints for each (divan's `items/s`).
#[divan::bench(args = ["chess", "insurrection"])]
fn insurrection_against_chess(bencher: Bencher, game: &str) {
    use correspond::games::chess::{Chess, Insurrection, InsurrectionOptions};
    let (chess, insurrection) = (
        Chess::start(&()),
        Insurrection::start(&InsurrectionOptions::default()),
    );
    let leaves = if game == "chess" {
        chess.perft(4)
    } else {
        insurrection.perft(4)
    };
    bencher.counter(ItemsCount::new(leaves)).bench(|| {
        if game == "chess" {
            black_box(&chess).perft(4)
        } else {
            black_box(&insurrection).perft(4)
        }
    });
}
