//! `correspond receive`: records that arrived by mail, checked and appended to a game file.

mod gather;

use crate::cli::CliError;
use crate::cli::ExitStatus;
use crate::cli::Out;
use crate::cli::checking::compare::proof_name;
use crate::cli::shared::commit;
use crate::cli::shared::game::{CliGame, with_game};
use correspond::fork;
use correspond::git::Tracked;
use correspond::log::{self, GameFile};
use correspond::mail::{self, Found, MailError, ReceiveError, Received};
use correspond::replay;
use std::path::{Path, PathBuf};

/// Take in records that arrived by mail: find the record block in each message (whatever the
/// mail client did to it: quoted-printable or base64, an HTML part, CRLF line endings, quoted
/// with `> ` in a reply, forwarded), check that its records chain onto the game file and
/// verify (signatures, turns, moves), append them, and commit the file when it is in git.
///
/// A message already received changes nothing and says so (exit code 0). A message from
/// another game, with a bad signature, that disagrees with the file, or whose records come
/// after a gap (an earlier message not yet received) is refused with the reason, and nothing
/// is written (exit code 1); when the other player signed two different records with one
/// number, a proof of it is written for an arbiter. Several messages are each judged on their
/// own: one refused is listed with the reason, the others are taken as if it had not been
/// given, and the exit code is 1 (a fork between two of them stops them all, for the player
/// to settle).
///
/// A mailbox (--mbox, `-` for standard input) holds whatever arrived: what verifies is applied,
/// and each block passed over is listed with the reason; the exit code is 1 when one was forged
/// or disagrees with the game. Two versions of one record that arrive together, when the file
/// holds neither and the crossing rule does not settle them, are both left out.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Messages as saved by a mail client (`.eml`), text holding a record block, or a game
    /// file sent as it is. `-` or none: standard input.
    #[arg(value_name = "MESSAGE")]
    messages: Vec<PathBuf>,
    /// Also read every message of an mbox mailbox, in whatever order they lie there, passing
    /// over other games' messages and mail without records; repeat for several.
    #[arg(long, value_name = "MBOX")]
    mbox: Vec<PathBuf>,
    /// Also read every message of a Maildir folder (its `cur` and `new` subfolders), as a
    /// mailbox; repeat for several.
    #[arg(long, value_name = "DIR")]
    maildir: Vec<PathBuf>,
    /// Start FILE (which must not exist) from a mailed challenge.
    #[arg(long)]
    new: bool,
    /// Take only this game's records (its id, or the id's first 8 characters or more), and pass
    /// over every other game's: to start one game of several in a mailbox.
    #[arg(long, value_name = "ID", value_hint = clap::ValueHint::Other)]
    game: Option<String>,
    /// Where to write the proof when a message shows that a player signed two different
    /// records with one number. Default: next to FILE, `FILE-STEM.equivocation-N.proof`. When
    /// it shows a player signed in two versions of the game, the other version goes here
    /// instead (default `FILE-STEM.rival-N.copy`).
    #[arg(long, value_name = "PATH")]
    proof: Option<PathBuf>,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: crate::cli::shared::record::WaitArgs,
    /// When a record of yours crossed one of the other player's and is void by the crossing
    /// rule (the game awaited them): drop yours, take theirs, and sign yours again on top
    /// where it still applies, with --key.
    #[arg(long)]
    settle: bool,
    #[command(flatten)]
    key: crate::cli::shared::keys::KeyArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let path = &args.file;
    if args.new && path.exists() {
        return Err(
            CliError::usage(format!("{} already exists", correspond::text::path(path)))
                .hint("without --new, receive adds the records to it"),
        );
    }
    if !args.new && !path.exists() {
        return Err(
            CliError::usage(format!("{} does not exist", correspond::text::path(path))).hint(
                format!(
                    "to start it from a mailed challenge: correspond receive --new {} MESSAGE",
                    correspond::text::path(path)
                ),
            ),
        );
    }
    let game = args.game.as_deref().map(game_prefix).transpose()?;
    let mut found = gather::gather(args)?;
    let other_games = match game {
        Some(id) => only_game(args, &id, &mut found)?,
        None => 0,
    };
    let mut write = Writing {
        path,
        commit: !args.no_commit,
        wait: &args.wait,
        settle: args.settle.then_some(&args.key),
        tracked: None,
        locked: None,
        said: Vec::new(),
    };
    let mut received = if args.new {
        write.start(&found)
    } else {
        write.grow(&found)
    }
    .map_err(|stop| match stop {
        Stop::Cli(e) => e,
        Stop::Refused(e) => refused(&e, args),
    })?;
    received.other_games += other_games;
    // Received files verify, so the registry knows their game; said plainly all the same.
    let name = crate::cli::shared::record::kind_of(&received.file, path)?;
    // Said once the commit is made: printing cannot stop it.
    let mut report_text = Vec::new();
    let message = with_game!(name, G => report::<G>(path, &received, args, &mut Out::new(&mut report_text, out.styled()))?);
    let committed = write.commit(message)?;
    let done = if committed.is_some() {
        "what arrived was written and committed"
    } else {
        "what arrived was written, if anything"
    };
    let mut text = write.said.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(&String::from_utf8_lossy(&report_text));
    if let Some(line) = committed {
        text.push_str(&line);
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::from(e).hint(done))?;
    Ok(if alarming(&received) || !received.refused.is_empty() {
        ExitStatus::Rejected
    } else {
        ExitStatus::Success
    })
}

