//! Finding a player's signing key: a private key file (decrypted with a passphrase if need
//! be), or a key held by a running ssh-agent.
//!
//! Which key to use is the command line's decision (`--key`, git's `user.signingKey`, or
//! `~/.ssh/id_ed25519`); this module only turns that choice into a [`Signer`]. Private keys are
//! read into memory for one command and never written anywhere.

use super::agent::AgentSigner;
use super::{KeySigner, SignError, Signer, fingerprint};
use ssh_key::{PrivateKey, PublicKey};
use std::path::{Path, PathBuf};

/// More than any OpenSSH key file holds.
const KEY_FILE_LIMIT: u64 = 64 * 1024;

/// Where the signing key comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A key file: a private key, or a public key whose private half is in the agent or in the
    /// file of the same name without `.pub`.
    File(PathBuf),
    /// A public key written out, as git's `user.signingKey = key::ssh-ed25519 ...` allows; the
    /// agent must hold its private half.
    Literal(PublicKey),
}

/// Asks for the passphrase of an encrypted key file; `None` when nobody can be asked.
pub type Passphrase<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// Turns a key choice into a signer. An agent that holds the key is preferred, so that a
/// passphrase is asked for only when there is no other way.
///
/// # Errors
/// When the key cannot be read, decrypted, or found in the agent; or is not Ed25519.
pub fn load_signer(
    source: &KeySource,
    agent: Option<&Path>,
    passphrase: Passphrase<'_>,
) -> Result<Box<dyn Signer>, SignError> {
    match source {
        KeySource::Literal(key) => {
            from_agent(agent, key)?.ok_or_else(|| SignError::NoPrivateKey(fingerprint(key)))
        }
        KeySource::File(path) => load_file(path, agent, passphrase),
    }
}

fn from_agent(agent: Option<&Path>, key: &PublicKey) -> Result<Option<Box<dyn Signer>>, SignError> {
    check_ed25519(key)?;
    let Some(socket) = agent else {
        return Ok(None);
    };
    // An agent that cannot be reached is no reason to fail when the key file can sign.
    match AgentSigner::find(socket, key) {
        Ok(found) => Ok(found.map(|s| Box::new(s) as Box<dyn Signer>)),
        Err(_) => Ok(None),
    }
}

fn check_ed25519(key: &PublicKey) -> Result<(), SignError> {
    if key.key_data().is_ed25519() {
        Ok(())
    } else {
        Err(SignError::NotEd25519(
            fingerprint(key),
            key_kind(key.algorithm().as_str()),
        ))
    }
}

fn load_file(
    path: &Path,
    agent: Option<&Path>,
    passphrase: Passphrase<'_>,
) -> Result<Box<dyn Signer>, SignError> {
    // A key file is small: a pipe or a device in its place is refused, not read without end.
    let bytes =
        crate::files::read_regular(path, KEY_FILE_LIMIT).map_err(|source| SignError::Read {
            path: path.to_owned(),
            source,
        })?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let format_error = |reason: String| SignError::KeyFormat {
        path: path.to_owned(),
        reason,
    };
    let shown = crate::text::path(path).to_string();
    if text
        .trim_start()
        .starts_with("-----BEGIN OPENSSH PRIVATE KEY-----")
    {
        let private = private_key(&text).map_err(|e| {
            // This program reads Ed25519 keys only: another kind is named, not "unknown".
            match private_key_algorithm(&text).filter(|a| a != "ssh-ed25519") {
                Some(algorithm) => SignError::NotEd25519(shown.clone(), key_kind(&algorithm)),
                None => format_error(super::foreign(&e)),
            }
        })?;
        // A key of another kind that parsed is named by its file, as one that did not parse is.
        if !private.public_key().key_data().is_ed25519() {
            return Err(SignError::NotEd25519(
                shown,
                key_kind(private.public_key().algorithm().as_str()),
            ));
        }
        if let Some(signer) = from_agent(agent, private.public_key())? {
            return Ok(signer);
        }
        let private = if private.is_encrypted() {
            let secret =
                passphrase(path).ok_or_else(|| SignError::NoPassphrase(path.to_owned()))?;
            private
                .decrypt(secret.as_bytes())
                .map_err(|_| SignError::WrongPassphrase(path.to_owned()))?
        } else {
            private
        };
        return Ok(Box::new(KeySigner::new(private)?));
    }
    let public = public_key(&text).map_err(|e| match e {
        SignError::NotEd25519(_, kind) => SignError::NotEd25519(shown.clone(), kind),
        SignError::NotAKey(e) => {
            format_error(format!("neither a private key nor a public key ({e})"))
        }
        other => other,
    })?;
    if let Some(signer) = from_agent(agent, &public)? {
        return Ok(signer);
    }
    let private_path = path
        .to_string_lossy()
        .strip_suffix(".pub")
        .map(PathBuf::from);
    match private_path {
        Some(p) if p.exists() => load_file(&p, agent, passphrase),
        _ => Err(SignError::NoPrivateKey(fingerprint(&public))),
    }
}

