//! A published rating list: one document signed by the club's key, naming the rules it was made
//! under (their digest), its parameters, every game it rated (their ids in the canonical order)
//! and every player's rating as its exact IEEE 754 bits, so that anyone holding the games can
//! make the list again and compare it to the bit ([`differences`]). Read and written by the game
//! file's bytes rule (one spelling).

use super::list::{Entry, List};
use super::rules::Rules;
use crate::digest::Digest;
use crate::log::signed_file::{self, SingleError};
use crate::log::{LogError, Timestamp, check_signature_text, signature_line};
use crate::text::shown;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The format this program reads and writes.
pub const LIST_FORMAT: &str = "correspond-rating-list/1";

/// A list as published.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    /// The club's name.
    pub club: String,
    /// The digest of the rules document it was made under.
    pub rules: Digest,
    /// The list: its entries, and the digests of its games and parameters.
    pub list: List,
    /// The ids of the games it rated, in the canonical order.
    pub games: Vec<Digest>,
    /// When it was signed.
    pub created: Timestamp,
}

/// The comment lines a list file starts with.
#[must_use]
pub fn preamble(published: &Published) -> String {
    format!(
        "# correspond rating list: {}, {} games, {} players.\n\
         # Signed by the club's key (namespace \"correspond\"). Check it: correspond ratings --check FILE --rules RULES PATH...\n",
        published.club,
        published.games.len(),
        published.list.entries.len()
    )
}

/// The document without its signature line.
#[must_use]
pub fn unsigned(p: &Published) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "format: {LIST_FORMAT}");
    let _ = writeln!(out, "club: \"{}\"", p.club);
    let _ = writeln!(out, "rules: {}", p.rules);
    let _ = writeln!(out, "parameters: {}", p.list.parameters);
    let _ = writeln!(out, "games-digest: {}", p.list.inputs);
    if p.games.is_empty() {
        out.push_str("games: []\n");
    } else {
        out.push_str("games:\n");
        for id in &p.games {
            let _ = writeln!(out, "- {id}");
        }
    }
    if p.list.entries.is_empty() {
        out.push_str("players: []\n");
    } else {
        out.push_str("players:\n");
        for e in &p.list.entries {
            let _ = writeln!(out, "- key: {}", e.key);
            // Quoted: 16 hex digits can be all decimal digits, which other YAML readers would
            // take for a number.
            let _ = writeln!(out, "  rating: \"{:016x}\"", e.rating.to_bits());
            if let Some(d) = e.deviation {
                let _ = writeln!(out, "  deviation: \"{:016x}\"", d.to_bits());
            }
            let _ = writeln!(out, "  games: {}", e.games);
        }
    }
    let _ = writeln!(out, "created: \"{}\"", p.created.as_str());
    out
}

/// The whole file.
#[must_use]
pub fn file_text(p: &Published, signature: &str) -> String {
    preamble(p) + &unsigned(p) + &signature_line(signature)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    format: String,
    club: String,
    rules: String,
    parameters: String,
    #[serde(rename = "games-digest")]
    games_digest: String,
    games: Vec<String>,
    players: Vec<RawPlayer>,
    created: String,
    signature: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    key: String,
    rating: String,
    #[serde(default)]
    deviation: Option<String>,
    games: u32,
}

fn digest(field: &str, text: &str) -> Result<Digest, String> {
    Digest::parse(text).ok_or_else(|| format!("`{field}` must be 64 lower-case hex digits"))
}

/// A number's bits as 16 lower-case hex digits.
fn bits(field: &str, text: &str) -> Result<f64, String> {
    let ok = text.len() == 16
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    let value = u64::from_str_radix(text, 16)
        .ok()
        .filter(|_| ok)
        .map(f64::from_bits);
    value.filter(|v| v.is_finite()).ok_or_else(|| {
        format!(
            "`{field}` must be a finite number's 16 hex digits, not `{}`",
            shown(text)
        )
    })
}

