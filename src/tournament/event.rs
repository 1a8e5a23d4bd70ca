//! A tournament file checked: every signature, the hash chain, and the order of its records
//! (entries before the lot closes, every party's reveal, withdrawals, the director's
//! decisions), giving the [`Event`]: its entrants, and once every nonce is revealed, their
//! numbers, pairings and the lot after the tie-breaks. Nothing is read from a record before its
//! signature and place in the chain are checked.

use crate::digest::Digest;
use crate::games::GameKind;
use crate::log::{LogErrorKind, Timestamp};
use crate::sign::fingerprint;
use crate::text::shown;
use crate::tournament::berger::{self, Schedule};
use crate::tournament::file::{
    Action, Decision, Record, SwissPairing, System, TournamentFile, TournamentHeader,
};
use crate::tournament::lot::{self, Party};
use ssh_key::PublicKey;

/// A player entered in the event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The name their records and games use.
    pub name: String,
    /// Their key.
    pub key: PublicKey,
    /// Its fingerprint.
    pub fingerprint: String,
    /// Their commitment to the lot.
    pub commitment: Digest,
    /// Their nonce, once revealed.
    pub nonce: Option<Digest>,
    /// The document and time of their withdrawal from play, if they withdrew after the lot.
    pub withdrawn: Option<(usize, Timestamp)>,
    /// The director's decision on it: what, in which document, when.
    pub decision: Option<(Decision, usize, Timestamp)>,
}

/// The event as its tournament file stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The event id: the digest of the header.
    pub id: Digest,
    /// Its terms.
    pub header: TournamentHeader,
    /// The game its terms name.
    pub kind: GameKind,
    /// The entrants, in the order they entered (those who withdrew before the entries closed
    /// left out).
    pub entrants: Vec<Entrant>,
    /// The director's commitment, once the entries are closed.
    pub director_commitment: Option<Digest>,
    /// The director's nonce, once revealed.
    pub director_nonce: Option<Digest>,
    /// Once every nonce is revealed: the entrant (an index into `entrants`) of each number, the
    /// first number 1.
    pub numbers: Option<Vec<usize>>,
    /// Once every nonce is revealed: the entrants in the order of the lot after the
    /// tie-breaks.
    pub tie_break_lot: Option<Vec<usize>>,
    /// Once every nonce is revealed: the rounds, each its games (numbers, first side first);
    /// a Swiss event's, as its `pair` records have paired them so far.
    pub schedule: Option<Schedule>,
    /// A Swiss event's paired rounds, in order.
    pub swiss: Vec<PairedRound>,
    /// How many documents the file holds.
    pub documents: usize,
}

/// A Swiss round as the director paired it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRound {
    /// The `pair` record's document.
    pub document: usize,
    /// Its first line in the file.
    pub line: usize,
    /// What it says.
    pub pairing: SwissPairing,
}

/// Why a tournament file is not a valid event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {kind}", crate::log::place(*document, *line))]
pub struct EventError {
    /// The document at fault (0: the header), if the fault lies in one.
    pub document: Option<usize>,
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub kind: EventErrorKind,
}

