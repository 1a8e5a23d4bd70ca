//! Reading a document written the one way this program writes it, without a YAML parser: cut
//! into its fields by the writer's own layout, validated as the YAML reader's result is, and
//! then required to be exactly what the writer makes of that content. `None` for anything
//! else, which the YAML reader then reads and explains.
//!
//! A reader here accepts only what the YAML reader accepts, with the same content. The one
//! value YAML reads otherwise than as text, null (`null`, `Null`, `NULL`, `~`, nothing), and
//! values that start with a YAML indicator (a move `-` or `,e4`) are left to the YAML reader
//! (every other plain scalar it reads into a string as written: `true`, `0x1f`, `1e5`); names,
//! which are quoted, hold no quote or backslash. The tests hold both readers to the same
//! answers on every one-byte change of each kind of document.

use super::format::{
    Header, RawArbiter, RawHeader, RawPlayer, RawRecord, Record, header_unsigned, record_unsigned,
};
use std::collections::BTreeMap;

/// Whether the YAML reader reads `value`, written plain, as this text.
fn plain_text(value: &str) -> bool {
    // The indicators a plain scalar cannot start with (a lone `-` starts a list item, a `,` is
    // a separator): the YAML reader refuses those.
    !matches!(value, "null" | "Null" | "NULL" | "~" | "")
        && !value.starts_with(|c: char| "-,?:[]{}#&*!|>'\"%@`".contains(c))
}

/// A document cut before its signature line, which is its last: (the document up to that line,
/// the signature's text). What comes before is compared with what the writer makes of the
/// content read, so the signature line is all that needs reading on its own.
fn signed(doc: &str) -> Option<(&str, &str)> {
    let (unsigned, signature) = doc.strip_suffix('\n')?.rsplit_once('\n')?;
    Some((
        &doc[..=unsigned.len()],
        signature.strip_prefix("signature: ")?,
    ))
}

/// Reads a record document (from its `---` line through its signature line) as the module says.
/// Records are most of a file, so this is most of the cost of reading one.
pub(super) fn quick_record(doc: &str) -> Option<Record> {
    let (unsigned, signature) = signed(doc)?;
    let mut lines = super::lines::bare(unsigned.strip_prefix("---\n")?);
    let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(": ");
    let seq = field("seq")?;
    let prev = field("prev")?;
    let signer = field("signer")?.strip_prefix('"')?.strip_suffix('"')?;
    let kind = field("kind")?;
    let mut raw = RawRecord {
        seq: seq.parse().ok()?,
        prev: prev.to_owned(),
        signer: signer.to_owned(),
        kind: kind.to_owned(),
        mv: None,
        nonce: None,
        commitment: None,
        claim: None,
        days: None,
        result: None,
        reason: None,
        lines: None,
        salt: None,
        proof: None,
        seed: None,
        comment: None,
        time: String::new(),
        signature: signature.to_owned(),
    };
    let mut line = lines.next()?;
    // The payload: a kind's fields, each one line (`result`, then `reason`, for an
    // adjudication) or a list of quoted texts (a conditional's `lines`, a reveal's `proof`),
    // each item read as written: the writer's comparison below holds them to moves and single
    // spaces, or to digests, which YAML reads alike. The order, and that a kind has just these,
    // is the writer's to check below.
    for _ in 0..4 {
        if line.starts_with("time: ") {
            break;
        }
        if let Some(name) = line.strip_suffix(':') {
            let slot = match name {
                "lines" => &mut raw.lines,
                "proof" => &mut raw.proof,
                _ => return None,
            };
            let mut items = Vec::new();
            line = lines.next()?;
            while let Some(item) = line.strip_prefix("- \"") {
                let text = item.strip_suffix('"')?;
                if text.contains(['"', '\\']) {
                    return None;
                }
                items.push(text.to_owned());
                line = lines.next()?;
            }
            if slot.replace(items).is_some() {
                return None;
            }
            continue;
        }
        let (name, value) = line.split_once(": ")?;
        if name == "days" {
            // A number; that it is spelled as the writer spells it is checked below.
            raw.days = Some(value.parse().ok()?);
        } else {
            let slot = match name {
                "move" => &mut raw.mv,
                "nonce" => &mut raw.nonce,
                "commitment" => &mut raw.commitment,
                "claim" => &mut raw.claim,
                "result" => &mut raw.result,
                "reason" => &mut raw.reason,
                "salt" => &mut raw.salt,
                "seed" => &mut raw.seed,
                _ => return None,
            };
            if slot.is_some() {
                return None;
            }
            *slot = Some(value.to_owned());
        }
        line = lines.next()?;
    }
    raw.time = line.strip_prefix("time: \"")?.strip_suffix('"')?.to_owned();
    let plain = [&raw.prev, &raw.kind, &raw.signature].map(Some);
    let optional = [
        &raw.mv,
        &raw.nonce,
        &raw.commitment,
        &raw.claim,
        &raw.result,
        &raw.reason,
        &raw.salt,
        &raw.seed,
    ]
    .map(Option::as_ref);
    let texts = plain.into_iter().chain(optional).flatten();
    if !texts.map(String::as_str).all(plain_text) || lines.next().is_some() {
        return None;
    }
    let record = raw.validate().ok()?;
    (record_unsigned(&record) == unsigned).then_some(record)
}

