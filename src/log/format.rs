//! The documents of a game file: their typed form, how they are read from YAML, and the one way
//! each is written.
//!
//! Reading goes through a YAML parser into loose `Raw*` structs, then into validated types. The
//! writer here is the only definition of a document's bytes: a file is accepted only if every
//! document is exactly what the writer produces for its content, so two readers can never see
//! different content in the same bytes (no comments, anchors, tags, flow style, alternative
//! quoting or number spellings, duplicate or unknown keys).

use super::kind::Field;
pub use super::kind::{
    Action, Adjudged, Adjudication, AdjudicationReason, Conditional, Disclosure, Kind, Reveal,
    Settlement,
};
pub use super::names::{MAX_COMMENT, clean_comment, name_from_pgn, valid_comment, valid_name};
use super::names::{check_signature_text, valid_word};
use super::tags::{check_tags, tag_lines};
use super::time_control::{RawTimeControl, TimeControl, leave_line};
pub use super::timestamp::Timestamp;
use crate::digest::Digest;
use crate::text::shown;
use serde::Deserialize;
use ssh_key::PublicKey;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The format version this program reads and writes.
pub const FORMAT: &str = "correspond/1";

/// One of the two players, as the header lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The name records use to say who signed them.
    pub name: String,
    /// The side the player takes (game-specific: `heads`, `tails`, ...) or `toss`.
    pub side: String,
    /// The player's SSH public key (Ed25519).
    pub key: PublicKey,
}

/// The arbiter a header may name, whom the opponent agrees to by accepting: the only one who
/// may sign an `adjudicate` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arbiter {
    /// The name the arbiter's records use.
    pub name: String,
    /// The arbiter's SSH public key (Ed25519).
    pub key: PublicKey,
}

/// The first document: what game, between whom, on what terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name, for example `campaign`.
    pub game: String,
    /// Variant options, by name.
    pub options: BTreeMap<String, bool>,
    /// The creator (who signs the header) first, then the opponent.
    pub players: [Player; 2],
    /// When the game was created (informational).
    pub created: Timestamp,
    /// 32 random bytes chosen by the creator, so that two games never share a header, and so
    /// never a game id: without it, two games made on the same terms in the same second would
    /// be one game to the hash chain, and an honest player's moves in both would read as two
    /// records signed at one place.
    pub salt: Digest,
    /// The creator's commitment for the opening coin flip, when the game starts with one.
    pub commitment: Option<Digest>,
    /// The time each player has; `None`: no clock.
    pub time_control: Option<TimeControl>,
    /// The days of leave each player may take under the time control (0: none).
    pub leave_days: u32,
    /// The arbiter, if the game has one.
    pub arbiter: Option<Arbiter>,
    /// PGN tags (`Event`, `Site`, `Round`, ...), kept for PGN export; empty for none.
    pub tags: BTreeMap<String, String>,
}

/// Every document after the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 1 for the first record, then one more each time.
    pub seq: u64,
    /// The SHA-256 digest of the whole previous document (the game id for record 1).
    pub prev: Digest,
    /// The name of the player who signed it.
    pub signer: String,
    /// What it does.
    pub action: Action,
    /// When it was signed (informational).
    pub time: Timestamp,
    /// What the signer says with it, if anything (see [`valid_comment`]).
    pub comment: Option<String>,
}

/// The comment lines a file starts with, made from its header.
#[must_use]
pub fn preamble(header: &Header) -> String {
    let [a, b] = &header.players;
    format!(
        "# correspond game file: {game}, {} ({}) v {} ({}).\n\
         # Each document is signed by the player it names, with an SSH key (namespace \"correspond\").\n\
         # Check the whole game: correspond verify FILE. Check one record with OpenSSH: correspond extract --help\n",
        a.name,
        a.side,
        b.name,
        b.side,
        game = header.game,
    )
}

/// A public key as every document writes it: `ssh-ed25519 <base64>`, without comment.
pub(crate) fn key_text(key: &PublicKey) -> String {
    let mut key = key.clone();
    key.set_comment("");
    key.to_openssh()
        .expect("an Ed25519 public key always has an OpenSSH encoding")
}