/// `--game`: only the blocks of game `id` (an id's first characters) are kept in `found`, and
/// the file, if there is one already, must be that game. Returns how many blocks of other games
/// were left out.
///
/// # Errors
/// The file cannot be read, is not a game file, or is another game; or (with `--new`) no block
/// is of this one.
fn only_game(args: &Args, id: &str, found: &mut Vec<Found>) -> Result<usize, CliError> {
    let path = &args.file;
    if !args.new {
        let file = GameFile::parse(&crate::cli::shared::record::read(path)?)
            .map_err(|e| invalid(path, &e))?;
        if !file.game_id().to_string().starts_with(id) {
            return Err(CliError::usage(format!(
                "{} is game {}, not --game {id}",
                correspond::text::path(path),
                file.game_id()
            )));
        }
    }
    let before = found.len();
    found.retain(|f| match &f.packet {
        Ok(p) => p.game.to_string().starts_with(id),
        Err(MailError::Damaged { game: Some(g), .. }) => g.to_string().starts_with(id),
        Err(_) => true,
    });
    let other_games = before - found.len();
    if found.is_empty() && args.new {
        return Err(CliError::rejected(format!(
            "no block of game {id} was found ({other_games} of other games)"
        ))
        .hint("`correspond status FILE` shows a game's id"));
    }
    Ok(other_games)
}

/// Whether `receive` exits as refused although what it wrote verifies: a forgery, a fork, a
/// block meant for elsewhere or an undecided record passed over still needs the player's
/// attention.
fn alarming(received: &Received) -> bool {
    received.passed_over.iter().any(|p| {
        matches!(
            *p.error,
            MailError::Invalid(_)
                | MailError::Fork { .. }
                | MailError::Elsewhere(_)
                | MailError::Undecided(_)
        )
    })
}

/// The `--game` option: a game id or its first 8 characters or more, in lower case.
fn game_prefix(id: &str) -> Result<String, CliError> {
    let id = id.to_ascii_lowercase();
    if (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(id)
    } else {
        Err(CliError::usage(format!(
            "--game `{}` is not a game id or its first 8 characters or more",
            correspond::text::shown(&id)
        ))
        .hint("`correspond status FILE` shows a game's id"))
    }
}

/// Why receiving stopped: an error for the user, or what arrived refused.
enum Stop {
    Cli(CliError),
    Refused(ReceiveError),
}

impl From<CliError> for Stop {
    fn from(e: CliError) -> Stop {
        Stop::Cli(e)
    }
}

/// Writing what arrived, and the repository to commit it to (looked up only when there is
/// something to write, before it is written); the file's lock is kept until the commit is made.
struct Writing<'a> {
    path: &'a Path,
    commit: bool,
    wait: &'a crate::cli::shared::record::WaitArgs,
    /// The key to sign again with, when the player settles a crossing (`--settle`).
    settle: Option<&'a crate::cli::shared::keys::KeyArgs>,
    tracked: Option<Tracked>,
    locked: Option<log::Locked>,
    /// What was done on the way (a leftover removed, earlier records committed).
    said: Vec<String>,
}

