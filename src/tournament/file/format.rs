//! The documents of a tournament file: their typed form, how they are read from YAML, and the
//! one way each is written (the same rule as a game file's: a document is accepted only if it
//! is, byte for byte, what this writer makes of its content).

pub use super::values::{
    Decision, Engine, MAX_SWISS_ROUNDS, System, TIE_BREAKS, WithdrawalRule, tie_break_name,
    tie_break_named,
};
use crate::digest::Digest;
use crate::log::{
    Arbiter, RawTimeControl, TimeControl, Timestamp, check_signature_text, check_tags, key_text,
    leave_line, tag_lines, valid_name, valid_tag_value, valid_word,
};
use crate::text::shown;
use crate::tournament::crosstable::TieBreak;
use serde::Deserialize;
use ssh_key::PublicKey;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The format this program reads and writes.
pub const TOURNAMENT_FORMAT: &str = "correspond-tournament/1";

/// The longest event name: a PGN `Event` tag a crosstable's title line still holds.
pub const MAX_EVENT_NAME: usize = 80;

/// The first document: the event's terms, signed by its director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentHeader {
    /// The event's name, its games' PGN `Event` tag.
    pub event: String,
    /// The game played, as a game file's header names it.
    pub game: String,
    /// Its variant options, every one the game has.
    pub options: BTreeMap<String, bool>,
    /// How the players meet.
    pub system: System,
    /// A Swiss event's number of rounds (none for a round robin, whose players fix it).
    pub rounds: Option<u32>,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// Every player's days of leave in each game (0: none).
    pub leave_days: u32,
    /// Whether the event's games are rated.
    pub rated: bool,
    /// The tie-breaks after points, in order; a lot drawn with the numbers comes last.
    pub tie_breaks: Vec<TieBreak>,
    /// What a withdrawal does.
    pub withdrawals: WithdrawalRule,
    /// The tournament director: the arbiter of every game, who signs this header.
    pub director: Arbiter,
    /// More PGN tags for every game (`Site`, ...).
    pub tags: BTreeMap<String, String>,
    /// When the event was announced (informational).
    pub created: Timestamp,
    /// 32 random bytes, so that two events never share an id.
    pub salt: Digest,
}

/// What a record of a tournament file does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A player enters, accepting the header's terms with their own signature, and commits
    /// to their part of the lot.
    Enter {
        /// The player's key, which signs this record and their games.
        key: PublicKey,
        /// Their commitment to a nonce for the lot.
        commitment: Digest,
    },
    /// The director closes the entries and commits to their own part of the lot.
    Close {
        /// The director's commitment.
        commitment: Digest,
    },
    /// A party to the lot reveals their nonce.
    Reveal {
        /// The nonce.
        nonce: Digest,
    },
    /// A player withdraws: before the entries close, from the event; after the lot, from play.
    Withdraw,
    /// The director decides what a withdrawal does to the player's games.
    Decide {
        /// The player who withdrew.
        player: String,
        /// The decision.
        decision: Decision,
    },
    /// The director pairs a Swiss round by a pairing program's output.
    Pair(Box<SwissPairing>),
}

/// A Swiss round's pairing as the director signs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPairing {
    /// The round, from 1.
    pub round: u32,
    /// The program that paired it.
    pub engine: Engine,
    /// The version it says it is.
    pub version: String,
    /// The SHA-256 digest of the report file it was given: the event's results before this
    /// round, which anyone can make again from the files.
    pub input: Digest,
    /// The games, board by board: the players' numbers, White first.
    pub games: Vec<(usize, usize)>,
    /// The player with the pairing-allocated bye, if one.
    pub bye: Option<usize>,
}

impl Action {
    /// The `kind` a record of this action has.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Enter { .. } => "enter",
            Action::Close { .. } => "close",
            Action::Reveal { .. } => "reveal",
            Action::Withdraw => "withdraw",
            Action::Decide { .. } => "decide",
            Action::Pair(_) => "pair",
        }
    }
}

/// Every document after the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 1 for the first record, then one more each time.
    pub seq: u64,
    /// The SHA-256 digest of the whole previous document (the event id for record 1).
    pub prev: Digest,
    /// The name of who signed it: an entrant, or the director.
    pub signer: String,
    /// What it does.
    pub action: Action,
    /// When it was signed, as its signer says.
    pub time: Timestamp,
}