/// The lines of a header, read in order.
struct Lines<'a> {
    lines: Vec<&'a str>,
    at: usize,
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let line = self.lines.get(self.at).copied()?;
        self.at += 1;
        Some(line)
    }

    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.at).copied()
    }

    /// The value of the next line, which must be `name: value`, written plain.
    fn plain(&mut self, name: &str) -> Option<&'a str> {
        let value = self.next()?.strip_prefix(name)?.strip_prefix(": ")?;
        plain_text(value).then_some(value)
    }

    /// The value of the next line, which must be `name: "value"`.
    fn quoted(&mut self, name: &str) -> Option<&'a str> {
        let value = self.next()?.strip_prefix(name)?.strip_prefix(": \"")?;
        value.strip_suffix('"')
    }
}

/// Reads a header document as the module says. A header with a time control or tags is left to
/// the YAML reader: few files have one, and each file has one header.
pub(super) fn quick_header(doc: &str) -> Option<Header> {
    let (unsigned, signature) = signed(doc)?;
    let mut lines = Lines {
        lines: super::lines::bare(unsigned.strip_prefix("---\n")?).collect(),
        at: 0,
    };
    let format = lines.plain("format")?;
    let game = lines.plain("game")?;
    let mut options = BTreeMap::new();
    match lines.next()? {
        "options: {}" => {}
        "options:" => {
            while let Some(option) = lines.peek().and_then(|l| l.strip_prefix("  ")) {
                lines.next();
                let (name, on) = option.split_once(": ")?;
                let on = match on {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                };
                if !plain_text(name) || options.insert(name.to_owned(), on).is_some() {
                    return None;
                }
            }
        }
        _ => return None,
    }
    if lines.next()? != "players:" {
        return None;
    }
    let mut player = || {
        Some(RawPlayer {
            name: lines.quoted("- name")?.to_owned(),
            side: lines.plain("  side")?.to_owned(),
            key: lines.plain("  key")?.to_owned(),
        })
    };
    let players = vec![player()?, player()?];
    let arbiter = if lines.peek() == Some("arbiter:") {
        lines.next();
        Some(RawArbiter {
            name: lines.quoted("  name")?.to_owned(),
            key: lines.plain("  key")?.to_owned(),
        })
    } else {
        None
    };
    let created = lines.quoted("created")?.to_owned();
    let salt = lines.plain("salt")?.to_owned();
    let commitment = match lines.peek() {
        Some(_) => Some(lines.plain("commitment")?.to_owned()),
        None => None,
    };
    if lines.peek().is_some() || !plain_text(signature) {
        return None;
    }
    let header = RawHeader {
        format: format.to_owned(),
        game: game.to_owned(),
        options,
        time_control: None,
        players,
        arbiter,
        tags: None,
        created,
        salt,
        commitment,
        signature: signature.to_owned(),
    }
    .validate()
    .ok()?;
    (header_unsigned(&header) == unsigned).then_some(header)
}

#[cfg(test)]
mod tests;
