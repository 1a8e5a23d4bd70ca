//! Which key signs, and when: the command line's side of signing. This is where the
//! environment is read (`HOME`, `SSH_AUTH_SOCK`, `SSH_ASKPASS`, `CORRESPOND_TIME`) and the
//! terminal is asked for a passphrase; the library below receives only the results.

use crate::cli::CliError;
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
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct KeyArgs {
    /// The SSH key to sign with: an Ed25519 private key file, or a public key whose private half
    /// ssh-agent holds. Default: the first key of the game's player to act (then of the other,
    /// then of its arbiter) that git's `user.signingKey`, ssh-agent or ~/.ssh/id_ed25519 holds;
    /// when none holds one, `user.signingKey` if it names an SSH key, else ~/.ssh/id_ed25519.
    #[arg(long, value_name = "PATH")]
    pub key: Option<PathBuf>,
}

impl KeyArgs {
    /// Finds the key and makes a signer of it; `near` is a path in the repository whose git
    /// configuration may name the key.
    pub(crate) fn signer(&self, near: &Path) -> Result<Box<dyn Signer>, CliError> {
        self.load(&self.choose(near, &[])?)
    }

    /// The public half of the key the signing commands would choose, read without a
    /// passphrase.
    pub(crate) fn public_key(&self, near: &Path) -> Result<ssh_key::PublicKey, CliError> {
        let choice = self.choose(near, &[])?;
        public_of(&choice.source).ok_or_else(|| choice.unreadable())
    }

    /// Every key that is the user's as the signing commands see it: the one `--key` names, or
    /// git's `user.signingKey`, every key ssh-agent holds, and `~/.ssh/id_ed25519`.
    pub(crate) fn all_mine(&self, near: &Path) -> Result<Vec<ssh_key::PublicKey>, CliError> {
        if self.key.is_some() {
            return Ok(vec![self.public_key(near)?]);
        }
        let mut mine: Vec<ssh_key::PublicKey> = Vec::new();
        if let Configured::Ssh(source) = git_signing_key(near) {
            mine.extend(public_of(&source));
        }
        mine.extend(agent_held());
        mine.extend(default_key().and_then(|path| public_of(&KeySource::File(path))));
        if mine.is_empty() {
            return Err(self.public_key(near).err().unwrap_or_else(|| {
                CliError::usage("no SSH key of yours was found")
                    .hint("choose your key with --key PATH")
            }));
        }
        Ok(mine)
    }

    /// Chooses the signing key. `--key` decides alone. Without it, the first of `wanted` (the
    /// keys of the game's signers, the one expected to act first) that git's `user.signingKey`,
    /// ssh-agent or `~/.ssh/id_ed25519` holds, in that order; when none holds one, git's
    /// `user.signingKey`, else `~/.ssh/id_ed25519`, whose errors then say what is wrong.
    pub(crate) fn choose(
        &self,
        near: &Path,
        wanted: &[&ssh_key::PublicKey],
    ) -> Result<Choice, CliError> {
        if let Some(path) = &self.key {
            return Ok(Choice {
                source: KeySource::File(expand_home(path)),
                passed_over: None,
            });
        }
        let (configured, passed_over) = match git_signing_key(near) {
            Configured::Ssh(source) => (Some(source), None),
            Configured::Other(note) => (None, Some(note)),
            Configured::Unset => (None, None),
        };
        let default = default_key().map(KeySource::File);
        let held = if wanted.is_empty() {
            Vec::new()
        } else {
            agent_held()
        };
        let chosen = wanted.iter().find_map(|w| {
            let same = |k: &ssh_key::PublicKey| k.key_data() == w.key_data();
            let from_file = |s: &Option<KeySource>| {
                s.as_ref()
                    .filter(|s| public_of(s).is_some_and(|k| same(&k)))
                    .cloned()
            };
            from_file(&configured)
                .or_else(|| {
                    held.iter()
                        .any(same)
                        .then(|| KeySource::Literal((*w).clone()))
                })
                .or_else(|| from_file(&default))
        });
        let source = chosen.or(configured).or(default).ok_or_else(|| {
            CliError::usage("no key given and HOME is not set")
                .hint("choose the key with --key PATH")
        })?;
        Ok(Choice {
            source,
            passed_over,
        })
    }

