//! A club's rating rules: which system, its parameters, the rating periods, which games are
//! rated and a new player's rating, in one document signed by the club's key, read and written
//! by the game file's bytes rule (one spelling; src/log/signed_file.rs). Numbers are whole, in
//! stated units (τ in thousandths, a volatility in millionths), so that no decimal has two
//! spellings and the parameters are the same bits on every machine.

use super::glicko2::Rating;
use super::list::System;
use crate::digest::Digest;
use crate::games::GameKind;
use crate::log::signed_file::{self, SingleError};
use crate::log::{
    LogError, Timestamp, check_signature_text, key_text, signature_line, valid_tag_value,
};
use crate::text::shown;
use serde::Deserialize;
use ssh_key::PublicKey;
use std::fmt::Write as _;

/// The format this program reads and writes.
pub const RULES_FORMAT: &str = "correspond-rating-rules/1";

/// Which system a club rates by, with its own parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Glicko-2: τ in thousandths, a new player's deviation, and volatility in millionths.
    Glicko2 {
        /// τ × 1000.
        tau_thousandths: u32,
        /// A new player's rating deviation.
        deviation: u32,
        /// A new player's volatility × 1,000,000.
        volatility_millionths: u32,
    },
    /// FIDE-style Elo.
    Elo,
}

/// A club's rating rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The club's name.
    pub club: String,
    /// The club's key, which signs the rules and the lists.
    pub key: PublicKey,
    /// The game rated.
    pub game: GameKind,
    /// The system and its parameters.
    pub method: Method,
    /// A new player's rating.
    pub initial: u32,
    /// The length of a rating period, in days, counted from 1970-01-01 UTC.
    pub period_days: u32,
    /// Whether only games with a clock are rated.
    pub timed_only: bool,
    /// When the rules were signed.
    pub created: Timestamp,
}

impl Rules {
    /// The list system the rules make.
    #[must_use]
    pub fn system(&self) -> System {
        let period = i64::from(self.period_days) * 86_400;
        match self.method {
            Method::Glicko2 {
                tau_thousandths,
                deviation,
                volatility_millionths,
            } => System::Glicko2 {
                tau: f64::from(tau_thousandths) / 1000.0,
                initial: Rating {
                    rating: f64::from(self.initial),
                    deviation: f64::from(deviation),
                    volatility: f64::from(volatility_millionths) / 1_000_000.0,
                },
                period,
            },
            Method::Elo => System::Elo {
                initial: f64::from(self.initial),
                period,
            },
        }
    }
}

/// The comment lines a rules file starts with.
#[must_use]
pub fn preamble(rules: &Rules) -> String {
    format!(
        "# correspond rating rules: {}, {}.\n\
         # Signed by the club's key (namespace \"correspond\"). Its lists: correspond ratings --rules FILE PATH...\n",
        rules.club, rules.game
    )
}

/// The document without its signature line: exactly the bytes the club signs.
#[must_use]
pub fn unsigned(rules: &Rules) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "format: {RULES_FORMAT}");
    let _ = writeln!(out, "club: \"{}\"", rules.club);
    let _ = writeln!(out, "key: {}", key_text(&rules.key));
    let _ = writeln!(out, "game: {}", rules.game);
    match rules.method {
        Method::Glicko2 {
            tau_thousandths,
            deviation,
            volatility_millionths,
        } => {
            out.push_str("system: glicko2\n");
            let _ = writeln!(out, "tau-thousandths: {tau_thousandths}");
            let _ = writeln!(out, "initial-rating: {}", rules.initial);
            let _ = writeln!(out, "initial-deviation: {deviation}");
            let _ = writeln!(
                out,
                "initial-volatility-millionths: {volatility_millionths}"
            );
        }
        Method::Elo => {
            out.push_str("system: elo\n");
            let _ = writeln!(out, "initial-rating: {}", rules.initial);
        }
    }
    let _ = writeln!(out, "period-days: {}", rules.period_days);
    let _ = writeln!(out, "timed-only: {}", rules.timed_only);
    let _ = writeln!(out, "created: \"{}\"", rules.created.as_str());
    out
}

