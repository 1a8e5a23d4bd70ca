//! `correspond tournament new`: announce a tournament by writing its terms, signed by the
//! director, to a new tournament file.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{self, CliGame, GameKind, with_game};
use crate::cli::shared::keys::{self, KeyArgs};
use correspond::log::{self, Arbiter, TimeControl};
use correspond::tournament::crosstable::TieBreak;
use correspond::tournament::event::Event;
use correspond::tournament::file::{
    System, TIE_BREAKS, TournamentHeader, WithdrawalRule, header_document, header_unsigned,
    tie_break_name, tie_break_named, valid_event_name,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Announce a tournament (as its director): write its terms, signed with your key, to a new
/// tournament file: the event's name, the game, the system, every game's clock, the
/// tie-breaks and the rule for withdrawals. You are the arbiter of every game of the event,
/// and play none. Players then enter with `correspond tournament enter`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The event's folder, which holds its tournament file as tournament.yaml (made if it is
    /// not there), or the new tournament file itself (a name ending .yaml). The event's games
    /// are made beside it.
    #[arg(value_name = "TOURNAMENT")]
    file: PathBuf,
    /// The event's name: its games' PGN Event tag.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    event: String,
    /// The game played (a game PGN export writes: its games name the event in their tags).
    #[arg(long, value_parser = game::parser())]
    game: GameKind,
    /// How the players meet: a round robin (FIDE's Berger tables), or a Swiss whose rounds
    /// the director pairs one by one with an installed pairing program (`tournament pair`).
    #[arg(long, default_value = "round-robin", value_parser = systems())]
    system: String,
    /// How many rounds a Swiss plays (only with `--system swiss`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(correspond::tournament::file::MAX_SWISS_ROUNDS)), value_hint = clap::ValueHint::Other)]
    rounds: Option<u32>,
    /// Every game's clock: `DAYS/move`, or `MOVES/DAYS` (ICCF's 10/50).
    #[arg(long, value_name = "TERMS", value_parser = TimeControl::parse_terms, value_hint = clap::ValueHint::Other)]
    time_control: TimeControl,
    /// Days of leave each player has in each game.
    #[arg(long, value_name = "DAYS", value_parser = log::parse_leave_days, value_hint = clap::ValueHint::Other)]
    leave: Option<u32>,
    /// The games are not rated.
    #[arg(long)]
    unrated: bool,
    /// The tie-breaks after points, in order: `baumbach` (ICCF's: wins, sonneborn-berger,
    /// direct-encounter; a round robin's default), `fide` (FIDE's round-robin list: wins,
    /// sonneborn-berger, koya, wins-with-black), `swiss` (buchholz-cut-1, buchholz,
    /// sonneborn-berger; a Swiss's default), `none`, or names joined by commas. A lot drawn
    /// with the numbers comes last.
    #[arg(long, value_name = "LIST", value_parser = parse_tie_breaks, value_hint = clap::ValueHint::Other)]
    tie_breaks: Option<TieBreaks>,
    /// What a withdrawal does: `time-forfeit` (ICCF's rule since 2022: the games go on, and
    /// a game whose time runs out is lost), or the director's decision, `cancel`, `default`
    /// or `annul-under-half`.
    #[arg(long, default_value = "time-forfeit", value_parser = rules())]
    withdrawals: String,
    /// Your name, as the director and arbiter.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    director: String,
    #[arg(
        long = "variant",
        value_name = "NAME",
        value_parser = game::Offered::variants(),
        hide_possible_values = true,
        help = game::help::variants("Turn a variant on")
    )]
    variants: Vec<String>,
    /// A PGN tag for every game of the event (`--tag Site=ICCF`). Repeat for several.
    #[arg(long = "tag", value_name = "NAME=VALUE", value_parser = crate::cli::playing::new::parse_tag, value_hint = clap::ValueHint::Other)]
    tags: Vec<(String, String)>,
    #[command(flatten)]
    key: KeyArgs,
    /// Do not commit the new file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
}

fn systems() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(System::ALL.iter().map(|s| s.name()))
}

fn rules() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(WithdrawalRule::ALL.iter().map(|r| r.name()))
}

/// `baumbach`, `fide`, or tie-break names joined by commas, each once.
fn parse_tie_breaks(text: &str) -> Result<TieBreaks, String> {
    match text {
        "baumbach" => return Ok(TieBreaks(TieBreak::BAUMBACH.to_vec())),
        "fide" => return Ok(TieBreaks(TieBreak::FIDE_ROUND_ROBIN.to_vec())),
        "swiss" => return Ok(TieBreaks(TieBreak::SWISS.to_vec())),
        "none" => return Ok(TieBreaks(Vec::new())),
        _ => {}
    }
    let mut list = Vec::new();
    for name in text.split(',') {
        let tb = tie_break_named(name).ok_or_else(|| {
            let names: Vec<&str> = TIE_BREAKS.iter().map(|t| tie_break_name(*t)).collect();
            format!(
                "`{}` is not a tie-break: baumbach, fide, swiss, none, or a list of {}",
                correspond::text::shown(name),
                names.join(", ")
            )
        })?;
        if list.contains(&tb) {
            return Err(format!("the tie-break {name} is listed twice"));
        }
        list.push(tb);
    }
    Ok(TieBreaks(list))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    with_game!(args.game, G => create::<G>(args, out))
}

