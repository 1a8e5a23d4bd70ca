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
