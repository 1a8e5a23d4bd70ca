//! What a record does ([`Action`]), and the one table of record kinds: each kind's name in the
//! file's `kind` field and the field that carries its content. The reader, the writer and every
//! report take kinds from [`Kind::ALL`], so a new kind is one line of the table and one variant.

use crate::digest::Digest;
use std::fmt;

/// What a record does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The opponent accepts the header's terms; with its coin-flip nonce when there is a toss.
    Accept {
        /// The opponent's nonce for the opening flip.
        nonce: Option<Digest>,
    },
    /// A move, in the game's canonical notation.
    Move(String),
    /// The toss winner lets the other player move first.
    Defer,
    /// The player who must start a coin flip commits to a nonce.
    FlipCommit(Digest),
    /// The other player's nonce for the flip under way.
    FlipNonce(Digest),
    /// The committing player reveals its nonce.
    FlipReveal(Digest),
    /// The signer resigns.
    Resign,
    /// The signer offers to end the game by the game's settlement (a Run-Off, a draw).
    Offer(Settlement),
    /// The signer accepts the opponent's standing offer.
    AcceptOffer(Settlement),
    /// The signer claims the game's settlement by a rule (`repetition`, `halfmove-clock`,
    /// `fifty-moves`).
    Claim(Settlement, String),
    /// The signer claims the game on time: the player the game waits for is past their
    /// deadline.
    ClaimTimeout,
    /// The signer takes this many days of leave, from the record's time: their clock stops.
    Leave(u32),
    /// The header's arbiter ends the game with a result, for a reason.
    Adjudicate(Adjudication),
    /// The signer, having just moved, promises replies: each line the opponent's expected move,
    /// then the signer's reply, alternately (see [`Conditional`]).
    Conditional(Conditional),
    /// The reply a standing conditional line gives to the move just played: a move of the
    /// line's author, whoever appends it.
    Applied(String),
    /// The signer withdraws their standing conditional lines.
    Withdraw,
    /// The signer, having just moved, commits to hidden conditional lines: the root of their
    /// tree ([`crate::hidden`]).
    HiddenConditional(Digest),
    /// The author of hidden lines reveals the reply one of them gives to the move just played.
    Reveal(Reveal),
    /// The author of hidden lines shows them whole, with the seed of their tree: no line
    /// answers the move just played.
    Disclose(Disclosure),
}

/// A reveal's content: the reply, and what opens the hidden lines' commitment to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The reply, in the game's canonical notation.
    pub mv: String,
    /// The leaf's salt.
    pub salt: Digest,
    /// The siblings on the leaf's path, from the root down (at most
    /// [`crate::hidden::MAX_PROOF`]).
    pub proof: Vec<Digest>,
}

/// A disclosure's content: the seed of the tree, and the lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disclosure {
    /// The seed the tree's salts and padding were made from.
    pub seed: Digest,
    /// The lines, in their one spelling.
    pub lines: Conditional,
}

/// A conditional record's lines, in their one spelling: 1 to [`Conditional::MAX_LINES`] lines,
/// each an even number of moves (2 to [`Conditional::MAX_PLIES`]), sorted, none the start of
/// another, and no two giving different replies after the same moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditional {
    lines: Vec<Vec<String>>,
}

impl Conditional {
    /// The most lines a conditional record holds, as lichess allows.
    pub const MAX_LINES: usize = 30;
    /// The most moves (plies, the opponent's and the replies) a line holds.
    pub const MAX_PLIES: usize = 30;

    /// The lines, each as written in the file: the moves separated by one space.
    ///
    /// # Errors
    /// What keeps them from being one spelling of a set of lines, in words.
    pub fn new(lines: Vec<Vec<String>>) -> Result<Conditional, String> {
        if lines.is_empty() || lines.len() > Self::MAX_LINES {
            return Err(format!(
                "a conditional holds 1 to {} lines, not {}",
                Self::MAX_LINES,
                lines.len()
            ));
        }
        for (i, line) in lines.iter().enumerate() {
            let n = i + 1;
            if line.len() < 2 || line.len() > Self::MAX_PLIES || line.len() % 2 == 1 {
                return Err(format!(
                    "line {n} holds {} moves: a line is the opponent's move and your reply, \
                     alternately, 2 to {} moves in all",
                    line.len(),
                    Self::MAX_PLIES
                ));
            }
            if let Some(earlier) = lines[..i].iter().position(|other| other >= line) {
                return Err(format!(
                    "line {n} comes after line {}: lines are written once each, in byte order",
                    earlier + 1
                ));
            }
            if let Some(earlier) = lines[..i].iter().position(|other| line.starts_with(other)) {
                return Err(format!(
                    "line {} is the start of line {n}: write the longer line alone",
                    earlier + 1
                ));
            }
            // Sorted, a line shares the longest start with the line just before it.
            if let Some(before) = i.checked_sub(1).map(|b| &lines[b]) {
                let shared = before.iter().zip(line).take_while(|(a, b)| a == b).count();
                if shared % 2 == 1 {
                    return Err(format!(
                        "lines {i} and {n} answer {} with two replies: after the same moves a \
                     line gives one reply",
                        line[..shared].join(" ")
                    ));
                }
            }
        }
        Ok(Conditional { lines })
    }

