//! `correspond tournament pair`: a Swiss event's next round, paired by an installed pairing
//! program from the report file the games give, and signed by the director with the program,
//! its version and the digest of its input; or, with `--check`, every paired round run again.

use super::engine::{self, Program};
use super::standings::games_beside;
use super::{SignArgs, director_signing};
use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::checked::Checked;
use crate::cli::shared::error::ExitStatus;
use correspond::digest::Digest;
use correspond::tournament::event::Event;
use correspond::tournament::file::{Action, Engine, SwissPairing, System};
use correspond::tournament::swiss;
use correspond::tournament::table::Table;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Pair the next round of a Swiss event (the director), once every game of the rounds before
/// it is over: the event's report file (FIDE's TRF with JaVaFo's extensions, made from the
/// tournament file and the games beside it) is given to an installed pairing program that
/// follows FIDE's Dutch system, and its pairs are signed into the tournament file with the
/// program's name and version and the report file's digest, so anyone can run it again.
/// This program does not pair a Swiss round itself. Exit code 2 when no pairing program is
/// installed; with `--check`, 1 when a round is not as the files and the program make it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    /// The pairing program: bbpPairings (GPL-3.0, installed separately) or py4swiss
    /// (`pip install py4swiss`).
    #[arg(long, default_value = "bbpPairings", value_parser = engines())]
    engine: String,
    /// The pairing program's path, when it is not on the PATH under its usual name.
    #[arg(long, value_name = "PATH", value_hint = clap::ValueHint::ExecutablePath)]
    program: Option<PathBuf>,
    /// Sign nothing: make each paired round's report file again from the files, compare its
    /// digest with the signed one, and run the round's pairing program on it again.
    #[arg(long)]
    check: bool,
}

fn engines() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(Engine::ALL.iter().map(|e| e.name()))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    if args.check {
        return check(args, out);
    }
    let (checked, games) = super::standings::load(&args.sign.file)?;
    let (event, table) = checked.event()?;
    let bad: Vec<String> = games
        .iter()
        .filter(|(_, c)| !matches!(c, Checked::Valid(_)))
        .map(|(p, _)| correspond::text::path(p).to_string())
        .collect();
    if !bad.is_empty() {
        return Err(CliError::rejected(format!(
            "{} cannot be paired while a file beside it is not valid",
            event.header.event
        ))
        .items(bad)
        .hint("`correspond tournament standings` says why; nothing was signed"));
    }
    let round = next_round(event, table)?;
    let input = swiss::input(event, table, round);
    let engine = Engine::named(&args.engine).expect("clap offers only engines");
    let program = engine::find(engine, args.program.as_deref())?;
    let (pairs, bye) = read_answer(&program, &input)?;
    let pairing = SwissPairing {
        round: u32::try_from(round).unwrap_or(u32::MAX),
        engine,
        version: program.version.clone(),
        input: Digest::of(input.as_bytes()),
        games: pairs,
        bye,
    };
    let (after, committed) = super::append(
        &args.sign,
        &format!("round {round} paired"),
        |event, signer| {
            director_signing(event, signer)?;
            Ok((
                event.header.director.name.clone(),
                Action::Pair(Box::new(pairing.clone())),
            ))
        },
    )?;
    let mut lines = vec![format!(
        "paired round {round} of {} with {} {} (input {})",
        after.header.rounds.unwrap_or_default(),
        program.engine,
        program.version,
        pairing.input
    )];
    lines.extend(round_lines(&after, &pairing));
    lines.push(format!("now: {}", after.stage()));
    lines.extend(committed);
    crate::cli::shared::record::report(out, &lines, "the tournament file was written")?;
    Ok(ExitStatus::Success)
}

