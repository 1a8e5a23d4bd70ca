//! Signing and checking, in-process. The interoperability with OpenSSH itself (`ssh-keygen -Y`)
//! is tested in the integration tests, with the real program.

use super::*;
use ssh_key::rand_core::OsRng;

fn key() -> KeySigner {
    KeySigner::new(PrivateKey::random(&mut OsRng, ssh_key::Algorithm::Ed25519).expect("keygen"))
        .expect("ed25519")
}

#[test]
fn a_signature_verifies_over_exactly_its_bytes() {
    let signer = key();
    let sig = signer.sign(b"seq: 1\n").expect("sign");
    assert!(!sig.contains('\n'));
    verify(signer.public_key(), b"seq: 1\n", &sig).expect("verifies");
    assert!(matches!(
        verify(signer.public_key(), b"seq: 2\n", &sig),
        Err(SignError::Mismatch)
    ));
    assert_eq!(
        signer.sign(b"seq: 1\n").expect("sign"),
        sig,
        "Ed25519 is deterministic"
    );
}

#[test]
fn another_key_or_namespace_is_named() {
    let (a, b) = (key(), key());
    let sig = a.sign(b"x").expect("sign");
    assert!(
        matches!(verify(b.public_key(), b"x", &sig), Err(SignError::OtherKey(fp)) if fp == fingerprint(a.public_key()))
    );
    let git = encode(&a.sign_raw("git", b"x").expect("sign"));
    assert!(
        matches!(verify(a.public_key(), b"x", &git), Err(SignError::Namespace(ns)) if ns == "git")
    );
}

#[test]
fn malformed_signatures_are_rejected_not_panicked_on() {
    let signer = key();
    for bad in ["", "AAAA", "U1NIU0lH", "not base64!"] {
        assert!(
            matches!(
                verify(signer.public_key(), b"x", bad),
                Err(SignError::Malformed(_))
            ),
            "{bad}"
        );
    }
    let sig = signer.sign(b"x").expect("sign");
    let armored = armor(&sig);
    assert!(armored.starts_with("-----BEGIN SSH SIGNATURE-----\n"));
    assert_eq!(encode(&SshSig::from_pem(&armored).expect("pem")), sig);
}

/// An SSH string: a 32-bit big-endian length, then the bytes.
fn string(bytes: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(bytes.len())
        .expect("short")
        .to_be_bytes()
        .to_vec();
    out.extend_from_slice(bytes);
    out
}

/// A signature over `message` in the correspond namespace, with `reserved` data, that OpenSSH's
/// rules accept: the SSHSIG blob built and signed by hand.
fn with_reserved(key: &PrivateKey, message: &[u8], reserved: &[u8]) -> String {
    use sha2::Digest as _;
    use signature::Signer as _;
    let hash = sha2::Sha512::digest(message);
    let signed: Vec<u8> = [
        &b"SSHSIG"[..],
        &string(NAMESPACE.as_bytes()),
        &string(reserved),
        &string(b"sha512"),
        &string(&hash),
    ]
    .concat();
    let raw: ssh_key::Signature = key.try_sign(&signed).expect("sign");
    let blob: Vec<u8> = [
        &b"SSHSIG"[..],
        &1u32.to_be_bytes(),
        &string(&key_blob(key.public_key().key_data())),
        &string(NAMESPACE.as_bytes()),
        &string(reserved),
        &string(b"sha512"),
        &string(&[string(b"ssh-ed25519"), string(raw.as_bytes())].concat()),
    ]
    .concat();
    <base64ct::Base64 as base64ct::Encoding>::encode_string(&blob)
}

#[test]
fn a_signature_has_one_spelling() {
    let signer = key();
    let message = b"seq: 1\n";
    // SHA-256 instead of SHA-512: a valid SSH signature, which OpenSSH accepts.
    let sha256 = signer
        .key
        .sign(NAMESPACE, HashAlg::Sha256, message)
        .expect("sign");
    signer
        .public_key()
        .verify(NAMESPACE, message, &sha256)
        .expect("the SSH rules accept it");
    let err = verify(signer.public_key(), message, &encode(&sha256)).expect_err("sha256");
    assert_eq!(
        err.to_string(),
        "the signature hashes the document with sha256; a correspond signature has one \
         spelling: SHA-512, namespace `correspond`, no reserved data"
    );
    // Reserved data, signed over as the SSHSIG rules say.
    let text = with_reserved(&signer.key, message, b"x");
    let parsed = decode(&text).expect("a canonical SSH signature");
    signer
        .public_key()
        .verify(NAMESPACE, message, &parsed)
        .expect("the SSH rules accept it");
    let err = verify(signer.public_key(), message, &text).expect_err("reserved data");
    assert!(
        err.to_string()
            .starts_with("the signature carries 1 byte of reserved data;"),
        "{err}"
    );
    // The same construction with nothing reserved is the signature correspond makes.
    assert_eq!(
        with_reserved(&signer.key, message, b""),
        signer.sign(message).expect("sign")
    );
}