/// The comment lines a tournament file starts with, made from its header.
#[must_use]
pub fn preamble(header: &TournamentHeader) -> String {
    format!(
        "# correspond tournament file: {}, {}, {}, directed by {}.\n\
         # Each document is signed by the player or director it names, with an SSH key (namespace \"correspond\").\n\
         # Check the event and its games: correspond verify FOLDER. Its crosstable: correspond tournament standings FOLDER\n",
        header.event, header.game, header.system, header.director.name,
    )
}

/// The header without its signature line: exactly the bytes the director signs.
#[must_use]
pub fn header_unsigned(h: &TournamentHeader) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "format: {TOURNAMENT_FORMAT}");
    let _ = writeln!(out, "event: \"{}\"", h.event);
    let _ = writeln!(out, "game: {}", h.game);
    if h.options.is_empty() {
        out.push_str("options: {}\n");
    } else {
        out.push_str("options:\n");
        for (name, on) in &h.options {
            let _ = writeln!(out, "  {name}: {on}");
        }
    }
    let _ = writeln!(out, "system: {}", h.system);
    if let Some(rounds) = h.rounds {
        let _ = writeln!(out, "rounds: {rounds}");
    }
    out.push_str("time-control:\n");
    out.push_str(&h.time_control.lines());
    out.push_str(&leave_line(h.leave_days));
    let _ = writeln!(out, "rated: {}", h.rated);
    if h.tie_breaks.is_empty() {
        out.push_str("tie-breaks: []\n");
    } else {
        out.push_str("tie-breaks:\n");
        for tb in &h.tie_breaks {
            let _ = writeln!(out, "- {}", tie_break_name(*tb));
        }
    }
    let _ = writeln!(out, "withdrawals: {}", h.withdrawals);
    out.push_str("director:\n");
    let _ = writeln!(out, "  name: \"{}\"", h.director.name);
    let _ = writeln!(out, "  key: {}", key_text(&h.director.key));
    out.push_str(&tag_lines(&h.tags));
    let _ = writeln!(out, "created: \"{}\"", h.created.as_str());
    let _ = writeln!(out, "salt: {}", h.salt);
    out
}

/// A record without its signature line: exactly the bytes its signer signs.
#[must_use]
pub fn record_unsigned(r: &Record) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "seq: {}", r.seq);
    let _ = writeln!(out, "prev: {}", r.prev);
    let _ = writeln!(out, "signer: \"{}\"", r.signer);
    let _ = writeln!(out, "kind: {}", r.action.kind());
    match &r.action {
        Action::Enter { key, commitment } => {
            let _ = writeln!(out, "key: {}", key_text(key));
            let _ = writeln!(out, "commitment: {commitment}");
        }
        Action::Close { commitment } => {
            let _ = writeln!(out, "commitment: {commitment}");
        }
        Action::Reveal { nonce } => {
            let _ = writeln!(out, "nonce: {nonce}");
        }
        Action::Withdraw => {}
        Action::Decide { player, decision } => {
            let _ = writeln!(out, "player: \"{player}\"");
            let _ = writeln!(out, "decision: {decision}");
        }
        Action::Pair(p) => {
            let _ = writeln!(out, "round: {}", p.round);
            let _ = writeln!(out, "engine: {}", p.engine);
            let _ = writeln!(out, "version: \"{}\"", p.version);
            let _ = writeln!(out, "input: {}", p.input);
            if p.games.is_empty() {
                out.push_str("games: []\n");
            } else {
                out.push_str("games:\n");
                for (white, black) in &p.games {
                    let _ = writeln!(out, "- [{white}, {black}]");
                }
            }
            if let Some(bye) = p.bye {
                let _ = writeln!(out, "bye: {bye}");
            }
        }
    }
    let _ = writeln!(out, "time: \"{}\"", r.time.as_str());
    out
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    format: String,
    event: String,
    game: String,
    options: BTreeMap<String, bool>,
    system: String,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(rename = "time-control")]
    time_control: RawTimeControl,
    rated: bool,
    #[serde(rename = "tie-breaks")]
    tie_breaks: Vec<String>,
    withdrawals: String,
    director: RawDirector,
    #[serde(default)]
    tags: Option<BTreeMap<String, String>>,
    created: String,
    salt: String,
    pub(super) signature: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDirector {
    name: String,
    key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRecord {
    seq: u64,
    prev: String,
    signer: String,
    kind: String,
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    commitment: Option<String>,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    decision: Option<String>,
    #[serde(default)]
    round: Option<u32>,
    #[serde(default)]
    engine: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    games: Option<Vec<Vec<usize>>>,
    #[serde(default)]
    bye: Option<usize>,
    time: String,
    pub(super) signature: String,
}

fn digest(field: &str, text: &str) -> Result<Digest, String> {
    Digest::parse(text).ok_or_else(|| format!("`{field}` must be 64 lower-case hex digits"))
}

fn timestamp(field: &str, text: &str) -> Result<Timestamp, String> {
    Timestamp::parse(text)
        .ok_or_else(|| format!("`{field}` must be a UTC time written like 2026-01-31T18:05:00Z"))
}

fn name(field: &str, text: &str) -> Result<String, String> {
    if valid_name(text) {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "`{field}`: `{}` is not a valid name (1-40 letters, digits, spaces, . _ - ' @)",
            shown(text)
        ))
    }
}