/// The ways a tournament file can be wrong, one per way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EventErrorKind {
    /// Not a well-formed tournament file.
    #[error("unreadable: {0}")]
    Unparseable(LogErrorKind),
    /// The header's terms are not valid.
    #[error("invalid header: {0}")]
    Header(String),
    /// A signature that is not the signer's over these bytes.
    #[error("bad signature: {0}")]
    BadSignature(String),
    /// A record out of number.
    #[error("this record is numbered {found}; it must be {expected}")]
    Seq {
        /// The number it must have.
        expected: u64,
        /// The number it has.
        found: u64,
    },
    /// A record that does not follow the document before it.
    #[error(
        "`prev` is not the digest of the document before this one: it was moved, or something before it changed"
    )]
    Chain,
    /// A record dated before the document it follows.
    #[error("this record is dated {0}, before the document it follows")]
    TimeBefore(String),
    /// A record by someone the event does not know.
    #[error("`{0}` is neither an entrant nor the director")]
    Stranger(String),
    /// A record only the director may sign, signed by someone else.
    #[error("only the director signs a `{0}` record")]
    NotDirector(&'static str),
    /// A record the director may not sign.
    #[error("the director does not sign a `{0}` record: a director plays no game of the event")]
    ByDirector(&'static str),
    /// An entry after the entries closed.
    #[error(
        "the entries closed before this record: nobody enters after the lot's commitments are fixed"
    )]
    Closed,
    /// An entry under a name or key already entered.
    #[error("{0}")]
    Taken(String),
    /// A second close, or a close with too few or too many entrants.
    #[error("{0}")]
    Close(String),
    /// A reveal out of place or not matching its commitment.
    #[error("{0}")]
    Reveal(String),
    /// A withdrawal out of place.
    #[error("{0}")]
    Withdraw(String),
    /// A decision out of place or one the event's rule does not allow.
    #[error("{0}")]
    Decide(String),
    /// A Swiss round's pairing out of place, or one that breaks the Swiss system's absolute
    /// rules this file can hold it to (everyone present paired once, the bye only when the
    /// count is odd, no second bye).
    #[error("{0}")]
    Pair(String),
}

impl From<crate::log::LogError> for EventError {
    /// A tournament file that is not well formed.
    fn from(e: crate::log::LogError) -> EventError {
        EventError {
            document: e.document,
            line: e.line,
            kind: EventErrorKind::Unparseable(e.kind),
        }
    }
}

impl Event {
    /// Checks a tournament file's bytes and reads the event from them.
    ///
    /// # Errors
    /// The first defect, naming its document and line.
    pub fn check(bytes: &[u8]) -> Result<Event, EventError> {
        Event::of(&TournamentFile::parse(bytes)?)
    }

    /// Checks a parsed tournament file.
    ///
    /// # Errors
    /// The first defect, naming its document and line.
    pub fn of(file: &TournamentFile) -> Result<Event, EventError> {
        let header = file.header().clone();
        let at = |i: usize, kind| EventError {
            document: Some(i),
            line: file.line(i),
            kind,
        };
        crate::sign::verify(
            &header.director.key,
            file.signed_bytes(0),
            file.signature(0),
        )
        .map_err(|e| at(0, EventErrorKind::BadSignature(e.to_string())))?;
        let kind = terms(&header).map_err(|e| at(0, EventErrorKind::Header(e)))?;
        let mut event = Event {
            id: file.event_id(),
            header,
            kind,
            entrants: Vec::new(),
            director_commitment: None,
            director_nonce: None,
            numbers: None,
            tie_break_lot: None,
            schedule: None,
            swiss: Vec::new(),
            documents: file.documents(),
        };
        let mut time = event.header.created.clone();
        for (k, record) in file.records().iter().enumerate() {
            let i = k + 1;
            if record.seq != i as u64 {
                return Err(at(
                    i,
                    EventErrorKind::Seq {
                        expected: i as u64,
                        found: record.seq,
                    },
                ));
            }
            if record.prev != file.digest(i - 1) {
                return Err(at(i, EventErrorKind::Chain));
            }
            let key = event.signer_key(record).map_err(|kind| at(i, kind))?;
            crate::sign::verify(&key, file.signed_bytes(i), file.signature(i))
                .map_err(|e| at(i, EventErrorKind::BadSignature(e.to_string())))?;
            if record.time < time {
                return Err(at(
                    i,
                    EventErrorKind::TimeBefore(record.time.as_str().to_owned()),
                ));
            }
            time = record.time.clone();
            event
                .apply(i, file.line(i), record)
                .map_err(|kind| at(i, kind))?;
        }
        Ok(event)
    }

    /// The key that must have signed `record`: the director's, an entrant's, or for an entry
    /// the key it enters.
    fn signer_key(&self, record: &Record) -> Result<PublicKey, EventErrorKind> {
        if let Action::Enter { key, .. } = &record.action {
            return Ok(key.clone());
        }
        if record.signer == self.header.director.name {
            return Ok(self.header.director.key.clone());
        }
        self.entrant(&record.signer)
            .map(|e| self.entrants[e].key.clone())
            .ok_or_else(|| EventErrorKind::Stranger(shown(&record.signer)))
    }

