//! Hidden conditional lines (docs/conditional-moves.md, [`crate::hidden`]): the replayer holds
//! a commitment, not the lines, so it cannot tell whether the opponent's move meets one. After
//! that move the author answers first, with a `reveal` of the reply, which opens the commitment
//! at the moves played since, or a `disclose` of the lines and the seed, which rebuilds the
//! tree and shows that no line answers the move. Nothing else comes between but a resignation
//! or a claim on time, which keeps an author who never answers from holding the game (their
//! clock runs while the answer is owed, and a reveal in time is then charged none of it), or a
//! leave, which changes nothing on the board.

use super::conditional::{HiddenLines, StandingLines};
use super::{Applied, State};
use crate::digest::Digest;
use crate::hidden::{Opening, Tree, key, reply_after};
use crate::log::{Action, Disclosure, Reveal};
use crate::replay::phase::{Event, Phase, Seat};
use crate::replay::refusal::ProtocolError;
use crate::replay::{ErrorKind, Protocol};

impl<G: Protocol> State<G> {
    /// The next record where hidden lines owe their author's answer: the `reveal` or the
    /// `disclose` judged whole (`Some`); a resignation, a claim on time or a leave left to the
    /// usual rules (`None`); anything else refused.
    pub(super) fn answer_first(
        &mut self,
        signer: Seat,
        action: &Action,
    ) -> Result<Option<Vec<Event>>, ErrorKind> {
        let author = self.conditional.as_ref().expect("an answer is owed").author;
        match action {
            Action::Reveal(reveal) if signer == author => self.reveal_reply(reveal).map(Some),
            Action::Disclose(disclosure) if signer == author => self.disclose(disclosure).map(Some),
            // A leave stops a clock and changes nothing on the board: the lines stand through
            // it, and the opponent, whose move ended any leave of theirs, may take one.
            Action::Resign | Action::ClaimTimeout | Action::Leave(_) => Ok(None),
            _ => Err(ErrorKind::Protocol(ProtocolError::AnswerOwed {
                author: self.name(author),
            })),
        }
    }

    /// A `hidden-conditional` record: right after the signer's own move (whose digest,
    /// `binding`, its keys start from), while the game waits for the opponent. Its lines are
    /// not known, so nothing of them is checked now.
    pub(super) fn promise_hidden(
        &mut self,
        signer: Seat,
        root: Digest,
        binding: Digest,
    ) -> Applied {
        if self.just_moved != Some(signer) || self.phase != Phase::Playing(signer.other()) {
            return Err(ErrorKind::Protocol(
                ProtocolError::ConditionalNotAfterMove {
                    by: self.name(signer),
                },
            ));
        }
        self.conditional = Some(StandingLines {
            author: signer,
            lines: Vec::new(),
            due: None,
            hidden: Some(HiddenLines {
                commitment: root,
                binding,
                played: Vec::new(),
                owed: false,
            }),
        });
        Ok(vec![Event::HiddenPromised])
    }

    /// A `reveal`: the reply the commitment holds at the moves played since it, played as the
    /// author's move.
    fn reveal_reply(&mut self, reveal: &Reveal) -> Applied {
        let mut standing = self.conditional.take().expect("hidden lines stand");
        let hidden = standing.hidden.as_mut().expect("hidden lines stand");
        let at = key(&hidden.binding, &hidden.played);
        let opening = Opening {
            salt: reveal.salt,
            proof: reveal.proof.clone(),
        };
        if !opening.opens(&hidden.commitment, &at, &reveal.mv) {
            return Err(ErrorKind::Protocol(ProtocolError::RevealNotCommitted {
                written: reveal.mv.clone(),
            }));
        }
        hidden.played.push(reveal.mv.clone());
        hidden.owed = false;
        let author = standing.author;
        let mut events = self.play_move(&reveal.mv)?;
        events.insert(1, Event::Replied(author, self.name(author)));
        if !matches!(self.phase, Phase::Over(_)) {
            self.conditional = Some(standing);
        }
        Ok(events)
    }

    /// A `disclose`: the lines and seed make the committed tree, and none of the lines answers
    /// the moves played since; the lines are spent, and the author moves as usual.
    fn disclose(&mut self, disclosure: &Disclosure) -> Applied {
        let standing = self.conditional.take().expect("hidden lines stand");
        let hidden = standing.hidden.expect("hidden lines stand");
        let lines = disclosure.lines.lines();
        let made = Tree::new(&hidden.binding, &disclosure.seed, lines).map(|t| t.root());
        if made.as_ref() != Ok(&hidden.commitment) {
            return Err(ErrorKind::Protocol(ProtocolError::DisclosureNotCommitted {
                made: made.map_or_else(|e| e.to_string(), |d| d.to_string()),
                committed: hidden.commitment.to_string(),
            }));
        }
        if let Some(reply) = reply_after(lines, &hidden.played) {
            return Err(ErrorKind::Protocol(ProtocolError::DisclosedOverReply {
                reply: reply.to_owned(),
            }));
        }
        Ok(vec![Event::Disclosed])
    }
}
