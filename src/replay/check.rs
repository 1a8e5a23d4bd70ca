//! What makes a record part of its file, before its meaning: its signer, signature, number and
//! `prev` digest. These depend only on the file and the header's keys, not on the game's state,
//! so they are checked ahead of the replay on other threads while the replay runs in order on
//! this one; the replay then reads each record's verdict as it comes to it. The first defect
//! is the same however the work was shared: each verdict is a function of its record alone,
//! and the replay meets them in file order.

use super::{ErrorKind, ReplayError, Seat, Signatory, signatory_named};
use crate::log::GameFile;
use crate::sign::{self, SignError, Verifier};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Below this many records, other threads cost more to start than they save.
const PARALLEL_FROM: usize = 32;

/// The players' keys and the arbiter's, each made ready once per game to check its many
/// signatures.
#[derive(Clone, Debug)]
pub(super) struct Keys {
    players: [Verifier; 2],
    arbiter: Option<Verifier>,
}

impl Keys {
    /// The keys of `file`'s header.
    pub(super) fn of(file: &GameFile) -> Keys {
        let header = file.header();
        Keys {
            players: header.players.each_ref().map(|p| Verifier::new(&p.key)),
            arbiter: header.arbiter.as_ref().map(|a| Verifier::new(&a.key)),
        }
    }

    /// Checks record `document`'s signer, signature, number and `prev` (see
    /// [`super::check_record`]).
    pub(super) fn check_record(
        &self,
        file: &GameFile,
        document: usize,
    ) -> Result<Signatory, ReplayError> {
        self.check(file, document, true)
    }

    /// [`Keys::check_record`], the signature left out when it is vouched for (see
    /// [`super::Replayer::advance_vouched`]).
    fn check(
        &self,
        file: &GameFile,
        document: usize,
        signed: bool,
    ) -> Result<Signatory, ReplayError> {
        let record = &file.records()[document - 1];
        let fail = |kind| defect(file, document, kind);
        let signer = signatory_named(file, &record.signer)
            .ok_or_else(|| fail(ErrorKind::UnknownSigner(record.signer.clone())))?;
        if signed {
            self.check_signature(file, document, signer)?;
        }
        let expected = document as u64;
        if record.seq != expected {
            return Err(fail(if record.seq < expected {
                ErrorKind::Repeated {
                    expected,
                    found: record.seq,
                }
            } else {
                ErrorKind::Gap {
                    expected,
                    found: record.seq,
                }
            }));
        }
        let previous = file.digest(document - 1);
        if record.prev != previous {
            return Err(fail(ErrorKind::BrokenChain {
                expected: previous,
                found: record.prev,
            }));
        }
        // Under a time control a time is its signer's word, and the order of the times is the
        // file's (written with fixed widths, the text's order is time's). Without one, times
        // are only said, and games made before time controls existed, by players whose clocks
        // disagreed, stay valid.
        let before = match document {
            1 => &file.header().created,
            _ => &file.records()[document - 2].time,
        };
        if file.header().time_control.is_some() && record.time < *before {
            return Err(fail(ErrorKind::TimeBackwards {
                before: before.clone(),
                found: record.time.clone(),
            }));
        }
        Ok(signer)
    }

    /// Checks document `document`'s signature against the key of `signer`.
    pub(super) fn check_signature(
        &self,
        file: &GameFile,
        document: usize,
        signer: Signatory,
    ) -> Result<(), ReplayError> {
        let verifier = match signer {
            Signatory::Player(seat) => &self.players[seat.index()],
            Signatory::Arbiter => self
                .arbiter
                .as_ref()
                .expect("a record names the arbiter only when the header has one"),
        };
        verifier
            .verify(file.signed_bytes(document), file.signature(document))
            .map_err(|e| defect(file, document, not_signed_by(file, signer, e)))
    }
}

/// A defect of document `document` of `file`, placed at its `---` line.
fn defect(file: &GameFile, document: usize, kind: ErrorKind) -> ReplayError {
    ReplayError {
        document: Some(document),
        line: file.line(document),
        kind,
    }
}

