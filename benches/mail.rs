//! `correspond receive` over long games: a Campaign game of 2,000 records mailed one record a
//! message, received onto its opening from a mailbox of 500 and of 2,000 messages, in order and
//! reversed. Prints each time and the ratios: a cost linear in the game gives about 4, one that
//! replayed the whole file for every message (or tried every message against every other) 16.
//!
//! Run with `cargo bench --bench mail`. Signing the records and armouring the blocks is not
//! timed; parsing the messages is (`receive` itself is pure and starts from found blocks).

use correspond::games::campaign::Campaign;
use correspond::log::{Action, Timestamp};
use correspond::mail::{self, Found};
use correspond::replay::Seat;
use correspond::writer::Writer;

mod common;
use common::{key, opening};
use std::time::{Duration, Instant};

const LONG: usize = 2000;
const SHORT: usize = 500;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("mail: run with `cargo bench --bench mail`");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let opening = opening(dir.path(), &dir.path().join("game.yaml"));
    let signers = [key("alice"), key("bob")];
    // Heads (alice) to move after the opening; the handlers shuffle, which Campaign allows for
    // ever (repetition is only a claim).
    let cycle = ["a2a3", "a6a5", "a1a2", "a7a6", "a2a1", "a6a7"];
    let mut moves = cycle[..2].iter().chain(cycle[2..].iter().cycle());
    let mut writer = Writer::<Campaign>::open(opening.as_bytes()).expect("a valid opening");
    let start = writer.file().clone();
    let time = Timestamp::parse("2026-01-01T00:00:00Z").expect("time");
    let mut messages = Vec::new();
    for n in 0..LONG {
        let seq = writer.file().documents();
        let action = Action::Move((*moves.next().expect("a cycle")).into());
        let record = writer.next(Seat::BOTH[n % 2], action, time.clone());
        writer = writer
            .write(record, &signers[n % 2], None)
            .expect("a legal move")
            .writer;
        let file = writer.file();
        let block = mail::armor(file, seq);
        messages.push(format!(
            "From: player@example.org\nSubject: record {seq}\n\nMy move.\n\n{block}"
        ));
    }
    let time = |messages: &[String]| {
        (0..3)
            .map(|_| {
                let started = Instant::now();
                let found: Vec<Found> = messages
                    .iter()
                    .flat_map(|m| mail::in_message(m.as_bytes()).blocks)
                    .map(|packet| Found {
                        origin: String::new(),
                        packet,
                        in_mailbox: true,
                        message: 0,
                    })
                    .collect();
                let done = mail::receive(Some(&start), &found).expect("received");
                assert_eq!(done.added.len(), messages.len());
                started.elapsed()
            })
            .min()
            .expect("three runs")
    };
    let reversed = |n: usize| messages[..n].iter().rev().cloned().collect::<Vec<_>>();
    let short = time(&messages[..SHORT]);
    let long = time(&messages[..LONG]);
    let short_reversed = time(&reversed(SHORT));
    let long_reversed = time(&reversed(LONG));
    println!("receive {SHORT} messages in order: {}", ms(short));
    println!("receive {LONG} messages in order: {}", ms(long));
    println!("receive {SHORT} messages reversed: {}", ms(short_reversed));
    println!("receive {LONG} messages reversed: {}", ms(long_reversed));
    let linear = LONG as f64 / SHORT as f64;
    println!(
        "ratios: {:.1} in order, {:.1} reversed (linear: {linear:.0}; quadratic: {:.0})",
        long.as_secs_f64() / short.as_secs_f64(),
        long_reversed.as_secs_f64() / short_reversed.as_secs_f64(),
        linear * linear
    );
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}
