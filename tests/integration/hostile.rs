//! Random damage to a valid game file: the verifier never panics, and whatever it accepts is the
//! original file or the original cut at a document boundary (a shorter game, which only the
//! history can tell apart; see the audit command in the project's plans).

use proptest::prelude::*;
use std::path::Path;

fn original() -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/run-off-agreement.yaml"),
    )
    .expect("read")
}

#[derive(Debug, Clone)]
enum Damage {
    Flip(usize, u8),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Damage::Flip(i, x)),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Damage::Delete(i, n)),
        (
            any::<usize>(),
            prop::collection::vec(
                prop_oneof![
                    Just(b'\n'),
                    Just(b' '),
                    Just(b':'),
                    Just(b'-'),
                    Just(b'&'),
                    Just(b'*'),
                    Just(b'!'),
                    Just(b'"'),
                    any::<u8>()
                ],
                1..12
            )
        )
            .prop_map(|(i, bytes)| Damage::Insert(i, bytes)),
        any::<usize>().prop_map(Damage::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Damage::SwapLines(a, b)),
        any::<usize>().prop_map(Damage::Truncate),
    ]
}

fn apply(bytes: &[u8], damage: &Damage) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let len = out.len();
    let mut lines: Vec<Vec<u8>> = bytes
        .split_inclusive(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    match damage {
        Damage::Flip(i, x) => out[i % len] ^= x,
        Damage::Delete(i, n) => {
            let start = i % len;
            out.drain(start..(start + n).min(len));
        }
        Damage::Insert(i, bytes) => {
            let at = i % (len + 1);
            out.splice(at..at, bytes.iter().copied());
        }
        Damage::DuplicateLine(i) => {
            let line = lines[i % lines.len()].clone();
            lines.insert(i % lines.len(), line);
            out = lines.concat();
        }
        Damage::SwapLines(a, b) => {
            let n = lines.len();
            lines.swap(a % n, b % n);
            out = lines.concat();
        }
        Damage::Truncate(i) => out.truncate(i % len),
    }
    out
}

/// The original's prefixes that end at a document boundary: the only other files that may verify.
fn valid_prefixes(bytes: &[u8]) -> Vec<Vec<u8>> {
    let text = std::str::from_utf8(bytes).expect("UTF-8");
    let mut starts: Vec<usize> = text.match_indices("\n---\n").map(|(i, _)| i + 1).collect();
    starts.push(text.len());
    starts
        .into_iter()
        .skip(1)
        .map(|end| bytes[..end].to_vec())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn damaged_files_are_rejected_without_panicking(damages in prop::collection::vec(damage(), 1..4)) {
        let original = original();
        let damaged = damages.iter().fold(original.clone(), |bytes, d| if bytes.is_empty() { bytes } else { apply(&bytes, d) });
        if let Ok(summary) = correspond::games::verify(&damaged) {
            prop_assert!(
                valid_prefixes(&original).contains(&damaged),
                "a damaged file verified ({} records): {:?}", summary.records, damages
            );
        }
    }
}
