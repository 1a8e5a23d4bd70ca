//! The closed sets of values a tournament file names (systems, pairing programs, withdrawal
//! rules, decisions, tie-breaks), each written one way: one table per set, so that the writer,
//! the reader, the command line and the schemas agree.

use crate::tournament::crosstable::TieBreak;

/// Names of a closed set of values, each written one way, with their list for help and
/// schemas: one table per set, so the writer, the reader and the command line agree.
macro_rules! named_values {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every value, in the order documents list them.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The one way a document writes it.
            #[must_use]
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The value a name stands for.
            #[must_use]
            pub fn named(text: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.name() == text)
            }

            /// Every name, for messages: `a, b or c`.
            #[must_use]
            pub fn names_in_words() -> String {
                let names: Vec<&str> = $name::ALL.iter().map(|v| v.name()).collect();
                match names.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => names.concat(),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_values! {
    /// How the section's players meet.
    System {
        /// Every player meets every other once (FIDE's Berger tables).
        RoundRobin = "round-robin",
        /// Twice, colours reversed the second time.
        DoubleRoundRobin = "double-round-robin",
        /// A fixed number of rounds, each paired by FIDE's Dutch system from the results
        /// before it, by a pairing program the director runs and names (its input and output
        /// signed in the file, so anyone can run it again).
        Swiss = "swiss",
    }
}

named_values! {
    /// The pairing programs a Swiss round may be paired by: each reads FIDE's report file
    /// with JaVaFo's extensions and writes the next round's pairs.
    Engine {
        /// BBP Pairings (GPL-3.0), a separate program the director installs.
        BbpPairings = "bbpPairings",
        /// py4swiss (MIT), from PyPI, tested against bbpPairings by its authors.
        Py4swiss = "py4swiss",
    }
}

/// The most rounds a Swiss event plays.
pub const MAX_SWISS_ROUNDS: u32 = 99;

named_values! {
    /// What a player's withdrawal does to their games, as the event's rules say.
    WithdrawalRule {
        /// ICCF's rule since November 2022: nothing; a game whose time runs out is lost, and
        /// the director decides nothing.
        TimeForfeit = "time-forfeit",
        /// The director cancels the player's unfinished games: they count for no one.
        Cancel = "cancel",
        /// The director defaults them: each is lost by the player who withdrew.
        Default = "default",
        /// The director annuls every result of the player when fewer than half of their games
        /// were finished, and defaults the unfinished ones otherwise.
        AnnulUnderHalf = "annul-under-half",
    }
}

named_values! {
    /// The director's decision on a withdrawal.
    Decision {
        /// The unfinished games are cancelled.
        Cancel = "cancel",
        /// The unfinished games are lost by the player who withdrew.
        Default = "default",
        /// Every game of the player is left out of the crosstable.
        Annul = "annul",
    }
}

impl WithdrawalRule {
    /// Whether the rule lets the director decide `decision` (the rule's own bar, such as half
    /// the games, is checked against the games).
    #[must_use]
    pub fn allows(self, decision: Decision) -> bool {
        matches!(
            (self, decision),
            (WithdrawalRule::Cancel, Decision::Cancel)
                | (WithdrawalRule::Default, Decision::Default)
                | (
                    WithdrawalRule::AnnulUnderHalf,
                    Decision::Annul | Decision::Default
                )
        )
    }
}

/// The name a tie-break has in a tournament file.
#[must_use]
pub fn tie_break_name(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::Wins => "wins",
        TieBreak::SonnebornBerger => "sonneborn-berger",
        TieBreak::DirectEncounter => "direct-encounter",
        TieBreak::Koya => "koya",
        TieBreak::WinsWithBlack => "wins-with-black",
        TieBreak::Buchholz => "buchholz",
        TieBreak::BuchholzCut1 => "buchholz-cut-1",
    }
}

/// Every tie-break a tournament file may list.
pub const TIE_BREAKS: [TieBreak; 7] = [
    TieBreak::Wins,
    TieBreak::SonnebornBerger,
    TieBreak::DirectEncounter,
    TieBreak::Koya,
    TieBreak::WinsWithBlack,
    TieBreak::Buchholz,
    TieBreak::BuchholzCut1,
];

/// The tie-break a name stands for.
#[must_use]
pub fn tie_break_named(name: &str) -> Option<TieBreak> {
    TIE_BREAKS
        .iter()
        .copied()
        .find(|tb| tie_break_name(*tb) == name)
}
