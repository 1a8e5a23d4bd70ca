//! `correspond check-proof`: check a proof of equivocation written by `compare`.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use std::path::PathBuf;

/// Check a proof of equivocation: its common part (the game's header and records up to the
/// fork) verifies, and its last two documents are different records with the same number,
/// each chained to the common part and signed by the same player's key.
///
/// Exit code: 0 for a valid proof, 1 for one that proves nothing, 2 if it cannot be read.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The proof file.
    proof: PathBuf,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let bytes =
        correspond::log::read_limited(&args.proof).map_err(|e| CliError::io(&args.proof, &e))?;
    match correspond::fork::check_proof(&bytes) {
        Ok(e) => {
            writeln!(
                out,
                "{}: valid proof: in game {}, {} signed two different records numbered {}: {} \
                 and {}",
                correspond::text::path(&args.proof),
                e.game_id,
                e.signer,
                e.record,
                e.actions[0],
                e.actions[1]
            )?;
            if let Some(what) = e.alike_but {
                writeln!(
                    out,
                    "(the same action, signed twice: the records differ in {what})"
                )?;
            }
            writeln!(
                out,
                "{}'s key in the proof is {}: check that it is the key you know to be theirs, and \
                 the game id against the game's",
                e.signer, e.fingerprint
            )?;
            Ok(ExitStatus::Success)
        }
        Err(reason) => Err(CliError::rejected(format!(
            "{}: not a proof of equivocation: {reason}",
            correspond::text::path(&args.proof)
        ))),
    }
}