impl Writing<'_> {
    fn find_repository(&mut self) -> Result<(), CliError> {
        if self.commit {
            self.tracked = commit::find(self.path)?;
        }
        Ok(())
    }

    /// A new file from a challenge.
    fn start(&mut self, found: &[Found]) -> Result<Received, Stop> {
        let received = mail::receive_each(None, found).map_err(Stop::Refused)?;
        if self.commit {
            self.tracked = commit::find_for_new(self.path)?;
        }
        log::create_new(self.path, received.file.text().as_bytes())
            .map_err(|e| CliError::io(self.path, &e))?;
        if self.tracked.is_some() {
            self.locked = Some(self.wait.lock(self.path)?);
        }
        Ok(received)
    }

    /// The file with what arrived appended, under the file's lock.
    fn grow(&mut self, found: &[Found]) -> Result<Received, Stop> {
        let path = self.path;
        let mut locked = self.wait.lock(path)?;
        let file = GameFile::parse(locked.bytes()).map_err(|e| invalid(path, &e))?;
        // The file is replayed once, by `receive`; a defect of its own is not the mail's.
        let outcome = mail::receive_each(Some(&file), found);
        // A record of the file's that is void by the crossing rule: refused in a message given
        // alone, passed over in a mailbox.
        let void = match &outcome {
            Err(e) => crossed(&e.error).map(|f| f.document),
            Ok(received) => received
                .passed_over
                .iter()
                .filter_map(|p| crossed(&p.error).map(|f| f.document))
                .min(),
        };
        if let (Some(document), Some(key)) = (void, self.settle) {
            let settled =
                crate::cli::by_mail::settle::settle(path, &locked, &file, document, found, key)?;
            self.find_repository()?;
            crate::cli::shared::record::tidy(&locked, self.tracked.as_ref(), &mut self.said)?;
            self.said.extend(settled.said);
            locked
                .rewrite(settled.received.file.text().as_bytes().to_vec())
                .map_err(|e| {
                    crate::cli::shared::places::not_written(path, &e, "nothing was written")
                })?;
            self.locked = Some(locked);
            return Ok(settled.received);
        }
        let received = match outcome {
            Ok(received) => received,
            Err(e) => match &*e.error {
                MailError::Invalid(defect) if e.origin.is_none() => {
                    return Err(Stop::Cli(invalid(path, defect)));
                }
                _ => return Err(Stop::Refused(e)),
            },
        };
        let before = locked.bytes().len();
        if received.file.text().len() == before {
            // Nothing new: the file is left alone, its time stamp too.
            return Ok(received);
        }
        self.find_repository()?;
        crate::cli::shared::record::tidy(&locked, self.tracked.as_ref(), &mut self.said)?;
        locked
            .append(&received.file.text().as_bytes()[before..])
            .map_err(|e| {
                crate::cli::shared::places::not_written(path, &e, "nothing was written")
            })?;
        self.locked = Some(locked);
        Ok(received)
    }

    /// Commits what was written, under the lock, and returns the line that says so.
    fn commit(&mut self, message: Option<String>) -> Result<Option<String>, CliError> {
        let (Some(tracked), Some(locked), Some(message)) =
            (&self.tracked, self.locked.take(), message)
        else {
            return Ok(None);
        };
        commit::commit(tracked, &message, locked.bytes()).map(Some)
    }
}

/// The fork at which a record which arrived voids the file's by the crossing rule, if it is
/// that.
fn crossed(error: &MailError) -> Option<&fork::Fork> {
    match error {
        MailError::Fork { fork, .. } if fork.stands == Some(fork::Copy::B) => Some(fork),
        _ => None,
    }
}

/// How to settle a crossing in which the file's record is void: by its signer, named, since a
/// copy of the other player's may hold it too (a second machine that received it).
fn settle_hint(fork: &fork::Fork, path: &Path) -> String {
    let [(void, _), (stands, _)] = &fork.records;
    let shown = correspond::text::path(path).to_string();
    format!(
        "record {} of {shown} is {void}'s, void by the crossing rule since the game awaited \
         {stands}: {void} settles it with `correspond receive --settle {} MESSAGE`, which drops \
         it, takes {stands}'s, and signs it again where it still applies",
        fork.document,
        correspond::text::shell_word(&shown)
    )
}

fn invalid(path: &Path, e: &dyn std::fmt::Display) -> CliError {
    CliError::rejected(format!(
        "{} does not verify: {e}",
        correspond::text::path(path)
    ))
    .hint("nothing was written; `correspond audit` shows who changed it, if it is in git")
}