    /// The index of the entrant named `name`.
    #[must_use]
    pub fn entrant(&self, name: &str) -> Option<usize> {
        self.entrants.iter().position(|e| e.name == name)
    }

    /// Whether the entries are closed.
    #[must_use]
    pub fn closed(&self) -> bool {
        self.director_commitment.is_some()
    }

    fn by_director(&self, record: &Record) -> bool {
        record.signer == self.header.director.name
    }

    /// Applies record `i` (at `line`), whose signature is checked.
    fn apply(&mut self, i: usize, line: usize, record: &Record) -> Result<(), EventErrorKind> {
        let kind = record.action.kind();
        let director = self.by_director(record);
        match &record.action {
            Action::Close { .. } | Action::Decide { .. } | Action::Pair(_) if !director => {
                Err(EventErrorKind::NotDirector(kind))
            }
            Action::Enter { .. } | Action::Withdraw if director => {
                Err(EventErrorKind::ByDirector(kind))
            }
            Action::Enter { key, commitment } => self.enter(record, key, *commitment),
            Action::Close { commitment } => self.close(*commitment),
            Action::Reveal { nonce } => self.reveal(record, *nonce),
            Action::Withdraw => self.withdraw(i, record),
            Action::Decide { player, decision } => self.decide(i, record, player, *decision),
            Action::Pair(pairing) => {
                crate::tournament::swiss::check_round(self, pairing, i)?;
                self.pair(i, line, pairing);
                Ok(())
            }
        }
    }

    fn enter(
        &mut self,
        record: &Record,
        key: &PublicKey,
        commitment: Digest,
    ) -> Result<(), EventErrorKind> {
        if self.closed() {
            return Err(EventErrorKind::Closed);
        }
        if key.key_data() == self.header.director.key.key_data() {
            return Err(EventErrorKind::Taken(
                "this key is the director's: a director plays no game of the event".into(),
            ));
        }
        if let Some(other) = self
            .entrants
            .iter()
            .find(|e| e.key.key_data() == key.key_data())
        {
            return Err(EventErrorKind::Taken(format!(
                "this key entered already, as {}",
                shown(&other.name)
            )));
        }
        if self.entrant(&record.signer).is_some() {
            return Err(EventErrorKind::Taken(format!(
                "the name {} is taken by another entrant",
                shown(&record.signer)
            )));
        }
        if self.entrants.len() >= berger::MAX_PLAYERS {
            return Err(EventErrorKind::Taken(format!(
                "the event is full: a section holds at most {} players",
                berger::MAX_PLAYERS
            )));
        }
        self.entrants.push(Entrant {
            name: record.signer.clone(),
            key: key.clone(),
            fingerprint: fingerprint(key),
            commitment,
            nonce: None,
            withdrawn: None,
            decision: None,
        });
        Ok(())
    }

    fn close(&mut self, commitment: Digest) -> Result<(), EventErrorKind> {
        if self.closed() {
            return Err(EventErrorKind::Close(
                "the entries are closed already".into(),
            ));
        }
        if self.entrants.len() < 2 {
            return Err(EventErrorKind::Close(format!(
                "the entries cannot close with {} entrant{}: an event needs at least 2",
                self.entrants.len(),
                if self.entrants.len() == 1 { "" } else { "s" }
            )));
        }
        if let Some(rounds) = self.header.rounds
            && self.entrants.len() <= rounds as usize
        {
            return Err(EventErrorKind::Close(format!(
                "the entries cannot close with {} entrants: a Swiss of {rounds} rounds needs \
                     at least {}, so that no two players need meet twice",
                self.entrants.len(),
                rounds + 1
            )));
        }
        self.director_commitment = Some(commitment);
        Ok(())
    }

