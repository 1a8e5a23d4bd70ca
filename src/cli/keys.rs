//! Which key signs, and when: the command line's side of signing. This is where the
//! environment is read (`HOME`, `SSH_AUTH_SOCK`, `SSH_ASKPASS`, `CORRESPOND_TIME`) and the
//! terminal is asked for a passphrase; the library below receives only the results.

use super::CliError;
use correspond::digest::Digest;
use correspond::log::Timestamp;
use correspond::sign::{self, KeySource, Signer};
use std::path::{Path, PathBuf};

/// The environment variable that pins the time written into records and headers, so that
/// files can be reproduced byte for byte: `2026-01-31T18:05:00Z`.
pub(crate) const TIME_VARIABLE: &str = "CORRESPOND_TIME";

/// The environment variable that pins the salt of a new game's header (64 hex digits), so that
/// a file can be reproduced byte for byte. Never for real games: the salt is what keeps two
/// games created on the same terms in the same second apart.
pub(crate) const SALT_VARIABLE: &str = "CORRESPOND_SALT";

/// How to choose the signing key.
#[derive(Debug, clap::Args)]
pub(crate) struct KeyArgs {
    /// The SSH key to sign with: an Ed25519 private key file, or a public key whose private half
    /// ssh-agent holds. Default: git's `user.signingKey` when it names an SSH key, else
    /// ~/.ssh/id_ed25519.
    #[arg(long, value_name = "PATH")]
    pub key: Option<PathBuf>,
}

impl KeyArgs {
    /// Finds the key and makes a signer of it; `near` is a path in the repository whose git
    /// configuration may name the key.
    pub(crate) fn signer(&self, near: &Path) -> Result<Box<dyn Signer>, CliError> {
        let source = self.source(near)?;
        let agent = std::env::var_os("SSH_AUTH_SOCK").map(PathBuf::from);
        sign::load_signer(&source, agent.as_deref(), &ask_passphrase).map_err(|e| {
            let error = CliError::usage(format!("cannot sign: {e}"));
            match e {
                sign::SignError::NoPassphrase(_) => error.hint(
                    "run it from a terminal, load the key into ssh-agent (ssh-add), or set \
                     SSH_ASKPASS with SSH_ASKPASS_REQUIRE=force",
                ),
                // No key named, and none where OpenSSH keeps one: the user may have none yet.
                sign::SignError::Read { .. } if self.key.is_none() => error.hint(
                    "make a key with `ssh-keygen -t ed25519`, or choose one with --key PATH \
                     (or git's user.signingKey)",
                ),
                sign::SignError::Read { .. } => {
                    error.hint("choose the key with --key PATH, or set git's user.signingKey")
                }
                sign::SignError::NotEd25519(..) => error.hint(
                    "make an Ed25519 key (ssh-keygen -t ed25519) and choose it with --key PATH",
                ),
                _ => error,
            }
        })
    }

    /// The public half of the key the signing commands would choose, read without a
    /// passphrase: a public key file; the public key an OpenSSH private key file holds in the
    /// clear, encrypted or not (the one its signer uses); else the `.pub` beside it.
    pub(crate) fn public_key(&self, near: &Path) -> Result<ssh_key::PublicKey, CliError> {
        let path = match self.source(near)? {
            KeySource::Literal(key) => return Ok(key),
            KeySource::File(path) => path,
        };
        let mut beside = path.clone().into_os_string();
        beside.push(".pub");
        let read = |p: &Path| {
            correspond::files::read_regular(p, 64 * 1024)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
        };
        let public = |text: &str| ssh_key::PublicKey::from_openssh(text.trim()).ok();
        let key = match read(&path) {
            Some(text) if text.trim_start().starts_with("ssh-") => public(&text),
            text => text
                .and_then(|t| ssh_key::PrivateKey::from_openssh(t).ok())
                .map(|k| k.public_key().clone())
                .or_else(|| read(Path::new(&beside)).and_then(|t| public(&t))),
        };
        key.ok_or_else(|| {
            CliError::usage(format!(
                "no SSH public key could be read from {}",
                correspond::text::path(&path)
            ))
            .hint("choose your key with --key PATH (a .pub file, or a private key file)")
        })
    }

    fn source(&self, near: &Path) -> Result<KeySource, CliError> {
        if let Some(path) = &self.key {
            return Ok(KeySource::File(expand_home(path)));
        }
        if let Some(source) = git_signing_key(near) {
            return Ok(source);
        }
        let home = std::env::var_os("HOME").ok_or_else(|| {
            CliError::usage("no key given and HOME is not set")
                .hint("choose the key with --key PATH")
        })?;
        Ok(KeySource::File(
            PathBuf::from(home).join(".ssh").join("id_ed25519"),
        ))
    }
}

/// The key a signing command signs with, loaded when first needed: everything a command checks
/// that does not need the private key (the file, whose turn it is, the move) is checked before
/// a passphrase is asked for. Its public half, read with no passphrase, says whose seat it is.
pub(crate) struct Key<'a> {
    args: &'a KeyArgs,
    near: &'a Path,
    public: ssh_key::PublicKey,
    loaded: std::cell::OnceCell<Box<dyn Signer>>,
}