/// The round to pair next, once every game of the rounds before it is over.
fn next_round(event: &Event, table: &Table) -> Result<usize, CliError> {
    let Some(rounds) = event
        .header
        .rounds
        .filter(|_| event.header.system == System::Swiss)
    else {
        return Err(CliError::usage(format!(
            "{} is a {}: its lot pairs every round",
            event.header.event, event.header.system
        )));
    };
    if event.numbers.is_none() {
        return Err(CliError::usage(format!(
            "{} cannot be paired yet: {}",
            event.header.event,
            event.stage()
        )));
    }
    let round = event.swiss.len() + 1;
    if round > rounds as usize {
        return Err(CliError::usage(format!(
            "all {rounds} rounds of {} are paired",
            event.header.event
        )));
    }
    let open: Vec<String> = table
        .boards
        .iter()
        .filter(|b| !b.state.settled())
        .map(|b| {
            format!(
                "round {}, board {}: {}: {}",
                b.pairing.round,
                b.pairing.board,
                event.matchup(&b.pairing),
                super::standings::state_words(&b.state)
            )
        })
        .collect();
    if !open.is_empty() {
        return Err(CliError::usage(format!(
            "round {round} is paired from the results of the rounds before it, and {} not over",
            if open.len() == 1 {
                "one game is".to_owned()
            } else {
                format!("{} games are", open.len())
            }
        ))
        .items(open)
        .hint("pair it once they are finished, or decided by the director"));
    }
    Ok(round)
}

/// The program's pairs for `input`, read.
fn read_answer(program: &Program, input: &str) -> Result<swiss::Pairs, CliError> {
    let answer = program.pair(input)?;
    swiss::parse_output(&answer).map_err(|e| {
        CliError::rejected(format!(
            "{} {} answered in a form this program does not read: {e}",
            program.engine, program.version
        ))
        .hint("nothing was signed")
    })
}

/// A round's boards and bye in words.
fn round_lines(event: &Event, p: &SwissPairing) -> Vec<String> {
    let mut lines: Vec<String> = event
        .pairings()
        .iter()
        .filter(|b| b.round == p.round as usize)
        .map(|b| format!("board {}: {}", b.board, event.matchup(b)))
        .collect();
    if let Some(bye) = p.bye.and_then(|n| event.numbered(n)) {
        lines.push(format!("bye: {}", event.entrants[bye].name));
    }
    lines
}

/// `--check`: every paired round's input made again and its program run again.
fn check(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let beside = games_beside(&args.sign.file)?;
    let event = super::read_event(&beside.file)?;
    if event.swiss.is_empty() {
        writeln!(out, "{}: no round is paired yet", event.header.event)?;
        return Ok(ExitStatus::Success);
    }
    let (games, forked) = beside.valid();
    let mut programs: BTreeMap<Engine, Program> = BTreeMap::new();
    let mut holds = true;
    for round in &event.swiss {
        let p = &round.pairing;
        let input = swiss::input_from_games(&event, &games, &forked, p.round as usize);
        let digest = Digest::of(input.as_bytes());
        if digest != p.input {
            holds = false;
            writeln!(
                out,
                "round {}: the games here give another report file (digest {digest}) than the \
                 one it was paired from ({})",
                p.round, p.input
            )?;
            continue;
        }
        let program = match programs.entry(p.engine) {
            std::collections::btree_map::Entry::Occupied(found) => found.into_mut(),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let path = args
                    .program
                    .as_deref()
                    .filter(|_| p.engine.name() == args.engine);
                slot.insert(engine::find(p.engine, path)?)
            }
        };
        let (pairs, bye) = read_answer(program, &input)?;
        let version = if program.version == p.version {
            String::new()
        } else {
            format!(" (it was paired with version {})", p.version)
        };
        if pairs == p.games && bye == p.bye {
            writeln!(
                out,
                "round {}: input as signed ({digest}); {} {} pairs it as signed{version}",
                p.round, program.engine, program.version
            )?;
        } else {
            holds = false;
            writeln!(
                out,
                "round {}: input as signed ({digest}); {} {} pairs it otherwise: {} (signed: \
                 {}){version}",
                p.round,
                program.engine,
                program.version,
                pairs_text(&pairs, bye),
                pairs_text(&p.games, p.bye)
            )?;
        }
    }
    Ok(if holds {
        ExitStatus::Success
    } else {
        ExitStatus::Rejected
    })
}

/// Pairs as numbers: `1-3, 4-2, bye 5`.
fn pairs_text(games: &[(usize, usize)], bye: Option<usize>) -> String {
    let mut parts: Vec<String> = games.iter().map(|(w, b)| format!("{w}-{b}")).collect();
    parts.extend(bye.map(|b| format!("bye {b}")));
    parts.join(", ")
}