    fn reveal(&mut self, record: &Record, nonce: Digest) -> Result<(), EventErrorKind> {
        let Some(director_commitment) = self.director_commitment else {
            return Err(EventErrorKind::Reveal(
                "a nonce is revealed only once the entries are closed: until then, a late \
                 entrant could choose their commitment knowing it"
                    .into(),
            ));
        };
        let (commitment, slot) = if self.by_director(record) {
            (director_commitment, &mut self.director_nonce)
        } else {
            let e = self
                .entrant(&record.signer)
                .expect("the signer was found when the signature was checked");
            let entrant = &mut self.entrants[e];
            (entrant.commitment, &mut entrant.nonce)
        };
        if slot.is_some() {
            return Err(EventErrorKind::Reveal(format!(
                "{} revealed their nonce already",
                shown(&record.signer)
            )));
        }
        if crate::flip::commitment(&self.id, &nonce) != commitment {
            return Err(EventErrorKind::Reveal(format!(
                "this nonce does not open the commitment {} made",
                shown(&record.signer)
            )));
        }
        *slot = Some(nonce);
        self.draw_when_revealed();
        Ok(())
    }

    /// Draws the numbers, the schedule and the tie-break lot once every party has revealed.
    fn draw_when_revealed(&mut self) {
        let (Some(commitment), Some(nonce)) = (self.director_commitment, self.director_nonce)
        else {
            return;
        };
        if self.entrants.iter().any(|e| e.nonce.is_none()) {
            return;
        }
        let digest_of = |key: &PublicKey| Digest::of(key_bytes(key).as_slice());
        let director = Party {
            key: digest_of(&self.header.director.key),
            commitment,
            nonce: Some(nonce),
        };
        let parties: Vec<Party> = self
            .entrants
            .iter()
            .map(|e| Party {
                key: digest_of(&e.key),
                commitment: e.commitment,
                nonce: e.nonce,
            })
            .collect();
        let index = |drawn: Vec<Digest>| -> Vec<usize> {
            drawn
                .iter()
                .filter_map(|d| parties.iter().position(|p| p.key == *d))
                .collect()
        };
        // Every nonce was checked against its commitment as it was revealed, and keys are
        // distinct: the lot cannot fail here.
        let numbers = lot::numbers(&self.id, &director, &parties).map(index);
        let tie = lot::tie_break_order(&self.id, &director, &parties).map(index);
        let schedule = match self.header.system {
            System::RoundRobin => berger::single(self.entrants.len()),
            System::DoubleRoundRobin => berger::double(self.entrants.len()),
            // Paired round by round, by the director's `pair` records.
            System::Swiss => Ok(Schedule { rounds: Vec::new() }),
        };
        if let (Ok(numbers), Ok(tie), Ok(schedule)) = (numbers, tie, schedule) {
            self.numbers = Some(numbers);
            self.tie_break_lot = Some(tie);
            self.schedule = Some(schedule);
        }
    }

    fn withdraw(&mut self, i: usize, record: &Record) -> Result<(), EventErrorKind> {
        let e = self
            .entrant(&record.signer)
            .expect("the signer was found when the signature was checked");
        if !self.closed() {
            // Before the entries close, a withdrawal takes the entry back.
            self.entrants.remove(e);
            return Ok(());
        }
        if self.numbers.is_none() {
            return Err(EventErrorKind::Withdraw(
                "a player cannot withdraw while the lot waits for nonces: the lot is drawn from \
                 every party's nonce, and withdrawing now would let a player stop a draw they \
                 dislike"
                    .into(),
            ));
        }
        let entrant = &mut self.entrants[e];
        if entrant.withdrawn.is_some() {
            return Err(EventErrorKind::Withdraw(format!(
                "{} withdrew already",
                shown(&record.signer)
            )));
        }
        entrant.withdrawn = Some((i, record.time.clone()));
        Ok(())
    }

    fn decide(
        &mut self,
        i: usize,
        record: &Record,
        player: &str,
        decision: Decision,
    ) -> Result<(), EventErrorKind> {
        let rule = self.header.withdrawals;
        let Some(e) = self.entrant(player) else {
            return Err(EventErrorKind::Decide(format!(
                "{} is not an entrant",
                shown(player)
            )));
        };
        if self.numbers.is_none() {
            return Err(EventErrorKind::Decide(
                "the director decides on a player's games once the lot has given them".into(),
            ));
        }
        let entrant = &mut self.entrants[e];
        if entrant.decision.is_some() {
            return Err(EventErrorKind::Decide(format!(
                "the director decided on {}'s games already",
                shown(player)
            )));
        }
        if entrant.withdrawn.is_none() {
            // A player who does not play (a game never accepted has no clock to run out) is
            // defaulted, whatever the rule for withdrawals.
            if decision != Decision::Default {
                return Err(EventErrorKind::Decide(format!(
                    "{} has not withdrawn: without a withdrawal the director can only default \
                     a player who does not play, not `{decision}`",
                    shown(player)
                )));
            }
        } else if !rule.allows(decision) {
            return Err(EventErrorKind::Decide(format!(
                "the event's rule for withdrawals is `{rule}`, which does not allow `{decision}`"
            )));
        }
        entrant.decision = Some((decision, i, record.time.clone()));
        Ok(())
    }