fn create<G: CliGame>(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    // A name ending .yaml or .yml is the file; anything else is the event's folder, made
    // here if it is not there, to hold it as tournament.yaml.
    let named_file = args
        .file
        .extension()
        .is_some_and(|e| e == "yaml" || e == "yml");
    let path = if named_file {
        args.file.clone()
    } else {
        if !args.file.is_dir() {
            std::fs::create_dir_all(&args.file).map_err(|e| CliError::io(&args.file, &e))?;
        }
        args.file
            .join(correspond::tournament::file::TOURNAMENT_FILE_NAME)
    };
    if path.exists() {
        return Err(
            CliError::usage(format!("{} already exists", correspond::text::path(&path)))
                .hint("a tournament file is never overwritten; choose another folder"),
        );
    }
    crate::cli::shared::places::in_a_folder(&path)?;
    if !valid_event_name(&args.event) {
        return Err(CliError::usage(format!(
            "`{}` cannot be an event's name: 1 to {} characters, with no \", \\ or control \
             character and no space at either end",
            correspond::text::shown(&args.event),
            correspond::tournament::file::MAX_EVENT_NAME
        )));
    }
    if !log::valid_name(&args.director) {
        return Err(CliError::usage(format!(
            "`{}` is not a valid name: 1 to 40 letters, digits, spaces and . _ - ' @",
            correspond::text::shown(&args.director)
        )));
    }
    let mut tags = BTreeMap::new();
    for (name, value) in &args.tags {
        if tags.insert(name.clone(), value.clone()).is_some() {
            return Err(CliError::usage(format!("the tag {name} is given twice")));
        }
    }
    let tracked = if args.no_commit {
        None
    } else {
        crate::cli::shared::commit::find_for_new(&path)?
    };
    let system = System::named(&args.system).expect("clap offers only systems");
    let rounds = match (system, args.rounds) {
        (System::Swiss, None) => {
            return Err(
                CliError::usage("a Swiss event needs --rounds: how many it plays")
                    .hint("correspondence events are round robins unless a Swiss is wanted"),
            );
        }
        (System::Swiss, rounds) => rounds,
        (_, Some(_)) => {
            return Err(CliError::usage(format!(
                "--rounds is for a Swiss event: a {system}'s players fix its rounds"
            )));
        }
        (_, None) => None,
    };
    let tie_breaks = args.tie_breaks.as_ref().map_or_else(
        || match system {
            System::Swiss => TieBreak::SWISS.to_vec(),
            _ => TieBreak::BAUMBACH.to_vec(),
        },
        |t| t.0.clone(),
    );
    let signer = args.key.signer(&path)?;
    let header = TournamentHeader {
        event: args.event.clone(),
        game: G::NAME.to_owned(),
        options: G::options_map(&game::options::<G>(&args.variants)?),
        system,
        rounds,
        time_control: args.time_control,
        leave_days: args.leave.unwrap_or(0),
        rated: !args.unrated,
        tie_breaks,
        withdrawals: WithdrawalRule::named(&args.withdrawals).expect("clap offers only rules"),
        director: Arbiter {
            name: args.director.clone(),
            key: signer.public_key().clone(),
        },
        tags,
        created: keys::now()?,
        salt: keys::salt()?,
    };
    let signature = signer
        .sign(header_unsigned(&header).as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    let text = header_document(&header, &signature);
    // The file's own rules say whether these terms can make an event.
    let event = Event::check(text.as_bytes())
        .map_err(|e| CliError::usage(correspond::text::escape(&e.kind.to_string())))?;
    log::create_new(&path, text.as_bytes()).map_err(|e| CliError::io(&path, &e))?;
    let mut said = vec![
        format!(
            "created {}: {}, {}, {}, directed by {}",
            correspond::text::path(&path),
            event.header.event,
            G::NAME,
            event.header.system,
            event.header.director.name
        ),
        format!("event id: {}", event.id),
        format!("now: {}", event.stage()),
    ];
    if let Some(tracked) = tracked {
        said.push(crate::cli::shared::commit::commit(
            &tracked,
            &format!("tournament {}, announced", event.header.event),
            text.as_bytes(),
        )?);
    }
    crate::cli::shared::record::report(out, &said, "the tournament file was written")
}

/// The tie-breaks `--tie-breaks` gives: a whole list in one value.
#[derive(Clone, Debug)]
struct TieBreaks(Vec<TieBreak>);
