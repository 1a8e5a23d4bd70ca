//! What the commands share: choosing the game, reading `--position`, playing a list of moves.

use crate::cli::CliError;
use correspond::rules::{Line, MoveError};

pub(crate) use correspond::games::GameKind;
pub(crate) use correspond::with_game;

/// The command line's parser of a game's name: the registry's games, each with its description
/// in `--help`.
pub(crate) fn parser() -> impl clap::builder::TypedValueParser<Value = GameKind> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        GameKind::ALL
            .iter()
            .map(|kind| PossibleValue::new(kind.name()).help(kind.about())),
    )
    .try_map(|name: String| {
        GameKind::named(&name).ok_or_else(|| format!("`{name}` is not a game this program plays"))
    })
}

/// The parser of an argument whose meaning depends on the game (a side, a variant): it takes
/// any text, since what the game allows is checked once the game is known, with a message
/// naming that game's own; it offers `values`, every game's, to shell completion.
#[derive(Clone)]
pub(crate) struct Offered(Vec<String>);

impl Offered {
    /// Every game's sides, and `toss`.
    pub(crate) fn sides() -> Offered {
        use correspond::replay::Protocol as _;
        let mut sides: Vec<String> = GameKind::ALL
            .iter()
            .flat_map(|kind| {
                with_game!(*kind, G => {
                    G::SIDES.iter().map(ToString::to_string).collect::<Vec<_>>()
                })
            })
            .chain([correspond::replay::TOSS.to_owned()])
            .collect();
        sides.sort();
        sides.dedup();
        Offered(sides)
    }

    /// Every game's claims (`repetition`, `fifty-moves`, ...).
    pub(crate) fn claims() -> Offered {
        use correspond::replay::Protocol as _;
        let mut names: Vec<String> = GameKind::ALL
            .iter()
            .flat_map(|kind| {
                with_game!(*kind, G => {
                    G::claim_names().iter().map(ToString::to_string).collect::<Vec<_>>()
                })
            })
            .collect();
        names.sort();
        names.dedup();
        Offered(names)
    }

    /// Every game's variants.
    pub(crate) fn variants() -> Offered {
        use correspond::replay::Protocol as _;
        let mut names: Vec<String> = GameKind::ALL
            .iter()
            .flat_map(|kind| {
                with_game!(*kind, G => {
                    G::OPTIONS.iter().map(|o| o.name.to_owned()).collect::<Vec<_>>()
                })
            })
            .collect();
        names.sort();
        names.dedup();
        Offered(names)
    }
}

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.0
                .iter()
                .map(|v| clap::builder::PossibleValue::new(v.clone())),
        ))
    }
}

/// A game by its name, or a game file (whose game and current position are meant).
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A game.
    Game(GameKind),
    /// A game file.
    File(std::path::PathBuf),
}

/// The parser of a game or a game file: a game's name is the game; anything else a file
/// (`./chess` for a file named like a game).
fn target(text: &str) -> Result<Target, std::convert::Infallible> {
    Ok(GameKind::named(text).map_or_else(|| Target::File(text.into()), Target::Game))
}

/// The arguments that pick a game and a position.
#[derive(Debug, clap::Args)]
pub(crate) struct PositionArgs {
    #[arg(
        value_name = "GAME|FILE",
        value_parser = target,
        help = help::game_or_file()
    )]
    pub game: Target,
    /// Start from this position string instead of the start position. Without it, Campaign
    /// starts with Heads to move and spin doctoring on.
    #[arg(long, value_name = "POS", value_hint = clap::ValueHint::Other)]
    pub position: Option<String>,
    #[arg(
        long = "variant",
        value_name = "NAME",
        value_parser = Offered::variants(),
        hide_possible_values = true,
        help = help::variants("Play a variant whose rules the position string does not show")
    )]
    pub variants: Vec<String>,
}

/// What the command line needs of a game: everything a registered game has
/// ([`correspond::games::Playable`], which the registry checks), so a game is added without
/// touching this file.
pub(crate) trait CliGame: correspond::games::Playable {
    /// The position the commands start from when no `--position` is given: the start of the
    /// game as usually played.
    fn default_start() -> Self {
        Self::start(&Self::usual_options())
    }
}

impl<G: correspond::games::Playable> CliGame for G {}

/// The position `--position` names, or the default start.
pub(crate) fn start<G: CliGame>(
    position: Option<&str>,
    variants: &[String],
) -> Result<G, CliError> {
    let options = options::<G>(variants)?;
    match position {
        None if variants.is_empty() => Ok(G::default_start()),
        None => Ok(G::start(&options)),
        Some(text) => G::parse_position_with(text, &options).map_err(|e| {
            CliError::rejected(format!("--position: {e}")).hint(format!(
                "the start position is `{}`; see docs/rules/{}.md for the format",
                G::default_start(),
                G::NAME
            ))
        }),
    }
}

/// The game's options with the named variants turned on.
pub(crate) fn options<G: CliGame>(variants: &[String]) -> Result<G::Options, CliError> {
    let mut options = G::Options::default();
    for variant in variants {
        let switch = G::switch(variant).ok_or_else(|| {
            let known: Vec<&str> = G::OPTIONS.iter().map(|s| s.name).collect();
            let list = if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            };
            CliError::usage(format!(
                "{} has no variant `{}` (variants: {list})",
                G::NAME,
                correspond::text::escape(variant)
            ))
        })?;
        (switch.set)(&mut options, true);
    }
    Ok(options)
}

