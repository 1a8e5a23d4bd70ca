//! `correspond import-pgn`: turn a PGN game into a game file signed by the two players' keys.

use super::CliError;
use super::game::{self, GameKind};
use super::keys;
use super::pgn::ChessGame;
use super::record;
use crate::cli::Out;
use correspond::log::{self, Action, Header, Player, Settlement, header_document, header_unsigned};
use correspond::replay::{self, Seat};
use correspond::rules::chess::{Chess, Color, Insurrection};
use correspond::rules::{Decision, Line, MoveError};
use correspond::sign::Signer;
use correspond::writer::{WriteError, Writer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Turn a PGN game into a game file, every move signed by its player's key (the importer holds
/// both). A decisive result without mate becomes the loser's resignation, a draw by agreement an
/// offer and its acceptance. An illegal move stops the import with the move's number and the
/// reason, and nothing is written.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The PGN file.
    pgn: PathBuf,
    /// The game file to write; it must not exist yet.
    file: PathBuf,
    /// White's SSH key (private, or held by ssh-agent).
    #[arg(long, value_name = "PATH")]
    white_key: PathBuf,
    /// Black's SSH key.
    #[arg(long, value_name = "PATH")]
    black_key: PathBuf,
    /// Which game of the PGN file, from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_hint = clap::ValueHint::Other)]
    index: usize,
    /// The game: chess, or insurrection. Default: insurrection when the PGN's Variant tag says
    /// so, else chess.
    #[arg(long, value_name = "GAME", value_parser = game::parser())]
    game: Option<GameKind>,
    /// A variant of the game (insurrection: assassination).
    #[arg(
        long = "variant",
        value_name = "NAME",
        value_parser = game::Offered::variants(),
        hide_possible_values = true
    )]
    variants: Vec<String>,
    /// Do not commit the new file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: super::record::WaitArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let text = correspond::files::read_regular(&args.pgn, correspond::log::MAX_FILE_SIZE)
        .map_err(|e| CliError::io(&args.pgn, &e))
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| {
                CliError::rejected(format!(
                    "{} is not UTF-8 text, as PGN is",
                    correspond::text::path(&args.pgn)
                ))
            })
        })?;
    let games = correspond::pgn::parse(&text)
        .map_err(|e| CliError::rejected(format!("{}: {e}", correspond::text::path(&args.pgn))))?;
    let Some(pgn) = args.index.checked_sub(1).and_then(|i| games.get(i)) else {
        return Err(CliError::usage(format!(
            "{} holds {} game(s); there is no game {}",
            correspond::text::path(&args.pgn),
            games.len(),
            args.index
        )));
    };
    if let Some(fen) = pgn
        .tag("FEN")
        .filter(|fen| fen.trim_end_matches(" Kk") != correspond::rules::chess::START)
    {
        return Err(CliError::rejected(format!(
            "{}: game {} starts from the set-up position `{fen}`; game files start from the \
             start position",
            correspond::text::path(&args.pgn),
            args.index
        ))
        .hint("nothing was written"));
    }
    let variant_tag = pgn.tag("Variant").unwrap_or("").to_ascii_lowercase();
    let name = args
        .game
        .unwrap_or(if variant_tag.contains("insurrection") {
            GameKind::Insurrection
        } else {
            GameKind::Chess
        });
    // A file written by `correspond pgn` names Assassination in its Variant tag.
    let mut variants = args.variants.clone();
    if variants.is_empty()
        && name == GameKind::Insurrection
        && variant_tag.contains("assassination")
    {
        variants.push("assassination".to_owned());
    }
    match name {
        GameKind::Chess => import::<Chess>(args, &variants, pgn, out),
        GameKind::Insurrection => import::<Insurrection>(args, &variants, pgn, out),
        other => Err(CliError::usage(format!(
            "PGN games are chess or insurrection, not {other}"
        ))),
    }
}

/// A PGN player name as a game-file name ([`log::name_from_pgn`]), or `fallback`.
fn player_name(tag: Option<&str>, fallback: &str) -> String {
    log::name_from_pgn(tag.unwrap_or("")).unwrap_or_else(|| fallback.to_owned())
}

