//! `correspond play`: sign a move (or, having won the toss, defer the first move).

use super::CliError;
use super::game::with_game;
use super::record::{self, SignArgs};
use crate::cli::Out;
use correspond::log::Action;
use correspond::replay::{Phase, Protocol};
use correspond::rules::{Game, MoveError};

/// Play a move: check it against the game, sign it, append it to the file, and commit it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    #[arg(
        value_name = "MOVE",
        required_unless_present = "defer",
        help = super::game::help::notation("The move")
    )]
    mv: Option<String>,
    /// Having won the toss, let your opponent move first.
    #[arg(long, conflicts_with = "mv")]
    defer: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let last = ctx.replay.last();
        let Some(text) = &args.mv else {
            return Ok(Action::Defer);
        };
        let position = match last.phase {
            Phase::Playing(seat) | Phase::Choosing(seat) if seat == ctx.seat => match &last.phase {
                Phase::Choosing(_) => {
                    let side = ctx.replay.seats()[seat].side.expect("a toss for the first move needs fixed sides");
                    G::start_with(ctx.replay.options(), side)
                }
                _ => last.position.clone(),
            },
            ref phase => {
                let why = if matches!(phase, Phase::Playing(_) | Phase::Choosing(_)) {
                    "it is not your turn"
                } else {
                    "you cannot move now"
                };
                return Err(CliError::rejected(format!("{why}: {}", phase.describe(ctx.replay.seats()))));
            }
        };
        let mv = position.parse_move(text).map_err(|e| {
            let error = CliError::rejected(format!("{text}: {e}"));
            match e {
                MoveError::Invalid(_) => error,
                _ => error.hint(format!("`correspond moves {} --position '{position}'` lists the legal moves", G::NAME)),
            }
        })?;
        Ok(Action::Move(mv.to_string()))
    }))
}
