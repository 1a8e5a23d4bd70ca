//! What a PGN comment is to `import-pgn`: a record's words as `correspond pgn` writes them
//! (`alice (white): the king's pawn`, `bob (black) offers a draw: a draw?`), read back as the
//! record they were and signed by the same player; another program's comment, which the mover
//! signs; or a record an imported game cannot hold, which stops the import with its reason.

use super::index;
use crate::cli::shared::recap;
use correspond::games::chess::Color;
use correspond::log::{Action, Settlement};

/// A comment of the PGN, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Block {
    /// Another program's comment, with no signer's name before it: the mover's to sign (the
    /// acceptance's, before the first move).
    Plain(String),
    /// `NAME (COLOUR): TEXT`: the comment of that player's move, or of their acceptance.
    Said(Color, String),
    /// `NAME (COLOUR) WORDS[: TEXT]`: a record of that player's that is not a move.
    Record(Color, Action, Option<String>),
}

/// The players' names as `correspond pgn` writes them before their words: `alice (white)`.
pub(super) struct Labels {
    labels: [String; 2],
    names: [String; 2],
}

const COLOURS: [Color; 2] = [Color::White, Color::Black];

impl Labels {
    /// The labels of white's player `names[0]` and black's `names[1]`.
    pub(super) fn new(names: &[String; 2]) -> Labels {
        Labels {
            labels: [0, 1].map(|i| format!("{} ({})", names[i], COLOURS[i])),
            names: names.clone(),
        }
    }

    /// The label of `colour`'s player.
    pub(super) fn of(&self, colour: Color) -> &str {
        &self.labels[index(colour)]
    }

    /// Reads one comment.
    ///
    /// # Errors
    /// Why the record it names cannot be part of an imported game, or why the comment cannot be
    /// read as the record it names.
    pub(super) fn read(&self, text: &str) -> Result<Block, String> {
        if text.starts_with("the arbiter ") && text.contains(" adjudicates the game: ") {
            return Err(format!(
                "`{}` is the arbiter's decision, and an imported game has no arbiter",
                shown(text)
            ));
        }
        for colour in COLOURS {
            let label = self.of(colour);
            if let Some(said) = text.strip_prefix(label).and_then(|t| t.strip_prefix(": ")) {
                return Ok(Block::Said(colour, said.to_owned()));
            }
            let Some(rest) = text.strip_prefix(label).and_then(|t| t.strip_prefix(' ')) else {
                continue;
            };
            let (words, said) = match rest.split_once(": ") {
                Some((words, said)) => (words, Some(said)),
                None => (rest, None),
            };
            return match record(words) {
                Some(Ok(action)) => Ok(Block::Record(colour, action, said.map(str::to_owned))),
                Some(Err(why)) => Err(format!("`{}` is {why}", shown(text))),
                None => Ok(Block::Plain(text.to_owned())),
            };
        }
        self.someone_else(text)?;
        before_colours(text)?;
        Ok(Block::Plain(text.to_owned()))
    }

    /// Words that seem to go on with another record's (`...; bob (black): ...`), as an earlier
    /// `correspond pgn` joined them: they cannot be parted again without guessing who said what,
    /// so they are kept as one player's only as a change, which says so.
    pub(super) fn joined(&self, said: &str) -> Option<String> {
        let label = self
            .labels
            .iter()
            .find(|l| said.contains(&format!("; {l}")))?;
        Some(format!(
            "`{}` may join the words of more than one record (the part after `; {label}`), as an \
             earlier `correspond pgn` wrote them, and is kept as one record's; if so, export the \
             game again, which writes each record's words in a comment of its own",
            shown(said)
        ))
    }

