//! `correspond mail`: a game's latest records as a mail message, ready to send.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::keys;
use crate::cli::shared::record;
use correspond::log::GameFile;
use correspond::mail::{self, Envelope, Mailbox};
use correspond::picture::text::Charset;
use correspond::replay::{Phase, Replay, Signatory};
use correspond::rules::Line;
use std::path::{Path, PathBuf};

/// Write a message that carries a game's latest records to the other player, on standard
/// output: pipe it into `sendmail -t`, or save it and send it with any mail client.
///
/// The subject is the game's, the same for every message of it (`[correspond] chess 04e56a1d:
/// alice v bob`), so that every mail client shows a game as one conversation; the body's first
/// line names every action the message carries; then it draws the board, says who is to act
/// next, and
/// carries the records in a block between `-----BEGIN CORRESPOND RECORDS-----` and `-----END
/// CORRESPOND RECORDS-----` lines, which survives quoting and re-wrapping. The other player
/// takes them in with `correspond receive`. A new game (a challenge) is mailed the same way:
/// its block carries the whole file.
///
/// Run it after your own record: without --since, the message carries the records made since
/// the other player's last one, which the other player cannot have yet.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// The recipient's address; repeat for several. Without it the message has no `To:` line,
    /// for a mail client to fill in.
    #[arg(long, value_name = "ADDRESS", value_hint = clap::ValueHint::Other)]
    to: Vec<String>,
    /// The sender's address. Default: git's `user.email`.
    #[arg(long, value_name = "ADDRESS", value_hint = clap::ValueHint::Other)]
    from: Option<String>,
    /// Carry the records from record N to the end (0: the whole file, header included).
    #[arg(long, value_name = "N", value_hint = clap::ValueHint::Other)]
    since: Option<usize>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    with_game!(kind, G => mail::<G>(args, &bytes, out))
}

fn mail<G: CliGame>(args: &Args, bytes: &[u8], out: &mut Out<'_>) -> Result<(), CliError> {
    let path = &args.file;
    let from = sender(args)?;
    let to = args
        .to
        .iter()
        .map(|a| address(a, "--to"))
        .collect::<Result<Vec<_>, _>>()?;
    let (file, replay) = record::verified::<G>(path, bytes)?;
    let last = file.documents() - 1;
    let since = first_carried(args, &replay, last)?;
    let name = receiving_name(path);
    // Addresses only: which player runs `mail` is not known for sure, so no names are put to
    // them.
    let mailbox = |address| Mailbox {
        name: None,
        address,
    };
    // The body is 7-bit ASCII whatever the names (a body that is not goes out
    // quoted-printable, which breaks the block when it is pasted from a web client): names
    // outside ASCII are said as the players' places, and given whole in the headers.
    let plain = ascii_seats(&replay);
    let said = summary(&file, &plain, since, last);
    let now = keys::now()?.to_unix();
    let envelope = Envelope {
        from: mailbox(from),
        to: to.into_iter().map(mailbox).collect(),
        subject: thread_subject(&file, &replay),
        comments: Some(format!(
            "{}: {}",
            G::NAME,
            summary(&file, &replay, since, last)
        )),
        date: now,
        // Unique per message sent (a resend too, so that no client drops it as a duplicate),
        // and the same for the same records at the same moment, so that files reproduce.
        message_id: format!(
            "{}.{since}-{last}.{now}.{}@correspond.invalid",
            file.digest(last).short(),
            nonce()
        ),
        // Every message of a game names the same root: clients that follow References
        // (Thunderbird, mutt) thread on it, and Gmail and Outlook on it with the subject.
        references: vec![format!(
            "{}@correspond.invalid",
            &file.game_id().to_string()[..32]
        )],
    };
    let renamed = renames(&replay, &plain);
    let text = Text {
        name: &name,
        summary: &said,
        renamed: &renamed,
    };
    let picture = picture(&replay, &plain, &renamed)?;
    let message = mail::compose(
        &envelope,
        &body(&file, &plain, since, &text)?,
        Some(&picture),
    );
    out.write_all(&message)?;
    Ok(())
}

/// The board after the last record as a PNG, from the recipient's side (the player who did not
/// sign the last record; the first side's for an arbiter's), with the text a reader who sees
/// no image is given instead: the position and the move that reached it, in ASCII as the body.
fn picture<G: CliGame>(
    replay: &Replay<G>,
    plain: &Replay<G>,
    renamed: &[(String, String)],
) -> Result<mail::Image, CliError> {
    let line = replay
        .line
        .clone()
        .unwrap_or_else(|| Line::new(replay.last().position.clone()));
    let recipient = match replay.last().signer {
        Signatory::Player(seat) => replay.seats[seat.other()].side,
        Signatory::Arbiter => None,
    };
    let phase = &replay.last().phase;
    let options = correspond::picture::Options {
        flipped: recipient.is_some_and(|side| side != G::SIDES[0]),
        captions: vec![plain.matchup()],
        verdict: matches!(phase, Phase::Over(_)).then(|| phase.describe(&plain.seats)),
    };
    let drawn = G::picture(&line, &options);
    let png =
        correspond::picture::raster::png(&drawn.svg).map_err(|e| CliError::usage(e.to_string()))?;
    let mut alt = format!("{}: {}", G::NAME, replay.last().position);
    let last_move = replay
        .steps
        .iter()
        .rev()
        .flat_map(|s| s.events.iter().rev())
        .find_map(|e| match e {
            correspond::replay::Event::Moved(mv, _) => Some(mv),
            _ => None,
        });
    if let Some(mv) = last_move {
        alt += &format!(", after {mv}");
    }
    for (from, to) in renamed {
        alt = alt.replace(from.as_str(), to);
    }
    let (width, height) = drawn.board.size;
    Ok(mail::Image {
        png,
        alt: ascii(&alt),
        width: correspond::picture::WIDTH,
        height: correspond::picture::shown_height(width, height),
    })
}