/// The refusal of what arrived, with advice; for equivocation, the proof written.
fn refused(e: &ReceiveError, args: &Args) -> CliError {
    let mut error = CliError::rejected(e);
    for other in &e.passed_over {
        error = error.hint(format!("also passed over: {other}"));
    }
    let error = match &*e.error {
        MailError::Fork { fork, .. } if fork.equivocation => match write_evidence(&e.error, args) {
            Some(said) => error.hint(said),
            None => error,
        },
        MailError::Fork { fork, .. } if fork.seen.is_some() => {
            let error = match write_evidence(&e.error, args) {
                Some(said) => error.hint(said),
                None => error,
            };
            error.hint(
                "this is for an arbiter, not for the crossing rule: keep both versions, and \
                 the message",
            )
        }
        MailError::Fork { fork, .. } if fork.stands == Some(correspond::fork::Copy::B) => {
            error.hint(settle_hint(fork, &args.file))
        }
        MailError::Fork { .. } => error
            .hint(
                "both players signed a record at the same place, each before seeing the \
                     other's: agree which stands; the other player then plays again on top of it",
            )
            .hint(
                "if the message only quotes the other version (a reply), receive the message \
                     it answers, or the new block alone",
            ),
        other => match advice(other) {
            Some(advice) => error.hint(advice),
            None => error,
        },
    };
    error.hint("nothing was written to the game file")
}

/// What to do about a message refused for `error`, where that does not depend on the game.
fn advice(error: &MailError) -> Option<&'static str> {
    match error {
        MailError::Gap { .. } => {
            Some("receive the earlier message first (or all of them at once, in any order)")
        }
        MailError::Damaged { .. } => {
            Some("ask for the message again, or for the game file itself as an attachment")
        }
        MailError::WrongGame { .. } => Some("is it the right game file?"),
        MailError::SeveralGames(_) => {
            Some("choose one with --game ID (its id's first 8 characters or more)")
        }
        _ => None,
    }
}

/// For a fork where one player signed both records, writes the proof (to --proof, or next to
/// the game file) and says where; where one player signed in both versions (a record of theirs
/// follows the other version's record at the fork), writes the other version, for an arbiter
/// to compare; `None` for any other error.
fn write_evidence(error: &MailError, args: &Args) -> Option<String> {
    let MailError::Fork { fork: f, versions } = error else {
        return None;
    };
    if f.seen.is_some() {
        return Some(write_rival(&versions[1], f, args));
    }
    if !f.equivocation {
        return None;
    }
    let [ours, rival] = &**versions;
    let path = args
        .proof
        .clone()
        .unwrap_or_else(|| proof_name(&args.file, f.document));
    let proof = fork::proof(ours, rival, f);
    let written = match log::create_new(&path, &proof) {
        // Received again: a proof of the same equivocation, written the first time (its two
        // records perhaps the other way round).
        Err(_) if proves(&path, f, ours) => Ok(()),
        done => done,
    };
    Some(match written {
        Ok(()) => format!(
            "a proof of it is in {}, for an arbiter: `correspond check-proof {}` checks it",
            correspond::text::path(&path),
            correspond::text::path(&path)
        ),
        Err(e) => format!(
            "no proof written: {}: {e} (give another path with --proof)",
            correspond::text::path(&path)
        ),
    })
}

/// Writes the other version of the game (to --proof, or next to the game file, not as `.yaml`
/// so that `verify` does not count it as a game) and says where.
fn write_rival(rival: &[u8], f: &fork::Fork, args: &Args) -> String {
    let path = args.proof.clone().unwrap_or_else(|| {
        let stem = args
            .file
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy());
        args.file
            .with_file_name(format!("{stem}.rival-{}.copy", f.document))
    });
    let written = match log::create_new(&path, rival) {
        Err(_) if log::read_limited(&path).is_ok_and(|held| held == rival) => Ok(()),
        done => done,
    };
    let shown = correspond::text::path(&path);
    match written {
        Ok(()) => format!(
            "the other version is in {shown}: `correspond compare {} {}` sets the two side by \
             side",
            correspond::text::shell_word(&correspond::text::path(&args.file).to_string()),
            correspond::text::shell_word(&shown.to_string())
        ),
        Err(e) => format!(
            "the other version was not written: {shown}: {e} (give another path with --proof)"
        ),
    }
}

