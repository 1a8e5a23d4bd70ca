//! Mail messages in and out: finding blocks in a raw message (through its MIME parts and
//! encodings, and messages forwarded inside it), splitting a mailbox, and writing a message.
//! `mail-parser` and `mail-builder` do the RFC 5322 and MIME work.

use super::{MailError, Packet, find};
use mail_builder::MessageBuilder;
use mail_builder::headers::address::Address;
use mail_builder::headers::message_id::MessageId;
use mail_parser::{HeaderName, Message, MessageParser, PartType};

/// What a raw message holds for us.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Its subject, if it has one.
    pub subject: Option<String>,
    /// Every block in it, in order, each once.
    pub blocks: Vec<Result<Packet, MailError>>,
}

/// Every block in a raw message (RFC 5322, as received or saved): in its text and HTML parts,
/// decoded from quoted-printable or base64, and in messages forwarded inside it. A text that is
/// not a message (a block pasted into a file) is searched as it is.
#[must_use]
pub fn in_message(raw: &[u8]) -> Parsed {
    let parser = MessageParser::new()
        .with_mime_headers()
        .header_text(HeaderName::Subject);
    let Some(message) = parser.parse(raw) else {
        return Parsed {
            subject: None,
            blocks: find(&String::from_utf8_lossy(raw)),
        };
    };
    let mut blocks = Vec::new();
    collect(&message, &mut blocks);
    if blocks.is_empty() {
        // Text pasted into a file, which a mail parser reads as headers.
        blocks = find(&String::from_utf8_lossy(raw));
    }
    // The same block in a text part and its HTML twin, or quoted again in a reply, counts once.
    let mut unique: Vec<Result<Packet, MailError>> = Vec::with_capacity(blocks.len());
    for block in blocks {
        if !unique.contains(&block) {
            unique.push(block);
        }
    }
    Parsed {
        subject: message.subject().map(str::to_owned),
        blocks: unique,
    }
}

fn collect(message: &Message<'_>, found: &mut Vec<Result<Packet, MailError>>) {
    for part in &message.parts {
        match &part.body {
            PartType::Text(text) => found.extend(find(text)),
            PartType::Html(html) => {
                found.extend(find(&mail_parser::decoders::html::html_to_text(html)));
            }
            PartType::Message(inner) => collect(inner, found),
            // An attached `.txt` or a game file sent as an attachment.
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                found.extend(find(&String::from_utf8_lossy(bytes)));
            }
            PartType::Multipart(_) => {}
        }
    }
}

/// The messages of an mbox mailbox, in order (`From ` lines separate them; `>From ` quoting is
/// undone).
#[must_use]
pub fn mailbox(bytes: &[u8]) -> Vec<Vec<u8>> {
    mail_parser::mailbox::mbox::MessageIterator::new(bytes)
        .filter_map(Result::ok)
        .map(mail_parser::mailbox::mbox::Message::unwrap_contents)
        .collect()
}

/// A person's mail address, with the name mail clients show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mailbox {
    /// The name: `alice`.
    pub name: Option<String>,
    /// The address: `alice@example.org`.
    pub address: String,
}

impl Mailbox {
    fn header(&self) -> Address<'_> {
        Address::new_address(self.name.as_deref(), self.address.as_str())
    }
}

/// The headers of a message to write.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// The sender.
    pub from: Mailbox,
    /// The recipients, if known.
    pub to: Vec<Mailbox>,
    /// The subject.
    pub subject: String,
    /// The `Date:` header, as seconds since 1970.
    pub date: u64,
    /// The `Message-ID:`, without angle brackets.
    pub message_id: String,
    /// Message ids it follows, oldest first, so that mail clients thread a game's messages.
    pub references: Vec<String>,
}

/// A plain-text RFC 5322 message with LF line endings (as `sendmail -t` and mailbox files want
/// them), its headers and body from the arguments alone: no clock, no host name.
#[must_use]
pub fn compose(envelope: &Envelope, body: &str) -> Vec<u8> {
    let mut builder = MessageBuilder::new()
        .from(envelope.from.header())
        .subject(envelope.subject.as_str())
        .date(envelope.date)
        .message_id(envelope.message_id.as_str())
        .text_body(body);
    if !envelope.to.is_empty() {
        let to = envelope.to.iter().map(Mailbox::header).collect();
        builder = builder.to(Address::new_list(to));
    }
    if let Some(parent) = envelope.references.last() {
        builder = builder
            .in_reply_to(parent.as_str())
            .references(MessageId::new_list(
                envelope.references.iter().map(String::as_str),
            ));
    }
    let crlf = builder
        .write_to_vec()
        .expect("writing to memory does not fail");
    let mut out = Vec::with_capacity(crlf.len());
    let mut bytes = crlf.iter().peekable();
    while let Some(&b) = bytes.next() {
        if !(b == b'\r' && bytes.peek() == Some(&&b'\n')) {
            out.push(b);
        }
    }
    out
}