/// Reads a public key in OpenSSH's one-line form (`ssh-ed25519 AAAA... comment`), which must be
/// an Ed25519 key.
///
/// # Errors
/// [`SignError::NotEd25519`] naming the kind of another key (the fingerprint is left empty for
/// the caller to name the key its own way); [`SignError::NotAKey`] for text that is not a key.
pub fn public_key(text: &str) -> Result<PublicKey, SignError> {
    let text = text.trim();
    let algorithm = text.split_whitespace().next().unwrap_or_default();
    if !algorithm.is_empty() && algorithm != "ssh-ed25519" && is_algorithm_name(algorithm) {
        return Err(SignError::NotEd25519(String::new(), key_kind(algorithm)));
    }
    let key = PublicKey::from_openssh(text).map_err(|e| SignError::NotAKey(super::foreign(&e)))?;
    check_ed25519(&key)?;
    Ok(key)
}

/// A key type in words, for refusals: `an ECDSA key (ecdsa-sha2-nistp256)`.
#[must_use]
pub fn key_kind(algorithm: &str) -> String {
    let kind = if algorithm.starts_with("ecdsa-sha2-") {
        "an ECDSA key"
    } else if algorithm == "ssh-rsa" || algorithm.starts_with("rsa-sha2-") {
        "an RSA key"
    } else if algorithm == "ssh-dss" {
        "a DSA key"
    } else if algorithm.starts_with("sk-ssh-ed25519") {
        "a security-key (FIDO) Ed25519 key"
    } else if algorithm.starts_with("sk-ecdsa-") {
        "a security-key (FIDO) ECDSA key"
    } else if algorithm == "ssh-ed25519" {
        "an Ed25519 key"
    } else {
        "a key of another type"
    };
    format!("{kind} ({})", crate::text::shown(algorithm))
}

/// Whether a word looks like an SSH key type name (`ssh-rsa`, `ecdsa-sha2-nistp256`,
/// `sk-ssh-ed25519@openssh.com`) rather than base64 or a path.
fn is_algorithm_name(word: &str) -> bool {
    word.len() <= 64
        && word.contains('-')
        && word.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'@' | b'.')
        })
}

/// The key type inside an OpenSSH private key file, read from its unencrypted public part
/// (`openssh-key-v1`: magic, cipher, KDF, KDF options, key count, then each public key, whose
/// first field is its type), so that a key this program cannot parse is still named.
fn private_key_algorithm(pem: &str) -> Option<String> {
    use base64ct::Encoding as _;
    fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        (rest.len() >= n).then(|| {
            let (taken, left) = rest.split_at(n);
            *rest = left;
            taken
        })
    }
    fn string<'a>(rest: &mut &'a [u8]) -> Option<&'a [u8]> {
        let len = u32::from_be_bytes(take(rest, 4)?.try_into().ok()?);
        take(rest, usize::try_from(len).ok()?)
    }
    let body: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::trim)
        .collect();
    let bytes = base64ct::Base64::decode_vec(&body).ok()?;
    let mut rest = bytes.strip_prefix(b"openssh-key-v1\0".as_slice())?;
    for _ in 0..3 {
        string(&mut rest)?; // the cipher, the KDF and its options
    }
    take(&mut rest, 4)?; // the number of keys
    let mut public = string(&mut rest)?;
    let algorithm = string(&mut public)?;
    String::from_utf8(algorithm.to_vec()).ok()
}

/// An OpenSSH private key's text, read as OpenSSH reads it: the base64 between its armour lines
/// may be wrapped at any width (Python's `cryptography` writes 76 columns, OpenSSH 70), which
/// the PEM reader underneath takes only at 70; a text it refuses is read again rewrapped.
///
/// # Errors
/// The first reading's error, when the rewrapped text does not read either.
pub fn private_key(text: &str) -> Result<PrivateKey, ssh_key::Error> {
    PrivateKey::from_openssh(text).or_else(|error| {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let begin = lines.iter().position(|l| l.starts_with("-----BEGIN "));
        let end = lines.iter().rposition(|l| l.starts_with("-----END "));
        let (Some(begin), Some(end)) = (begin, end) else {
            return Err(error);
        };
        if end <= begin {
            return Err(error);
        }
        let body: String = lines[begin + 1..end].concat();
        let mut rewrapped = format!("{}\n", lines[begin]);
        for chunk in body.as_bytes().chunks(70) {
            rewrapped.push_str(&String::from_utf8_lossy(chunk));
            rewrapped.push('\n');
        }
        rewrapped.push_str(lines[end]);
        rewrapped.push('\n');
        PrivateKey::from_openssh(&rewrapped).map_err(|_| error)
    })
}