    /// Reads the lines of a record: each the moves separated by one space.
    ///
    /// # Errors
    /// As [`Conditional::new`], or a line that is not moves separated by single spaces.
    pub fn parse(lines: &[String]) -> Result<Conditional, String> {
        let lines = lines
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let moves: Vec<String> = text.split(' ').map(str::to_owned).collect();
                if moves.iter().all(|m| super::names::valid_move_text(m)) {
                    Ok(moves)
                } else {
                    Err(format!(
                        "line {} is not moves in the game's notation, separated by single \
                     spaces",
                        i + 1
                    ))
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        Conditional::new(lines)
    }

    /// The lines, sorted.
    #[must_use]
    pub fn lines(&self) -> &[Vec<String>] {
        &self.lines
    }

    /// Each line as the file writes it: its moves separated by one space.
    #[must_use]
    pub fn texts(&self) -> Vec<String> {
        self.lines.iter().map(|line| line.join(" ")).collect()
    }
}

/// An arbiter's decision: who wins, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The result.
    pub result: Adjudged,
    /// Why.
    pub reason: AdjudicationReason,
}

/// The result an arbiter gives, by seat: the header's first player (the creator) or second
/// (the opponent), since sides may not be decided yet when a game is adjudicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Adjudged {
    /// `creator-wins`
    CreatorWins,
    /// `opponent-wins`
    OpponentWins,
    /// `draw`
    Draw,
}

/// Why an arbiter ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AdjudicationReason {
    /// `abandoned`: a player stopped playing.
    Abandoned,
    /// `time-dispute`: the players disagree about the times (by mail, where nobody witnesses
    /// them).
    TimeDispute,
    /// `tournament-end`: the tournament ended with the game unfinished.
    TournamentEnd,
    /// `equivocation`: a player signed two different records at one place (a proof of
    /// equivocation).
    Equivocation,
}

impl Adjudged {
    /// Every result, in the order the documentation lists them.
    pub const ALL: [Adjudged; 3] = [
        Adjudged::CreatorWins,
        Adjudged::OpponentWins,
        Adjudged::Draw,
    ];

    /// The word in the `result` field.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Adjudged::CreatorWins => "creator-wins",
            Adjudged::OpponentWins => "opponent-wins",
            Adjudged::Draw => "draw",
        }
    }

    /// The result a `result` field names.
    #[must_use]
    pub fn named(name: &str) -> Option<Adjudged> {
        Adjudged::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl AdjudicationReason {
    /// Every reason, in the order the documentation lists them.
    pub const ALL: [AdjudicationReason; 4] = [
        AdjudicationReason::Abandoned,
        AdjudicationReason::TimeDispute,
        AdjudicationReason::TournamentEnd,
        AdjudicationReason::Equivocation,
    ];

    /// The word in the `reason` field: a stable code.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            AdjudicationReason::Abandoned => "abandoned",
            AdjudicationReason::TimeDispute => "time-dispute",
            AdjudicationReason::TournamentEnd => "tournament-end",
            AdjudicationReason::Equivocation => "equivocation",
        }
    }

    /// In words, for people.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            AdjudicationReason::Abandoned => "the game was abandoned",
            AdjudicationReason::TimeDispute => "a dispute over the times",
            AdjudicationReason::TournamentEnd => "the tournament ended",
            AdjudicationReason::Equivocation => "a proven equivocation",
        }
    }

    /// The reason a `reason` field names.
    #[must_use]
    pub fn named(name: &str) -> Option<AdjudicationReason> {
        AdjudicationReason::ALL
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// How a game can end by agreement or claim: Campaign settles by a Run-Off (a coin flip),
/// chess by a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Settlement {
    /// A Run-Off: a coin flip decides.
    RunOff,
    /// A draw.
    Draw,
}