impl Raw {
    fn validate(self) -> Result<Published, String> {
        if self.format != LIST_FORMAT {
            return Err(format!(
                "this file is in format `{}`; this program reads `{LIST_FORMAT}`",
                shown(&self.format)
            ));
        }
        check_signature_text(&self.signature)?;
        let games = self
            .games
            .iter()
            .map(|g| digest("games", g))
            .collect::<Result<Vec<_>, _>>()?;
        let entries = self
            .players
            .iter()
            .map(|p| {
                Ok(Entry {
                    key: digest("key", &p.key)?,
                    rating: bits("rating", &p.rating)?,
                    deviation: p
                        .deviation
                        .as_deref()
                        .map(|d| bits("deviation", d))
                        .transpose()?,
                    games: p.games,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Published {
            club: self.club,
            rules: digest("rules", &self.rules)?,
            list: List {
                entries,
                inputs: digest("games-digest", &self.games_digest)?,
                parameters: digest("parameters", &self.parameters)?,
            },
            games,
            created: Timestamp::parse(&self.created).ok_or_else(|| {
                "`created` must be a UTC time written like 2026-01-31T18:05:00Z".to_owned()
            })?,
        })
    }
}

/// Why a published list cannot be read, or was not signed by the club.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublishedError {
    /// Not a well-formed list.
    #[error("{0}")]
    Form(#[from] LogError),
    /// More than the one document.
    #[error("a list file holds one document, not {0}")]
    Documents(usize),
    /// Not the club's signature.
    #[error("bad signature: {0}")]
    Signature(String),
}

/// A published list read, and its signature checked against the club's key in `rules`.
///
/// # Errors
/// What is wrong, at its line.
pub fn read(bytes: &[u8], rules: &Rules) -> Result<Published, PublishedError> {
    let read = signed_file::read_single(
        bytes,
        |raw: Raw| {
            let signature = raw.signature.clone();
            raw.validate().map(|published| (published, signature))
        },
        unsigned,
        preamble,
    )
    .map_err(|e| match e {
        SingleError::Form(e) => PublishedError::Form(e),
        SingleError::Documents(n) => PublishedError::Documents(n),
    })?;
    crate::sign::verify(&rules.key, read.signed, &read.signature).map_err(|e| {
        PublishedError::Signature(format!(
            "{e} (the rules' club key is {})",
            crate::sign::fingerprint(&rules.key)
        ))
    })?;
    Ok(read.value)
}

/// How a published list differs from the list made again from the games (`games`: their ids,
/// in the canonical order; `last`: when the last of them ended) under the rules whose digest is
/// `rules` and whose club is `club`, in words (`name` names a player by their key's digest), the
/// games that explain a difference first: empty when it holds to the bit.
#[must_use]
pub fn differences(
    published: &Published,
    (rules, club): (Digest, &str),
    made: &List,
    (games, last): (&[Digest], Option<u64>),
    name: &dyn Fn(&Digest) -> String,
) -> Vec<String> {
    let mut found = Vec::new();
    if published.club != club {
        found.push(format!(
            "the list names the club {}, and the rules {}",
            shown(&published.club),
            shown(club)
        ));
    }
    if last.is_some_and(|last| published.created.to_unix() < last) {
        found.push(format!(
            "the list is dated {}, before the last game it rates ended",
            published.created.as_str()
        ));
    }
    if published.rules != rules {
        found.push(format!(
            "the list was made under other rules (the digest {}, not {rules})",
            published.rules
        ));
    }
    if published.list.parameters != made.parameters {
        found.push("the list's parameters are not the rules'".to_owned());
    }
    let listed: BTreeSet<&Digest> = published.games.iter().collect();
    let here: BTreeSet<&Digest> = games.iter().collect();
    for id in published.games.iter().filter(|id| !here.contains(id)) {
        found.push(format!(
            "the list rates game {id}, which is not a rated game of the files given"
        ));
    }
    for id in games.iter().filter(|id| !listed.contains(id)) {
        found.push(format!(
            "game {id} is rated from the files given, and the list leaves it out"
        ));
    }
    if found.is_empty() && published.games != games {
        found.push(
            "the list's games are not in the canonical order, or one is there twice".to_owned(),
        );
    }
    if found.is_empty() && published.list.inputs != made.inputs {
        found.push("the list's games digest is not that of its games".to_owned());
    }
    let by_key = |list: &List| -> Vec<(Digest, Entry)> {
        let mut v: Vec<(Digest, Entry)> = list.entries.iter().map(|e| (e.key, *e)).collect();
        v.sort_by_key(|(k, _)| *k);
        v
    };
    let (theirs, ours) = (by_key(&published.list), by_key(made));
    for (key, entry) in &theirs {
        match ours.iter().find(|(k, _)| k == key) {
            None => found.push(format!(
                "the list rates {}, who played no rated game here",
                name(key)
            )),
            Some((_, mine)) => {
                let same = entry.rating.to_bits() == mine.rating.to_bits()
                    && entry.deviation.map(f64::to_bits) == mine.deviation.map(f64::to_bits)
                    && entry.games == mine.games;
                if !same {
                    // Shown as a list prints it, and to the bit where that hides the difference.
                    let shown = |e: &Entry| {
                        let r = format!("{:.1}", super::rounded(e.rating, 1));
                        (r, format!("{:016x}", e.rating.to_bits()))
                    };
                    let (theirs, mine_shown) = (shown(entry), shown(mine));
                    let (a, b) = if theirs.0 == mine_shown.0 {
                        (
                            format!("{} (bits {})", theirs.0, theirs.1),
                            format!("{} (bits {})", mine_shown.0, mine_shown.1),
                        )
                    } else {
                        (theirs.0, mine_shown.0)
                    };
                    let games = |n: u32| format!("{n} game{}", if n == 1 { "" } else { "s" });
                    found.push(format!(
                        "{}: the list says {a} after {}, the games give {b} after {}",
                        name(key),
                        games(entry.games),
                        games(mine.games)
                    ));
                }
            }
        }
    }
    for (key, _) in ours
        .iter()
        .filter(|(k, _)| !theirs.iter().any(|(t, _)| t == k))
    {
        found.push(format!(
            "{} is rated from the games, and the list leaves them out",
            name(key)
        ));
    }
    let order = |list: &List| list.entries.iter().map(|e| e.key).collect::<Vec<_>>();
    if found.is_empty() && order(&published.list) != order(made) {
        found.push("the list's order is not the ratings'".to_owned());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: Vec<Entry>) -> List {
        List {
            entries,
            inputs: Digest([1; 32]),
            parameters: Digest([2; 32]),
        }
    }

    /// A list signed over games out of order, twice, from another club or dated before its
    /// games is caught, though every rating holds.
    #[test]
    fn a_list_holds_only_with_its_games_in_order_its_club_and_a_date_after_them() {
        let entry = Entry {
            key: Digest([3; 32]),
            rating: 1500.0,
            deviation: Some(350.0),
            games: 2,
        };
        let games = [Digest([4; 32]), Digest([5; 32])];
        let made = list(vec![entry]);
        let published = Published {
            club: "Club".into(),
            rules: Digest([6; 32]),
            list: made.clone(),
            games: games.to_vec(),
            created: Timestamp::from_unix(2_000),
        };
        let name = |k: &Digest| k.short();
        let check = |p: &Published| {
            differences(
                p,
                (Digest([6; 32]), "Club"),
                &made,
                (&games, Some(1_000)),
                &name,
            )
        };
        assert_eq!(check(&published), Vec::<String>::new());
        let mut reordered = published.clone();
        reordered.games.reverse();
        assert_eq!(
            check(&reordered),
            ["the list's games are not in the canonical order, or one is there twice"]
        );
        let mut twice = published.clone();
        twice.games.push(games[0]);
        assert_eq!(check(&twice), check(&reordered));
        let mut other = published.clone();
        other.club = "Other".into();
        assert_eq!(
            check(&other),
            ["the list names the club Other, and the rules Club"]
        );
        let mut early = published.clone();
        early.created = Timestamp::from_unix(500);
        assert_eq!(
            check(&early),
            ["the list is dated 1970-01-01T00:08:20Z, before the last game it rates ended"]
        );
    }
}