/// The header document without its signature line: exactly the bytes the creator signs.
#[must_use]
pub fn header_unsigned(header: &Header) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "format: {FORMAT}");
    let _ = writeln!(out, "game: {}", header.game);
    if header.options.is_empty() {
        out.push_str("options: {}\n");
    } else {
        out.push_str("options:\n");
        for (name, on) in &header.options {
            let _ = writeln!(out, "  {name}: {on}");
        }
    }
    if let Some(control) = header.time_control {
        out.push_str("time-control:\n");
        out.push_str(&control.lines());
        out.push_str(&leave_line(header.leave_days));
    }
    out.push_str("players:\n");
    for p in &header.players {
        let _ = writeln!(out, "- name: \"{}\"", p.name);
        let _ = writeln!(out, "  side: {}", p.side);
        let _ = writeln!(out, "  key: {}", key_text(&p.key));
    }
    if let Some(arbiter) = &header.arbiter {
        out.push_str("arbiter:\n");
        let _ = writeln!(out, "  name: \"{}\"", arbiter.name);
        let _ = writeln!(out, "  key: {}", key_text(&arbiter.key));
    }
    out.push_str(&tag_lines(&header.tags));
    let _ = writeln!(out, "created: \"{}\"", header.created.as_str());
    let _ = writeln!(out, "salt: {}", header.salt);
    if let Some(c) = header.commitment {
        let _ = writeln!(out, "commitment: {c}");
    }
    out
}

/// A record document without its signature line: exactly the bytes its signer signs.
#[must_use]
pub fn record_unsigned(record: &Record) -> String {
    // Pieces pushed rather than formatted: every record read is written again to be compared.
    let mut out = String::with_capacity(320);
    out.push_str("---\n");
    let (seq, prev) = (record.seq.to_string(), record.prev.to_string());
    let carried = match &record.action {
        Action::Accept { nonce: Some(n) } | Action::FlipNonce(n) | Action::FlipReveal(n) => {
            Some(("nonce", n.to_string()))
        }
        Action::FlipCommit(c) | Action::HiddenConditional(c) => Some(("commitment", c.to_string())),
        Action::Move(m) | Action::Applied(m) => Some(("move", m.clone())),
        Action::Reveal(r) => Some(("move", r.mv.clone())),
        Action::Disclose(d) => Some(("seed", d.seed.to_string())),
        Action::Claim(_, reason) => Some(("claim", reason.clone())),
        Action::Leave(days) => Some(("days", days.to_string())),
        Action::Accept { nonce: None }
        | Action::Defer
        | Action::Resign
        | Action::Offer(_)
        | Action::AcceptOffer(_)
        | Action::ClaimTimeout
        | Action::Adjudicate(_)
        | Action::Conditional(_)
        | Action::Withdraw => None,
    };
    let lines = match &record.action {
        Action::Conditional(c) | Action::Disclose(Disclosure { lines: c, .. }) => Some(c),
        _ => None,
    };
    field(&mut out, "seq", &seq, false);
    field(&mut out, "prev", &prev, false);
    field(&mut out, "signer", &record.signer, true);
    field(&mut out, "kind", record.action.kind().name(), false);
    if let Some((name, value)) = &carried {
        field(&mut out, name, value, false);
    }
    if let Action::Adjudicate(a) = &record.action {
        field(&mut out, "result", a.result.name(), false);
        field(&mut out, "reason", a.reason.name(), false);
    }
    if let Action::Reveal(r) = &record.action {
        field(&mut out, "salt", &r.salt.to_string(), false);
        list(&mut out, "proof", r.proof.iter().map(Digest::to_string));
    }
    if let Some(c) = lines {
        list(&mut out, "lines", c.texts().into_iter());
    }
    if let Some(comment) = &record.comment {
        field(&mut out, "comment", comment, true);
    }
    field(&mut out, "time", record.time.as_str(), true);
    out
}

/// A list of quoted texts, one item to a line.
fn list(out: &mut String, name: &str, items: impl Iterator<Item = String>) {
    out.push_str(name);
    out.push_str(":\n");
    for item in items {
        out.push_str("- \"");
        out.push_str(&item);
        out.push_str("\"\n");
    }
}