/// Whether `text` can be an event's name: a PGN tag value of at most [`MAX_EVENT_NAME`]
/// characters.
#[must_use]
pub fn valid_event_name(text: &str) -> bool {
    !text.is_empty() && text.chars().count() <= MAX_EVENT_NAME && valid_tag_value(text)
}

impl RawHeader {
    pub(super) fn validate(self) -> Result<TournamentHeader, String> {
        if self.format != TOURNAMENT_FORMAT {
            return Err(format!(
                "this file is in format `{}`; this program reads `{TOURNAMENT_FORMAT}`",
                shown(&self.format)
            ));
        }
        if !valid_event_name(&self.event) {
            return Err(format!(
                "`event` must be 1 to {MAX_EVENT_NAME} characters a PGN tag holds (no \", \\ or \
                 control character, no space at either end), not `{}`",
                shown(&self.event)
            ));
        }
        if !valid_word(&self.game) {
            return Err(format!(
                "`game` is not a game name: `{}`",
                shown(&self.game)
            ));
        }
        if let Some(bad) = self.options.keys().find(|k| !valid_word(k)) {
            return Err(format!("`{}` is not an option name", shown(bad)));
        }
        let system = System::named(&self.system).ok_or_else(|| {
            format!(
                "`system` is {}, not `{}`",
                System::names_in_words(),
                shown(&self.system)
            )
        })?;
        let rounds = match (system, self.rounds) {
            (System::Swiss, Some(n)) if (1..=MAX_SWISS_ROUNDS).contains(&n) => Some(n),
            (System::Swiss, Some(n)) => {
                return Err(format!("`rounds` is 1 to {MAX_SWISS_ROUNDS}, not {n}"));
            }
            (System::Swiss, None) => {
                return Err("a Swiss event needs `rounds`: how many it plays".into());
            }
            (_, Some(_)) => {
                return Err(format!(
                    "a {system} has no `rounds` field: its players fix its rounds"
                ));
            }
            (_, None) => None,
        };
        let (time_control, leave_days) = self.time_control.validate()?;
        let mut tie_breaks = Vec::new();
        for tb in &self.tie_breaks {
            let tb = tie_break_named(tb).ok_or_else(|| {
                let names: Vec<&str> = TIE_BREAKS.iter().map(|t| tie_break_name(*t)).collect();
                format!(
                    "`{}` is not a tie-break: the tie-breaks are {}",
                    shown(tb),
                    names.join(", ")
                )
            })?;
            if tie_breaks.contains(&tb) {
                return Err(format!(
                    "the tie-break {} is listed twice",
                    tie_break_name(tb)
                ));
            }
            tie_breaks.push(tb);
        }
        let withdrawals = WithdrawalRule::named(&self.withdrawals).ok_or_else(|| {
            format!(
                "`withdrawals` is {}, not `{}`",
                WithdrawalRule::names_in_words(),
                shown(&self.withdrawals)
            )
        })?;
        let director = Arbiter {
            name: name("director", &self.director.name)?,
            key: crate::log::signed_file::ed25519_key(&self.director.name, &self.director.key)?,
        };
        let tags = self.tags.unwrap_or_default();
        check_tags(&tags)?;
        check_signature_text(&self.signature)?;
        Ok(TournamentHeader {
            event: self.event,
            game: self.game,
            options: self.options,
            system,
            rounds,
            time_control,
            leave_days,
            rated: self.rated,
            tie_breaks,
            withdrawals,
            director,
            tags,
            created: timestamp("created", &self.created)?,
            salt: digest("salt", &self.salt)?,
        })
    }
}

