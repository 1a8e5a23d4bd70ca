//! `correspond play`: sign a move (or, having won the toss, defer the first move), with the
//! conditional lines it promises; a move that meets the opponent's conditional line brings its
//! reply in the same command.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::{CliGame, with_game};
use crate::cli::shared::record::{self, SignArgs};

mod conditional;
use crate::cli::shared::hidden::{self, Answer};
use correspond::log::{Action, Conditional};
use correspond::replay::{Phase, Protocol};
use correspond::rules::MoveError;

/// Play a move: check it against the game, sign it, append it to the file, and commit it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    sign: SignArgs,
    #[arg(
        value_name = "MOVE",
        required_unless_present = "defer",
        value_hint = clap::ValueHint::Other,
        help = crate::cli::shared::game::help::notation("The move")
    )]
    mv: Option<String>,
    /// Having won the toss, let your opponent move first.
    #[arg(long, conflicts_with = "mv")]
    defer: bool,
    /// With the move, offer to settle the game (a draw; in Campaign a Run-Off), signed as the
    /// next record, as correspondence players offer a draw with their move.
    #[arg(long, visible_aliases = ["offer-draw", "offer-runoff"], conflicts_with = "defer")]
    offer: bool,
    /// With the move, a conditional line: your opponent's expected move, then your reply, and so
    /// on (`--if 'Nf3 Nc6 d4 exd4'`), signed as the next record. When their move meets it, the
    /// reply is played at once, charged no time. Give it again for more lines (up to 30, of up
    /// to 30 moves); they are visible to your opponent. `correspond withdraw` takes them back.
    #[arg(
        long = "if",
        value_name = "LINE",
        conflicts_with_all = ["defer", "offer"],
        value_hint = clap::ValueHint::Other
    )]
    lines: Vec<String>,
    /// Keep the lines of `--if` hidden from your opponent: only a commitment to them is
    /// signed, and the lines are kept beside your signing journal. After your opponent's move,
    /// your own `play` answers first: it reveals the reply a line gives (charged no time), or,
    /// where none answers, discloses the lines before your move.
    #[arg(long, requires = "lines")]
    hidden: bool,
}

/// Signs the move (the record `the_move` decides on), then what follows it in the same
/// command: the opponent's conditional reply the move meets, the lines of `--if`, the offer of
/// `--offer`. The path of a signed move runs from here through [`record::append`] (journal,
/// signature, check, write, commit), once the game's type is known.
pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut promise = None;
    let mut spent = false;
    // A reply of the opponent's still due is appended first, then the move is signed on it.
    let standing = loop {
        let (kind, held) = record::hold(&args.sign)?;
        let mut reply_first = false;
        let standing = with_game!(kind, G => record::append_seen::<G>(&args.sign, held, out, |ctx| {
            Ok(match the_move(args, ctx)? {
                Made::Record(action, lines) => {
                    promise = lines;
                    action
                }
                Made::LastReveal(action) => {
                    spent = true;
                    action
                }
                Made::ReplyFirst(reply) => {
                    reply_first = true;
                    reply
                }
            })
        }))?;
        if !reply_first {
            break standing;
        }
    };
    // What follows are records of their own, after the move, signed by the key that signed it
    // (the game waits for the other player now); the comment went with the move.
    let sign = SignArgs {
        comment: None,
        by_the_other: true,
        ..args.sign.clone()
    };
    let lines_stand = standing.is_some();
    if standing.is_some_and(|s| s.due.is_some()) {
        let applied = record::hold(&sign).and_then(
            |(kind, held)| with_game!(kind, G => record::append::<G>(&sign, held, out, the_reply)),
        );
        applied.map_err(|e| {
            e.hint("the move was written; the conditional reply it meets was not")
                .hint(format!(
                    "`correspond play {} MOVE` appends it before your next move",
                    correspond::text::path(&args.sign.file)
                ))
        })?;
    }
    // A reply that ended the game leaves nothing to withdraw.
    if spent && lines_stand {
        // The reveal was the last reply of every line: withdrawn now, the lines need no
        // disclosure at the opponent's next move, which would show the variations not played.
        let withdrawn = record::hold(&sign).and_then(|(kind, held)| {
            with_game!(kind, G => record::append::<G>(&sign, held, out, |_| Ok(Action::Withdraw)))
        });
        withdrawn.map_err(|e| {
            e.hint("the reply was revealed; the lines it ends were not withdrawn")
                .hint(format!(
                    "`correspond withdraw {}` withdraws them",
                    correspond::text::path(&args.sign.file)
                ))
        })?;
    }
    if let Some(lines) = promise {
        let promised = record::hold(&sign).and_then(|(kind, held)| {
            with_game!(kind, G => record::append::<G>(&sign, held, out, |ctx| {
                if args.hidden {
                    hidden::commit(ctx, &lines)
                } else {
                    Ok(Action::Conditional(lines.clone()))
                }
            }))
        });
        promised.map_err(|e| e.hint("the move was written; its conditional lines were not"))?;
    }
    if args.offer {
        let offered = record::hold(&sign).and_then(
            |(kind, held)| with_game!(kind, G => record::append::<G>(&sign, held, out, the_offer)),
        );
        offered.map_err(|e| e.hint("the move was written; the offer was not"))?;
    }
    Ok(())
}

