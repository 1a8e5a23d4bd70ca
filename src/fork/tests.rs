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
    let mut bytes = full.clone();
    let at = GameFile::parse(&full).expect("valid").span(3).start + 10;
    bytes[at] = 0xff;
    let err = check_proof(&bytes).expect_err("not UTF-8");
    assert!(
        err.starts_with("the proof: record 3 (line ") && err.contains("not UTF-8 text"),
        "{err}"
    );
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

/// Document `doc` with its Ed25519 signature respelled: `S` increased by the group order `L`.
/// The SSHSIG blob ends with the signature's `S`, 32 bytes little-endian; the sum still fits.
fn respelled(doc: &str) -> String {
    use base64ct::Encoding as _;
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let (head, signature) = doc.split_at(doc.find("signature: ").expect("a signature line"));
    let text = signature["signature: ".len()..].trim_end();
    let mut blob = base64ct::Base64::decode_vec(text).expect("base64");
    let start = blob.len() - 32;
    let mut carry = 0u16;
    for (byte, l) in blob[start..].iter_mut().zip(L) {
        let sum = u16::from(*byte) + u16::from(l) + carry;
        *byte = (sum & 0xff) as u8;
        carry = sum >> 8;
    }
    assert_eq!(carry, 0, "S + L fits in 32 bytes");
    format!(
        "{head}signature: {}\n",
        base64ct::Base64::encode_string(&blob)
    )
}

/// The test key of a player of the example games.
fn signer_of(name: &str) -> crate::sign::KeySigner {
    let path = format!("{}/tests/keys/{name}", env!("CARGO_MANIFEST_DIR"));
    let key = ssh_key::PrivateKey::read_openssh_file(std::path::Path::new(&path)).expect("a key");
    crate::sign::KeySigner::new(key).expect("ed25519")
}

#[test]
fn a_signature_spelled_another_way_is_refused_anywhere_in_a_proof() {
    use crate::sign::Signer as _;
    let full = game("campaign/run-off-claim.yaml");
    let file = GameFile::parse(&full).expect("valid");
    let common = &full[..file.span(5).start];
    let genuine = file.document(5);
    // A real equivocation: the same player signs record 5 again, a minute later.
    let mut record = file.records()[4].clone();
    record.time = crate::log::Timestamp::from_unix(record.time.to_unix() + 60);
    let unsigned = crate::log::record_unsigned(&record);
    let signature = signer_of(&record.signer)
        .sign(unsigned.as_bytes())
        .expect("sign");
    let rival = unsigned + &crate::log::signature_line(&signature);
    let proof = |parts: &[&str]| [common, parts.concat().as_bytes()].concat();
    let valid = check_proof(&proof(&[genuine, &rival])).expect("a real proof");
    assert_eq!(valid.record, 5);
    // One genuine record and its respelled copy: one document, signed once.
    let err = check_proof(&proof(&[genuine, &respelled(genuine)])).expect_err("a copy");
    let line = GameFile::parse(&proof(&[genuine, &respelled(genuine)]))
        .map(|f| f.line(5))
        .expect("the proof reads as a file up to its first rival");
    assert_eq!(
        err,
        format!(
            "record 5 (line {line}): the two records sign the same bytes (one record, its \
             signature spelled twice): that is no conflict"
        )
    );
    // A respelled signature on a real rival, or in the common part, is no signature at all.
    let err = check_proof(&proof(&[genuine, &respelled(&rival)])).expect_err("a respelled rival");
    assert!(
        err.starts_with("a conflicting record: record 5 (line ")
            && err.ends_with("bad signature: the Ed25519 signature's S is not below the group order (OpenSSH accepts this second spelling of a signature; correspond does not); a correspond signature has one spelling: SHA-512, namespace `correspond`, no reserved data"),
        "{err}"
    );
    let mut bent = full[..file.span(4).start].to_vec();
    bent.extend_from_slice(respelled(file.document(4)).as_bytes());
    bent.extend_from_slice(genuine.as_bytes());
    bent.extend_from_slice(rival.as_bytes());
    let err = check_proof(&bent).expect_err("a respelled common record");
    assert!(
        err.starts_with("the common part of the proof: record 4 (line ")
            && err.contains("bad signature"),
        "{err}"
    );
}
