//! Rating lists at a club's scale: 100, 1,000 and 10,000 finished games among 1,000 players
//! over a year, rated by Glicko-2 (30-day periods) and by FIDE-style Elo, each list computed in
//! the canonical order from games given shuffled. Beside them, the floor of verifying the same
//! games: one Ed25519 check per document of a short game (header, acceptance and four moves),
//! at the raw rate measured in the same run, since a list is made of games that were verified.
//!
//! It prints each list's time (the fastest of several runs), how it grows from 1,000 to 10,000
//! games (linear is 10), and the 10,000-game list against the bar (under a second) and
//! as a share of the verification floor.
//!
//! Run with `cargo bench --bench ratings`.

mod common;
use common::raw_rate;
use correspond::digest::Digest;
use correspond::ratings::Score;
use correspond::ratings::glicko2::Rating;
use correspond::ratings::list::{RatedGame, System, list};
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [100, 1000, 10_000];
const PLAYERS: u64 = 1000;
const RUNS: usize = 5;
/// Documents a short game holds, each one signature to check: what verifying it costs at least.
const DOCUMENTS: usize = 6;

/// `n` games among [`PLAYERS`] players over a year, from a fixed seed, in a shuffled order.
fn games(n: usize) -> Vec<RatedGame> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // xorshift64*: the same games on every run and machine.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let player = |k: u64| Digest::of(&k.to_be_bytes());
    (0..n)
        .map(|i| {
            let white = next() % PLAYERS;
            let black = (white + 1 + next() % (PLAYERS - 1)) % PLAYERS;
            let score = match next() % 3 {
                0 => Score::Win,
                1 => Score::Draw,
                _ => Score::Loss,
            };
            RatedGame {
                id: Digest::of(&(i as u64).to_be_bytes()),
                // 2026, in seconds: a year of games.
                ended: 1_767_225_600 + i64::try_from(next() % 31_536_000).unwrap_or(0),
                white: player(white),
                black: player(black),
                score,
            }
        })
        .collect()
}

fn fastest(run: impl Fn()) -> Duration {
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("ratings: run with `cargo bench --bench ratings`");
        return;
    }
    let rate = raw_rate(1);
    println!("raw Ed25519 verification: {rate:.0}/s on one core");
    let systems = [
        (
            "Glicko-2",
            System::Glicko2 {
                tau: 0.5,
                initial: Rating {
                    rating: 1500.0,
                    deviation: 350.0,
                    volatility: 0.06,
                },
                period: 30 * 86_400,
            },
        ),
        (
            "Elo",
            System::Elo {
                initial: 1500.0,
                period: 30 * 86_400,
            },
        ),
    ];
    for (name, system) in systems {
        let mut times = Vec::new();
        for n in SIZES {
            let games = games(n);
            let time = fastest(|| {
                let made = list(&games, &system).expect("a list");
                assert!(!made.entries.is_empty());
            });
            let floor = Duration::from_secs_f64((n * DOCUMENTS) as f64 / rate);
            println!(
                "{name}, {n} games of {PLAYERS} players: {:.1} ms; verifying them costs at least \
                 {:.1} ms on one core: the list is {:.3} of that",
                time.as_secs_f64() * 1e3,
                floor.as_secs_f64() * 1e3,
                time.as_secs_f64() / floor.as_secs_f64()
            );
            times.push(time);
        }
        let growth = times[2].as_secs_f64() / times[1].as_secs_f64();
        println!("{name}: 10,000 games cost {growth:.1} times 1,000 (linear: 10)");
        let met = times[2] < Duration::from_secs(1);
        println!(
            "{name}: 10,000 games in {:.3} s: {} (the bar: under a second)",
            times[2].as_secs_f64(),
            if met { "met" } else { "NOT MET" }
        );
    }
}
