//! `correspond import-pgn`: turn a PGN game into a game file signed by the two players' keys,
//! keeping every tag, every comment with its signer and every move, or saying what it cannot.

mod comments;
mod slots;
mod tags;

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::reading::pgn::ChessGame;
use crate::cli::shared::game::{self, GameKind};
use crate::cli::shared::keys;
use crate::cli::shared::record;
use correspond::games::chess::{Chess, Color, Insurrection};
use correspond::log::{self, Action, Header, Player, Settlement, header_document, header_unsigned};
use correspond::pgn::PgnGame;
use correspond::replay::{self, Seat};
use correspond::rules::{Line, MoveError};
use correspond::sign::Signer;
use correspond::writer::{WriteError, Writer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Turn a PGN game into a game file, every move signed by its player's key (the importer holds
/// both). The words `correspond pgn` writes for each record (`{alice (white): the king's pawn}`,
/// `{bob (black) offers a draw}`) become those records again, signed by the same player; another
/// program's comments are the mover's. A decisive result the records do not explain becomes the
/// loser's resignation, a draw an offer and its acceptance. An illegal move stops the import
/// with the move's number and the reason, and nothing is written; so does anything the game file
/// cannot keep as the PGN has it (a variation, a glyph, a tag or comment a game file spells
/// otherwise, a record of a clock, an arbiter or a coin flip), unless `--lossy`.
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
    /// Import even what the game file cannot keep as the PGN has it: variations and glyphs left
    /// out, `"` in a tag or comment written `'`, a comment cut to 280 characters, a tag a header
    /// cannot hold left out, a loss on time made a resignation. Each change is printed.
    #[arg(long)]
    lossy: bool,
    /// Do not commit the new file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: crate::cli::shared::record::WaitArgs,
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
        .filter(|fen| fen.trim_end_matches(" Kk") != correspond::games::chess::START)
    {
        return Err(CliError::rejected(format!(
            "{}: game {} starts from the set-up position `{}`; game files start from the \
             start position",
            correspond::text::path(&args.pgn),
            args.index,
            correspond::text::shown(fen)
        ))
        .hint("nothing was written"));
    }
    let variant_tag = pgn.tag("Variant").unwrap_or("").to_ascii_lowercase();
    if !matches!(variant_tag.as_str(), "" | "standard" | "chess")
        && !variant_tag.contains("insurrection")
    {
        return Err(CliError::rejected(format!(
            "{}: game {} is of the variant `{}`; import-pgn makes games of chess and insurrection",
            correspond::text::path(&args.pgn),
            args.index,
            correspond::text::shown(pgn.tag("Variant").unwrap_or(""))
        ))
        .hint("nothing was written"));
    }
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

/// What the game file cannot keep as the PGN has it, each at its PGN line: the import stops and
/// lists them, unless `--lossy`, which makes them and prints them.
#[derive(Default)]
pub(in crate::cli) struct Changes(Vec<(usize, String)>);

impl Changes {
    fn push(&mut self, line: usize, what: String) {
        self.0.push((line, what));
    }

    /// `line N: what`, in the order of the lines.
    fn lines(&self) -> Vec<String> {
        let mut all = self.0.clone();
        all.sort_by_key(|(line, _)| *line);
        all.into_iter()
            .map(|(line, what)| format!("line {line}: {what}"))
            .collect()
    }
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

/// The two players' keys (white's, then black's), which must differ.
fn signers(args: &Args) -> Result<[Box<dyn Signer>; 2], CliError> {
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
    Ok(signers)
}

fn import<G: ChessGame>(
    args: &Args,
    variants: &[String],
    pgn: &PgnGame,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if args.file.exists() {
        return Err(CliError::usage(format!(
            "{} already exists",
            correspond::text::path(&args.file)
        )));
    }
    crate::cli::shared::places::in_a_folder(&args.file)?;
    let options = game::options::<G>(variants)?;
    let signers = signers(args)?;
    tags::plies_counted(pgn, &args.pgn)?;
    // Named as the header keeps their tags, `"` as `'`.
    let name = |tag: &str, fallback: &str| {
        let value = pgn.tag(tag).map(log::clean_tag_value);
        player_name(value.as_deref(), fallback)
    };
    let mut names = [name("White", "white"), name("Black", "black")];
    if names[0] == names[1] {
        names = ["white".to_owned(), "black".to_owned()];
    }
    let mut importer = Importer {
        args,
        pgn,
        signers,
        labels: comments::Labels::new(&names),
        names,
        accepter: Color::Black,
        time: keys::now()?,
        changes: Changes::default(),
    };
    importer.not_won_before_colours()?;
    for aside in &pgn.set_aside {
        importer.changes.push(
            aside.line,
            format!(
                "{} is left out: a game file holds the main line",
                aside.what
            ),
        );
    }
    let before = importer.slot(&pgn.before, None, None)?;
    // The acceptance is the only record before the first move with words of their own: their
    // speaker is the player who accepts (white, when a coin flip made the accepter white).
    if let Some(colour) = before.speaker {
        importer.accepter = colour;
    }
    let header = importer.header::<G>(&options)?;
    let writer = Writer::<G>::open(header.as_bytes())
        .map_err(|e| CliError::rejected(format!("the imported game does not verify: {e}")))?;
    let accepted = importer.words(&before.said);
    let writer = importer.append(
        writer,
        importer.accepter,
        Action::Accept { nonce: None },
        accepted,
        None,
    )?;
    let writer = importer.records(writer, before.records)?;
    let (writer, line) = importer.moves(writer, Line::new(G::start(&options)))?;
    let writer = importer.ending(writer, &line)?;
    importer.unchanged(&writer, &options)?;
    importer.write(&writer, out)
}

/// What each step of an import needs: the command's arguments, the PGN game, both players' keys
/// (white's, then black's), names and labels, the colour that accepts (the other creates the
/// game), the time every document is given, and the changes found so far.
struct Importer<'a> {
    args: &'a Args,
    pgn: &'a PgnGame,
    signers: [Box<dyn Signer>; 2],
    names: [String; 2],
    labels: comments::Labels,
    accepter: Color,
    time: log::Timestamp,
    changes: Changes,
}

/// White's index in the importer's (and the labels') arrays, 0, or black's, 1.
fn index(colour: Color) -> usize {
    usize::from(colour == Color::Black)
}

impl Importer<'_> {
    /// The game made, with the PGN's derived tags checked against it: if anything had to
    /// change, the list of changes, refused unless `--lossy`.
    fn unchanged<G: ChessGame>(
        &mut self,
        writer: &Writer<G>,
        options: &G::Options,
    ) -> Result<(), CliError> {
        let (_, made, _) = crate::cli::reading::pgn::ending(&writer.replay());
        tags::termination(self.pgn, made, &mut self.changes);
        let variant = crate::cli::reading::pgn::variant_tag::<G>(options);
        tags::variant(self.pgn, variant, &mut self.changes);
        if self.changes.0.is_empty() || self.args.lossy {
            return Ok(());
        }
        Err(CliError::rejected(format!(
            "{}: game {} cannot be imported as the PGN has it:",
            correspond::text::path(&self.args.pgn),
            self.args.index,
        ))
        .items(self.changes.lines())
        .hint("`--lossy` imports it with these changes; nothing was written"))
    }

    /// The player's seat: the creator signs the header, the other accepts.
    fn seat(&self, colour: Color) -> Seat {
        if colour == self.accepter {
            Seat::Opponent
        } else {
            Seat::Creator
        }
    }

    /// A refusal at line `line` of the PGN.
    fn at(&self, line: usize, what: impl std::fmt::Display) -> CliError {
        CliError::rejected(format!(
            "{} line {line}: {what}",
            correspond::text::path(&self.args.pgn)
        ))
        .hint("nothing was written")
    }

    /// The header, signed by the creator, with the PGN's tags that the file keeps.
    fn header<G: ChessGame>(&mut self, options: &G::Options) -> Result<String, CliError> {
        let player = |colour: Color, side: &str| Player {
            name: self.names[index(colour)].clone(),
            side: side.into(),
            key: self.signers[index(colour)].public_key().clone(),
        };
        let white = player(Color::White, "white");
        let black = player(Color::Black, "black");
        let players = if self.accepter == Color::Black {
            [white, black]
        } else {
            [black, white]
        };
        let mut header = Header {
            game: G::NAME.to_owned(),
            options: G::options_map(options),
            players,
            created: self.time.clone(),
            salt: keys::salt()?,
            commitment: None,
            // A game played elsewhere is imported whole: its times are when it was imported.
            time_control: None,
            leave_days: 0,
            arbiter: None,
            tags: BTreeMap::new(),
        };
        header.tags = tags::kept(self.pgn, &header, &mut self.changes);
        let creator = &self.signers[index(self.accepter.opponent())];
        let signature = creator
            .sign(header_unsigned(&header).as_bytes())
            .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
        Ok(header_document(&header, &signature))
    }

    /// `writer` with `action` appended, signed by `colour`'s key. A refusal names the PGN line
    /// of the record's words, where it has them, and says that nothing was written.
    fn append<G: ChessGame>(
        &self,
        writer: Writer<G>,
        colour: Color,
        action: Action,
        comment: Option<String>,
        line: Option<usize>,
    ) -> Result<Writer<G>, CliError> {
        let record = log::Record {
            comment,
            ..writer.next(self.seat(colour), action, self.time.clone())
        };
        let seq = record.seq;
        let at = line.map_or(String::new(), |line| {
            format!("{} line {line}: ", correspond::text::path(&self.args.pgn))
        });
        writer
            .write(record, &*self.signers[index(colour)], None)
            .map(|written| written.writer)
            .map_err(|e| {
                match e {
                    WriteError::Refused { .. } | WriteError::Malformed(_) => CliError::rejected(
                        format!("{at}the imported game does not verify: record {seq}: {e}"),
                    ),
                    other => record::write_error(other, &self.args.file),
                }
                .hint("nothing was written")
            })
    }

    /// `writer` with the records that are not moves appended, each signed by its player.
    fn records<G: ChessGame>(
        &mut self,
        mut writer: Writer<G>,
        records: Vec<(Color, Action, Option<String>, usize)>,
    ) -> Result<Writer<G>, CliError> {
        for (colour, action, said, line) in records {
            let comment = said.and_then(|said| self.words(&[(said, line)]));
            writer = self.append(writer, colour, action, comment, Some(line))?;
        }
        Ok(writer)
    }

    /// `writer` with the PGN's moves appended, each with its words and the records after it,
    /// and the line they make.
    fn moves<G: ChessGame>(
        &mut self,
        mut writer: Writer<G>,
        mut line: Line<G>,
    ) -> Result<(Writer<G>, Line<G>), CliError> {
        let pgn_path = correspond::text::path(&self.args.pgn);
        for (i, pgn_move) in self.pgn.moves.iter().enumerate() {
            let (san, pgn_line) = (correspond::text::shown(&pgn_move.san), pgn_move.line);
            let number = i / 2 + 1;
            let dots = if i % 2 == 0 { "." } else { "..." };
            let pos = line.current().clone();
            let mv = pos.parse_move(&pgn_move.san).map_err(|e| {
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
            if writer.replay().verdict().is_some() {
                return Err(self.at(
                    pgn_line,
                    format!("move {number}{dots} {san} comes after the game ended"),
                ));
            }
            line.play(&mv).expect("parse_move returns playable moves");
            let mover = pos.side_to_move();
            let coup = crate::cli::reading::pgn::coup_note(&pos, mv);
            let mut slot = self.slot(&pgn_move.comments, Some(mover), coup.as_deref())?;
            let comment = self.words(&slot.said);
            // A conditional reply: the move, appended by the player the PGN names.
            let applied = match slot.records.first() {
                Some((by, Action::Applied(_), _, _)) => Some(*by),
                _ => None,
            };
            writer = match applied {
                Some(by) => {
                    slot.records.remove(0);
                    if let Some((said, line)) = slot.said.first() {
                        // A reply carries no comment: the file fixes its bytes.
                        self.changes.push(
                            *line,
                            format!(
                                "`{}`, words on a conditional reply, which carries none: left out",
                                correspond::text::shown(said)
                            ),
                        );
                    }
                    self.append(writer, by, Action::Applied(mv.to_string()), None, None)?
                }
                None => self.append(writer, mover, Action::Move(mv.to_string()), comment, None)?,
            };
            writer = self.records(writer, slot.records)?;
        }
        Ok((writer, line))
    }

    /// `writer` with what ends the game where its moves and records do not: the loser's
    /// resignation for a decisive result; for a draw, the acceptance of the draw offer standing,
    /// or else white's offer and black's acceptance. A result the game contradicts is refused.
    fn ending<G: ChessGame>(
        &self,
        writer: Writer<G>,
        line: &Line<G>,
    ) -> Result<Writer<G>, CliError> {
        let pgn = self.pgn;
        if writer.replay().verdict().is_some() {
            let (result, _, _) = crate::cli::reading::pgn::ending(&writer.replay());
            if !matches!(pgn.result.as_str(), "*" | "") && pgn.result != result {
                let how = match line.outcome() {
                    Some(outcome) => format!("the moves end in {outcome}"),
                    None => "its records end the game".to_owned(),
                };
                return Err(CliError::rejected(format!(
                    "{}: the result is {}, but {how} ({result})",
                    correspond::text::path(&self.args.pgn),
                    pgn.result
                ))
                .hint("nothing was written"));
            }
            return Ok(writer);
        }
        match pgn.result.as_str() {
            "1-0" => self.append(writer, Color::Black, Action::Resign, None, None),
            "0-1" => self.append(writer, Color::White, Action::Resign, None, None),
            "1/2-1/2" => {
                let replay = writer.replay();
                let standing = replay.last().offer.map(|offer| offer.by);
                if let Some(by) = standing {
                    // The offer the PGN has, accepted by the other player.
                    let seat = match by {
                        Seat::Creator => Seat::Opponent,
                        Seat::Opponent => Seat::Creator,
                    };
                    let other = replay.seats[seat].side.unwrap_or(Color::Black);
                    let accepted = Action::AcceptOffer(Settlement::Draw);
                    return self.append(writer, other, accepted, None, None);
                }
                let offered = self.append(
                    writer,
                    Color::White,
                    Action::Offer(Settlement::Draw),
                    None,
                    None,
                )?;
                let accepted = Action::AcceptOffer(Settlement::Draw);
                self.append(offered, Color::Black, accepted, None, None)
            }
            _ => Ok(writer),
        }
    }

    /// Journals every document, then writes the file (and commits it, in a git work tree, unless
    /// `--no-commit`), and says so, with the changes `--lossy` let through.
    fn write<G: ChessGame>(&self, writer: &Writer<G>, out: &mut Out<'_>) -> Result<(), CliError> {
        let args = self.args;
        let replay = writer.replay();
        let file = writer.file();
        let tracked = if args.no_commit {
            None
        } else {
            crate::cli::shared::commit::find_for_new(&args.file)?
        };
        // Every document is in the journal before the file exists.
        let game_id = file.game_id();
        let mut journal = crate::cli::shared::signing_journal::game(game_id)?;
        let creator = self.accepter.opponent();
        for document in 0..file.documents() {
            let colour = match document {
                0 => creator,
                n if file.records()[n - 1].signer == self.names[0] => Color::White,
                _ => Color::Black,
            };
            crate::cli::shared::signing_journal::record(
                &mut journal,
                self.signers[index(colour)].public_key(),
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
        let mut said = vec![
            format!(
                "imported {} moves into {}: {}, {}",
                self.pgn.moves.len(),
                correspond::text::path(&args.file),
                G::NAME,
                replay.matchup()
            ),
            summary.result.unwrap_or(summary.status),
        ];
        if !self.changes.0.is_empty() {
            said.push("changed, as --lossy allows:".to_owned());
            said.extend(
                self.changes
                    .lines()
                    .into_iter()
                    .map(|l| format!("  {}", correspond::text::escape(&l))),
            );
        }
        let message = format!("{}, imported game, {}", G::NAME, replay.matchup());
        crate::cli::playing::new::commit_created(
            &args.file, &args.wait, tracked, &message, said, out,
        )
    }
}
