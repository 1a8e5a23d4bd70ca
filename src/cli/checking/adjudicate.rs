//! `correspond adjudicate`: the game's arbiter ends it, with a result and a reason.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs};
use correspond::log::{Action, Adjudged, Adjudication, AdjudicationReason};
use correspond::replay::{Phase, Seat, Signatory};

/// As the game's arbiter, end it: a winner or a draw, and why. Only the arbiter the header
/// names may (`new --arbiter`), with their own key, once the opponent has accepted the game, and
/// before it has ended. The reasons: `abandoned` (a player stopped playing), `time-dispute`
/// (the players disagree about the times, as by mail, where nobody witnesses them),
/// `tournament-end` (the tournament ended first), `equivocation` (a player signed two
/// different records at one place: `correspond check-proof` shows it).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// The winner: a player's name, or their side.
    #[arg(
        long,
        value_name = "PLAYER",
        value_hint = clap::ValueHint::Other,
        required_unless_present = "draw",
        conflicts_with = "draw"
    )]
    winner: Option<String>,
    /// The game is drawn.
    #[arg(long)]
    draw: bool,
    /// Why the game is adjudicated.
    #[arg(long, value_parser = reasons())]
    reason: AdjudicationReason,
}

fn reasons() -> impl clap::builder::TypedValueParser<Value = AdjudicationReason> {
    use clap::builder::TypedValueParser as _;
    let names = AdjudicationReason::ALL.map(AdjudicationReason::name);
    clap::builder::PossibleValuesParser::new(names).try_map(|name: String| {
        AdjudicationReason::named(&name).ok_or_else(|| format!("`{name}` is not a reason"))
    })
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let arbiter = ctx.file.header().arbiter.as_ref().ok_or_else(|| {
            CliError::rejected("this game has no arbiter, so nobody may adjudicate it")
        })?;
        if ctx.signatory != Signatory::Arbiter {
            return Err(CliError::usage(format!(
                "only the arbiter, {}, may adjudicate this game, with their key",
                arbiter.name
            )));
        }
        let seats = ctx.replay.seats();
        let phase = &ctx.replay.last().phase;
        if matches!(phase, Phase::Over(_) | Phase::AwaitingAccept(_)) {
            return Err(CliError::rejected(format!(
                "there is nothing to adjudicate: {}",
                phase.describe(seats)
            )));
        }
        let result = match &args.winner {
            None => Adjudged::Draw,
            Some(winner) => {
                let named = |seat: Seat| {
                    let player = &seats[seat];
                    player.name == *winner
                        || player.side.as_ref().is_some_and(|s| s.to_string() == *winner)
                };
                match Seat::BOTH.map(named) {
                    [true, true] => {
                        return Err(CliError::usage(format!(
                            "`{}` names both players ({} v {})",
                            correspond::text::shown(winner),
                            seats[0],
                            seats[1]
                        ))
                        .hint("name the winner by the name the other does not have"));
                    }
                    [true, false] => Adjudged::CreatorWins,
                    [false, true] => Adjudged::OpponentWins,
                    [false, false] => {
                        return Err(CliError::usage(format!(
                            "`{}` is neither player of this game ({} v {})",
                            correspond::text::shown(winner),
                            seats[0],
                            seats[1]
                        ))
                        .hint("--winner takes a player's name or side; --draw for a draw"));
                    }
                }
            }
        };
        Ok(Action::Adjudicate(Adjudication {
            result,
            reason: args.reason,
        }))
    }))
}