    /// What the event waits for, in words.
    #[must_use]
    pub fn stage(&self) -> String {
        if !self.closed() {
            return format!(
                "entries open ({} entered); the director closes them",
                self.entrants.len()
            );
        }
        if self.numbers.is_none() {
            let mut waiting: Vec<&str> = self
                .entrants
                .iter()
                .filter(|e| e.nonce.is_none())
                .map(|e| e.name.as_str())
                .collect();
            if self.director_nonce.is_none() {
                waiting.insert(0, &self.header.director.name);
            }
            return format!("the lot waits for the nonces of {}", waiting.join(", "));
        }
        if let Some(rounds) = self.header.rounds {
            let paired = self.swiss.len();
            return if paired == 0 {
                "the lot is drawn; the director pairs round 1".to_owned()
            } else if paired < rounds as usize {
                format!(
                    "round {paired} of {rounds} is paired; once its games are over, the director \
                     pairs round {}",
                    paired + 1
                )
            } else {
                format!("all {rounds} rounds are paired; the games are played")
            };
        }
        "the lot is drawn; the games are played".to_owned()
    }

    /// Adds a checked Swiss round to the schedule.
    fn pair(&mut self, i: usize, line: usize, pairing: &SwissPairing) {
        if let Some(schedule) = &mut self.schedule {
            schedule.rounds.push(pairing.games.clone());
        }
        self.swiss.push(PairedRound {
            document: i,
            line,
            pairing: pairing.clone(),
        });
    }

    /// The document of Swiss round `round`'s `pair` record, or, for a round not paired yet, the
    /// next document: where its pairing stands in the file.
    #[must_use]
    pub fn pairing_document(&self, round: usize) -> usize {
        self.swiss
            .get(round.wrapping_sub(1))
            .map_or(self.documents, |r| r.document)
    }

    /// The numbers of the players present for a pairing made in document `i`: every entrant
    /// but those who withdrew from play before it, or on whose games the director decided
    /// before it (a player defaulted for not playing is paired no more).
    #[must_use]
    pub fn present(&self, i: usize) -> Vec<usize> {
        let before = |at: Option<usize>| at.is_some_and(|d| d < i);
        let mut out: Vec<usize> = (0..self.entrants.len())
            .filter(|&e| {
                let entrant = &self.entrants[e];
                !before(entrant.withdrawn.as_ref().map(|w| w.0))
                    && !before(entrant.decision.as_ref().map(|d| d.1))
            })
            .filter_map(|e| self.number_of(e))
            .collect();
        out.sort_unstable();
        out
    }
}

/// A public key's wire bytes, whose digest names a party to the lot.
#[must_use]
pub fn key_bytes(key: &PublicKey) -> Vec<u8> {
    let mut key = key.clone();
    key.set_comment("");
    key.to_bytes().unwrap_or_default()
}

/// The game the terms name, once its options are checked and the tags fit every game's
/// header.
fn terms(header: &TournamentHeader) -> Result<GameKind, String> {
    let kind = GameKind::named(&header.game).ok_or_else(|| {
        format!(
            "unknown game `{}` (this program plays {})",
            shown(&header.game),
            GameKind::names_in_words()
        )
    })?;
    crate::with_game!(kind, G => {
        use crate::replay::Protocol as _;
        G::options_from(&header.options).map(|_| ())
    })?;
    crate::tournament::tags::check_tags(header, kind)?;
    Ok(kind)
}

#[cfg(test)]
mod tests;
