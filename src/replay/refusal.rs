//! Why the state machine refuses a record that is well-formed, signed and chained: the order of
//! accepting, flipping, playing, offering and claiming. One variant per rule, with the players'
//! names (as `alice (heads)`) for the message.

use crate::log::Settlement;

/// A record that breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// A record other than the conditional reply due (or a resignation).
    #[error(
        "{author}'s conditional line has its reply {reply} due: the next record is that reply, \
         `applied`, or a resignation"
    )]
    ReplyDue {
        /// The author of the line.
        author: String,
        /// The reply, in the file's notation.
        reply: String,
    },
    /// A withdrawal with no conditional of the signer's standing.
    #[error("{by} has no conditional lines standing to withdraw")]
    NothingToWithdraw {
        /// The signer.
        by: String,
    },
    /// A conditional anywhere but right after its signer's own move.
    #[error(
        "a conditional is signed right after its signer's own move, while the game waits for \
         the opponent: {by} has not just moved"
    )]
    ConditionalNotAfterMove {
        /// The signer.
        by: String,
    },
    /// A conditional line that cannot be played from the position it is signed in.
    #[error("conditional line {line}: {mv} cannot be played there: {reason}")]
    ConditionalIllegal {
        /// The line, from 1.
        line: usize,
        /// The move that cannot be played.
        mv: String,
        /// Why.
        reason: String,
    },
    /// An `applied` record where no conditional reply is due.
    #[error(
        "no conditional reply is due: an `applied` record follows only the move a standing \
         line expects"
    )]
    NoReplyDue,
    /// An `applied` record holding another move than the reply due.
    #[error("{written} is not the reply due: {author}'s conditional line answers with {reply}")]
    NotTheReply {
        /// The move the record holds.
        written: String,
        /// The author of the line.
        author: String,
        /// The reply the line gives.
        reply: String,
    },
    /// An `applied` record dated otherwise than the move it answers.
    #[error(
        "an `applied` reply carries the time of the move it answers ({}), not {}: the author \
         is charged no time",
        answered.as_str(),
        written.as_str()
    )]
    ReplyTime {
        /// The record's time.
        written: crate::log::Timestamp,
        /// The time of the move it answers.
        answered: crate::log::Timestamp,
    },
    /// A record other than the hidden lines' answer where one is owed.
    #[error(
        "{author}'s hidden conditional lines answer the move just played first: the next record \
         is {author}'s `reveal` of the reply or `disclose` of the lines (or a resignation, or a \
         claim on time)"
    )]
    AnswerOwed {
        /// The author of the lines.
        author: String,
    },
    /// A `reveal` or `disclose` where no hidden lines await an answer.
    #[error(
        "no hidden conditional lines await an answer: a `{kind}` record follows only the \
         opponent's move after its signer's `hidden-conditional`"
    )]
    NothingToAnswer {
        /// The record's kind.
        kind: &'static str,
    },
    /// A reveal whose proof does not open the commitment.
    #[error(
        "the reveal does not open the commitment of the hidden lines to {written} after the \
         moves played since: its salt or proof is not the tree's"
    )]
    RevealNotCommitted {
        /// The move the record holds.
        written: String,
    },
    /// A disclosure whose lines and seed make another tree.
    #[error(
        "the disclosed lines and seed make a tree whose root is {made}, not the commitment {committed}"
    )]
    DisclosureNotCommitted {
        /// The root they make.
        made: String,
        /// The commitment.
        committed: String,
    },
    /// A disclosure where a line answers the move just played.
    #[error(
        "the disclosed lines answer the move just played with {reply}: that reply was due, as \
         a `reveal`, not a disclosure"
    )]
    DisclosedOverReply {
        /// The reply, in the file's notation.
        reply: String,
    },
    /// An adjudication signed by a player.
    #[error("only the arbiter, {arbiter}, may adjudicate this game")]
    NotTheArbiter {
        /// The header's arbiter.
        arbiter: String,
    },
    /// An adjudication in a game without an arbiter.
    #[error("this game has no arbiter, so nobody may adjudicate it")]
    NoArbiter,
    /// A record of the arbiter's other than an adjudication.
    #[error("the arbiter, {arbiter}, may only adjudicate; the players sign everything else")]
    ArbiterOnlyAdjudicates {
        /// The header's arbiter.
        arbiter: String,
    },
    /// An adjudication before the opponent accepted the game, and with it the arbiter.
    #[error(
        "the game has not been accepted yet, and with it the arbiter: there is nothing to \
         adjudicate"
    )]
    AdjudicateBeforeAccept,
    /// A resignation before the game was accepted.
    #[error(
        "the game has not been accepted yet, so there is nothing to resign: {accepter} accepts \
         it, or does nothing"
    )]
    NothingToResign {
        /// The player who may accept.
        accepter: String,
    },
    /// A claim on time or a leave in a game without a time control.
    #[error("this game has no time control: no clock to claim on, or to stop with leave")]
    NoClock,
    /// A claim on time or a leave while no clock runs.
    #[error("no clock runs yet ({waiting})")]
    NoClockRunning {
        /// What the game waits for.
        waiting: String,
    },
    /// A claim on time by the player whose clock runs.
    #[error("it is {by}'s own clock that runs: the other player may claim on time, not {by}")]
    OwnClock {
        /// The claimant.
        by: String,
    },
    /// A claim on time dated before the deadline.
    #[error(
        "{late} has until {} to act; a claim on time must be dated after that",
        deadline.as_str()
    )]
    NotLate {
        /// The player the game waits for.
        late: String,
        /// Their deadline.
        deadline: crate::log::Timestamp,
    },
    /// A leave while the player is on leave.
    #[error("{by} is on leave until {}: a leave ends before another is taken", until.as_str())]
    OnLeave {
        /// The player.
        by: String,
        /// When the leave ends.
        until: crate::log::Timestamp,
    },
    /// A leave by the awaited player after their deadline.
    #[error(
        "{by} is past their deadline ({}): a leave cannot stop a clock that has run out",
        deadline.as_str()
    )]
    LeaveOverdue {
        /// The player.
        by: String,
        /// Their deadline.
        deadline: crate::log::Timestamp,
    },
    /// More days of leave than the player has left.
    #[error(
        "{by} asks for {} of leave, but has {} left",
        crate::replay::clock::days_and_hours(u64::from(*days) * 86_400),
        crate::replay::clock::days_and_hours(*left)
    )]
    LeaveTooLong {
        /// The player.
        by: String,
        /// The days asked for.
        days: u32,
        /// The seconds of leave left.
        left: u64,
    },
    /// The opponent's first record is not an acceptance.
    #[error("the game has not been accepted yet: {accepter} must accept first")]
    NotAccepted {
        /// The player who must accept.
        accepter: String,
    },
    /// The creator signed an acceptance.
    #[error("{creator} created the game and cannot accept it; {accepter} accepts")]
    CreatorAccepts {
        /// The creator.
        creator: String,
        /// The player who accepts.
        accepter: String,
    },
    /// An acceptance without the answer the opening coin flip needs.
    #[error("the accept must carry a nonce for the opening coin flip")]
    AcceptWithoutNonce,
    /// An acceptance answering a coin flip the game does not have.
    #[error("this game has no coin flip to answer")]
    NoFlipToAnswer,
    /// Something other than the reveal while it is owed.
    #[error(
        "{by} owes the reveal of the coin flip: only the reveal or a resignation may come next"
    )]
    RevealOwed {
        /// The player who owes it.
        by: String,
    },
    /// A reveal that does not open the commitment.
    #[error("the revealed nonce does not match the commitment made in {}", document_name(*.committed_in))]
    RevealMismatch {
        /// The document that carries the commitment (0: the header).
        committed_in: usize,
    },
    /// Something other than the commitment a due Run-Off needs.
    #[error("a run-off is due: {by} must commit to its coin flip first")]
    CommitDue {
        /// The player who must commit.
        by: String,
    },
    /// Something other than the answer to a commitment.
    #[error("{by} must answer the coin flip with a nonce")]
    NonceDue {
        /// The player who must answer.
        by: String,
    },
    /// Something other than the first move or a deferral from the toss winner.
    #[error("{by} won the toss and must move first or defer")]
    ChooseDue {
        /// The toss winner.
        by: String,
    },
    /// An offer, acceptance or claim of the settlement another game has.
    #[error("{game} is settled by a {}, not a {}", .settled_by.words(), .asked.words())]
    WrongSettlement {
        /// The game's name.
        game: &'static str,
        /// How it settles.
        settled_by: Settlement,
        /// What the record asked for.
        asked: Settlement,
    },
    /// An offer, acceptance or claim in a game that has none.
    #[error("{game} has no offers or claims")]
    NoSettlement {
        /// The game's name.
        game: &'static str,
    },
    /// A second offer while the player's first still stands.
    #[error("{by}'s offer already stands")]
    OfferStands {
        /// The player who offered.
        by: String,
    },
    /// An acceptance with no offer from the other player standing.
    #[error("there is no {} offer from {from} to accept", .settlement.words())]
    NoOffer {
        /// What the acceptance names.
        settlement: Settlement,
        /// The other player.
        from: String,
    },
    /// A second acceptance of the game.
    #[error("the game was already accepted")]
    AlreadyAccepted,
    /// A deferral once play has begun.
    #[error("only the toss winner defers, instead of the first move")]
    DeferNow,
    /// A coin-flip record with no coin flip under way.
    #[error("no coin flip is under way")]
    NoFlip,
    /// A move written otherwise than the file's canonical notation.
    #[error("`{written}` is not in canonical notation; the file stores `{canonical}`")]
    NotCanonical {
        /// As written.
        written: String,
        /// As the file must store it.
        canonical: String,
    },
    /// A claim the game does not have.
    #[error("`{claim}` is not a claim in {game}: {}", claims_in_words(.known))]
    UnknownClaim {
        /// The claim's name, as written.
        claim: String,
        /// The game's name.
        game: &'static str,
        /// The game's claims.
        known: &'static [&'static str],
    },
    /// A claim the position does not allow.
    #[error(
        "{claimant} claims {claim}, but it cannot be claimed in this position ({position}; it \
         has occurred {})",
        times(*.repetitions)
    )]
    NotClaimable {
        /// The player who claims.
        claimant: String,
        /// The claim.
        claim: String,
        /// The position string.
        position: String,
        /// How often the position has occurred.
        repetitions: usize,
    },
}

fn document_name(document: usize) -> String {
    if document == 0 {
        "the header".to_owned()
    } else {
        format!("record {document}")
    }
}

/// How often, in words: "once", "twice", "3 times".
fn times(n: usize) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

fn claims_in_words(known: &[&str]) -> String {
    match known {
        [] => "it has none".to_owned(),
        names => format!("its claims are {}", names.join(", ")),
    }
}