/// The sender's address: `--from`, else git's `user.email`.
fn sender(args: &Args) -> Result<String, CliError> {
    match &args.from {
        Some(from) => address(from, "--from"),
        None => match git_email(&args.file) {
            Some(email) => address(&email, "git's user.email"),
            None => Err(CliError::usage("no sender address").hint(
                "pass --from ADDRESS, or set one with `git config --global user.email ADDRESS`",
            )),
        },
    }
}

/// The first record the message carries: `--since`, else the first of the run of records the
/// last record's signer signed at the end of the file (what they have not sent yet).
fn first_carried<G: CliGame>(
    args: &Args,
    replay: &Replay<G>,
    last: usize,
) -> Result<usize, CliError> {
    match args.since {
        Some(n) if n > last => Err(CliError::usage(format!(
            "--since {n}: {} has records 0 to {last}",
            correspond::text::path(&args.file)
        ))
        .hint(format!(
            "`correspond log {}` lists the records",
            correspond::text::path(&args.file)
        ))),
        Some(n) => Ok(n),
        None => {
            let sender = replay.last().signer;
            Ok(replay
                .steps
                .iter()
                .rposition(|s| s.signer != sender)
                .map_or(0, |i| i + 1))
        }
    }
}

/// The name the other player is told to receive into: this file's, when it is a plain one
/// (the message must not carry text a terminal would obey, nor words a shell would split),
/// in ASCII and short enough for a line of the 7-bit body.
fn receiving_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| {
            !n.starts_with('-')
                && n.len() <= MAX_NAME
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
        .unwrap_or_else(|| "GAME.yaml".to_owned())
}

/// The subject of every message of a game, the same from the challenge to the end: Gmail and
/// Outlook group a conversation by its subject (and break it when the subject changes), so it
/// names the game, not the move; the move is the body's first line, which their lists show
/// beside the subject. The id's first characters tell a rematch apart.
fn thread_subject<G: CliGame>(file: &GameFile, replay: &Replay<G>) -> String {
    format!(
        "[correspond] {} {}: {} v {}",
        G::NAME,
        &file.game_id().to_string()[..8],
        replay.seats[0].name,
        replay.seats[1].name
    )
}

/// The longest file name the body gives whole: with the command around it, a line of 76.
const MAX_NAME: usize = 40;

/// What tells apart two messages sent within one second: the nanoseconds and the process; 0
/// when the time is pinned (`CORRESPOND_TIME`), so that a pinned run reproduces its message.
fn nonce() -> String {
    if std::env::var_os(keys::TIME_VARIABLE).is_some() {
        return "0".to_owned();
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{nanos:09}{}", std::process::id())
}

/// The replay with names outside ASCII said as the players' places, for the body.
fn ascii_seats<G: CliGame>(replay: &Replay<G>) -> Replay<G> {
    let mut plain = replay.clone();
    for (i, seat) in plain.seats.iter_mut().enumerate() {
        if !seat.name.is_ascii() {
            seat.name = if i == 0 {
                "the creator"
            } else {
                "the opponent"
            }
            .to_owned();
        }
    }
    // Unnamed, the arbiter is `the arbiter`.
    if plain.arbiter.as_ref().is_some_and(|a| !a.name.is_ascii()) {
        plain.arbiter = None;
    }
    plain
}

/// Each name outside ASCII with what the body says instead (see [`ascii_seats`]), the longest
/// first, so that a name inside another is not replaced within it. The replay's events were
/// worded with the names as they are (`Zoë (heads) resigned`): the body's text is said again
/// with these.
fn renames<G: CliGame>(replay: &Replay<G>, plain: &Replay<G>) -> Vec<(String, String)> {
    let arbiter = replay
        .arbiter
        .iter()
        .map(|a| (a.name.clone(), "the arbiter".to_owned()));
    let mut renamed: Vec<(String, String)> = replay
        .seats
        .iter()
        .zip(&plain.seats)
        .map(|(seat, plain)| (seat.name.clone(), plain.name.clone()))
        .chain(arbiter)
        .filter(|(name, _)| !name.is_ascii())
        .collect();
    renamed.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
    renamed
}

/// What the body says besides the replay: the name of the file to receive into, the summary
/// line, and the names said otherwise in ASCII.
struct Text<'a> {
    name: &'a str,
    summary: &'a str,
    renamed: &'a [(String, String)],
}

