//! The referee's lock: pushes are judged one at a time, each against the repository as it will
//! be when its branches are updated. git runs the `pre-receive` hooks of pushes that arrive
//! together side by side, each judging refs that the other has not updated yet; so the hook
//! takes this lock before it judges, and leaves it, held by the push's `git receive-pack`
//! process, with the index updates the push brings, until git has made or given up each branch
//! update (the `reference-transaction` hook says so), or that process has ended.
//!
//! The lock is a file, `correspond-referee/holder`, naming the receive-pack process that holds
//! it (its process id and start time, so that a reused id is not taken for it). Reading and
//! writing it is guarded by an advisory lock on `correspond-referee/latch`, held for a moment
//! at a time, which the system releases when its process ends, however it ends. A holder whose
//! process is gone (killed, crashed) holds nothing: the next push takes the lock, after taking
//! into the index what the gone push's updates that git made brought. Linux's `/proc` tells
//! which process is which; without it, a holder is believed alive, so that a push killed
//! between its judgement and its updates holds the lock until the wait of each push after it
//! runs out (see docs/referee.md).

use super::CliError;
use crate::cli::Out;
use correspond::referee::{Index, Taken};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A `git receive-pack` process: the push a hook runs for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Push {
    pid: u32,
    /// Its start time, in clock ticks after boot (0: unknown).
    start: u64,
}

impl Push {
    /// The push this hook runs for: the nearest ancestor process that is `git receive-pack`,
    /// else the hook's parent, since git runs its hooks itself (`None`: neither can be read).
    pub(super) fn this() -> Option<Push> {
        let parent = std::os::unix::process::parent_id();
        if !Path::new("/proc/self/stat").exists() {
            return Some(Push {
                pid: parent,
                start: 0,
            });
        }
        let mut pid = parent;
        for _ in 0..16 {
            let Some((next, start, _)) = stat(pid) else {
                break;
            };
            if receive_pack(pid) {
                return Some(Push { pid, start });
            }
            pid = next;
            if pid <= 1 {
                break;
            }
        }
        stat(parent).map(|(_, start, _)| Push { pid: parent, start })
    }

    /// This process, for a hook run by hand: it holds the lock only while it runs.
    pub(super) fn me() -> Push {
        let pid = std::process::id();
        Push {
            pid,
            start: stat(pid).map_or(0, |(_, start, _)| start),
        }
    }

    /// Whether its process still runs (believed when the system cannot tell).
    fn alive(&self) -> bool {
        if !Path::new("/proc/self/stat").exists() {
            return true;
        }
        // A process that has ended but whose parent has not yet reaped it is gone too.
        stat(self.pid).is_some_and(|(_, start, zombie)| start == self.start && !zombie)
    }

    fn write(&self) -> String {
        format!("holder {} {}\n", self.pid, self.start)
    }

    fn read(line: &str) -> Option<Push> {
        let mut words = line.strip_prefix("holder ")?.split(' ');
        let push = Push {
            pid: words.next()?.parse().ok()?,
            start: words.next()?.parse().ok()?,
        };
        words.next().is_none().then_some(push)
    }
}

impl std::fmt::Display for Push {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "git receive-pack, process {}", self.pid)
    }
}

/// A process's parent, start time, and whether it has ended unreaped (a zombie), from
/// `/proc/PID/stat` (`None`: no such process, or no `/proc`). The name in brackets may hold
/// anything, so fields are counted after its end.
fn stat(pid: u32) -> Option<(u32, u64, bool)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = text.get(text.rfind(')')? + 1..)?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 3 (the state), 4 (the parent) and 22 (the start time) of proc(5).
    Some((
        fields.get(1)?.parse().ok()?,
        fields.get(19)?.parse().ok()?,
        *fields.first()? == "Z",
    ))
}

/// Whether a process runs `git receive-pack` (as `git-receive-pack`, or `git receive-pack`).
fn receive_pack(pid: u32) -> bool {
    let Ok(line) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let mut args = line.split(|&b| b == 0);
    let program = args.next().unwrap_or_default();
    let name = program.rsplit(|&b| b == b'/').next().unwrap_or_default();
    // `git -c name=value receive-pack` too, as some servers start it.
    name == b"git-receive-pack" || (name == b"git" && args.any(|a| a == b"receive-pack"))
}

/// The holder's file: who holds the lock, and the branch updates the index is to take.
struct Held {
    holder: Option<Push>,
    pending: Vec<Taken>,
}

/// The latch: an advisory lock on a file, held while the holder's file is read and written.
struct Latch {
    file: std::fs::File,
    holder: PathBuf,
}

impl Latch {
    fn take(index: &Index) -> Result<Latch, CliError> {
        let dir = index.dir();
        std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, &e))?;
        let path = dir.join("latch");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| CliError::io(&path, &e))?;
        file.lock().map_err(|e| CliError::io(&path, &e))?;
        Ok(Latch {
            file,
            holder: dir.join("holder"),
        })
    }

    fn read(&self) -> Result<Held, CliError> {
        let mut text = String::new();
        match std::fs::File::open(&self.holder) {
            Ok(mut file) => {
                file.read_to_string(&mut text)
                    .map_err(|e| CliError::io(&self.holder, &e))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(CliError::io(&self.holder, &e)),
        }
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        // A file cut short or damaged holds nothing: the index is checked against the branches
        // before every judgement, so what it lost is taken again from them.
        Ok(Held {
            holder: Push::read(first),
            pending: Taken::read_all(rest).unwrap_or_default(),
        })
    }

    fn write(&self, held: &Held) -> Result<(), CliError> {
        let text = match held.holder {
            Some(push) => push.write() + &Taken::write_all(&held.pending),
            None => String::new(),
        };
        let folder = self.holder.parent().unwrap_or(Path::new("."));
        let io = |e: std::io::Error| CliError::io(&self.holder, &e);
        let mut file = tempfile::NamedTempFile::new_in(folder).map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.as_file().sync_all().map_err(io)?;
        file.persist(&self.holder).map_err(|e| io(e.error))?;
        Ok(())
    }
}

