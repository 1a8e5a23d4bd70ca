//! The comments of each place of a PGN's main line, read as `import-pgn` signs them: the words
//! of the record there and the records that follow it, each by the player its words name; and
//! words made fit for a record, each change noted.

use super::Importer;
use super::comments::Block;
use crate::cli::CliError;
use correspond::games::chess::Color;
use correspond::log::{self, Action};
use correspond::pgn::PgnComment;

/// The comments of one place of the main line (before the first move, or after a move), read:
/// the words of the record there (the acceptance, the move), and the records that follow it.
pub(super) struct Slot {
    /// Who the words are by, where they name them.
    pub(super) speaker: Option<Color>,
    /// The words, each with its PGN line.
    pub(super) said: Vec<(String, usize)>,
    /// The records that are not moves: who, what, their words, the PGN line.
    pub(super) records: Vec<(Color, Action, Option<String>, usize)>,
}

impl Importer<'_> {
    /// A game won before a coin flip gave out the colours, as `correspond pgn` says it, has no
    /// result an imported game (which has no coin flip) can make again.
    pub(super) fn not_won_before_colours(&self) -> Result<(), CliError> {
        let pgn = self.pgn;
        let every = pgn
            .before
            .iter()
            .chain(pgn.moves.iter().flat_map(|m| &m.comments));
        match every.into_iter().find(|c| {
            c.text
                .ends_with(crate::cli::reading::pgn::WON_BEFORE_COLOURS)
        }) {
            Some(comment) => Err(self.at(
                comment.line,
                "the game was won before a coin flip gave out the colours, which an imported \
                 game, whose colours are the PGN's, cannot make again",
            )),
            None => Ok(()),
        }
    }

    /// Reads the comments of one place: before the first move (`mover` `None`), or after a
    /// move of `mover`'s whose coup, if any, `correspond pgn` writes as `coup` (which the replay
    /// says again, so it is not kept).
    pub(super) fn slot(
        &mut self,
        comments: &[PgnComment],
        mover: Option<Color>,
        coup: Option<&str>,
    ) -> Result<Slot, CliError> {
        let mut slot = Slot {
            speaker: mover,
            said: Vec::new(),
            records: Vec::new(),
        };
        for comment in comments {
            if Some(comment.text.as_str()) == coup {
                continue;
            }
            let block = self
                .labels
                .read(&comment.text)
                .map_err(|why| self.at(comment.line, why))?;
            let words = match &block {
                Block::Said(_, said) | Block::Record(_, _, Some(said)) => Some(said.as_str()),
                Block::Plain(_) | Block::Record(_, _, None) => None,
            };
            if let Some(joined) = words.and_then(|said| self.labels.joined(said)) {
                self.changes.push(comment.line, joined);
            }
            let (speaker, said) = match block {
                Block::Record(colour, action, said) => {
                    slot.records.push((colour, action, said, comment.line));
                    continue;
                }
                Block::Plain(said) => (None, said),
                Block::Said(colour, said) => (Some(colour), said),
            };
            if let Some(record) = slot.records.last() {
                return Err(self.at(
                    comment.line,
                    format!(
                        "`{}` comes after {}'s record `{}`, and words after a record that is \
                         not a move are that record's, after its `: `",
                        correspond::text::shown(&comment.text),
                        self.labels.of(record.0),
                        crate::cli::shared::recap::summary(&record.1)
                    ),
                ));
            }
            match (speaker, slot.speaker) {
                (Some(colour), Some(speaker)) if colour != speaker => {
                    let place = match mover {
                        Some(_) => format!("after a move of {}", self.labels.of(speaker)),
                        None => format!("before the first move, where {}", self.labels.of(speaker)),
                    };
                    return Err(self.at(
                        comment.line,
                        format!(
                            "`{}` are {}'s words {place} has spoken: no record of theirs there \
                             can carry them",
                            correspond::text::shown(&comment.text),
                            self.labels.of(colour)
                        ),
                    ));
                }
                (Some(colour), None) => slot.speaker = Some(colour),
                _ => {}
            }
            slot.said.push((said, comment.line));
        }
        Ok(slot)
    }

    /// A record's words, made fit for one ([`log::clean_comment`]); each change a change, and
    /// so is joining several comments into one (a record holds one).
    pub(super) fn words(&mut self, said: &[(String, usize)]) -> Option<String> {
        let line = said.first()?.1;
        if said.len() > 1 {
            let lines: Vec<String> = said.iter().map(|(_, line)| line.to_string()).collect();
            self.changes.push(
                line,
                format!(
                    "{} comments (on lines {}) are joined into one, as a record holds one",
                    said.len(),
                    lines.join(", ")
                ),
            );
        }
        let text = said
            .iter()
            .map(|(text, _)| text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let fit = log::clean_comment(&text);
        let shown = correspond::text::shown;
        if !log::valid_comment(&fit) {
            self.changes
                .push(line, format!("the comment `{}` is left out", shown(&text)));
            return None;
        }
        if fit != text {
            self.changes.push(
                line,
                format!(
                    "the comment `{}` is kept as `{}`",
                    shown(&text),
                    shown(&fit)
                ),
            );
        }
        Some(fit)
    }
}
