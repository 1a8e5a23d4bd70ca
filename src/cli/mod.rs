//! The command line: argument parsing, dispatch to the games, and every byte the program prints.
//!
//! Only this layer talks to the terminal. Each subcommand lives in its own file with its
//! arguments (whose doc comments are the help text) and a `run` function that writes to the
//! output it is given and returns a [`CliError`] on failure; [`main`] turns that into a message
//! on standard error and an exit code.

mod accept;
mod accept_runoff;
mod adjudicate;
mod audit;
mod check_proof;
mod claim_runoff;
mod claim_timeout;
mod clocks;
mod commit;
mod compare;
mod completions;
mod copies;
mod error;
mod extract;
mod flip;
mod game;
mod games;
mod html;
mod import_pgn;
mod journal;
mod keys;
mod leave;
mod log;
mod mail;
mod man;
mod merge_driver;
mod moves;
mod new;
mod next;
mod offer_runoff;
mod page;
mod perft;
mod pgn;
mod places;
mod play;
mod position;
mod recap;
mod receive;
mod record;
mod referee;
mod resign;
mod settle;
mod setup_git;
mod show;
mod show_json;
mod signing_journal;
mod site;
mod standings;
mod status;
mod status_json;
mod target;
mod verify;

pub(crate) use error::Out;
pub use error::{CliError, ExitStatus};

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Play board games by correspondence, with signed game files anyone can verify.
///
/// Game files: `new`, `accept`, `play`, `flip`/`reveal`, `resign`, `offer-runoff`,
/// `accept-runoff`, `claim-runoff`, `claim-timeout`, `leave` sign and append records, and
/// `adjudicate` the game's arbiter's;
/// `status`, `show`, `log`, `verify`, `audit` and `extract` read them; `mail` and `receive`
/// carry records by email. Rules: `moves`, `perft`, `position` and `show` answer questions
/// about positions of a game.
#[derive(Debug, Parser)]
#[command(name = "correspond", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    New(new::Args),
    Accept(accept::Args),
    Play(play::Args),
    #[command(visible_alias = "reveal")]
    Flip(flip::Args),
    Resign(resign::Args),
    #[command(visible_alias = "offer-draw")]
    OfferRunoff(offer_runoff::Args),
    #[command(visible_alias = "accept-draw")]
    AcceptRunoff(accept_runoff::Args),
    #[command(visible_alias = "claim-draw")]
    ClaimRunoff(claim_runoff::Args),
    #[command(visible_alias = "claim-forfeit")]
    ClaimTimeout(claim_timeout::Args),
    Leave(leave::Args),
    Adjudicate(adjudicate::Args),
    Status(status::Args),
    Games(games::Args),
    Standings(standings::Args),
    Show(show::Args),
    Html(html::Args),
    Site(site::Args),
    Log(log::Args),
    Verify(verify::Args),
    Audit(audit::Args),
    Compare(compare::Args),
    CheckProof(check_proof::Args),
    SetupGit(setup_git::Args),
    MergeDriver(merge_driver::Args),
    Mail(mail::Args),
    Receive(receive::Args),
    Referee(referee::Args),
    Extract(extract::Args),
    Pgn(pgn::Args),
    ImportPgn(import_pgn::Args),
    Journal(journal::Args),
    Moves(moves::Args),
    Perft(perft::Args),
    Position(position::Args),
    Completions(completions::Args),
    Man(man::Args),
}