/// `s + L`: the second spelling of an Ed25519 signature's `S` (little-endian) that the Ed25519
/// equation alone would accept.
fn plus_group_order(s: &mut [u8]) {
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let mut carry = 0u16;
    for (byte, l) in s.iter_mut().zip(L) {
        let sum = u16::from(*byte) + u16::from(l) + carry;
        *byte = sum.to_le_bytes()[0];
        carry = sum >> 8;
    }
}

#[test]
fn a_verifiers_quick_path_accepts_exactly_what_the_full_decoding_accepts() {
    use base64ct::{Base64, Encoding as _};
    let (signer, other) = (key(), key());
    let message = b"---\nseq: 1\n";
    let good = signer.sign(message).expect("sign");
    let mut high_s = Base64::decode_vec(&good).expect("base64");
    let len = high_s.len();
    plus_group_order(&mut high_s[len - 32..]);
    let sha256 = signer
        .key
        .sign(NAMESPACE, HashAlg::Sha256, message)
        .expect("sign");
    let mut texts = vec![
        good.clone(),
        other.sign(message).expect("sign"),
        encode(&signer.sign_raw("git", message).expect("sign")),
        encode(&sha256),
        with_reserved(&signer.key, message, b"x"),
        Base64::encode_string(&high_s),
        format!("{good}="),
        good[..good.len() - 4].to_owned(),
        String::new(),
    ];
    // Every one-character change: the key, the fields, the signature and the padding.
    for at in 0..good.len() {
        for c in ['A', 'B', 'g', '/', '+', '='] {
            let mut text = good.clone();
            text.replace_range(at..=at, &c.to_string());
            texts.push(text);
        }
    }
    // Version 0, which OpenSSH accepts, is a second spelling of the same signature.
    let mut version_0 = Base64::decode_vec(&good).expect("base64");
    version_0[9] = 0;
    assert_eq!(
        verify(
            signer.public_key(),
            message,
            &Base64::encode_string(&version_0)
        )
        .expect_err("version 0")
        .to_string(),
        "the signature is of SSHSIG version 0; a correspond signature has one spelling: \
         SHA-512, namespace `correspond`, no reserved data"
    );
    let verifier = Verifier::new(signer.public_key());
    let mut accepted = 0;
    for text in &texts {
        let full = verify(signer.public_key(), message, text).map_err(|e| e.to_string());
        assert_eq!(verifier.verifies(message, text), full.is_ok(), "{text}");
        assert_eq!(
            verifier.verify(message, text).map_err(|e| e.to_string()),
            full,
            "{text}"
        );
        accepted += usize::from(full.is_ok());
    }
    // The good text, and the changes that leave its bytes as they are (none: base64ct and
    // ssh-key both read only the canonical spelling).
    assert_eq!(
        accepted,
        1 + texts.iter().skip(1).filter(|t| **t == good).count()
    );
    assert!(!verifier.verifies(b"---\nseq: 2\n", &good));
    assert!(verifier.verify(b"---\nseq: 2\n", &good).is_err());
}

#[test]
fn a_private_key_wrapped_at_another_width_reads_as_openssh_reads_it() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/keys/alice");
    let text = std::fs::read_to_string(path).expect("a test key");
    let lines: Vec<&str> = text.lines().collect();
    let body: String = lines[1..lines.len() - 1].concat();
    // As Python's `cryptography` writes it: 76 columns.
    let wide: Vec<String> = body
        .as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let rewrapped = format!(
        "{}\n{}\n{}\n",
        lines[0],
        wide.join("\n"),
        lines[lines.len() - 1]
    );
    assert!(
        PrivateKey::from_openssh(&rewrapped).is_err(),
        "the PEM reader alone refuses it"
    );
    let read = private_key(&rewrapped).expect("read as OpenSSH reads it");
    let original = private_key(&text).expect("the key as written");
    assert_eq!(read.public_key(), original.public_key());
    // What is not a key stays refused, with the first reading's reason.
    assert!(
        private_key(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
        )
        .is_err()
    );
    assert!(private_key("not a key").is_err());
}