    /// A signer for the key chosen, with advice when it cannot be had.
    fn load(&self, choice: &Choice) -> Result<Box<dyn Signer>, CliError> {
        load(&choice.source).map_err(|e| {
            if let sign::SignError::NoPassphrase(path) = &e {
                return choice.noted(no_passphrase(path, &e));
            }
            let error = choice.noted(CliError::usage(format!("cannot sign: {e}")));
            match e {
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
                sign::SignError::WrongPassphrase(path) => error.hint(wrong_passphrase_hint(&path)),
                _ => error,
            }
        })
    }
}

/// The key a signing command chose, and what it passed over to choose it.
#[derive(Debug)]
pub(crate) struct Choice {
    source: KeySource,
    /// A key git's configuration names that cannot sign records, said when signing fails.
    passed_over: Option<String>,
}

impl Choice {
    /// `error` with the key passed over named, for a user who expected it to sign.
    pub(crate) fn noted(&self, error: CliError) -> CliError {
        match &self.passed_over {
            Some(note) => error.hint(note.clone()),
            None => error,
        }
    }

    fn unreadable(&self) -> CliError {
        let path = match &self.source {
            KeySource::File(path) => correspond::text::path(path).to_string(),
            KeySource::Literal(key) => sign::fingerprint(key),
        };
        self.noted(
            CliError::usage(format!("no SSH public key could be read from {path}"))
                .hint("choose your key with --key PATH (a .pub file, or a private key file)"),
        )
    }
}

/// The public half of a chosen key, read without a passphrase: the key itself; a public key
/// file; the public key an OpenSSH private key file holds in the clear, encrypted or not (the
/// one its signer uses); else the `.pub` beside it.
fn public_of(source: &KeySource) -> Option<ssh_key::PublicKey> {
    let path = match source {
        KeySource::Literal(key) => return Some(key.clone()),
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
    match read(path) {
        Some(text) if text.trim_start().starts_with("ssh-") => public(&text),
        text => text
            .and_then(|t| correspond::sign::private_key(&t).ok())
            .map(|k| k.public_key().clone())
            .or_else(|| read(Path::new(&beside)).and_then(|t| public(&t))),
    }
}

/// The keys a running ssh-agent holds; none when there is no agent or it cannot be reached,
/// since a key file may still sign.
fn agent_held() -> Vec<ssh_key::PublicKey> {
    std::env::var_os("SSH_AUTH_SOCK")
        .and_then(|socket| sign::agent_keys(Path::new(&socket)).ok())
        .unwrap_or_default()
}

/// `~/.ssh/id_ed25519`, where OpenSSH makes a new Ed25519 key.
fn default_key() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".ssh").join("id_ed25519"))
}

/// The keys that may sign the file's next record: the player expected to act first (or, for
/// a record `by_the_other`, the player not expected), then the other, then the arbiter. A key
/// found without `--key` is looked for in this order.
pub(crate) fn signers<G: correspond::replay::Protocol>(
    writer: &correspond::writer::Writer<G>,
    by_the_other: bool,
) -> Vec<&ssh_key::PublicKey> {
    let header = writer.file().header();
    let mut seats = [
        correspond::replay::Seat::Creator,
        correspond::replay::Seat::Opponent,
    ];
    let awaited = writer.replayer().last().phase.awaited();
    if (awaited == Some(correspond::replay::Seat::Opponent)) != by_the_other {
        seats.reverse();
    }
    let players = seats.iter().map(|&seat| &header.players[seat].key);
    players
        .chain(header.arbiter.as_ref().map(|a| &a.key))
        .collect()
}

