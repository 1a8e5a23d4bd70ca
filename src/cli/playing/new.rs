//! `correspond new`: start a game by writing its signed header to a new file.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{self, CliGame, GameKind, with_game};
use crate::cli::shared::keys::{self, KeyArgs};
use crate::cli::shared::record::derive_nonce;
use correspond::digest::Digest;
use correspond::flip::{self, Part};
use correspond::git::Tracked;
use correspond::log::{
    self, Arbiter, GameFile, Header, Player, TimeControl, header_document, header_unsigned,
    valid_name,
};
use correspond::replay::{self, TOSS};
use correspond::sign::Signer;
use ssh_key::PublicKey;
use std::path::{Path, PathBuf};

/// Start a game: write its header, signed with your key, to a new file. Send the file to your
/// opponent, who runs `correspond accept` on it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game.
    #[arg(value_parser = game::parser())]
    game: GameKind,
    /// The new game file; it must not exist yet.
    file: PathBuf,
    /// Your name, as the game's records will name you.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    name: String,
    #[arg(
        long,
        value_parser = game::Offered::sides(),
        hide_possible_values = true,
        help = game::help::sides()
    )]
    side: String,
    /// Your opponent's name.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    opponent: String,
    /// Your opponent's SSH public key: a .pub file, or the key itself (`ssh-ed25519 AAAA...`).
    #[arg(long, value_name = "KEY", value_hint = clap::ValueHint::FilePath)]
    opponent_key: String,
    #[arg(
        long = "variant",
        value_name = "NAME",
        value_parser = game::Offered::variants(),
        hide_possible_values = true,
        help = game::help::variants("Turn a variant on")
    )]
    variants: Vec<String>,
    /// Give each player a clock: `DAYS/move` (each turn has DAYS days, as in lichess and
    /// chess.com daily games), or `MOVES/DAYS` (DAYS days for each MOVES moves, time saved
    /// carried over, as ICCF's 10/50). Without it, no clock.
    #[arg(long, value_name = "TERMS", value_parser = TimeControl::parse_terms, value_hint = clap::ValueHint::Other)]
    time_control: Option<TimeControl>,
    /// Under the time control, give each player DAYS days of leave for the game, which they
    /// take with `correspond leave` and which stop their clock.
    #[arg(
        long,
        value_name = "DAYS",
        requires = "time_control",
        value_parser = log::parse_leave_days,
        value_hint = clap::ValueHint::Other
    )]
    leave: Option<u32>,
    /// Name an arbiter, whom your opponent agrees to by accepting: the only one who may end
    /// the game by `correspond adjudicate` (an abandoned game, a dispute over times, a
    /// tournament's end, a proven equivocation).
    #[arg(long, value_name = "NAME", requires = "arbiter_key", value_hint = clap::ValueHint::Other)]
    arbiter: Option<String>,
    /// The arbiter's SSH public key: a .pub file, or the key itself.
    #[arg(
        long,
        value_name = "KEY",
        requires = "arbiter",
        value_hint = clap::ValueHint::FilePath
    )]
    arbiter_key: Option<String>,
    /// A PGN tag for the game, written into the header and by `correspond pgn`:
    /// `--tag 'Event=Club championship' --tag Round=3`. Repeat for several.
    #[arg(long = "tag", value_name = "NAME=VALUE", value_parser = parse_tag, value_hint = clap::ValueHint::Other)]
    tags: Vec<(String, String)>,
    #[command(flatten)]
    key: KeyArgs,
    /// Do not commit the new file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: crate::cli::shared::record::WaitArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    with_game!(args.game, G => create::<G>(args, out))
}

fn create<G: CliGame>(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    check_names(args)?;
    let (mine, theirs) = sides::<G>(&args.side)?;
    let options = G::options_map(&crate::cli::shared::game::options::<G>(&args.variants)?);
    if args.file.exists() {
        return Err(CliError::usage(format!(
            "{} already exists",
            correspond::text::path(&args.file)
        ))
        .hint("choose another file name; `correspond new` never overwrites a game"));
    }
    crate::cli::shared::places::in_a_folder(&args.file)?;
    let opponent_key = read_public_key(&args.opponent_key, "--opponent-key")?;
    let tracked = if args.no_commit {
        None
    } else {
        crate::cli::shared::commit::find_for_new(&args.file)?
    };
    let signer = args.key.signer(&args.file)?;
    if signer.public_key().key_data() == opponent_key.key_data() {
        return Err(CliError::usage(
            "your key and your opponent's key are the same key",
        ));
    }
    let arbiter = named_arbiter(args, [signer.public_key(), &opponent_key])?;
    let header = Header {
        game: G::NAME.to_owned(),
        options,
        players: [
            Player {
                name: args.name.clone(),
                side: mine.clone(),
                key: signer.public_key().clone(),
            },
            Player {
                name: args.opponent.clone(),
                side: theirs,
                key: opponent_key,
            },
        ],
        created: keys::now()?,
        salt: keys::salt()?,
        commitment: None,
        time_control: args.time_control,
        leave_days: args.leave.unwrap_or(0),
        arbiter,
        tags: tags(&args.tags, args.time_control.is_some())?,
    };
    log::check_game_tags(&header, G::PGN).map_err(|e| {
        let error = CliError::usage(e);
        if mine == TOSS {
            error.hint("choose your side with --side white or --side black")
        } else {
            error
        }
    })?;
    let toss = G::TOSS_FOR_FIRST_MOVE || mine == TOSS;
    let text = signed_header(header, toss, &*signer)?;
    write_new::<G>(args, &text, &*signer, tracked, out)
}

