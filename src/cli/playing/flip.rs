//! `correspond flip` (also `reveal`): take your part in the coin flip that is due.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record::{self, SignArgs, derive_nonce};
use correspond::digest::Digest;
use correspond::flip::{self, Part};
use correspond::log::{self, Action, GameFile};
use correspond::replay::Phase;
use correspond::writer::next_record;

/// Take your part in the coin flip that is due: commit to it (when a Run-Off is due and it is
/// your turn), answer your opponent's commitment, or reveal your own. The nonces come from your
/// key, so nothing needs to be kept between the steps.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
}

/// The binding of the flip under way: that of the last document holding a commitment.
fn flip_binding(file: &GameFile) -> Digest {
    (0..file.documents())
        .rev()
        .find_map(|i| file.binding(i))
        .expect("a flip under way has a commitment")
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, held) = record::hold(&args.sign)?;
    with_game!(kind, G => record::append::<G>(&args.sign, held, out, |ctx| {
        let my_seat = ctx.seat()?;
        let seats = ctx.replay.seats();
        match ctx.replay.last().phase {
            Phase::AwaitingCommit(seat) if seat == my_seat => {
                // The binding is the record's bytes before its commitment line, which neither
                // the commitment nor the time (written after it) changes.
                let draft = next_record(ctx.file, seat, Action::FlipCommit(Digest([0; 32])), log::Timestamp::from_unix(0));
                let binding = log::binding_of(&log::record_unsigned(&draft)).expect("a commitment line");
                let nonce = derive_nonce(ctx.key.signer()?, Part::Commit, &binding)?;
                Ok(Action::FlipCommit(flip::commitment(&binding, &nonce)))
            }
            Phase::AwaitingNonce(seat) if seat == my_seat => {
                Ok(Action::FlipNonce(derive_nonce(ctx.key.signer()?, Part::Respond, &flip_binding(ctx.file))?))
            }
            Phase::AwaitingReveal(seat) if seat == my_seat => {
                Ok(Action::FlipReveal(derive_nonce(ctx.key.signer()?, Part::Commit, &flip_binding(ctx.file))?))
            }
            Phase::AwaitingAccept(seat) if seat == my_seat => Err(CliError::rejected(
                "the game is waiting for you to accept it; `correspond accept` answers the coin flip too",
            )),
            ref phase => Err(CliError::rejected(format!(
                "no coin flip step is yours to take: {}",
                phase.describe(seats)
            ))),
        }
    }))
}