/// The key a signing command signs with, loaded when first needed: everything a command checks
/// that does not need the private key (the file, whose turn it is, the move) is checked before
/// a passphrase is asked for. Its public half, read with no passphrase, says whose seat it is.
pub(crate) struct Key<'a> {
    args: &'a KeyArgs,
    choice: Choice,
    public: ssh_key::PublicKey,
    loaded: std::cell::OnceCell<Box<dyn Signer>>,
}

impl<'a> Key<'a> {
    /// The key `args` choose, near `near`, for a file whose signers' keys are `wanted` (the one
    /// expected to act first): its public half now, the private key when signing.
    pub(crate) fn new(
        args: &'a KeyArgs,
        near: &Path,
        wanted: &[&ssh_key::PublicKey],
    ) -> Result<Key<'a>, CliError> {
        let choice = args.choose(near, wanted)?;
        let loaded = std::cell::OnceCell::new();
        let public = match public_of(&choice.source) {
            Some(public) => public,
            // A key whose public half cannot be read alone: loaded now, as before.
            None => {
                let signer = args.load(&choice)?;
                let public = signer.public_key().clone();
                let _ = loaded.set(signer);
                public
            }
        };
        Ok(Key {
            args,
            choice,
            public,
            loaded,
        })
    }

    /// The public key.
    pub(crate) fn public(&self) -> &ssh_key::PublicKey {
        &self.public
    }

    /// `error` with what was passed over to choose this key.
    pub(crate) fn noted(&self, error: CliError) -> CliError {
        self.choice.noted(error)
    }

    /// The signer, loaded (and its passphrase asked for) the first time.
    pub(crate) fn signer(&self) -> Result<&dyn Signer, CliError> {
        if let Some(signer) = self.loaded.get() {
            return Ok(&**signer);
        }
        let signer = self.args.load(&self.choice)?;
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

/// git's `user.signingKey`, as this program can use it.
enum Configured {
    Unset,
    /// An SSH key: `key::ssh-ed25519 ...`, a literal public key, or the path of a key file.
    Ssh(KeySource),
    /// Set to something that is not an SSH key (an OpenPGP key id, a file that cannot be
    /// read): passed over, and named when that leaves the user without a key.
    Other(String),
}

fn git_signing_key(near: &Path) -> Configured {
    let Some(value) = correspond::git::config_string(near, "user.signingkey") else {
        return Configured::Unset;
    };
    let value = value.trim();
    let shown = correspond::text::shown(value);
    let literal = value.strip_prefix("key::").unwrap_or(value);
    if literal.starts_with("ssh-") {
        return match ssh_key::PublicKey::from_openssh(literal) {
            Ok(key) => Configured::Ssh(KeySource::Literal(key)),
            Err(_) => Configured::Other(format!(
                "git's user.signingKey `{shown}` is not an SSH public key that can be read, so \
                 it was passed over"
            )),
        };
    }
    // A path to an SSH key file is taken whatever gpg.format says, as before git had it.
    let path = expand_home(Path::new(value));
    let text = correspond::files::read_regular(&path, 64 * 1024)
        .ok()
        .and_then(|b| String::from_utf8(b).ok());
    if text.is_some_and(|t| t.contains("OPENSSH PRIVATE KEY") || t.trim_start().starts_with("ssh-"))
    {
        return Configured::Ssh(KeySource::File(path));
    }
    match correspond::git::config_string(near, "gpg.format") {
        Some(format) if format.trim() == "ssh" => Configured::Other(format!(
            "git's user.signingKey names {}, which is not an SSH key file that can be read, so \
             it was passed over",
            correspond::text::path(&path)
        )),
        format => Configured::Other(format!(
            "git's user.signingKey `{shown}` is an OpenPGP key (gpg.format is {}), and records \
             are signed with SSH keys only, so it was passed over",
            format.map_or("not set".to_owned(), |f| format!(
                "`{}`",
                correspond::text::shown(f.trim())
            ))
        )),
    }
}

/// A signer for `source`: through the agent `SSH_AUTH_SOCK` names when it holds the key, else
/// from the key's file, its passphrase asked for (see [`ask_passphrase`]).
///
/// # Errors
/// Why the key cannot sign; the caller words the advice.
pub(crate) fn load(source: &KeySource) -> Result<Box<dyn Signer>, sign::SignError> {
    let agent = std::env::var_os("SSH_AUTH_SOCK").map(PathBuf::from);
    sign::load_signer(source, agent.as_deref(), &ask_passphrase)
}

/// The program `SSH_ASKPASS` names, when `SSH_ASKPASS_REQUIRE` is `force` or `prefer`: then
/// it is asked for passphrases (as OpenSSH does), not the terminal.
fn askpass() -> Option<std::ffi::OsString> {
    let require = std::env::var("SSH_ASKPASS_REQUIRE").unwrap_or_default();
    std::env::var_os("SSH_ASKPASS").filter(|_| matches!(require.as_str(), "force" | "prefer"))
}

/// What to do after a wrong passphrase: nothing was signed, so the command can simply be run
/// again; OpenSSH can check the passphrase alone.
pub(crate) fn wrong_passphrase_hint(path: &Path) -> String {
    format!(
        "nothing was signed; run the command again with the key's passphrase \
         (`ssh-keygen -y -f {}` checks it)",
        correspond::text::path(path)
    )
}

/// A key whose passphrase no one gave (`e`): the `SSH_ASKPASS` program failed, or there is no
/// terminal to ask on.
pub(crate) fn no_passphrase(path: &Path, e: &sign::SignError) -> CliError {
    match askpass() {
        Some(program) => CliError::usage(format!(
            "cannot sign: {} is protected by a passphrase, and SSH_ASKPASS ({}) gave none",
            correspond::text::path(path),
            correspond::text::path(Path::new(&program))
        ))
        .hint(
            "check that the program runs and prints the passphrase, or unset \
             SSH_ASKPASS_REQUIRE to be asked on the terminal",
        ),
        None => CliError::usage(format!("cannot sign: {e}")).hint(
            "run it from a terminal, load the key into ssh-agent (ssh-add), or set SSH_ASKPASS \
             with SSH_ASKPASS_REQUIRE=force",
        ),
    }
}

/// Asks for a key's passphrase: through `SSH_ASKPASS` when `SSH_ASKPASS_REQUIRE` is `force` or
/// `prefer` (as OpenSSH does), else on the terminal without echo.
fn ask_passphrase(path: &Path) -> Option<String> {
    let prompt = format!("Enter passphrase for {}: ", correspond::text::path(path));
    if let Some(program) = askpass() {
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

/// The time to write into a new document: `CORRESPOND_TIME` if set (any RFC 3339 time: with
/// `Z` or an offset, such as `date -Iseconds` prints, and whole seconds of it), else the clock.
pub(crate) fn now() -> Result<Timestamp, CliError> {
    if let Ok(pinned) = std::env::var(TIME_VARIABLE) {
        return pinned_time(&pinned).ok_or_else(|| {
            CliError::usage(format!(
                "{TIME_VARIABLE} is `{}`, not an RFC 3339 time such as 2026-01-31T18:05:00Z or \
                 2026-01-31T20:05:00+02:00",
                correspond::text::shown(&pinned)
            ))
        });
    }
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Ok(Timestamp::from_unix(seconds))
}

/// An RFC 3339 time, in UTC and whole seconds as records write times; `None` for anything else
/// or a time before 1970.
fn pinned_time(text: &str) -> Option<Timestamp> {
    Timestamp::parse(text).or_else(|| {
        let time: jiff::Timestamp = text.parse().ok()?;
        u64::try_from(time.as_second())
            .ok()
            .map(Timestamp::from_unix)
    })
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