/// Checks the names: each valid, the players' two different, the arbiter's neither of them.
fn check_names(args: &Args) -> Result<(), CliError> {
    for name in [&args.name, &args.opponent]
        .into_iter()
        .chain(&args.arbiter)
    {
        if !valid_name(name) {
            return Err(CliError::usage(format!(
                "`{name}` is not a valid player name: 1 to 40 letters, digits, spaces and . _ - ' @"
            )));
        }
    }
    if args.name == args.opponent {
        return Err(CliError::usage(
            "you and your opponent need different names",
        ));
    }
    if args
        .arbiter
        .as_ref()
        .is_some_and(|a| *a == args.name || *a == args.opponent)
    {
        return Err(CliError::usage(
            "the arbiter needs a name of their own, not a player's",
        ));
    }
    Ok(())
}

/// The creator's side, as `--side` names it, and the opponent's: both `toss` when a coin flip
/// is to decide them (in games where the first move is not tossed for).
fn sides<G: CliGame>(side: &str) -> Result<(String, String), CliError> {
    let toss_allowed = !G::TOSS_FOR_FIRST_MOVE;
    if side == TOSS && toss_allowed {
        return Ok((TOSS.to_owned(), TOSS.to_owned()));
    }
    let mine = G::side_named(side).ok_or_else(|| {
        let sides: Vec<String> = G::SIDES.iter().map(ToString::to_string).collect();
        let toss = if toss_allowed {
            ", or toss to let a coin flip decide"
        } else {
            ""
        };
        CliError::usage(format!(
            "`{side}` is not a side in {}: choose {}{toss}",
            G::NAME,
            sides.join(" or ")
        ))
    })?;
    let theirs = *G::SIDES.iter().find(|s| **s != mine).expect("two sides");
    Ok((mine.to_string(), theirs.to_string()))
}

/// The arbiter `--arbiter` and `--arbiter-key` name (`None` without them), whose key must be
/// neither of `players'`: an arbiter settles disputes between the players, so is neither.
fn named_arbiter(args: &Args, players: [&PublicKey; 2]) -> Result<Option<Arbiter>, CliError> {
    let (Some(name), Some(key)) = (&args.arbiter, &args.arbiter_key) else {
        return Ok(None);
    };
    let key = read_public_key(key, "--arbiter-key")?;
    if players.iter().any(|k| k.key_data() == key.key_data()) {
        return Err(CliError::usage(
            "the arbiter's key is a player's key: an arbiter is someone else",
        ));
    }
    Ok(Some(Arbiter {
        name: name.clone(),
        key,
    }))
}

/// The header document, signed by `signer`; with `toss`, committed first to the creator's
/// part of the coin flip.
pub(crate) fn signed_header(
    mut header: Header,
    toss: bool,
    signer: &dyn Signer,
) -> Result<String, CliError> {
    if toss {
        // The binding is the header's bytes before its commitment line, which the value of the
        // commitment does not change.
        header.commitment = Some(Digest([0; 32]));
        let binding =
            log::binding_of(&header_unsigned(&header)).expect("the header has a commitment line");
        let nonce = derive_nonce(signer, Part::Commit, &binding)?;
        header.commitment = Some(flip::commitment(&binding, &nonce));
    }
    let signature = signer
        .sign(header_unsigned(&header).as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    Ok(header_document(&header, &signature))
}

/// Journals the header `text`, then writes it as the new file (and commits it when `tracked`),
/// and says so.
fn write_new<G: CliGame>(
    args: &Args,
    text: &str,
    signer: &dyn Signer,
    tracked: Option<Tracked>,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let committed = tracked.is_some();
    let said = create_game::<G>(&args.file, text, signer, tracked, &args.wait)?;
    let done = if committed {
        "the game file was written and committed"
    } else {
        "the game file was written"
    };
    crate::cli::shared::record::report(out, &said, done)
}

/// Journals the header `text` (signed by `signer`), writes it as the new game file `file`,
/// commits it when `tracked` (under the file's lock), and returns what to say of it.
pub(crate) fn create_game<G: CliGame>(
    file: &Path,
    text: &str,
    signer: &dyn Signer,
    tracked: Option<Tracked>,
    wait: &crate::cli::shared::record::WaitArgs,
) -> Result<Vec<String>, CliError> {
    let parsed =
        GameFile::parse(text.as_bytes()).expect("a header this program writes is well-formed");
    let replay = replay::replay::<G>(&parsed)
        .map_err(|e| CliError::usage(format!("the new header is invalid: {}", e.kind)))?;
    let game_id = parsed.game_id();
    let mut journal = crate::cli::shared::signing_journal::game(game_id)?;
    crate::cli::shared::signing_journal::record(
        &mut journal,
        signer.public_key(),
        game_id,
        0,
        parsed.document(0),
        file,
    )?;
    // Let go of the journal before waiting for the file's lock: signing commands take the two
    // the other way round.
    drop(journal);
    log::create_new(file, text.as_bytes()).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            CliError::usage(format!("{} already exists", correspond::text::path(file)))
        } else {
            CliError::io(file, &e)
        }
    })?;
    let mut said = vec![
        format!(
            "created {}: {}, {}",
            correspond::text::path(file),
            G::NAME,
            replay.matchup()
        ),
        format!("game id: {}", replay.game_id),
        format!("now: {}", replay.last().phase.describe(&replay.seats)),
    ];
    if let Some(tracked) = tracked {
        let message = format!("{}, new game, {}", G::NAME, replay.matchup());
        let locked = wait.lock(file)?;
        said.push(crate::cli::shared::commit::commit(
            &tracked,
            &message,
            locked.bytes(),
        )?);
    }
    Ok(said)
}