impl<'a> Key<'a> {
    /// The key `args` choose, near `near`: its public half now, the private key when signing.
    pub(crate) fn new(args: &'a KeyArgs, near: &'a Path) -> Result<Key<'a>, CliError> {
        let loaded = std::cell::OnceCell::new();
        let public = match args.public_key(near) {
            Ok(public) => public,
            // A key whose public half cannot be read alone: loaded now, as before.
            Err(_) => {
                let signer = args.signer(near)?;
                let public = signer.public_key().clone();
                let _ = loaded.set(signer);
                public
            }
        };
        Ok(Key {
            args,
            near,
            public,
            loaded,
        })
    }

    /// The public key.
    pub(crate) fn public(&self) -> &ssh_key::PublicKey {
        &self.public
    }

    /// The signer, loaded (and its passphrase asked for) the first time.
    pub(crate) fn signer(&self) -> Result<&dyn Signer, CliError> {
        if let Some(signer) = self.loaded.get() {
            return Ok(&**signer);
        }
        let signer = self.args.signer(self.near)?;
        if signer.public_key().key_data() != self.public.key_data() {
            return Err(CliError::usage(format!(
                "the private key is {}, but its public key says {}; nothing was signed",
                sign::fingerprint(signer.public_key()),
                sign::fingerprint(&self.public)
            ))
            .hint("choose the key with --key PATH"));
        }
        Ok(&**self.loaded.get_or_init(|| signer))
    }
}

fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_owned(),
    }
}

/// git's `user.signingKey`, when it names an SSH key: `key::ssh-ed25519 ...`, a literal public
/// key, or the path of a key file. A GPG key id is not an SSH key and is passed over.
fn git_signing_key(near: &Path) -> Option<KeySource> {
    let value = correspond::git::config_string(near, "user.signingkey")?;
    let value = value.trim();
    let literal = value.strip_prefix("key::").unwrap_or(value);
    if literal.starts_with("ssh-") {
        return ssh_key::PublicKey::from_openssh(literal)
            .ok()
            .map(KeySource::Literal);
    }
    let path = expand_home(Path::new(value));
    let text = String::from_utf8(correspond::files::read_regular(&path, 64 * 1024).ok()?).ok()?;
    let is_ssh = text.contains("OPENSSH PRIVATE KEY") || text.trim_start().starts_with("ssh-");
    is_ssh.then_some(KeySource::File(path))
}

/// Asks for a key's passphrase: through `SSH_ASKPASS` when `SSH_ASKPASS_REQUIRE` is `force` or
/// `prefer` (as OpenSSH does), else on the terminal without echo.
fn ask_passphrase(path: &Path) -> Option<String> {
    let prompt = format!("Enter passphrase for {}: ", correspond::text::path(path));
    let require = std::env::var("SSH_ASKPASS_REQUIRE").unwrap_or_default();
    if let Some(program) =
        std::env::var_os("SSH_ASKPASS").filter(|_| matches!(require.as_str(), "force" | "prefer"))
    {
        let output = std::process::Command::new(program)
            .arg(&prompt)
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        let text = String::from_utf8(output.stdout).ok()?;
        return Some(text.trim_end_matches(['\n', '\r']).to_owned());
    }
    // Only ask a person who is there: with no terminal on standard input (a script, CI), fail
    // with advice rather than wait for an answer that will never come.
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return None;
    }
    rpassword::prompt_password(prompt).ok()
}

/// The time to write into a new document: `CORRESPOND_TIME` if set, else the clock.
pub(crate) fn now() -> Result<Timestamp, CliError> {
    if let Ok(pinned) = std::env::var(TIME_VARIABLE) {
        return Timestamp::parse(&pinned).ok_or_else(|| {
            CliError::usage(format!(
                "{TIME_VARIABLE} is `{pinned}`, not a time like 2026-01-31T18:05:00Z"
            ))
        });
    }
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Ok(Timestamp::from_unix(seconds))
}

/// The time of a commit the command makes: `CORRESPOND_TIME` (in UTC) if set, so that a pinned
/// run makes the same commits, else the clock, in the system's time zone as git would.
pub(crate) fn commit_time() -> Result<correspond::git::When, CliError> {
    if std::env::var_os(TIME_VARIABLE).is_some() {
        let seconds = i64::try_from(now()?.to_unix()).unwrap_or(i64::MAX);
        return Ok(correspond::git::When {
            seconds,
            offset_minutes: 0,
        });
    }
    let now = jiff::Zoned::now();
    Ok(correspond::git::When {
        seconds: now.timestamp().as_second(),
        offset_minutes: now.offset().seconds() / 60,
    })
}

/// The salt of a new game's header: `CORRESPOND_SALT` if set, else 32 bytes from the operating
/// system's random source.
pub(crate) fn salt() -> Result<Digest, CliError> {
    use ssh_key::rand_core::{OsRng, RngCore};
    if let Ok(pinned) = std::env::var(SALT_VARIABLE) {
        return Digest::parse(&pinned).ok_or_else(|| {
            CliError::usage(format!(
                "{SALT_VARIABLE} is `{}`, not 64 lower-case hex digits",
                correspond::text::shown(&pinned)
            ))
        });
    }
    let mut bytes = [0; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| CliError::usage(format!("cannot draw a random salt for the game: {e}")))?;
    Ok(Digest(bytes))
}
