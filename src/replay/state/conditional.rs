//! Conditional moves (docs/conditional-moves.md): replies a player signs ahead, and the records
//! that apply them.
//!
//! A player who has just moved may sign a `conditional` record: lines of the opponent's
//! expected moves, each with the player's reply. While the lines stand, the opponent's next
//! record decides them: a move that a line expects makes that line's reply **due**, and the
//! record after it must be the `applied` reply (or a resignation, which ends the game); any
//! other record (a move no line expects, an offer, a claim, a leave) voids them, as the
//! author's `withdraw` does. What is left of the matching lines stands after the reply. The
//! reply is the author's move whoever appends it: its authority is the author's signed
//! promise, which the replayer holds it to, so it may be appended only where the promise
//! names, and it carries the time of the move it answers, so the author is charged no time.

use super::{Applied, State};
use crate::digest::Digest;
use crate::log::{Action, Conditional, GameFile};
use crate::replay::phase::{Event, Phase, Seat};
use crate::replay::refusal::ProtocolError;
use crate::replay::{ErrorKind, Player, Protocol};
use crate::rules::{Line, MoveError};

/// Conditional lines that stand: whose, and what is left of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingLines {
    /// The author, whose replies they are.
    pub author: Seat,
    /// What is left of each line: the opponent's next move, the reply, and so on.
    pub lines: Vec<Vec<String>>,
    /// The reply due now, in the file's notation: the opponent's move matched a line, and the
    /// next record must be this reply, `applied`.
    pub due: Option<String>,
    /// Where the lines are hidden (`lines` is then empty, and `due` none): their commitment.
    pub hidden: Option<HiddenLines>,
}

/// Hidden lines that stand: their commitment, and how far the game has gone since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenLines {
    /// The root of their tree.
    pub commitment: Digest,
    /// The digest of the move they follow, which their keys start from.
    pub binding: Digest,
    /// The moves since that move, in the file's notation: the opponent's, and the replies
    /// revealed.
    pub played: Vec<String>,
    /// Whether the opponent has moved, so that the author's reveal or disclosure comes next.
    pub owed: bool,
}

impl StandingLines {
    /// The hidden lines whose author's answer to the opponent's move comes next, if these are
    /// such lines.
    #[must_use]
    pub fn answer_owed(&self) -> Option<&HiddenLines> {
        self.hidden.as_ref().filter(|h| h.owed)
    }

    /// Whether the opponent's move `mv` (in the file's notation) meets a line that stands, so
    /// that its reply comes next.
    #[must_use]
    pub fn expects(&self, mv: &str) -> bool {
        self.due.is_none() && self.lines.iter().any(|line| line[0] == mv)
    }

    /// In words, in the game's own notation (SAN in chess) from `position`, the position the
    /// lines stand in: `alice (white)'s conditional lines stand: e5 Nf3 Nc6 Bb5 | c5 Nf3`, or
    /// the reply that is due.
    #[must_use]
    pub fn describe<G: Protocol>(&self, seats: &[Player<G::Side>; 2], position: &G) -> String {
        let author = &seats[self.author];
        if let Some(hidden) = &self.hidden {
            return if hidden.owed {
                format!(
                    "{author}'s hidden conditional lines answer the move just played: the next \
                     record is {author}'s reveal of the reply or disclosure of the lines"
                )
            } else {
                format!("{author}'s hidden conditional lines stand")
            };
        }
        if let Some(reply) = &self.due {
            return format!(
                "{author}'s conditional reply {} is due: the next record is that reply",
                shown_move(position, reply)
            );
        }
        let lines: Vec<String> = self
            .lines
            .iter()
            .map(|line| shown_line(position, line))
            .collect();
        let noun = if lines.len() == 1 {
            "line stands"
        } else {
            "lines stand"
        };
        format!("{author}'s conditional {noun}: {}", lines.join(" | "))
    }
}

/// A move in the file's notation, as the game shows it in `position` (SAN in chess).
#[must_use]
pub fn shown_move<G: Protocol>(position: &G, text: &str) -> String {
    position
        .parse_move(text)
        .map_or_else(|_| text.to_owned(), |mv| position.display_move(&mv))
}