/// The whole file: comment lines, the document and its signature line.
#[must_use]
pub fn file_text(rules: &Rules, signature: &str) -> String {
    preamble(rules) + &unsigned(rules) + &signature_line(signature)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    format: String,
    club: String,
    key: String,
    game: String,
    system: String,
    #[serde(rename = "tau-thousandths", default)]
    tau_thousandths: Option<u32>,
    #[serde(rename = "initial-rating")]
    initial_rating: u32,
    #[serde(rename = "initial-deviation", default)]
    initial_deviation: Option<u32>,
    #[serde(rename = "initial-volatility-millionths", default)]
    initial_volatility_millionths: Option<u32>,
    #[serde(rename = "period-days")]
    period_days: u32,
    #[serde(rename = "timed-only")]
    timed_only: bool,
    created: String,
    signature: String,
}

/// Each number's bounds: (field, value, least, most).
fn within(field: &str, value: u32, least: u32, most: u32) -> Result<u32, String> {
    if (least..=most).contains(&value) {
        Ok(value)
    } else {
        Err(format!("`{field}` is {least} to {most}, not {value}"))
    }
}

impl Raw {
    fn validate(self) -> Result<Rules, String> {
        if self.format != RULES_FORMAT {
            return Err(format!(
                "this file is in format `{}`; this program reads `{RULES_FORMAT}`",
                shown(&self.format)
            ));
        }
        if self.club.is_empty() || self.club.chars().count() > 80 || !valid_tag_value(&self.club) {
            return Err(format!(
                "`club` must be 1 to 80 characters with no \", \\ or control character and no \
                 space at either end, not `{}`",
                shown(&self.club)
            ));
        }
        let key = signed_file::ed25519_key(&self.club, &self.key)?;
        let game = GameKind::named(&self.game).ok_or_else(|| {
            format!(
                "unknown game `{}` (this program plays {})",
                shown(&self.game),
                GameKind::names_in_words()
            )
        })?;
        let glicko = [
            ("tau-thousandths", self.tau_thousandths),
            ("initial-deviation", self.initial_deviation),
            (
                "initial-volatility-millionths",
                self.initial_volatility_millionths,
            ),
        ];
        let method = match self.system.as_str() {
            "glicko2" => {
                let need = |(field, value): (&str, Option<u32>)| {
                    value.ok_or_else(|| format!("a glicko2 system needs `{field}`"))
                };
                Method::Glicko2 {
                    tau_thousandths: within("tau-thousandths", need(glicko[0])?, 1, 3000)?,
                    deviation: within("initial-deviation", need(glicko[1])?, 1, 1000)?,
                    volatility_millionths: within(
                        "initial-volatility-millionths",
                        need(glicko[2])?,
                        1,
                        1_000_000,
                    )?,
                }
            }
            "elo" => {
                if let Some((field, _)) = glicko.iter().find(|(_, v)| v.is_some()) {
                    return Err(format!("an elo system has no `{field}`"));
                }
                Method::Elo
            }
            other => {
                return Err(format!(
                    "`system` is glicko2 or elo, not `{}`",
                    shown(other)
                ));
            }
        };
        check_signature_text(&self.signature)?;
        Ok(Rules {
            club: self.club,
            key,
            game,
            method,
            initial: within("initial-rating", self.initial_rating, 100, 4000)?,
            period_days: within("period-days", self.period_days, 1, 3650)?,
            timed_only: self.timed_only,
            created: Timestamp::parse(&self.created).ok_or_else(|| {
                "`created` must be a UTC time written like 2026-01-31T18:05:00Z".to_owned()
            })?,
        })
    }
}

/// Why a rules file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Not a well-formed rules file.
    #[error("{0}")]
    Form(#[from] LogError),
    /// More than the one document.
    #[error("a rules file holds one document, not {0}")]
    Documents(usize),
    /// The club's signature does not hold.
    #[error("bad signature: {0}")]
    Signature(String),
}

/// A rules file read and its signature checked: the rules, and the digest of its document,
/// which a published list names.
///
/// # Errors
/// What is wrong, at its line.
pub fn read(bytes: &[u8]) -> Result<(Rules, Digest), RulesError> {
    let read = signed_file::read_single(
        bytes,
        |raw: Raw| {
            let signature = raw.signature.clone();
            raw.validate().map(|rules| (rules, signature))
        },
        unsigned,
        preamble,
    )
    .map_err(|e| match e {
        SingleError::Form(e) => RulesError::Form(e),
        SingleError::Documents(n) => RulesError::Documents(n),
    })?;
    crate::sign::verify(&read.value.key, read.signed, &read.signature)
        .map_err(|e| RulesError::Signature(e.to_string()))?;
    Ok((read.value, Digest::of(read.document.as_bytes())))
}