/// What `play` signs first.
enum Made {
    /// The move (or the deferral, or the player's own reply due), with the lines to promise
    /// after it.
    Record(Action, Option<Conditional>),
    /// A record owed before the move, which is signed after it: the opponent's conditional
    /// reply still due, or the disclosure of the player's own hidden lines that answer none.
    ReplyFirst(Action),
    /// The reveal of the last reply the player's hidden lines give: withdrawn after it.
    LastReveal(Action),
}

/// The record a move signs, in the file as `ctx` holds it: the move, checked against the
/// position (or, having won the toss, the deferral; or, where the player's own conditional
/// reply is due, that reply); with `--offer` or `--if`, what would refuse the offer or the
/// lines is said before the move is signed, and the lines are returned in the file's notation.
fn the_move<G: CliGame>(args: &Args, ctx: &record::Context<'_, G>) -> Result<Made, CliError> {
    let my_seat = ctx.seat()?;
    let last = ctx.replay.last();
    if let Some(standing) = &last.conditional
        && let Some(reply) = &standing.due
        && standing.author != my_seat
    {
        // A program that knew no conditional signed the move that met the line, and left the
        // reply out: the player appends it, on their own turn's time, before moving.
        return Ok(Made::ReplyFirst(Action::Applied(reply.clone())));
    }
    if args.offer {
        // A game without offers, or an offer of the player's own that stands already.
        let settlement = record::settlement::<G>()?;
        if ctx.replay.last().offer.is_some_and(|o| o.by == my_seat) {
            return Err(CliError::rejected(format!(
                "your offer of a {} stands already, until your opponent's next record",
                settlement.words()
            )));
        }
    }
    let Some(text) = &args.mv else {
        return Ok(Made::Record(Action::Defer, None));
    };
    let position = match last.phase {
        Phase::Playing(seat) | Phase::Choosing(seat) if seat == my_seat => match &last.phase {
            Phase::Choosing(_) => {
                let side = ctx.replay.seats()[seat]
                    .side
                    .expect("a toss for the first move needs fixed sides");
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
            return Err(CliError::rejected(format!(
                "{why}: {}",
                phase.describe(ctx.replay.seats())
            )));
        }
    };
    let mv = position.parse_move(text).map_err(|e| {
        let error = CliError::rejected(format!("{text}: {e}"));
        let meant = same_but_for_case::<G>(&position, text);
        if !meant.is_empty() {
            return error.hint(format!("did you mean {}?", meant.join(" or ")));
        }
        match e {
            MoveError::Invalid(_) => error,
            _ => error.hint(format!(
                "`correspond moves {} --position '{position}'` lists the legal moves",
                G::NAME
            )),
        }
    })?;
    if let Some(standing) = &last.conditional
        && let Some(lines) = standing.answer_owed()
        && standing.author == my_seat
    {
        return match hidden::answer(ctx, lines)? {
            Answer::Reveal(reveal, _) if reveal.mv != mv.to_string() => {
                Err(hidden::reply_due(&position, &reveal.mv, &args.sign.file))
            }
            Answer::Reveal(..) if !args.lines.is_empty() => Err(conditional::not_now()),
            Answer::Reveal(_, true) if args.offer => Err(CliError::rejected(
                "this move is your conditional reply: an offer after it would void the lines \
                 that go on from it; offer with your next move",
            )),
            Answer::Reveal(reveal, true) => Ok(Made::Record(Action::Reveal(reveal), None)),
            Answer::Reveal(reveal, false) => Ok(Made::LastReveal(Action::Reveal(reveal))),
            Answer::Disclose(disclosure) => {
                // The move's own lines are checked before the disclosure is signed.
                if !args.lines.is_empty() {
                    conditional::lines(ctx, &position, &mv, &args.lines)?;
                }
                Ok(Made::ReplyFirst(Action::Disclose(disclosure)))
            }
        };
    }
    if let Some(reply) = last.conditional.as_ref().and_then(|s| s.due.as_ref()) {
        // The player's own promise decides this move: it is the reply, or nothing.
        if mv.to_string() != *reply {
            return Err(CliError::rejected(format!(
                "your conditional line answers your opponent's move with {}, which you signed: \
                 that reply is due, and no other move",
                conditional::shown(&position, reply)
            ))
            .hint(format!(
                "`correspond play {} {}` appends it",
                correspond::text::path(&args.sign.file),
                conditional::shown(&position, reply)
            )));
        }
        if !args.lines.is_empty() {
            return Err(conditional::not_now());
        }
        if args.sign.comment.is_some() {
            return Err(CliError::usage(
                "a conditional reply carries no comment: its bytes are the file's, whoever \
                 appends it; nothing was written",
            )
            .hint("say it with your next record, or by mail"));
        }
        return Ok(Made::Record(Action::Applied(reply.clone()), None));
    }
    if (args.offer || !args.lines.is_empty())
        && last
            .conditional
            .as_ref()
            .is_some_and(|s| s.hidden.is_some() && s.author != my_seat)
    {
        return Err(CliError::rejected(
            "your opponent's hidden conditional lines stand, and their author answers this move \
             first: an offer or lines of yours cannot follow it",
        )
        .hint("offer before you move, which voids the lines; or play the move alone"));
    }
    if args.offer && conditional::meets(ctx, &mv) {
        return Err(CliError::rejected(
            "this move meets your opponent's conditional line, whose reply is played at once: \
             offer with your next move",
        ));
    }
    let lines = if args.lines.is_empty() {
        None
    } else {
        Some(conditional::lines(ctx, &position, &mv, &args.lines)?)
    };
    Ok(Made::Record(Action::Move(mv.to_string()), lines))
}

/// The reply the opponent's conditional line gives to the move just written.
fn the_reply<G: CliGame>(ctx: &record::Context<'_, G>) -> Result<Action, CliError> {
    match ctx
        .replay
        .last()
        .conditional
        .as_ref()
        .and_then(|s| s.due.clone())
    {
        Some(reply) => Ok(Action::Applied(reply)),
        None => Err(CliError::rejected(
            "no conditional reply is due any more: another command appended it first",
        )),
    }
}

/// The offer `--offer` signs after the move, unless the move ended the game.
fn the_offer<G: CliGame>(ctx: &record::Context<'_, G>) -> Result<Action, CliError> {
    if let Phase::Over(verdict) = &ctx.replay.last().phase {
        return Err(CliError::rejected(format!(
            "the move ended the game ({}): there is nothing to offer",
            verdict.describe(ctx.replay.seats())
        )));
    }
    Ok(Action::Offer(record::settlement::<G>()?))
}

/// The legal moves of `position` written as `text` is but for upper and lower case (`nf6` for
/// `Nf6`), as the game shows them (SAN in chess) or in its notation.
fn same_but_for_case<G: Protocol>(position: &G, text: &str) -> Vec<String> {
    let mut meant: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|mv| (position.display_move(mv), mv.to_string()))
        .filter(|(shown, written)| {
            shown.eq_ignore_ascii_case(text) || written.eq_ignore_ascii_case(text)
        })
        .map(|(shown, _)| format!("`{shown}`"))
        .collect();
    meant.sort();
    meant.dedup();
    meant
}