/// One line played out from `position`, each move as the game shows it (a move that cannot be
/// played, which a checked line never holds, as written).
#[must_use]
pub fn shown_line<G: Protocol>(position: &G, line: &[String]) -> String {
    let mut at = position.clone();
    let mut words = Vec::with_capacity(line.len());
    for text in line {
        match at.parse_move(text) {
            Ok(mv) => {
                words.push(at.display_move(&mv));
                at = at.play_legal(&mv);
            }
            Err(_) => words.push(text.clone()),
        }
    }
    words.join(" ")
}

impl<G: Protocol> State<G> {
    /// What a standing conditional makes of the next record, before the record is applied:
    /// `Ok(None)` when the record is for the usual rules to judge; `Some` when this module
    /// has judged it whole.
    pub(super) fn conditional_first(
        &mut self,
        file: &GameFile,
        signer: Seat,
        action: &Action,
        document: usize,
    ) -> Result<Option<Vec<Event>>, ErrorKind> {
        let refused = |e| Err(ErrorKind::Protocol(e));
        // An answer of hidden lines owed comes first, as a reply due does.
        if self
            .conditional
            .as_ref()
            .is_some_and(|s| s.answer_owed().is_some())
        {
            return self.answer_first(signer, action);
        }
        // A reply due comes first: the next record is that reply, or a resignation.
        if let Some(standing) = &self.conditional
            && let Some(reply) = &standing.due
        {
            return match action {
                Action::Applied(mv) => self.apply_reply(file, mv, document).map(Some),
                Action::Resign => Ok(None),
                _ => refused(ProtocolError::ReplyDue {
                    author: self.name(standing.author),
                    reply: reply.clone(),
                }),
            };
        }
        match action {
            Action::Conditional(lines) => self.promise(signer, lines).map(Some),
            Action::HiddenConditional(root) => {
                let binding = file.records()[document - 1].prev;
                self.promise_hidden(signer, *root, binding).map(Some)
            }
            Action::Applied(_) => refused(ProtocolError::NoReplyDue),
            Action::Reveal(_) | Action::Disclose(_) => refused(ProtocolError::NothingToAnswer {
                kind: action.kind().name(),
            }),
            Action::Withdraw => match &self.conditional {
                Some(standing) if standing.author == signer => {
                    self.conditional = None;
                    Ok(Some(vec![Event::Withdrawn]))
                }
                _ => refused(ProtocolError::NothingToWithdraw {
                    by: self.name(signer),
                }),
            },
            _ => Ok(None),
        }
    }

    /// After a record the usual rules accepted: the opponent's move that a standing line
    /// expects makes its reply due; any other record voids the lines.
    pub(super) fn conditional_after(&mut self, action: &Action, events: &mut Vec<Event>) {
        let Some(standing) = self.conditional.take() else {
            return;
        };
        if let Phase::Over(_) = self.phase {
            return;
        }
        // Leave stops a clock and changes nothing on the board: the lines stand through it,
        // as a player on holiday would want.
        if let Action::Leave(_) = action {
            self.conditional = Some(standing);
            return;
        }
        if let Action::Move(mv) = action
            && standing.hidden.is_some()
        {
            // A move that calls for a coin flip (a Run-Off) leaves no move to answer it with.
            if self.phase != Phase::Playing(standing.author) {
                events.push(Event::LinesVoid(
                    self.name(standing.author),
                    "the game waits for a coin flip, not a reply".to_owned(),
                ));
                return;
            }
            let mut standing = standing;
            if let Some(hidden) = &mut standing.hidden {
                hidden.played.push(mv.clone());
                hidden.owed = true;
            }
            events.push(Event::AnswerOwed(self.name(standing.author)));
            self.conditional = Some(standing);
            return;
        }
        if let Action::Move(mv) = action {
            let author = self.name(standing.author);
            let matched: Vec<&Vec<String>> =
                standing.lines.iter().filter(|l| l[0] == *mv).collect();
            if let Some(first) = matched.first() {
                let reply = first[1].clone();
                let position = self
                    .line
                    .as_ref()
                    .expect("a move was just played")
                    .current();
                let shown = shown_move(position, &reply);
                let lines = matched
                    .iter()
                    .filter(|l| l.len() > 2)
                    .map(|l| l[2..].to_vec())
                    .collect();
                events.push(Event::ReplyDue(author, shown));
                self.conditional = Some(StandingLines {
                    due: Some(reply),
                    lines,
                    ..standing
                });
                return;
            }
            let shown = events.iter().find_map(|e| match e {
                Event::Moved(shown, _) => Some(shown.clone()),
                _ => None,
            });
            let shown = shown.unwrap_or_else(|| mv.clone());
            events.push(Event::LinesVoid(
                author,
                format!("{shown} is in none of them"),
            ));
            return;
        }
        events.push(Event::LinesVoid(
            self.name(standing.author),
            format!("the `{}` record came first", action.kind()),
        ));
    }