impl Settlement {
    /// The name used in record kinds: `runoff` or `draw`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Settlement::RunOff => "runoff",
            Settlement::Draw => "draw",
        }
    }

    /// In words, for people: `run-off` or `draw`.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Settlement::RunOff => "run-off",
            Settlement::Draw => "draw",
        }
    }
}

/// A record's kind: what its `kind` field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `accept`
    Accept,
    /// `move`
    Move,
    /// `defer`
    Defer,
    /// `flip-commit`
    FlipCommit,
    /// `flip-nonce`
    FlipNonce,
    /// `flip-reveal`
    FlipReveal,
    /// `resign`
    Resign,
    /// `offer-runoff`, `offer-draw`
    Offer(Settlement),
    /// `accept-runoff`, `accept-draw`
    AcceptOffer(Settlement),
    /// `claim-runoff`, `claim-draw`
    Claim(Settlement),
    /// `claim-timeout`
    ClaimTimeout,
    /// `leave`
    Leave,
    /// `adjudicate`
    Adjudicate,
    /// `conditional`
    Conditional,
    /// `applied`
    Applied,
    /// `withdraw`
    Withdraw,
    /// `hidden-conditional`
    HiddenConditional,
    /// `reveal`
    Reveal,
    /// `disclose`
    Disclose,
}

/// The field besides the common ones that a kind's record carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Move,
    Nonce,
    Commitment,
    Claim,
    Days,
    /// `result` and `reason`.
    Adjudication,
    /// A conditional's `lines`.
    Lines,
    /// A reveal's `salt`.
    Salt,
    /// A reveal's `proof`.
    Proof,
    /// A disclosure's `seed`.
    Seed,
}

/// The table: each kind, its name in the file, and the fields it carries.
const TABLE: [(Kind, &str, &[Field]); 22] = [
    (Kind::Accept, "accept", &[Field::Nonce]),
    (Kind::Move, "move", &[Field::Move]),
    (Kind::Defer, "defer", &[]),
    (Kind::FlipCommit, "flip-commit", &[Field::Commitment]),
    (Kind::FlipNonce, "flip-nonce", &[Field::Nonce]),
    (Kind::FlipReveal, "flip-reveal", &[Field::Nonce]),
    (Kind::Resign, "resign", &[]),
    (Kind::Offer(Settlement::RunOff), "offer-runoff", &[]),
    (Kind::AcceptOffer(Settlement::RunOff), "accept-runoff", &[]),
    (
        Kind::Claim(Settlement::RunOff),
        "claim-runoff",
        &[Field::Claim],
    ),
    (Kind::Offer(Settlement::Draw), "offer-draw", &[]),
    (Kind::AcceptOffer(Settlement::Draw), "accept-draw", &[]),
    (Kind::Claim(Settlement::Draw), "claim-draw", &[Field::Claim]),
    (Kind::ClaimTimeout, "claim-timeout", &[]),
    (Kind::Leave, "leave", &[Field::Days]),
    (Kind::Adjudicate, "adjudicate", &[Field::Adjudication]),
    (Kind::Conditional, "conditional", &[Field::Lines]),
    (Kind::Applied, "applied", &[Field::Move]),
    (Kind::Withdraw, "withdraw", &[]),
    (
        Kind::HiddenConditional,
        "hidden-conditional",
        &[Field::Commitment],
    ),
    (
        Kind::Reveal,
        "reveal",
        &[Field::Move, Field::Salt, Field::Proof],
    ),
    (Kind::Disclose, "disclose", &[Field::Seed, Field::Lines]),
];

impl Kind {
    /// Every kind, in the table's order.
    pub const ALL: [Kind; 22] = {
        let mut all = [Kind::Accept; 22];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (Kind, &'static str, &'static [Field]) {
        TABLE
            .iter()
            .find(|row| row.0 == self)
            .expect("every kind has its row in the table")
    }

    /// The name the `kind` field holds: `flip-commit`.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The kind a `kind` field names, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Kind> {
        TABLE.iter().find(|row| row.1 == name).map(|row| row.0)
    }

    /// The fields its records carry.
    pub(super) fn fields(self) -> &'static [Field] {
        self.row().2
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Action {
    /// The record's kind.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Action::Accept { .. } => Kind::Accept,
            Action::Move(_) => Kind::Move,
            Action::Defer => Kind::Defer,
            Action::FlipCommit(_) => Kind::FlipCommit,
            Action::FlipNonce(_) => Kind::FlipNonce,
            Action::FlipReveal(_) => Kind::FlipReveal,
            Action::Resign => Kind::Resign,
            Action::Offer(s) => Kind::Offer(*s),
            Action::AcceptOffer(s) => Kind::AcceptOffer(*s),
            Action::Claim(s, _) => Kind::Claim(*s),
            Action::ClaimTimeout => Kind::ClaimTimeout,
            Action::Leave(_) => Kind::Leave,
            Action::Adjudicate(_) => Kind::Adjudicate,
            Action::Conditional(_) => Kind::Conditional,
            Action::Applied(_) => Kind::Applied,
            Action::Withdraw => Kind::Withdraw,
            Action::HiddenConditional(_) => Kind::HiddenConditional,
            Action::Reveal(_) => Kind::Reveal,
            Action::Disclose(_) => Kind::Disclose,
        }
    }
}