/// Why a signature is not `signer`'s, in words: when it is another key the header names, whose.
fn not_signed_by(file: &GameFile, signer: Signatory, e: SignError) -> ErrorKind {
    let SignError::OtherKey(fingerprint) = e else {
        return ErrorKind::BadSignature(e.to_string());
    };
    let header = file.header();
    // Everyone the header names, with their keys: the signer's, then the others.
    let mut named: Vec<(Signatory, &str, &ssh_key::PublicKey)> = header
        .players
        .iter()
        .zip(Seat::BOTH)
        .map(|(p, seat)| (Signatory::Player(seat), p.name.as_str(), &p.key))
        .chain(
            header
                .arbiter
                .iter()
                .map(|a| (Signatory::Arbiter, a.name.as_str(), &a.key)),
        )
        .collect();
    named.sort_by_key(|(who, _, _)| *who != signer);
    let name = named[0].1;
    match named[1..]
        .iter()
        .find(|(_, _, key)| sign::fingerprint(key) == fingerprint)
    {
        Some((_, actual, _)) => ErrorKind::WrongSigner {
            named: name.to_owned(),
            actual: (*actual).to_owned(),
        },
        None => ErrorKind::BadSignature(format!(
            "made with the key {fingerprint}, which is not {name}'s"
        )),
    }
}

/// The records of a file from `first` on, checked ahead by helper threads: each verdict, once
/// some thread has reached it.
pub(super) struct Ahead<'a> {
    keys: &'a Keys,
    file: &'a GameFile,
    first: usize,
    /// The documents before this one are vouched for: their signatures are not checked.
    vouched: usize,
    verdicts: Vec<OnceLock<Result<Signatory, ReplayError>>>,
    next: AtomicUsize,
    stop: AtomicBool,
    /// A thread panicked while checking a record: its verdict will never come.
    panicked: AtomicBool,
}

impl<'a> Ahead<'a> {
    /// Work for the records of `file` from document `first` on, the signatures of those before
    /// document `vouched` left out.
    pub(super) fn new(
        keys: &'a Keys,
        file: &'a GameFile,
        first: usize,
        vouched: usize,
    ) -> Ahead<'a> {
        Ahead {
            keys,
            file,
            first,
            vouched,
            verdicts: (first..file.documents()).map(|_| OnceLock::new()).collect(),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
        }
    }

    /// How many helper threads are worth starting, besides the replaying one, when `threads`
    /// may run.
    pub(super) fn helpers(&self, threads: usize) -> usize {
        let signed = self
            .file
            .documents()
            .saturating_sub(self.first.max(self.vouched));
        if signed < PARALLEL_FROM {
            0
        } else {
            threads.saturating_sub(1)
        }
    }

    /// Takes the next unclaimed record and checks it; `false` when none is left.
    fn work_one(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        let Some(slot) = self.verdicts.get(i) else {
            return false;
        };
        let document = self.first + i;
        let check = || {
            self.keys
                .check(self.file, document, document >= self.vouched)
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)) {
            Ok(verdict) => {
                let _ = slot.set(verdict);
            }
            Err(panic) => {
                // Said before the panic goes on, so that the replay does not wait for ever.
                self.panicked.store(true, Ordering::Relaxed);
                std::panic::resume_unwind(panic);
            }
        }
        true
    }

    /// What a helper thread does: check records until none is left or the replay has stopped.
    pub(super) fn help(&self) {
        while self.work_one() {}
    }

    /// Record `document`'s verdict: checked here if no thread has taken it yet, and while
    /// another thread checks it, later records are checked here. If a helper panicked, the
    /// record is checked here again, so that the panic comes here too rather than a wait.
    pub(super) fn verdict(&self, document: usize) -> Result<Signatory, ReplayError> {
        let slot = &self.verdicts[document - self.first];
        loop {
            if let Some(verdict) = slot.get() {
                return verdict.clone();
            }
            if self.panicked.load(Ordering::Relaxed) {
                return self
                    .keys
                    .check(self.file, document, document >= self.vouched);
            }
            if !self.work_one() {
                std::thread::yield_now();
            }
        }
    }

    /// Tells the helpers to stop: the replay has ended, at its end or at a defect.
    pub(super) fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