    /// A `conditional` record: right after the signer's own move, while the game waits for
    /// the opponent, with every line legal from the position it is signed in.
    fn promise(&mut self, signer: Seat, lines: &Conditional) -> Applied {
        let refused = |e| Err(ErrorKind::Protocol(e));
        if self.just_moved != Some(signer) || self.phase != Phase::Playing(signer.other()) {
            return refused(ProtocolError::ConditionalNotAfterMove {
                by: self.name(signer),
            });
        }
        let line = self.line.as_ref().expect("a move was just played");
        check_conditional(line, lines).map_err(ErrorKind::Protocol)?;
        self.conditional = Some(StandingLines {
            author: signer,
            lines: lines.lines().to_vec(),
            due: None,
            hidden: None,
        });
        Ok(vec![Event::Promised(lines.lines().len())])
    }

    /// An `applied` record: the reply due, dated as the move it answers, played as the
    /// author's move.
    fn apply_reply(&mut self, file: &GameFile, mv: &str, document: usize) -> Applied {
        let refused = |e| Err(ErrorKind::Protocol(e));
        // Called only where a reply is due; a refusal ends the replay, so nothing is put back.
        let standing = self.conditional.take().expect("a reply is due");
        let reply = standing.due.as_deref().expect("a reply is due");
        if mv != reply {
            return refused(ProtocolError::NotTheReply {
                written: mv.to_owned(),
                author: self.name(standing.author),
                reply: reply.to_owned(),
            });
        }
        let time = &file.records()[document - 1].time;
        let answered = &file.records()[document - 2].time;
        if time != answered {
            return refused(ProtocolError::ReplyTime {
                written: time.clone(),
                answered: answered.clone(),
            });
        }
        let author = standing.author;
        let mut events = self.play_move(mv)?;
        events.insert(1, Event::Replied(author, self.name(author)));
        if !standing.lines.is_empty() && !matches!(self.phase, Phase::Over(_)) {
            self.conditional = Some(StandingLines {
                due: None,
                ..standing
            });
        }
        Ok(events)
    }
}

/// Checks that every line of `lines` can be played out from the end of `line` (the game so
/// far, its history counted: a repetition can end it), alternating the sides to its end.
///
/// # Errors
/// The first line that cannot, with its move and why.
pub fn check_conditional<G: Protocol>(
    line: &Line<G>,
    lines: &Conditional,
) -> Result<(), ProtocolError> {
    for (i, moves) in lines.lines().iter().enumerate() {
        check_line(line, moves).map_err(|(at, reason)| ProtocolError::ConditionalIllegal {
            line: i + 1,
            mv: moves[at].clone(),
            reason,
        })?;
    }
    Ok(())
}

/// Plays `moves` from the end of `line`: the index of the first move that cannot be played, and
/// why, if one cannot.
fn check_line<G: Protocol>(line: &Line<G>, moves: &[String]) -> Result<(), (usize, String)> {
    let mut line = line.clone();
    for (at, text) in moves.iter().enumerate() {
        if let Some(outcome) = line.outcome() {
            return Err((at, format!("the game is over before it ({outcome})")));
        }
        let position = line.current();
        let mv = position.parse_move(text).map_err(|e| {
            (
                at,
                match e {
                    MoveError::Illegal(reason) => reason.to_string(),
                    other => other.to_string(),
                },
            )
        })?;
        if mv.to_string() != *text {
            return Err((at, format!("it is written {mv} in the file's notation")));
        }
        let side = position.side_to_move();
        line.play_legal(&mv);
        // A line alternates the opponent's turns and the author's: a turn of several records
        // would let a reply be played as the opponent's.
        if line.current().side_to_move() == side && at + 1 < moves.len() {
            return Err((at, "the same side would move again after it".to_owned()));
        }
    }
    Ok(())
}