/// The kind and what it carries that a reader of a history wants: `move e2e4`, `resign`,
/// `claim-draw repetition`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(mv) => write!(f, "move {mv}"),
            Action::Applied(mv) => write!(f, "applied {mv}"),
            Action::Reveal(reveal) => write!(f, "reveal {}", reveal.mv),
            Action::Conditional(c) if c.lines().len() == 1 => write!(f, "conditional (1 line)"),
            Action::Conditional(c) => write!(f, "conditional ({} lines)", c.lines().len()),
            Action::Claim(_, claim) => write!(f, "{} {claim}", self.kind()),
            Action::Leave(1) => write!(f, "leave 1 day"),
            Action::Leave(days) => write!(f, "leave {days} days"),
            Action::Adjudicate(a) => {
                write!(f, "adjudicate {} ({})", a.result.name(), a.reason.name())
            }
            other => write!(f, "{}", other.kind()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, Settlement, TABLE};

    #[test]
    fn each_kind_has_one_row_and_one_name() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(Kind::ALL[i], row.0);
            assert_eq!(Kind::named(row.1), Some(row.0));
            assert_eq!(row.0.name(), row.1);
            assert!(TABLE[..i].iter().all(|r| r.0 != row.0 && r.1 != row.1));
        }
        assert_eq!(Kind::Claim(Settlement::Draw).to_string(), "claim-draw");
        assert_eq!(Kind::named("offer"), None);
    }

    #[test]
    fn conditional_lines_have_one_spelling() {
        use super::Conditional;
        let lines = |texts: &[&str]| {
            let owned: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
            Conditional::parse(&owned)
        };
        let good = lines(&["c7c5 g1f3", "e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 g8f6 d2d4"]);
        assert_eq!(
            good.map(|c| c.texts()),
            Ok(vec![
                "c7c5 g1f3".to_owned(),
                "e7e5 g1f3 b8c6 f1b5".to_owned(),
                "e7e5 g1f3 g8f6 d2d4".to_owned()
            ])
        );
        for (texts, why) in [
            (&[][..], "a conditional holds 1 to 30 lines, not 0"),
            (&["e7e5"][..], "line 1 holds 1 moves"),
            (&["e7e5 g1f3 b8c6"][..], "line 1 holds 3 moves"),
            (&["e7e5 g1f3", "c7c5 g1f3"][..], "line 2 comes after line 1"),
            (&["e7e5 g1f3", "e7e5 g1f3"][..], "line 2 comes after line 1"),
            (
                &["e7e5 g1f3", "e7e5 g1f3 b8c6 f1b5"][..],
                "line 1 is the start of line 2",
            ),
            (
                &["e7e5 b1c3", "e7e5 g1f3"][..],
                "lines 1 and 2 answer e7e5 with two replies",
            ),
            (
                &["e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 b8c6 f1c4"][..],
                "lines 1 and 2 answer e7e5 g1f3 b8c6 with two replies",
            ),
            (&["e7e5  g1f3"][..], "line 1 is not moves"),
            (&["E7E5 g1f3"][..], "line 1 is not moves"),
            (&[" e7e5 g1f3"][..], "line 1 is not moves"),
        ] {
            let refused = lines(texts).expect_err("refused");
            assert!(refused.starts_with(why), "{texts:?}: {refused}");
        }
        let many: Vec<String> = (0..31).map(|i| format!("a{i:02} b")).collect();
        assert!(Conditional::parse(&many).is_err());
        let long = vec!["a b".to_owned() + &" a b".repeat(15)];
        assert_eq!(
            Conditional::parse(&long).expect_err("32 moves"),
            "line 1 holds 32 moves: a line is the opponent's move and your reply, alternately, \
             2 to 30 moves in all"
        );
    }

    #[test]
    fn a_leave_says_its_days_in_words() {
        use super::Action;
        assert_eq!(Action::Leave(1).to_string(), "leave 1 day");
        assert_eq!(Action::Leave(2).to_string(), "leave 2 days");
    }
}
