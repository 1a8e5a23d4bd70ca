//! Checking many signatures by one key at the speed of the curve arithmetic.
//!
//! A game file holds thousands of signatures by two keys, each spelled the one way game files
//! spell them (see [`super::verify`]). Given the key, that spelling fixes every byte of the
//! decoded signature but the last 64: the SSHSIG magic, version, key, namespace, empty reserved
//! field, hash name, and the Ed25519 signature's own header. So a [`Verifier`] made once per key
//! compares the text of those bytes with the one it expects (base64 spells every whole group of
//! three bytes one way), decodes only the rest (strictly: one text per byte string), and runs
//! one Ed25519 verification, with no parsing, allocation or re-encoding. Whatever that path
//! refuses is handed to [`super::verify`], the full decoding, which says why; the two paths
//! accept exactly the same texts, which `src/sign/tests.rs` checks.

use super::{NAMESPACE, SignError, canonical_s, key_blob};
use base64ct::{Base64, Encoding as _};
use ed25519_dalek::Verifier as _;
use sha2::{Digest as _, Sha512};
use ssh_key::PublicKey;

/// The length of an Ed25519 signature.
const SIGNATURE_LEN: usize = 64;

/// Room for a whole decoded signature by an Ed25519 key (181 bytes today).
const MAX_DECODED: usize = 256;

/// The hash every game-file signature uses, by its SSHSIG name.
const HASH_NAME: &[u8] = b"sha512";

/// One player's key, ready to check that player's signatures.
#[derive(Clone, Debug)]
pub struct Verifier {
    key: PublicKey,
    /// The decoded Ed25519 key; `None` for bytes that are no point of the curve, which only the
    /// full decoding reports.
    point: Option<ed25519_dalek::VerifyingKey>,
    /// The base64 of the whole three-byte groups of the bytes before the 64 of the Ed25519
    /// signature: what every signature by this key starts with, character for character.
    prefix_text: String,
    /// Those bytes after their whole groups, which come out of decoding the rest.
    prefix_rest: Vec<u8>,
}

/// Appends an SSH string: a 32-bit big-endian length, then the bytes.
fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("the fields of a signature are short");
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
}

impl Verifier {
    /// Prepares `key` for checking signatures.
    #[must_use]
    pub fn new(key: &PublicKey) -> Verifier {
        let point = key
            .key_data()
            .ed25519()
            .and_then(|k| ed25519_dalek::VerifyingKey::from_bytes(&k.0).ok());
        let mut prefix = b"SSHSIG".to_vec();
        prefix.extend_from_slice(&1u32.to_be_bytes());
        put_string(&mut prefix, &key_blob(key.key_data()));
        put_string(&mut prefix, NAMESPACE.as_bytes());
        put_string(&mut prefix, b"");
        put_string(&mut prefix, HASH_NAME);
        let algorithm = b"ssh-ed25519";
        let inner = 4 + algorithm.len() + 4 + SIGNATURE_LEN;
        prefix.extend_from_slice(
            &u32::try_from(inner)
                .expect("a short signature")
                .to_be_bytes(),
        );
        put_string(&mut prefix, algorithm);
        prefix.extend_from_slice(&u32::try_from(SIGNATURE_LEN).expect("64").to_be_bytes());
        let whole = prefix.len() - prefix.len() % 3;
        Verifier {
            key: key.clone(),
            point,
            prefix_text: Base64::encode_string(&prefix[..whole]),
            prefix_rest: prefix[whole..].to_vec(),
        }
    }

    /// The key.
    #[must_use]
    pub fn key(&self) -> &PublicKey {
        &self.key
    }

    /// Checks that `base64` is a `correspond` signature by this key over exactly `message`,
    /// exactly as [`super::verify`] does.
    ///
    /// # Errors
    /// Why not, as [`super::verify`] says it.
    pub fn verify(&self, message: &[u8], base64: &str) -> Result<(), SignError> {
        if self.verifies(message, base64) {
            return Ok(());
        }
        super::verify(&self.key, message, base64)
    }

    /// The quick path: whether `base64` decodes to this key's prefix and a canonical Ed25519
    /// signature that verifies over the SSHSIG signed data of `message`.
    pub(super) fn verifies(&self, message: &[u8], base64: &str) -> bool {
        let Some(point) = &self.point else {
            return false;
        };
        // Base64 decodes each group of four characters on its own, and base64ct refuses any
        // text that is not the canonical encoding of what it decodes to: so the whole text
        // decodes to the expected bytes and a signature exactly when it starts with their
        // groups' text and the rest decodes to the remaining bytes and the signature.
        let Some(rest) = base64.strip_prefix(self.prefix_text.as_str()) else {
            return false;
        };
        let mut buffer = [0u8; MAX_DECODED];
        let Ok(decoded) = Base64::decode(rest, &mut buffer) else {
            return false;
        };
        let Some(signature) = decoded.strip_prefix(self.prefix_rest.as_slice()) else {
            return false;
        };
        let Ok(signature) = <[u8; SIGNATURE_LEN]>::try_from(signature) else {
            return false;
        };
        if !canonical_s(&signature) {
            return false;
        }
        // The SSHSIG signed data: magic, namespace, reserved, hash name, and the hash.
        let mut signed = [0u8; 6 + 4 + NAMESPACE.len() + 4 + 4 + HASH_NAME.len() + 4 + 64];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            signed[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        };
        put(b"SSHSIG");
        put(&(NAMESPACE.len() as u32).to_be_bytes());
        put(NAMESPACE.as_bytes());
        put(&0u32.to_be_bytes());
        put(&(HASH_NAME.len() as u32).to_be_bytes());
        put(HASH_NAME);
        put(&64u32.to_be_bytes());
        put(&Sha512::digest(message));
        point
            .verify(&signed, &ed25519_dalek::Signature::from_bytes(&signature))
            .is_ok()
    }
}
