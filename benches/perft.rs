//! Campaign perft from the start position. Divan prints the leaf nodes per second in the
//! `items/s` column (target: at least 10 million on one core in the release build).
//!
//! Run with `cargo bench --bench perft`.

use correspond::rules::Game;
use correspond::rules::campaign::{Campaign, Options};
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
