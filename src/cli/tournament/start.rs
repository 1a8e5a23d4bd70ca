//! `correspond tournament start`: a player makes the games of their pairings in which they
//! play the first side, each exactly the header its pairing calls for.

use super::{entrant_signing, read_event, tournament_file};
use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::keys::{self, KeyArgs};
use crate::cli::shared::record::WaitArgs;
use correspond::sign::Signer;
use correspond::tournament::event::Event;
use correspond::tournament::pairing::Pairing;
use std::path::{Path, PathBuf};

/// Start your games of a tournament whose lot is drawn: make, signed with your key, the game
/// file of each pairing in which you play the first side (White), beside the tournament file,
/// named `round-R-board-B.yaml`, with the terms the event fixes (its clock, the director as
/// arbiter, tags naming the event, round and board). Your opponent accepts each with
/// `correspond accept`. A game file that is there already is left as it is.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The tournament file, or the folder that holds it as tournament.yaml.
    #[arg(value_name = "TOURNAMENT")]
    tournament: PathBuf,
    #[command(flatten)]
    key: KeyArgs,
    /// Do not commit the new files to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: WaitArgs,
}

/// The name of a pairing's game file in the event's folder.
pub(crate) fn game_file_name(pairing: &Pairing) -> String {
    format!("round-{}-board-{}.yaml", pairing.round, pairing.board)
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let path = tournament_file(&args.tournament);
    let event = read_event(&path)?;
    if event.numbers.is_none() {
        return Err(CliError::usage(format!(
            "the lot of {} is not drawn yet: {}",
            event.header.event,
            event.stage()
        ))
        .hint("the games are made once every entrant and the director have revealed"));
    }
    let signer = args.key.signer(&path)?;
    let e = entrant_signing(&event, &*signer)?;
    if event.entrants[e].withdrawn.is_some() {
        return Err(CliError::usage(format!(
            "{} withdrew from {}",
            event.entrants[e].name, event.header.event
        )));
    }
    let number = event.number_of(e).expect("the lot is drawn");
    let folder = path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mine: Vec<Pairing> = event
        .pairings()
        .into_iter()
        .filter(|p| p.white == number)
        .collect();
    // The games of the folder already made for a pairing, whatever their names: a second game
    // for one pairing is never made.
    let (checked, games) = super::standings::load(&path)?;
    let made: Vec<(Pairing, Vec<PathBuf>)> = match &checked.state {
        super::check::EventState::Valid(_, table) => table
            .boards
            .iter()
            .map(|b| {
                (
                    b.pairing,
                    b.files.iter().map(|&i| games[i].0.clone()).collect(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut said = Vec::new();
    for pairing in &mine {
        let file = folder.join(game_file_name(pairing));
        let there = made
            .iter()
            .find(|(p, _)| p == pairing)
            .and_then(|(_, files)| files.first().cloned())
            .or_else(|| file.exists().then(|| file.clone()));
        if let Some(there) = there {
            said.push(format!(
                "{}: there already (round {}, board {}, {})",
                correspond::text::path(&there),
                pairing.round,
                pairing.board,
                event.matchup(pairing)
            ));
            continue;
        }
        let made = with_game!(event.kind, G => make::<G>(&event, pairing, &file, &*signer, args));
        said.extend(made?);
    }
    if mine.is_empty() {
        said.push(format!(
            "{} plays no game with the first side in {}: the opponents make those games, and \
             you accept them",
            event.entrants[e].name, event.header.event
        ));
    }
    crate::cli::shared::record::report(out, &said, "the game files said were written")
}

/// Makes `pairing`'s game at `file`, signed by `signer`.
fn make<G: CliGame>(
    event: &Event,
    pairing: &Pairing,
    file: &Path,
    signer: &dyn Signer,
    args: &Args,
) -> Result<Vec<String>, CliError> {
    let tracked = if args.no_commit {
        None
    } else {
        crate::cli::shared::commit::find_for_new(file)?
    };
    let header = event.game_header(pairing, keys::now()?, keys::salt()?);
    let text = crate::cli::playing::new::signed_header(header, G::TOSS_FOR_FIRST_MOVE, signer)?;
    let mut said =
        crate::cli::playing::new::create_game::<G>(file, &text, signer, tracked, &args.wait)?;
    said.insert(
        1,
        format!(
            "round {}, board {} of {}",
            pairing.round, pairing.board, event.header.event
        ),
    );
    Ok(said)
}