impl Drop for Latch {
    fn drop(&mut self) {
        let _ = self.file.rewind();
        let _ = self.file.unlock();
    }
}

/// The lock, held by this push until [`Lock::keep`] leaves it to git's updates, or released
/// when dropped (a push refused, or cut short by an error).
pub(super) struct Lock<'a> {
    index: &'a Index,
    push: Push,
    kept: bool,
}

/// Takes the lock for `push`, waiting up to `wait` for another push that holds it, and saying
/// so after half a second. What a holder that is gone left pending is taken into the index
/// where git made its update (`made(branch, commit)`: whether the branch is at that commit).
///
/// # Errors
/// [`CliError::rejected`] when the wait runs out; an I/O error of the lock's files.
pub(super) fn take<'a>(
    index: &'a Index,
    push: Push,
    wait: Duration,
    made: &dyn Fn(&[u8], Option<&str>) -> bool,
    out: &mut Out<'_>,
) -> Result<Lock<'a>, CliError> {
    let started = Instant::now();
    let mut said = false;
    loop {
        let latch = Latch::take(index)?;
        let held = latch.read()?;
        let other = held.holder.filter(|h| *h != push && h.alive());
        let Some(other) = other else {
            if held.holder.is_some_and(|h| h != push) {
                for taken in held
                    .pending
                    .iter()
                    .filter(|t| made(&t.branch, t.new.as_deref()))
                {
                    // An index that cannot take it is out of step with the branches, and is
                    // built again from them before anything is judged.
                    if index.take(taken).is_err() {
                        break;
                    }
                }
            }
            latch.write(&Held {
                holder: Some(push),
                pending: Vec::new(),
            })?;
            if said {
                writeln!(
                    out,
                    "correspond referee: the other push is done after {:.1} s; judging this one",
                    started.elapsed().as_secs_f64()
                )?;
            }
            return Ok(Lock {
                index,
                push,
                kept: false,
            });
        };
        drop(latch);
        let waited = started.elapsed();
        if waited >= wait {
            return Err(CliError::rejected(format!(
                "another push to this repository ({other}) has been judged or landing for {} \
                 s, longer than the referee waits: nothing was changed",
                wait.as_secs()
            ))
            .hint("push again in a while; if it stays, that process has hung: its ending frees the referee"));
        }
        if !said && waited >= Duration::from_millis(500) {
            said = true;
            writeln!(
                out,
                "correspond referee: waiting for another push to this repository ({other}) to \
                 be judged and land, up to {} s",
                wait.as_secs()
            )?;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl Lock<'_> {
    /// Leaves the lock held by this push, with the branch updates its index is to take as git
    /// makes them (see [`settle`]).
    ///
    /// # Errors
    /// When the holder's file cannot be written (the lock is then released).
    pub(super) fn keep(mut self, pending: Vec<Taken>) -> Result<(), CliError> {
        let latch = Latch::take(self.index)?;
        latch.write(&Held {
            holder: Some(self.push),
            pending,
        })?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for Lock<'_> {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        if let Ok(latch) = Latch::take(self.index)
            && let Ok(held) = latch.read()
            && held.holder == Some(self.push)
        {
            let _ = latch.write(&Held {
                holder: None,
                pending: Vec::new(),
            });
        }
    }
}

/// What git says through the `reference-transaction` hook of `push` about its updates
/// (`OLD NEW REFERENCE` each).
pub(super) enum Stage {
    /// The updates are about to be made.
    Prepared,
    /// The updates were made: the index takes them.
    Committed,
    /// The updates were given up.
    Aborted,
}

/// Settles a stage of `push`'s updates: the branch updates that were made are taken into the
/// index, and once none is left pending, the lock is released. An update is never stopped
/// here: git ends a push whose `reference-transaction` hook refuses by dying, which leaves a
/// client over HTTP waiting for ever; refusing is the `pre-receive` hook's work.
///
/// # Errors
/// When the lock's files or the index cannot be read or written.
pub(super) fn settle(
    index: &Index,
    push: Push,
    stage: &Stage,
    updates: &[(Option<String>, Option<String>, Vec<u8>)],
) -> Result<(), CliError> {
    let branches: Vec<_> = updates
        .iter()
        .filter(|(_, _, name)| name.starts_with(b"refs/heads/"))
        .collect();
    if branches.is_empty() {
        return Ok(());
    }
    if matches!(stage, Stage::Prepared) {
        return Ok(());
    }
    let latch = Latch::take(index)?;
    let mut held = latch.read()?;
    if held.holder != Some(push) {
        return Ok(());
    }
    let mut left = Vec::new();
    for taken in std::mem::take(&mut held.pending) {
        // git says `aborted` with no old value before it deletes a branch: only the update
        // itself, from its old value, settles it.
        let settled = branches.iter().any(|(old, new, name)| {
            *name == taken.branch
                && *new == taken.new
                && (matches!(stage, Stage::Committed) || *old == taken.old)
        });
        if !settled {
            left.push(taken);
        } else if matches!(stage, Stage::Committed) {
            index
                .take(&taken)
                .map_err(|e| CliError::usage(e.to_string()))?;
        }
    }
    held.pending = left;
    if held.pending.is_empty() {
        held.holder = None;
    }
    latch.write(&held)
}