    /// A comment in the shape of a player's words that names someone who is not that colour's
    /// player: signed by the mover, the words would be put in another's mouth.
    fn someone_else(&self, text: &str) -> Result<(), String> {
        for colour in COLOURS {
            if let Some(name) = labelled(text, &colour.to_string()) {
                return Err(format!(
                    "`{}` names {} as {colour}'s player, but the PGN's {colour} is `{}`",
                    shown(text),
                    shown(name),
                    self.names[index(colour)]
                ));
            }
        }
        Ok(())
    }
}

/// The name `text` is said by, when it has the shape `correspond pgn` writes a player's words
/// in with `side` (`NAME (SIDE): ...`, or `NAME (SIDE) WORDS` naming a record), whoever NAME is.
fn labelled<'t>(text: &'t str, side: &str) -> Option<&'t str> {
    let (name, rest) = text.split_once(&format!(" ({side})"))?;
    let words = rest
        .strip_prefix(' ')
        .map(|r| r.split_once(": ").map_or(r, |w| w.0));
    let shaped = rest.starts_with(": ") || words.and_then(record).is_some();
    (shaped && correspond::log::valid_name(name)).then_some(name)
}

/// Words `correspond pgn` wrote for a player before a coin flip gave out the colours (`bob
/// (toss): have fun`): an imported game's colours are the PGN's, so they have no place in it.
fn before_colours(text: &str) -> Result<(), String> {
    if labelled(text, crate::cli::reading::pgn::TOSS).is_some() {
        return Err(format!(
            "`{}` was said before a coin flip gave out the colours, and an imported game has no \
             coin flip: its colours are the PGN's",
            shown(text)
        ));
    }
    Ok(())
}

fn shown(text: &str) -> String {
    correspond::text::shown(text)
}