/// `1 commit`, `2 commits`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How many threads the checking of signatures may use: one per core. Results never depend on
/// it (see `src/replay/check.rs`).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Runs a parsed command line, writing its output to `out`.
///
/// # Errors
/// A [`CliError`] saying what went wrong and what to do about it.
pub fn run(cli: Cli, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let done = match cli.command {
        Command::Verify(args) => return verify::run(&args, out),
        Command::Games(args) => return games::run(&args, out),
        Command::Standings(args) => return standings::run(&args, out),
        Command::Audit(args) => return audit::run(&args, out),
        Command::Compare(args) => return compare::run(&args, out),
        Command::CheckProof(args) => return check_proof::run(&args, out),
        Command::MergeDriver(args) => return merge_driver::run(&args, out),
        Command::Receive(args) => return receive::run(&args, out),
        Command::Referee(args) => return referee::run(&args, out),
        Command::Journal(args) => return journal::run(&args, out),
        Command::SetupGit(args) => setup_git::run(&args, out),
        Command::New(args) => new::run(&args, out),
        Command::Accept(args) => accept::run(&args, out),
        Command::Play(args) => play::run(&args, out),
        Command::Flip(args) => flip::run(&args, out),
        Command::Resign(args) => resign::run(&args, out),
        Command::ClaimTimeout(args) => claim_timeout::run(&args, out),
        Command::Leave(args) => leave::run(&args, out),
        Command::Adjudicate(args) => adjudicate::run(&args, out),
        Command::OfferRunoff(args) => offer_runoff::run(&args, out),
        Command::AcceptRunoff(args) => accept_runoff::run(&args, out),
        Command::ClaimRunoff(args) => claim_runoff::run(&args, out),
        Command::Status(args) => status::run(&args, out),
        Command::Show(args) => show::run(&args, out),
        Command::Html(args) => html::run(&args, out),
        Command::Site(args) => return site::run(&args, out),
        Command::Log(args) => log::run(&args, out),
        Command::Mail(args) => mail::run(&args, out),
        Command::Extract(args) => extract::run(&args, out),
        Command::Pgn(args) => pgn::run(&args, out),
        Command::ImportPgn(args) => import_pgn::run(&args, out),
        Command::Moves(args) => moves::run(&args, out),
        Command::Perft(args) => perft::run(&args, out),
        Command::Position(args) => position::run(&args, out),
        Command::Completions(args) => completions::run(&args, out),
        Command::Man(args) => man::run(&args, out),
    };
    done.map(|()| ExitStatus::Success)
}

/// The whole program: parse, run, report, and exit with the documented code.
#[must_use]
pub fn main() -> ExitCode {
    // Interrupted: the step under way that must not be cut short (a copy of a game file
    // renamed into place, git's index written) finishes first, and a temporary copy goes with
    // the process. (The file's lock goes too; the file is the old one or the new one.)
    let _ = ctrlc::set_handler(|| {
        let _finished = correspond::interrupt::before_exit();
        std::process::exit(130);
    });
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout and succeed; usage errors go to stderr. An error
            // quotes the arguments given, which may be a hostile file name: escaped, line by
            // line (and so without clap's colours).
            let text: String = e
                .render()
                .to_string()
                .split_inclusive('\n')
                .map(|line| match line.strip_suffix('\n') {
                    Some(line) => format!("{}\n", correspond::text::escape(line)),
                    None => correspond::text::escape(line).into_owned(),
                })
                .collect();
            let _ = if e.use_stderr() {
                anstream::stderr().lock().write_all(text.as_bytes())
            } else {
                anstream::stdout().lock().write_all(text.as_bytes())
            };
            return if e.use_stderr() {
                ExitStatus::Usage.into()
            } else {
                ExitStatus::Success.into()
            };
        }
    };
    // Styles where the reader sees them (a colour terminal, no NO_COLOR, or CLICOLOR_FORCE);
    // elsewhere the pictures are drawn without them, and the rest is written as it is, not
    // scanned for escapes to strip (text from others is escaped already; see `text`).
    let styled = anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never;
    let stream: Box<dyn Write> = if styled {
        Box::new(anstream::stdout().lock())
    } else {
        Box::new(std::io::stdout().lock())
    };
    // Buffered when the output goes to a pipe or a file (a listing of millions of moves is one
    // write per block, not per line); line by line to a terminal, where a person watches a long
    // `perft --divide` arrive.
    let mut stdout: Box<dyn Write> = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        stream
    } else {
        Box::new(std::io::BufWriter::with_capacity(1 << 16, stream))
    };
    let mut out = Out::new(&mut *stdout, styled);
    let result = run(cli, &mut out);
    // What was printed goes out before any error is said, as it would unbuffered.
    let flushed = out.flush();
    let result = result.and_then(|status| flushed.map(|()| status).map_err(CliError::from));
    match result {
        Ok(status) => status.into(),
        Err(e) if e.is_broken_pipe() => ExitStatus::Success.into(),
        Err(e) => {
            let mut err = anstream::stderr().lock();
            let _ = e.report(&mut err);
            e.status().into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap's own checks of the definition, and each command's summary one paragraph: the list
    /// in `correspond --help` wraps it, where a hard line break would break that list's layout.
    #[test]
    fn the_command_line_is_well_formed_and_each_summary_is_one_paragraph() {
        let command = Cli::command();
        command.clone().debug_assert();
        let broken: Vec<String> = command
            .get_subcommands()
            .filter(|c| c.get_about().is_some_and(|a| a.to_string().contains('\n')))
            .map(|c| c.get_name().to_owned())
            .collect();
        assert_eq!(broken, Vec::<String>::new());
    }
}