/// The tags of the PGN game that its header keeps, values made fit for one
/// ([`log::clean_tag_value`]): every tag but those PGN export writes from the game itself
/// ([`log::DERIVED_TAGS`]) and those that say nothing export would not say without them
/// (`White` and `Black` as the players' names, `Site "?"`, `Round "-"`); a name a header cannot
/// hold ([`log::check_tags`], [`log::check_game_tags`]) is left out.
///
/// # Errors
/// More tags than a header holds ([`log::MAX_TAGS`]): the import is refused, naming those it
/// cannot keep, rather than losing them without a word.
fn kept_tags(
    pgn: &correspond::pgn::PgnGame,
    header: &Header,
    writes_pgn: bool,
) -> Result<BTreeMap<String, String>, CliError> {
    let names = header.players.each_ref().map(|p| p.name.as_str());
    let mut kept = BTreeMap::new();
    let mut beyond = Vec::new();
    for (name, value) in &pgn.tags {
        let value = log::clean_tag_value(value);
        let implied = match name.as_str() {
            "White" => value == names[0],
            "Black" => value == names[1],
            "Site" => value == "?",
            "Round" => value == "-",
            "Event" => value == super::pgn::DEFAULT_EVENT,
            _ => false,
        };
        // A tag a header cannot hold (a name of another shape, a tag written from the game
        // itself, a date that is no PGN date) is left out rather than refused.
        let single = BTreeMap::from([(name.clone(), value.clone())]);
        let alone = Header {
            tags: single,
            ..header.clone()
        };
        let holds = log::check_tags(&alone.tags).is_ok()
            && log::check_game_tags(&alone, writes_pgn).is_ok();
        if implied || !holds {
            continue;
        }
        if kept.len() == log::MAX_TAGS {
            beyond.push(name.clone());
            continue;
        }
        kept.insert(name.clone(), value);
    }
    if !beyond.is_empty() {
        return Err(CliError::rejected(format!(
            "the PGN has more tags than a game file's header holds ({}): {} cannot be kept",
            log::MAX_TAGS,
            beyond.join(", ")
        ))
        .hint("remove the tags you can spare from the PGN; nothing was written"));
    }
    Ok(kept)
}

/// The part of a PGN move's comment that `signer` signs, as the comment of their record, made
/// fit for one ([`log::clean_comment`]). `correspond pgn` writes each player's comment after their
/// `name (side): `, and a coup, which the replay says anyway: the parts another signer wrote
/// are not `signer`'s to sign, and the coups are left out. The mover (`moved`) also signs the
/// parts nobody's name is before, as another program's PGN writes them.
fn signed_part(comment: Option<&str>, signer: &str, moved: bool) -> Option<String> {
    let signed = format!("{signer}: ");
    let coup = [
        "coup: white's government is now its ",
        "coup: black's government is now its ",
    ];
    let parts: Vec<&str> = comment?
        .split("; ")
        .filter(|part| !coup.iter().any(|c| part.starts_with(c)))
        .filter_map(|part| {
            if let Some(own) = part.strip_prefix(&signed) {
                return Some(own);
            }
            let by_someone = part.split_once(": ").is_some_and(|(who, _)| {
                who.ends_with(" (white)")
                    || who.ends_with(" (black)")
                    || who.starts_with("the arbiter ")
            });
            (moved && !by_someone).then_some(part)
        })
        .collect();
    let text = log::clean_comment(&parts.join("; "));
    log::valid_comment(&text).then_some(text)
}

/// A PGN's `PlyCount`, where it has one, is the number of its moves (half-moves, as PGN counts
/// them): the tag is written from the game itself, so it is checked, not kept.
///
/// # Errors
/// A count the moves do not make.
fn plies_counted(pgn: &correspond::pgn::PgnGame, path: &Path) -> Result<(), CliError> {
    let Some(count) = pgn.tag("PlyCount") else {
        return Ok(());
    };
    if count.parse::<usize>().ok() == Some(pgn.moves.len()) {
        return Ok(());
    }
    Err(CliError::rejected(format!(
        "{}: the PlyCount tag says {}, but the game has {} half-moves",
        correspond::text::path(path),
        correspond::text::shown(count),
        pgn.moves.len()
    ))
    .hint("is the PGN cut short? nothing was written"))
}

/// The key `option` names, with hints that name that option (not `--key`, which this command
/// does not take).
fn signer(path: &Path, option: &str) -> Result<Box<dyn Signer>, CliError> {
    use correspond::sign::{KeySource, SignError};
    keys::load(&KeySource::File(path.to_owned())).map_err(|e| {
        if let SignError::NoPassphrase(path) = &e {
            return keys::no_passphrase(path, &e);
        }
        let error = CliError::usage(format!("cannot sign with {option}: {e}"));
        match e {
            SignError::Read { .. } => error.hint(format!(
                "{option} takes the path of the player's private key"
            )),
            SignError::NotEd25519(..) => error.hint(format!(
                "make an Ed25519 key (ssh-keygen -t ed25519) and give it with {option}"
            )),
            SignError::WrongPassphrase(path) => error.hint(keys::wrong_passphrase_hint(&path)),
            _ => error,
        }
    })
}