/// Commits a game file a command has just created (when `tracked`, under the file's lock, as
/// every signing command commits, with `message`), then prints what it has to say (`said`).
pub(crate) fn commit_created(
    file: &Path,
    wait: &crate::cli::shared::record::WaitArgs,
    tracked: Option<Tracked>,
    message: &str,
    mut said: Vec<String>,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    match tracked {
        Some(tracked) => {
            let locked = wait.lock(file)?;
            said.push(crate::cli::shared::commit::commit(
                &tracked,
                message,
                locked.bytes(),
            )?);
            crate::cli::shared::record::report(
                out,
                &said,
                "the game file was written and committed",
            )
        }
        None => crate::cli::shared::record::report(out, &said, "the game file was written"),
    }
}

/// `NAME=VALUE`, a PGN tag whose name and value a header can hold.
pub(crate) fn parse_tag(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "a tag is written NAME=VALUE, as Event=Club championship".to_owned())?;
    let single = std::collections::BTreeMap::from([(name.to_owned(), value.to_owned())]);
    log::check_tags(&single)?;
    Ok((name.to_owned(), value.to_owned()))
}

/// The tags given, each once, and not `TimeControl`, which `--time-control` writes. What else a
/// header may hold is [`log::check_game_tags`]'s to say, as the reader says it.
fn tags(
    given: &[(String, String)],
    timed: bool,
) -> Result<std::collections::BTreeMap<String, String>, CliError> {
    let mut tags = std::collections::BTreeMap::new();
    for (name, value) in given {
        if name == "TimeControl" {
            // The clock's terms are written from the game's own clock, which a tag alone would
            // claim the game has.
            let error = CliError::usage(
                "the tag TimeControl is the game's clock, which --time-control sets; PGN \
                 writes it from there",
            );
            return Err(if timed {
                error
            } else {
                error.hint("give the game a clock with --time-control DAYS/move or MOVES/DAYS")
            });
        }
        if tags.insert(name.clone(), value.clone()).is_some() {
            return Err(CliError::usage(format!("the tag {name} is given twice")));
        }
    }
    log::check_tags(&tags).map_err(CliError::usage)?;
    Ok(tags)
}

/// A public key given (with `option`) as a file or as the key itself.
pub(crate) fn read_public_key(text: &str, option: &str) -> Result<ssh_key::PublicKey, CliError> {
    // The key itself (`ssh-ed25519 AAAA...`, or a key of another kind, to be named as such), or
    // a file holding it.
    let inline = !Path::new(text).exists() && text.trim().contains(' ');
    let (source, content) = if text.starts_with("ssh-") || inline {
        ("the key given".to_owned(), text.to_owned())
    } else {
        let path = PathBuf::from(text);
        let content = correspond::files::read_regular(&path, 64 * 1024)
            .map_err(|e| {
                CliError::io(&path, &e).hint(format!(
                    "{option} takes a public key file (a .pub), or the key's own text in quotes"
                ))
            })
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())?;
        if content.contains("PRIVATE KEY-----") {
            // Someone's private key, given where their public key belongs.
            let public = PathBuf::from(format!("{text}.pub"));
            let error = CliError::usage(format!(
                "{} is a private key; a game file holds the opponent's public key",
                correspond::text::path(&path)
            ));
            return Err(if public.is_file() {
                error.hint(format!("did you mean {}?", correspond::text::path(&public)))
            } else {
                error.hint("give the opponent's .pub file")
            });
        }
        (correspond::text::path(&path).to_string(), content)
    };
    correspond::sign::public_key(&content).map_err(|e| match e {
        correspond::sign::SignError::NotEd25519(_, kind) => CliError::usage(format!(
            "{source} is {kind}; correspond signs with Ed25519 keys only"
        ))
        .hint("ask your opponent for an Ed25519 key (made with `ssh-keygen -t ed25519`)"),
        e => CliError::usage(format!("{source} is not an OpenSSH public key: {e}"))
            .hint("give the opponent's .pub file"),
    })
}