impl RawRecord {
    pub(super) fn validate(self) -> Result<Record, String> {
        check_signature_text(&self.signature)?;
        let signer = name("signer", &self.signer)?;
        let unexpected =
            |field: &str| format!("a `{}` record has no `{field}` field", shown(&self.kind));
        let need = |field: &str, value: &Option<String>| -> Result<String, String> {
            value
                .clone()
                .ok_or_else(|| format!("a `{}` record needs a `{field}` field", shown(&self.kind)))
        };
        let fields = [
            ("key", self.key.is_some()),
            ("commitment", self.commitment.is_some()),
            ("nonce", self.nonce.is_some()),
            ("player", self.player.is_some()),
            ("decision", self.decision.is_some()),
            ("round", self.round.is_some()),
            ("engine", self.engine.is_some()),
            ("version", self.version.is_some()),
            ("input", self.input.is_some()),
            ("games", self.games.is_some()),
            ("bye", self.bye.is_some()),
        ];
        let (action, carries): (Action, &[&str]) = match self.kind.as_str() {
            "enter" => (
                Action::Enter {
                    key: crate::log::signed_file::ed25519_key(&signer, &need("key", &self.key)?)?,
                    commitment: digest("commitment", &need("commitment", &self.commitment)?)?,
                },
                &["key", "commitment"],
            ),
            "close" => (
                Action::Close {
                    commitment: digest("commitment", &need("commitment", &self.commitment)?)?,
                },
                &["commitment"],
            ),
            "reveal" => (
                Action::Reveal {
                    nonce: digest("nonce", &need("nonce", &self.nonce)?)?,
                },
                &["nonce"],
            ),
            "withdraw" => (Action::Withdraw, &[]),
            "decide" => {
                let decision = need("decision", &self.decision)?;
                (
                    Action::Decide {
                        player: name("player", &need("player", &self.player)?)?,
                        decision: Decision::named(&decision).ok_or_else(|| {
                            format!(
                                "`decision` is {}, not `{}`",
                                Decision::names_in_words(),
                                shown(&decision)
                            )
                        })?,
                    },
                    &["player", "decision"],
                )
            }
            "pair" => (
                Action::Pair(Box::new(self.pairing()?)),
                &["round", "engine", "version", "input", "games", "bye"],
            ),
            other => {
                return Err(format!(
                    "`{}` is not a kind of tournament record: enter, close, reveal, withdraw, \
                     decide or pair",
                    shown(other)
                ));
            }
        };
        if let Some((field, _)) = fields
            .iter()
            .find(|(field, present)| *present && !carries.contains(field))
        {
            return Err(unexpected(field));
        }
        Ok(Record {
            seq: self.seq,
            prev: digest("prev", &self.prev)?,
            signer,
            action,
            time: timestamp("time", &self.time)?,
        })
    }

    /// A `pair` record's fields, each in its form (whom they pair is the event's to check).
    fn pairing(&self) -> Result<SwissPairing, String> {
        let need = |field: &str, present: bool| {
            if present {
                Ok(())
            } else {
                Err(format!("a `pair` record needs a `{field}` field"))
            }
        };
        need("round", self.round.is_some())?;
        need("engine", self.engine.is_some())?;
        need("version", self.version.is_some())?;
        need("input", self.input.is_some())?;
        need("games", self.games.is_some())?;
        let engine = self.engine.clone().unwrap_or_default();
        let engine = Engine::named(&engine).ok_or_else(|| {
            format!(
                "`engine` is {}, not `{}`",
                Engine::names_in_words(),
                shown(&engine)
            )
        })?;
        let version = self.version.clone().unwrap_or_default();
        if !valid_version(&version) {
            return Err(format!(
                "`version` must be 1 to {MAX_VERSION} characters a PGN tag holds, not `{}`",
                shown(&version)
            ));
        }
        let mut games = Vec::new();
        for pair in self.games.iter().flatten() {
            match pair.as_slice() {
                &[white, black] if white > 0 && black > 0 => games.push((white, black)),
                _ => {
                    return Err(
                        "each of `games` is two players' numbers, White's first: `- [3, 1]`".into(),
                    );
                }
            }
        }
        if self.bye == Some(0) {
            return Err("`bye` is a player's number, from 1".into());
        }
        Ok(SwissPairing {
            round: self.round.unwrap_or_default(),
            engine,
            version,
            input: digest("input", self.input.as_deref().unwrap_or_default())?,
            games,
            bye: self.bye,
        })
    }
}

/// The longest version a `pair` record names.
pub const MAX_VERSION: usize = 120;

/// Whether `text` can be a pairing program's version as a `pair` record writes it.
#[must_use]
pub fn valid_version(text: &str) -> bool {
    !text.is_empty() && text.chars().count() <= MAX_VERSION && valid_tag_value(text)
}