fn import<G: ChessGame>(
    args: &Args,
    variants: &[String],
    pgn: &correspond::pgn::PgnGame,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if args.file.exists() {
        return Err(CliError::usage(format!(
            "{} already exists",
            correspond::text::path(&args.file)
        )));
    }
    super::places::in_a_folder(&args.file)?;
    let options = game::options::<G>(variants)?;
    let signers = [
        signer(&args.white_key, "--white-key")?,
        signer(&args.black_key, "--black-key")?,
    ];
    if signers[0].public_key().key_data() == signers[1].public_key().key_data() {
        return Err(CliError::usage(
            "--white-key and --black-key are the same key: the two players must have different \
             keys",
        )
        .hint("give each player's own key; nothing was written"));
    }
    plies_counted(pgn, &args.pgn)?;
    let mut names = [
        player_name(pgn.tag("White"), "white"),
        player_name(pgn.tag("Black"), "black"),
    ];
    if names[0] == names[1] {
        names = ["white".to_owned(), "black".to_owned()];
    }
    let importer = Importer {
        args,
        pgn,
        signers,
        names,
        time: keys::now()?,
    };
    let header = importer.header::<G>(&options)?;
    let writer = Writer::<G>::open(header.as_bytes())
        .map_err(|e| CliError::rejected(format!("the imported game does not verify: {e}")))?;
    // The comment before the first move that black signs: the acceptance's, as `pgn` writes it.
    let black = format!("{} (black)", importer.names[1]);
    let accepted = signed_part(pgn.before.as_deref(), &black, false);
    let writer = importer.append(
        writer,
        Seat::Opponent,
        Action::Accept { nonce: None },
        accepted,
    )?;
    let (writer, line) = importer.moves(writer, Line::new(G::start(&options)))?;
    let writer = importer.ending(writer, &line)?;
    importer.write(&writer, out)
}

/// What each step of an import needs: the command's arguments, the PGN game, both players' keys
/// (white's, then black's) and names, and the time every document is given.
struct Importer<'a> {
    args: &'a Args,
    pgn: &'a correspond::pgn::PgnGame,
    signers: [Box<dyn Signer>; 2],
    names: [String; 2],
    time: log::Timestamp,
}