/// Every action a message carries, in a line: `white plays Nc3 and offers a draw (records
/// 16-17)`.
fn summary<G: CliGame>(file: &GameFile, replay: &Replay<G>, since: usize, last: usize) -> String {
    let actions: Vec<String> = (since..=last).map(|n| action(file, replay, n)).collect();
    let said = match &actions[..] {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let records = if since == last {
        format!("record {last}")
    } else {
        format!("records {since}-{last}")
    };
    format!("{said} ({records})")
}

/// What document `n` did, in a few words: `new game, alice (white) v bob (black)`, `white
/// plays Rd8#`.
fn action<G: CliGame>(file: &GameFile, replay: &Replay<G>, n: usize) -> String {
    if n == 0 {
        return format!("new game, {}", replay.matchup());
    }
    crate::cli::shared::recap::document_headline(file, replay, n)
}

/// The message's text: what happened, the board, what comes next, and the block.
fn body<G: CliGame>(
    file: &GameFile,
    replay: &Replay<G>,
    since: usize,
    Text {
        name,
        summary,
        renamed,
    }: &Text<'_>,
) -> Result<String, CliError> {
    let mut text = format!("{}: {summary}\n\n{}\n\n", G::NAME, replay.matchup());
    for step in &replay.steps[since..] {
        text += &crate::cli::shared::recap::step_line(replay, step);
        // The comment as the signer wrote it is in the block; here, in ASCII.
        if let Some(comment) = step
            .document
            .checked_sub(1)
            .and_then(|n| file.records()[n].comment.as_ref())
        {
            text += &format!("; says \"{}\"", ascii(comment));
        }
        text.push('\n');
    }
    let line = replay
        .line
        .clone()
        .unwrap_or_else(|| Line::new(replay.last().position.clone()));
    let phase = &replay.last().phase;
    let view = correspond::picture::text::View {
        charset: Charset::Ascii,
        flipped: false,
        over: matches!(phase, Phase::Over(_)),
    };
    let board = G::text(&line, view);
    // The pictures carry terminal colours; mail gets the letters alone.
    text += "\n";
    text += &anstream::adapter::strip_str(&board).to_string();
    text += "\n";
    match phase {
        Phase::Over(verdict) => text += &format!("result: {}\n", verdict.describe(&replay.seats)),
        phase => text += &format!("now: {}\n", phase.describe(&replay.seats)),
    }
    let receive = if since == 0 {
        format!("correspond receive --new {name} MESSAGE")
    } else {
        format!("correspond receive {name} MESSAGE")
    };
    text += &format!(
        "\nTo take these records into your copy of the game, save this message and run\n    \
         {receive}\n(or pipe the message into it).\n"
    );
    if let Some(next) = crate::cli::shared::next::next_after(replay, name) {
        text += &format!("Then: {next}\n");
    }
    for (from, to) in *renamed {
        text = text.replace(from.as_str(), to);
    }
    // What else the text quotes comes from this program and the file's validated fields:
    // anything left outside ASCII would be a mistake here, and is not worth breaking a
    // message for.
    // Lines of 76 characters at most: a longer line makes the message go out
    // quoted-printable, which a web client's paste leaves in the block.
    let mut text = wrap(&ascii(&text), 76);
    text += &format!(
        "\nThe signed records of {}:\n\n{}",
        ascii(name),
        mail::armor(file, since)
    );
    Ok(text)
}

/// `text` with each character outside ASCII written `?`.
fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .collect()
}

/// `text` with each line longer than `width` broken at spaces, its continuation indented.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let (line, newline) = match line.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (line, ""),
        };
        let mut rest = line;
        while rest.len() > width {
            // A break at the last space that keeps the line within the width, if there is one
            // (the width in bytes, cut back to where a character starts).
            let end = (0..=width + 1)
                .rev()
                .find(|&end| rest.is_char_boundary(end))
                .unwrap_or(0);
            let Some(at) = rest[..end].rfind(' ').filter(|&at| at > 0) else {
                break;
            };
            out.push_str(&rest[..at]);
            out.push_str("\n    ");
            rest = &rest[at + 1..];
        }
        out.push_str(rest);
        out.push_str(newline);
    }
    out
}

/// An address as given: `local@domain`, in plain ASCII, with nothing that could break the
/// message's headers.
fn address(text: &str, option: &str) -> Result<String, CliError> {
    let valid = text.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && !domain.is_empty()
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b"()<>[]:;@\\,\"".contains(&b))
            && domain.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
    });
    if valid {
        Ok(text.to_owned())
    } else {
        Err(CliError::usage(format!(
            "{option} `{}` is not a mail address such as alice@example.org",
            correspond::text::shown(text)
        )))
    }
}

/// git's `user.email`, as git would find it for the file's repository.
fn git_email(path: &Path) -> Option<String> {
    let email = correspond::git::config_string(path, "user.email")?;
    Some(email.trim().to_owned())
}