/// One `name: value` line of a record, the value in double quotes when `quoted`.
fn field(out: &mut String, name: &str, value: &str, quoted: bool) {
    out.push_str(name);
    out.push_str(": ");
    if quoted {
        out.push('"');
    }
    out.push_str(value);
    if quoted {
        out.push('"');
    }
    out.push('\n');
}

/// The signature line that ends every document.
#[must_use]
pub fn signature_line(signature_base64: &str) -> String {
    format!("signature: {signature_base64}\n")
}

/// The line that holds a document's commitment starts with this; the flip's binding is the
/// digest of the document's bytes before it.
pub const COMMITMENT_PREFIX: &str = "commitment: ";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    pub(super) format: String,
    pub(super) game: String,
    pub(super) options: BTreeMap<String, bool>,
    #[serde(rename = "time-control", default)]
    pub(super) time_control: Option<RawTimeControl>,
    pub(super) players: Vec<RawPlayer>,
    #[serde(default)]
    pub(super) arbiter: Option<RawArbiter>,
    #[serde(default)]
    pub(super) tags: Option<BTreeMap<String, String>>,
    pub(super) created: String,
    pub(super) salt: String,
    #[serde(default)]
    pub(super) commitment: Option<String>,
    pub(super) signature: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    pub(super) name: String,
    pub(super) side: String,
    pub(super) key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArbiter {
    pub(super) name: String,
    pub(super) key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRecord {
    pub(super) seq: u64,
    pub(super) prev: String,
    pub(super) signer: String,
    pub(super) kind: String,
    #[serde(default, rename = "move")]
    pub(super) mv: Option<String>,
    #[serde(default)]
    pub(super) nonce: Option<String>,
    #[serde(default)]
    pub(super) commitment: Option<String>,
    #[serde(default)]
    pub(super) claim: Option<String>,
    #[serde(default)]
    pub(super) days: Option<u32>,
    #[serde(default)]
    pub(super) result: Option<String>,
    #[serde(default)]
    pub(super) reason: Option<String>,
    #[serde(default)]
    pub(super) lines: Option<Vec<String>>,
    #[serde(default)]
    pub(super) salt: Option<String>,
    #[serde(default)]
    pub(super) proof: Option<Vec<String>>,
    #[serde(default)]
    pub(super) seed: Option<String>,
    #[serde(default)]
    pub(super) comment: Option<String>,
    pub(super) time: String,
    pub(super) signature: String,
}

fn digest(field: &str, text: &str) -> Result<Digest, String> {
    Digest::parse(text).ok_or_else(|| format!("`{field}` must be 64 lower-case hex digits"))
}

fn timestamp(field: &str, text: &str) -> Result<Timestamp, String> {
    Timestamp::parse(text)
        .ok_or_else(|| format!("`{field}` must be a UTC time written like 2026-01-31T18:05:00Z"))
}

impl RawHeader {
    pub(super) fn validate(self) -> Result<Header, String> {
        if self.format != FORMAT {
            return Err(format!(
                "this file is in format `{}`; this program reads `{FORMAT}`",
                shown(&self.format)
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
        let players: Vec<Player> = self
            .players
            .into_iter()
            .map(RawPlayer::validate)
            .collect::<Result<_, _>>()?;
        let Ok(players) = <[Player; 2]>::try_from(players) else {
            return Err("`players` must list exactly two players".into());
        };
        if players[0].name == players[1].name {
            return Err("the two players must have different names".into());
        }
        if players[0].key.key_data() == players[1].key.key_data() {
            return Err("the two players must have different keys".into());
        }
        let arbiter = self.arbiter.map(RawArbiter::validate).transpose()?;
        if let Some(arbiter) = &arbiter {
            if players.iter().any(|p| p.name == arbiter.name) {
                return Err("the arbiter's name must differ from the players'".into());
            }
            if players
                .iter()
                .any(|p| p.key.key_data() == arbiter.key.key_data())
            {
                return Err("the arbiter's key must differ from the players'".into());
            }
        }
        check_signature_text(&self.signature)?;
        let tags = self.tags.unwrap_or_default();
        check_tags(&tags)?;
        let (time_control, leave_days) = match self.time_control.map(RawTimeControl::validate) {
            Some(terms) => {
                let (control, leave) = terms?;
                (Some(control), leave)
            }
            None => (None, 0),
        };
        Ok(Header {
            game: self.game,
            options: self.options,
            players,
            created: timestamp("created", &self.created)?,
            salt: digest("salt", &self.salt)?,
            commitment: self
                .commitment
                .map(|c| digest("commitment", &c))
                .transpose()?,
            time_control,
            leave_days,
            arbiter,
            tags,
        })
    }
}

impl RawArbiter {
    fn validate(self) -> Result<Arbiter, String> {
        // Checked as a player's name and key are.
        let player = RawPlayer {
            name: self.name,
            side: "arbiter".to_owned(),
            key: self.key,
        }
        .validate()?;
        Ok(Arbiter {
            name: player.name,
            key: player.key,
        })
    }
}

impl RawPlayer {
    fn validate(self) -> Result<Player, String> {
        if !valid_name(&self.name) {
            return Err(format!(
                "`{}` is not a valid player name (1-40 letters, digits, spaces, . _ - ' @)",
                shown(&self.name)
            ));
        }
        if !valid_word(&self.side) {
            return Err(format!("`{}` is not a side", shown(&self.side)));
        }
        let key = crate::sign::public_key(&self.key).map_err(|e| match e {
            crate::sign::SignError::NotEd25519(_, kind) => format!(
                "the key of {} is {kind}; game files use Ed25519 keys, whose signatures are \
                 deterministic",
                shown(&self.name)
            ),
            e => format!(
                "the key of {} is not an OpenSSH public key: {e}",
                shown(&self.name)
            ),
        })?;
        Ok(Player {
            name: self.name,
            side: self.side,
            key,
        })
    }
}

impl RawRecord {
    pub(super) fn validate(mut self) -> Result<Record, String> {
        let kind = self.kind_checked()?;
        let action = self.take_action(kind)?;
        if !valid_name(&self.signer) {
            return Err(format!(
                "`{}` is not a valid player name",
                shown(&self.signer)
            ));
        }
        check_signature_text(&self.signature)?;
        if kind == Kind::Applied && self.comment.is_some() {
            return Err(
                "an `applied` record carries no comment: its bytes are the file's, whoever \
                 appends it"
                    .into(),
            );
        }
        if kind == Kind::Disclose && self.comment.is_some() {
            return Err(
                "a `disclose` record carries no comment: the words go with the record after it"
                    .into(),
            );
        }
        if let Some(comment) = self.comment.as_deref().filter(|c| !valid_comment(c)) {
            return Err(format!(
                "`{}` is not a comment: 1 to {MAX_COMMENT} characters on one line, with no \
                 control character, `\"`, `\\`, `{{` or `}}`, and no space at either end",
                shown(comment)
            ));
        }
        Ok(Record {
            seq: self.seq,
            prev: digest("prev", &self.prev)?,
            signer: self.signer,
            action,
            time: timestamp("time", &self.time)?,
            comment: self.comment,
        })
    }

    /// The record's kind, which must be one of the kinds, with no field that another kind
    /// carries.
    fn kind_checked(&self) -> Result<Kind, String> {
        let Some(kind) = Kind::named(&self.kind) else {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            return Err(format!(
                "`{}` is not a record kind ({})",
                shown(&self.kind),
                names.join(", ")
            ));
        };
        let fields = [
            (Field::Move, "move", self.mv.is_some()),
            (Field::Nonce, "nonce", self.nonce.is_some()),
            (Field::Commitment, "commitment", self.commitment.is_some()),
            (Field::Claim, "claim", self.claim.is_some()),
            (Field::Days, "days", self.days.is_some()),
            (Field::Adjudication, "result", self.result.is_some()),
            (Field::Adjudication, "reason", self.reason.is_some()),
            (Field::Lines, "lines", self.lines.is_some()),
            (Field::Salt, "salt", self.salt.is_some()),
            (Field::Proof, "proof", self.proof.is_some()),
            (Field::Seed, "seed", self.seed.is_some()),
        ];
        let carried = kind.fields();
        if let Some((_, name, _)) = fields.iter().find(|(field, _, present)| {
            // An acceptance's nonce is optional: only games with a toss have one.
            *present && !carried.contains(field)
        }) {
            return Err(format!(
                "a record of kind `{kind}` must not have a `{name}` field"
            ));
        }
        Ok(kind)
    }
}

mod action;

#[cfg(test)]
mod tests;