impl Importer<'_> {
    /// The header, signed by white, with the PGN's tags that the file keeps.
    fn header<G: ChessGame>(&self, options: &G::Options) -> Result<String, CliError> {
        let player = |seat: usize, side: &str| Player {
            name: self.names[seat].clone(),
            side: side.into(),
            key: self.signers[seat].public_key().clone(),
        };
        let mut header = Header {
            game: G::NAME.to_owned(),
            options: G::options_map(options),
            players: [player(0, "white"), player(1, "black")],
            created: self.time.clone(),
            salt: keys::salt()?,
            commitment: None,
            // A game played elsewhere is imported whole: its times are when it was imported.
            time_control: None,
            leave_days: 0,
            arbiter: None,
            tags: BTreeMap::new(),
        };
        header.tags = kept_tags(self.pgn, &header, G::PGN)?;
        let signature = self.signers[0]
            .sign(header_unsigned(&header).as_bytes())
            .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
        Ok(header_document(&header, &signature))
    }

    /// `writer` with `action` appended, signed by `seat`'s key. A refusal says that nothing was
    /// written.
    fn append<G: ChessGame>(
        &self,
        writer: Writer<G>,
        seat: Seat,
        action: Action,
        comment: Option<String>,
    ) -> Result<Writer<G>, CliError> {
        let record = log::Record {
            comment,
            ..writer.next(seat, action, self.time.clone())
        };
        let seq = record.seq;
        writer
            .write(record, &*self.signers[seat.index()], None)
            .map(|written| written.writer)
            .map_err(|e| {
                match e {
                    WriteError::Refused { .. } | WriteError::Malformed(_) => CliError::rejected(
                        format!("the imported game does not verify: record {seq}: {e}"),
                    ),
                    other => record::write_error(other, &self.args.file),
                }
                .hint("nothing was written")
            })
    }

    /// `writer` with the PGN's moves appended, each with its comment, and the line they make.
    fn moves<G: ChessGame>(
        &self,
        mut writer: Writer<G>,
        mut line: Line<G>,
    ) -> Result<(Writer<G>, Line<G>), CliError> {
        let pgn_path = correspond::text::path(&self.args.pgn);
        for (i, pgn_move) in self.pgn.moves.iter().enumerate() {
            let (san, pgn_line) = (&pgn_move.san, pgn_move.line);
            let number = i / 2 + 1;
            let dots = if i % 2 == 0 { "." } else { "..." };
            let pos = line.current().clone();
            let mv = pos.parse_move(san).map_err(|e| {
                let what = match e {
                    MoveError::Invalid(_) => "not a move",
                    MoveError::Illegal(_) => "illegal",
                    MoveError::Ambiguous(_) => "ambiguous",
                };
                CliError::rejected(format!(
                    "{pgn_path} line {pgn_line}: move {number}{dots} {san} is {what}: {}",
                    game::move_error(&pos, &e)
                ))
                .hint("nothing was written")
            })?;
            if line.outcome().is_some() {
                return Err(CliError::rejected(format!(
                    "{pgn_path} line {pgn_line}: move {number}{dots} {san} comes after the game \
                     ended"
                )));
            }
            line.play(&mv).expect("parse_move returns playable moves");
            let (seat, side) = if pos.side_to_move() == Color::White {
                (Seat::Creator, "white")
            } else {
                (Seat::Opponent, "black")
            };
            let mover = format!("{} ({side})", self.names[seat.index()]);
            let comment = signed_part(pgn_move.comment.as_deref(), &mover, true);
            writer = self.append(writer, seat, Action::Move(mv.to_string()), comment)?;
        }
        Ok((writer, line))
    }

    /// `writer` with what ends the game where the moves do not: the loser's resignation for a
    /// decisive result, an offer and its acceptance for a draw. A result the moves contradict is
    /// refused.
    fn ending<G: ChessGame>(
        &self,
        writer: Writer<G>,
        line: &Line<G>,
    ) -> Result<Writer<G>, CliError> {
        let pgn = self.pgn;
        if let Some(outcome) = line.outcome() {
            let result = match G::decision(&outcome) {
                Decision::Win(Color::White) => "1-0",
                Decision::Win(Color::Black) => "0-1",
                Decision::Draw | Decision::CoinFlip => "1/2-1/2",
            };
            if !matches!(pgn.result.as_str(), "*" | "") && pgn.result != result {
                return Err(CliError::rejected(format!(
                    "{}: the result is {}, but the moves end in {outcome} ({result})",
                    correspond::text::path(&self.args.pgn),
                    pgn.result
                ))
                .hint("nothing was written"));
            }
            return Ok(writer);
        }
        match pgn.result.as_str() {
            // The resignation's own comment, written after the last move by `correspond pgn`.
            "1-0" | "0-1" => {
                let (loser, side) = if pgn.result == "1-0" {
                    (Seat::Opponent, "black")
                } else {
                    (Seat::Creator, "white")
                };
                let resigner = format!("{} ({side})", self.names[loser.index()]);
                let last = pgn.moves.last().and_then(|m| m.comment.as_deref());
                let last_mover = pgn.moves.len() % 2 == usize::from(loser == Seat::Creator);
                let comment = signed_part(last, &resigner, false).filter(|_| !last_mover);
                self.append(writer, loser, Action::Resign, comment)
            }
            "1/2-1/2" => {
                let offered =
                    self.append(writer, Seat::Creator, Action::Offer(Settlement::Draw), None)?;
                let accepted = Action::AcceptOffer(Settlement::Draw);
                self.append(offered, Seat::Opponent, accepted, None)
            }
            _ => Ok(writer),
        }
    }

    /// Journals every document, then writes the file (and commits it, in a git work tree, unless
    /// `--no-commit`), and says so.
    fn write<G: ChessGame>(&self, writer: &Writer<G>, out: &mut Out<'_>) -> Result<(), CliError> {
        let args = self.args;
        let replay = writer.replay();
        let file = writer.file();
        let tracked = if args.no_commit {
            None
        } else {
            super::commit::find_for_new(&args.file)?
        };
        // Every document is in the journal before the file exists.
        let game_id = file.game_id();
        let mut journal = super::signing_journal::game(game_id)?;
        for document in 0..file.documents() {
            let by_white = document == 0 || file.records()[document - 1].signer == self.names[0];
            let signer = if by_white {
                &self.signers[0]
            } else {
                &self.signers[1]
            };
            let key = signer.public_key();
            super::signing_journal::record(
                &mut journal,
                key,
                game_id,
                document as u64,
                file.document(document),
                &args.file,
            )?;
        }
        // Let go of the journal before waiting for the file's lock: signing commands take the
        // two the other way round.
        drop(journal);
        log::create_new(&args.file, file.text().as_bytes())
            .map_err(|e| CliError::io(&args.file, &e))?;
        let summary = replay::Summary::of(&replay);
        let said = vec![
            format!(
                "imported {} moves into {}: {}, {}",
                self.pgn.moves.len(),
                correspond::text::path(&args.file),
                G::NAME,
                replay.matchup()
            ),
            summary.result.unwrap_or(summary.status),
        ];
        let message = format!("{}, imported game, {}", G::NAME, replay.matchup());
        super::new::commit_created(&args.file, &args.wait, tracked, &message, said, out)
    }
}