/// A line of moves played from a position, and where the game first ended on it.
pub(crate) struct Played<G: CliGame> {
    pub line: Line<G>,
    /// The first ending the line reached: after how many of its moves, and how. A drawn
    /// position may be played on (chess and Insurrection list its moves, as perft counts
    /// them), so the line can go past it.
    pub ended: Option<(usize, G::Outcome)>,
}

impl<G: CliGame> Played<G> {
    /// Where the line went past the end of the game, the line that says so, so that nobody
    /// takes the line for a game.
    pub(crate) fn played_on(&self) -> Option<String> {
        let (after, outcome) = self.ended.as_ref()?;
        if *after == self.line.moves().len() {
            return None;
        }
        let when = match after {
            0 => "the game was over before the first move".to_owned(),
            n => format!("the game was over after move {n}"),
        };
        Some(format!(
            "{when} ({outcome}); the moves after it were played on, as `moves` lists them"
        ))
    }
}

/// Plays `moves` from `start`, stopping at the first that cannot be played, with the move's
/// number (from 1) and the reason. A move after the game has ended is played when the position
/// has it among its moves (a drawn chess position), and refused with the ending when it has
/// none (a checkmate, a stalemate, Campaign's and Guerrilla Checkers' endings), as `moves`
/// lists them.
pub(crate) fn play_moves<G: CliGame>(
    start: G,
    moves: &[String],
    variants: &[String],
) -> Result<Played<G>, CliError> {
    let mut line = Line::new(start);
    let mut ended = line.outcome().map(|o| (0, o));
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        let parsed = line.current().parse_move(text);
        if let (Err(_), Some(outcome)) = (&parsed, line.outcome()) {
            // Over with no move to play on: the ending is what is wrong with the move.
            if line.current().legal_moves().is_empty() {
                return Err(CliError::rejected(format!(
                    "move {number}: {text}: the game is over ({outcome})"
                )));
            }
        }
        let mv = parsed.map_err(|e| {
            let error = CliError::rejected(format!(
                "move {number}: {text}: {}",
                move_error(line.current(), &e)
            ));
            match e {
                MoveError::Invalid(_) => error,
                MoveError::Illegal(_) | MoveError::Ambiguous(_) => {
                    let variants: String =
                        variants.iter().map(|v| format!(" --variant {v}")).collect();
                    error.hint(format!(
                        "`correspond moves {}{variants} --position '{}'` lists the legal moves there",
                        G::NAME,
                        line.current()
                    ))
                }
            }
        })?;
        line.play(&mv)
            .expect("parse_move returns only moves that play");
        if ended.is_none() {
            ended = line.outcome().map(|o| (number, o));
        }
    }
    Ok(Played { line, ended })
}

/// Why a typed move was refused, with the candidates of an ambiguous one in the notation
/// reports use (SAN for chess: `Nbd2 or Nfd2`).
pub(crate) fn move_error<G: CliGame>(pos: &G, error: &MoveError<G>) -> String {
    let MoveError::Ambiguous(moves) = error else {
        return error.to_string();
    };
    let shown: Vec<String> = moves.iter().map(|m| pos.display_move(m)).collect();
    let list = match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => shown.join(""),
    };
    format!("ambiguous: it could be {list}")
}

/// Help texts made from the registry, so that they name every game, and no other.
pub(crate) mod help {
    use super::{GameKind, with_game};
    use correspond::picture::text::Render as _;
    use correspond::replay::Protocol as _;

    /// Each game's entry, joined: `campaign ...; guerrilla ...`.
    fn each(entry: impl Fn(GameKind) -> Option<String>) -> String {
        GameKind::ALL
            .iter()
            .filter_map(|kind| entry(*kind).map(|text| format!("{kind}: {text}")))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn or<T: std::fmt::Display>(items: &[T]) -> String {
        let words: Vec<String> = items.iter().map(ToString::to_string).collect();
        words.join(" or ")
    }

    /// `--side`: each game's sides, and where a coin flip may decide them.
    pub(crate) fn sides() -> String {
        let sides = each(|kind| Some(with_game!(kind, G => or(&G::SIDES))));
        let (first, toss): (Vec<GameKind>, Vec<GameKind>) = GameKind::ALL
            .iter()
            .partition(|kind| with_game!(**kind, G => G::TOSS_FOR_FIRST_MOVE));
        let names = |kinds: &[GameKind]| {
            kinds
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut text = format!("Your side. {sides}");
        if !toss.is_empty() {
            text += &format!(
                "; or toss, to let a coin flip decide the sides ({})",
                names(&toss)
            );
        }
        if !first.is_empty() {
            text += &format!(". In {} a coin flip decides who moves first", names(&first));
        }
        text
    }

    /// `--variant`: each game's variants.
    pub(crate) fn variants(what: &str) -> String {
        let variants = each(|kind| {
            with_game!(kind, G => {
                let names: Vec<&str> = G::OPTIONS.iter().map(|s| s.name).collect();
                (!names.is_empty()).then(|| names.join(", "))
            })
        });
        format!("{what} ({variants}); repeat for several")
    }

    /// A game or a game file: the games by name.
    pub(crate) fn game_or_file() -> String {
        format!(
            "The game ({}), or a game file, to start from its current position",
            GameKind::names_joined("or")
        )
    }

    /// A move argument: each game's notation.
    pub(crate) fn notation(what: &str) -> String {
        let notations = each(|kind| Some(with_game!(kind, G => G::NOTATION.to_owned())));
        format!("{what}, in the game's notation: {notations}")
    }
}
