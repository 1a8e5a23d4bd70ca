//! Relations between copies cut from the example games. Forks and proofs are made with real
//! keys by the integration tests (`tests/integration/disputes.rs`).

use super::*;

fn game(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"))).expect("an example game")
}

/// The bytes up to the start of document `n`.
fn before(bytes: &[u8], n: usize) -> &[u8] {
    let file = GameFile::parse(bytes).expect("valid");
    &bytes[..file.span(n).start]
}

#[test]
fn same_behind_ahead_and_unrelated() {
    let full = game("campaign/run-off-claim.yaml");
    let short = before(&full, 6);
    assert_eq!(compare(&full, &full), Ok(Relation::Same));
    let documents = GameFile::parse(&full).expect("valid").documents();
    assert_eq!(
        compare(short, &full),
        Ok(Relation::Extends {
            longer: Copy::B,
            added: 6..documents
        })
    );
    assert_eq!(
        compare(&full, short),
        Ok(Relation::Extends {
            longer: Copy::A,
            added: 6..documents
        })
    );
    assert_eq!(
        compare(&full, &game("campaign/fact-check.yaml")),
        Ok(Relation::Unrelated)
    );
}

#[test]
fn a_copy_that_is_not_a_game_file_is_named() {
    let full = game("campaign/run-off-claim.yaml");
    assert!(matches!(
        compare(&full, b"hello"),
        Err(CompareError::Invalid { which: Copy::B, .. })
    ));
    // A changed byte in a record: the fork's record in B is not validly signed.
    let mut forged = full.clone();
    let at = GameFile::parse(&full).expect("valid").span(7).start + 20;
    forged[at] ^= 1;
    assert!(matches!(
        compare(&full, &forged),
        Err(CompareError::Invalid { which: Copy::B, .. })
    ));
}

#[test]
fn what_is_not_a_proof_is_refused() {
    let full = game("campaign/run-off-claim.yaml");
    let err = check_proof(b"hello").expect_err("not a proof");
    assert!(err.starts_with("a proof holds"), "{err}");
    // A header and one record: too few documents to hold two rivals.
    let file = GameFile::parse(&full).expect("valid");
    let err = check_proof(&full[..file.span(1).end]).expect_err("too short");
    assert!(err.contains("this holds fewer documents"), "{err}");
    // An honest file: its last two records are consecutive, not rivals.
    let err = check_proof(&full).expect_err("no conflict");
    assert!(
        err.starts_with(
            "its last two records are numbered 16 and 17: it reads as a game file, not a proof"
        ),
        "{err}"
    );
    // CR LF line endings are named.
    let crlf = String::from_utf8(full.clone())
        .expect("UTF-8")
        .replace('\n', "\r\n");
    let err = check_proof(crlf.as_bytes()).expect_err("CR LF");
    assert!(err.contains("CR LF"), "{err}");
    // The same record twice.
    let file = GameFile::parse(&full).expect("valid");
    let mut twice = full[..file.span(5).end].to_vec();
    twice.extend_from_slice(file.document(5).as_bytes());
    let err = check_proof(&twice).expect_err("the same bytes");
    assert!(err.contains("the same bytes"), "{err}");
}