/// Whether the file at `path` is already a proof that the fork's signer signed two records at
/// its place in this game.
fn proves(path: &Path, f: &fork::Fork, ours: &[u8]) -> bool {
    let (Ok(bytes), Ok(file)) = (log::read_limited(path), GameFile::parse(ours)) else {
        return false;
    };
    fork::check_proof(&bytes).is_ok_and(|proof| {
        proof.game_id == file.game_id()
            && proof.record == f.document
            && proof.signer == f.records[0].0
    })
}

/// What was received and passed over: blocks of other games, and records that cannot be taken,
/// each with what to do (settle a crossing, hand an arbiter the proof of an equivocation).
fn passed_over(
    path: &Path,
    received: &Received,
    args: &Args,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if received.other_games > 0 {
        let n = received.other_games;
        let blocks = if n == 1 { "block" } else { "blocks" };
        writeln!(out, "passed over {n} {blocks} of other games")?;
    }
    let mut proved = Vec::new();
    for passed in &received.passed_over {
        let shown = correspond::text::escape(&passed.to_string()).into_owned();
        writeln!(out, "passed over {shown}")?;
        if let Some(fork) = crossed(&passed.error) {
            writeln!(out, "  {}", settle_hint(fork, path))?;
        }
        if let MailError::Fork { fork, .. } = &*passed.error {
            // One proof a record is enough for an arbiter.
            if fork.equivocation && proved.contains(&fork.document) {
                continue;
            }
            proved.push(fork.document);
        }
        if let Some(said) = write_evidence(&passed.error, args) {
            writeln!(out, "  {said}")?;
        }
    }
    // A message given on its own that was refused while the others were taken (exit code 1).
    for refused in &received.refused {
        let shown = correspond::text::escape(&refused.to_string()).into_owned();
        writeln!(out, "refused {shown}")?;
        for passed in &refused.passed_over {
            let shown = correspond::text::escape(&passed.to_string()).into_owned();
            writeln!(out, "  also passed over: {shown}")?;
        }
        if let Some(advice) = advice(&refused.error) {
            writeln!(out, "  {advice}")?;
        }
    }
    Ok(())
}

/// Says what arrived; returns the commit message, if anything did.
fn report<G: CliGame>(
    path: &Path,
    received: &Received,
    args: &Args,
    out: &mut Out<'_>,
) -> Result<Option<String>, CliError> {
    let file = &received.file;
    // Received files verify; were this one not to, that is said, not panicked on.
    let replay = replay::replay::<G>(file)?;
    let skipped = |out: &mut Out<'_>| passed_over(path, received, args, out);
    if received.added.is_empty() {
        let shown = correspond::text::path(path);
        let last = file.documents() - 1;
        if received.passed_over.is_empty() && received.refused.is_empty() {
            writeln!(
                out,
                "nothing new: {shown} already holds every record received (records 0 to {last})"
            )?;
        } else {
            // Passed over is received too: not "every record received".
            writeln!(
                out,
                "nothing taken: {shown} holds records 0 to {last}; what was received and not \
                 taken:"
            )?;
        }
        skipped(out)?;
        return Ok(None);
    }
    for step in &replay.steps[received.added.clone()] {
        writeln!(
            out,
            "{}",
            crate::cli::shared::recap::step_line(&replay, step)
        )?;
    }
    skipped(out)?;
    if received.added.start == 0 {
        // A new game's keys come from the challenge itself: the fingerprints are for checking
        // them with the other player by another channel.
        let players: Vec<String> = file
            .header()
            .players
            .iter()
            .zip(&replay.seats)
            .map(|(p, seat)| format!("{seat} {}", correspond::sign::fingerprint(&p.key)))
            .collect();
        writeln!(out, "players: {}", players.join(", "))?;
    }
    let phase = &replay.last().phase;
    match replay.verdict() {
        Some(verdict) => writeln!(out, "result: {}", verdict.describe(&replay.seats))?,
        None => writeln!(out, "now: {}", phase.describe(&replay.seats))?,
    }
    if let Some(next) = crate::cli::shared::next::next_step(
        phase,
        &replay.seats,
        &correspond::text::path(path).to_string(),
    ) {
        writeln!(out, "next: {next}")?;
    }
    let (first, last) = (received.added.start, received.added.end - 1);
    let what = if first == 0 {
        format!("new game, {}", replay.matchup())
    } else {
        crate::cli::shared::recap::document_headline(file, &replay, last)
    };
    let records = if first == last {
        format!("record {last}")
    } else {
        format!("records {first}-{last}")
    };
    Ok(Some(format!(
        "{}, {what} ({records}, received by mail)",
        G::NAME
    )))
}
