//! `correspond tournament decide`: the director's signed decision on a player's withdrawal.

use super::{SignArgs, append_vetted, director_signing};
use crate::cli::CliError;
use crate::cli::Out;
use correspond::tournament::file::{Action, Decision};

/// Decide what a player's withdrawal does to their games (the director): `cancel` the games
/// not finished when you sign (they count for no one), `default` them (each lost by the player
/// who withdrew), or `annul` every result of the player (when fewer than half of their games
/// were finished), as the event's rule for withdrawals allows. A game finished before the
/// decision keeps its result.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// The player who withdrew.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    player: String,
    /// The decision.
    #[arg(long, value_parser = decisions())]
    decision: String,
}

fn decisions() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(Decision::ALL.iter().map(|d| d.name()))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let decision = Decision::named(&args.decision).expect("clap offers only decisions");
    let (event, committed) = append_vetted(
        &args.sign,
        &format!("the director decides {decision} for {}", args.player),
        |event, signer| {
            director_signing(event, signer)?;
            Ok((
                event.header.director.name.clone(),
                Action::Decide {
                    player: args.player.clone(),
                    decision,
                },
            ))
        },
        the_games_allow,
    )?;
    let mut lines = vec![format!(
        "decided on the withdrawal of {}: {decision}",
        args.player
    )];
    lines.push(format!("now: {}", event.stage()));
    lines.extend(committed);
    crate::cli::shared::record::report(out, &lines, "the tournament file was written")
}

/// Refuses, before it is signed, a decision the event's rule and the games of its folder do
/// not allow: under `annul-under-half`, an annulment once half of the player's games or more
/// are finished, and a default while fewer are (the rule decides, not the director).
fn the_games_allow(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    use correspond::tournament::file::{Action, Decision, WithdrawalRule};
    let file = correspond::tournament::file::TournamentFile::parse(bytes)
        .map_err(|e| CliError::rejected(e.to_string()))?;
    let Some(Action::Decide { player, decision }) = file.records().last().map(|r| &r.action) else {
        return Ok(());
    };
    // The event as it stands before the decision, which the games are counted against.
    let before = &bytes[..file.span(file.documents() - 1).start];
    let event = correspond::tournament::event::Event::check(before)
        .map_err(|e| super::invalid(path, &e))?;
    if event.header.withdrawals != WithdrawalRule::AnnulUnderHalf {
        return Ok(());
    }
    let e = event
        .entrant(player)
        .expect("the event checked the decision");
    if event.entrants[e].withdrawn.is_none() {
        return Ok(());
    }
    let (_, games) = super::standings::load(path)?;
    let summaries: Vec<(usize, &correspond::replay::Summary)> = games
        .iter()
        .enumerate()
        .filter_map(|(i, (_, c))| match c {
            crate::cli::checking::verify::Checked::Valid(s) => Some((i, &**s)),
            _ => None,
        })
        .collect();
    let table = correspond::tournament::table::table(&event, &summaries, &Default::default());
    let number = event
        .number_of(e)
        .expect("the lot is drawn once a player withdraws");
    let (played, total) = correspond::tournament::table::played(&table, number);
    let due = if 2 * played < total {
        Decision::Annul
    } else {
        Decision::Default
    };
    if *decision == due {
        return Ok(());
    }
    Err(CliError::rejected(format!(
        "not signed: {played} of the {total} games of {player} are finished, so the event's \
         rule, annul-under-half, calls for `{due}`, not `{decision}`"
    ))
    .hint("`correspond tournament standings` shows which of their games are finished"))
}