/// The record a few words name, as [`recap::summary`] writes them: `Ok` for one an imported game
/// can hold, `Err` with the reason for one it cannot, `None` for words that name no record.
fn record(words: &str) -> Option<Result<Action, &'static str>> {
    let importable = [
        Action::Resign,
        Action::Offer(Settlement::Draw),
        Action::AcceptOffer(Settlement::Draw),
    ];
    if let Some(action) = importable.into_iter().find(|a| recap::summary(a) == words) {
        return Some(Ok(action));
    }
    if words == recap::summary(&Action::Withdraw) {
        return Some(Ok(Action::Withdraw));
    }
    // The move before it is the reply, which the import appends as this record.
    if words == recap::summary(&Action::Applied(String::new())) {
        return Some(Ok(Action::Applied(String::new())));
    }
    // Their commitment holds salts, and a reveal a proof, that the PGN does not carry.
    if words.starts_with("commits to hidden conditional lines (")
        || words.starts_with("discloses the hidden conditional lines (")
        || words == "reveals the hidden conditional reply"
    {
        return Some(Err(
            "a record of hidden conditional lines, whose salts and proofs a PGN does not carry",
        ));
    }
    if let Some(lines) = words
        .strip_prefix("promises conditional lines (")
        .and_then(|w| w.strip_suffix(')'))
    {
        let lines: Vec<String> = lines.split(" | ").map(str::to_owned).collect();
        return Some(
            correspond::log::Conditional::parse(&lines)
                .map(Action::Conditional)
                .map_err(|_| "not conditional lines as `correspond pgn` writes them"),
        );
    }
    if let Some(reason) = words
        .strip_prefix("claims a draw (")
        .and_then(|w| w.strip_suffix(')'))
    {
        let claim = Action::Claim(Settlement::Draw, reason.to_owned());
        return Some(Ok(claim));
    }
    let no_clock = "a record of a game with a clock, and an imported game has none";
    let no_flip = "a step of a coin flip, and an imported game has none: the PGN gives the colours";
    let digest = correspond::digest::Digest([0; 32]);
    let refused = [
        (Action::ClaimTimeout, no_clock),
        (Action::FlipCommit(digest), no_flip),
        (Action::FlipNonce(digest), no_flip),
        (Action::FlipReveal(digest), no_flip),
        (Action::Defer, no_flip),
        (
            Action::Accept { nonce: None },
            "an acceptance, which `correspond pgn` writes as words before the first move",
        ),
        (Action::Offer(Settlement::RunOff), "a record of Campaign"),
        (
            Action::AcceptOffer(Settlement::RunOff),
            "a record of Campaign",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(a, _)| recap::summary(a) == words) {
        return Some(Err(why));
    }
    let leave = words
        .strip_prefix("takes ")
        .and_then(|w| w.strip_suffix(" days of leave"))
        .is_some_and(|days| days.parse::<u32>().is_ok());
    if leave {
        return Some(Err(no_clock));
    }
    if words.starts_with("claims a run-off (") {
        return Some(Err("a record of Campaign"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Labels {
        Labels::new(&["alice".to_owned(), "bob".to_owned()])
    }

    #[test]
    fn every_record_correspond_pgn_writes_reads_back_or_is_refused_with_a_reason() {
        let digest = correspond::digest::Digest([7; 32]);
        let importable = [
            Action::Resign,
            Action::Offer(Settlement::Draw),
            Action::AcceptOffer(Settlement::Draw),
            Action::Claim(Settlement::Draw, "repetition".into()),
            Action::Claim(Settlement::Draw, "fifty-moves".into()),
        ];
        for action in importable {
            let words = recap::summary(&action);
            for (text, said) in [
                (format!("bob (black) {words}"), None),
                (
                    format!("bob (black) {words}: why not"),
                    Some("why not".to_owned()),
                ),
            ] {
                assert_eq!(
                    labels().read(&text),
                    Ok(Block::Record(Color::Black, action.clone(), said)),
                    "{text}"
                );
            }
        }
        let refused = [
            Action::ClaimTimeout,
            Action::Leave(5),
            Action::FlipCommit(digest),
            Action::FlipNonce(digest),
            Action::FlipReveal(digest),
            Action::Defer,
            Action::Accept { nonce: None },
            Action::Offer(Settlement::RunOff),
            Action::AcceptOffer(Settlement::RunOff),
            Action::Claim(Settlement::RunOff, "repetition".into()),
        ];
        for action in refused {
            let text = format!("alice (white) {}: a word", recap::summary(&action));
            assert!(labels().read(&text).is_err(), "{text}");
        }
        let adjudicated = "the arbiter carol adjudicates the game: white-wins (abandoned)";
        assert!(labels().read(adjudicated).is_err());
    }

    #[test]
    fn words_of_a_player_of_another_program_and_of_an_earlier_export() {
        assert_eq!(
            labels().read("alice (white): the king's pawn"),
            Ok(Block::Said(Color::White, "the king's pawn".into()))
        );
        // Another program's words, even in a player's shape, are the mover's.
        for plain in [
            "best by test",
            "alice (white) played well",
            "coup: a surprise; best by test",
            "[%clk 0:02:58]",
        ] {
            assert_eq!(
                labels().read(plain),
                Ok(Block::Plain(plain.into())),
                "{plain}"
            );
        }
        // Words that name another player would be signed in the wrong name.
        let carol = labels().read("carol (white): mine").expect_err("not alice");
        assert_eq!(
            carol,
            "`carol (white): mine` names carol as white's player, but the PGN's white is `alice`"
        );
        assert!(labels().read("carol (black) resigns").is_err());
        // Words said before a coin flip gave out the colours have no place in an imported game.
        assert!(labels().read("bob (toss): have fun").is_err());
        assert!(labels().read("bob (toss) resigns").is_err());
        // An earlier export joined an offer's words to the move's: read as one record's, which
        // the import lists as a change.
        assert_eq!(
            labels().read("alice (white): calm; bob (black): too strong"),
            Ok(Block::Said(
                Color::White,
                "calm; bob (black): too strong".into()
            ))
        );
        assert!(labels().joined("calm; bob (black): too strong").is_some());
        assert_eq!(labels().joined("calm; not a record of bob's"), None);
    }
}
