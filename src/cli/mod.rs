//! The command line: argument parsing, dispatch to the games, and every byte the program prints.
//!
//! Only this layer talks to the terminal. Each subcommand lives in its own file with its
//! arguments (whose doc comments are the help text) and a `run` function that writes to the
//! output it is given and returns a [`CliError`] on failure; [`main`] turns that into a message
//! on standard error and an exit code.

mod by_mail;
mod checking;
mod club;
mod help;
mod playing;
mod reading;
mod shared;
mod tools;
mod tournament;

pub(crate) use shared::error::Out;
pub use shared::error::{CliError, ExitStatus};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Play board games by correspondence, with signed game files anyone can verify.
///
/// `correspond help COMMAND` gives a command's whole help, and `correspond man COMMAND` its
/// manual page.
#[derive(Debug, Parser)]
#[command(name = "correspond", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    New(playing::new::Args),
    Accept(playing::accept::Args),
    Play(playing::play::Args),
    #[command(visible_alias = "reveal")]
    Flip(playing::flip::Args),
    Resign(playing::resign::Args),
    #[command(visible_alias = "offer-draw")]
    OfferRunoff(playing::offer_runoff::Args),
    #[command(visible_alias = "accept-draw")]
    AcceptRunoff(playing::accept_runoff::Args),
    #[command(visible_alias = "claim-draw")]
    ClaimRunoff(playing::claim_runoff::Args),
    #[command(visible_alias = "claim-forfeit")]
    ClaimTimeout(playing::claim_timeout::Args),
    Leave(playing::leave::Args),
    Withdraw(playing::withdraw::Args),
    Disclose(playing::disclose::Args),
    Adjudicate(checking::adjudicate::Args),
    Status(reading::status::Args),
    Games(club::games::Args),
    Standings(club::standings::Args),
    Ratings(club::ratings::Args),
    RatingRules(club::rating_rules::Args),
    Show(reading::show::Args),
    Html(reading::html::Args),
    Gif(reading::gif::Args),
    Site(club::site::Args),
    Log(reading::log::Args),
    Verify(checking::verify::Args),
    Audit(checking::audit::Args),
    Compare(checking::compare::Args),
    CheckProof(checking::check_proof::Args),
    SetupGit(club::setup_git::Args),
    MergeDriver(club::merge_driver::Args),
    Mail(by_mail::mail::Args),
    Receive(by_mail::receive::Args),
    Referee(club::referee::Args),
    Tournament(tournament::Args),
    Extract(reading::extract::Args),
    Pgn(reading::pgn::Args),
    ImportPgn(reading::import_pgn::Args),
    Journal(tools::journal::Args),
    Moves(reading::moves::Args),
    Perft(reading::perft::Args),
    Position(reading::position::Args),
    Completions(tools::completions::Args),
    Man(tools::man::Args),
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
        Command::Verify(args) => return checking::verify::run(&args, out),
        Command::Games(args) => return club::games::run(&args, out),
        Command::Standings(args) => return club::standings::run(&args, out),
        Command::Ratings(args) => return club::ratings::run(&args, out),
        Command::RatingRules(args) => club::rating_rules::run(&args, out),
        Command::Audit(args) => return checking::audit::run(&args, out),
        Command::Compare(args) => return checking::compare::run(&args, out),
        Command::CheckProof(args) => return checking::check_proof::run(&args, out),
        Command::MergeDriver(args) => return club::merge_driver::run(&args, out),
        Command::Receive(args) => return by_mail::receive::run(&args, out),
        Command::Referee(args) => return club::referee::run(&args, out),
        Command::Tournament(args) => return tournament::run(&args, out),
        Command::Journal(args) => return tools::journal::run(&args, out),
        Command::SetupGit(args) => club::setup_git::run(&args, out),
        Command::New(args) => playing::new::run(&args, out),
        Command::Accept(args) => playing::accept::run(&args, out),
        Command::Play(args) => playing::play::run(&args, out),
        Command::Flip(args) => playing::flip::run(&args, out),
        Command::Resign(args) => playing::resign::run(&args, out),
        Command::ClaimTimeout(args) => playing::claim_timeout::run(&args, out),
        Command::Leave(args) => playing::leave::run(&args, out),
        Command::Withdraw(args) => playing::withdraw::run(&args, out),
        Command::Disclose(args) => playing::disclose::run(&args, out),
        Command::Adjudicate(args) => checking::adjudicate::run(&args, out),
        Command::OfferRunoff(args) => playing::offer_runoff::run(&args, out),
        Command::AcceptRunoff(args) => playing::accept_runoff::run(&args, out),
        Command::ClaimRunoff(args) => playing::claim_runoff::run(&args, out),
        Command::Status(args) => reading::status::run(&args, out),
        Command::Show(args) => reading::show::run(&args, out),
        Command::Html(args) => reading::html::run(&args, out),
        Command::Gif(args) => reading::gif::run(&args, out),
        Command::Site(args) => return club::site::run(&args, out),
        Command::Log(args) => reading::log::run(&args, out),
        Command::Mail(args) => by_mail::mail::run(&args, out),
        Command::Extract(args) => reading::extract::run(&args, out),
        Command::Pgn(args) => reading::pgn::run(&args, out),
        Command::ImportPgn(args) => reading::import_pgn::run(&args, out),
        Command::Moves(args) => reading::moves::run(&args, out),
        Command::Perft(args) => reading::perft::run(&args, out),
        Command::Position(args) => reading::position::run(&args, out),
        Command::Completions(args) => tools::completions::run(&args, out),
        Command::Man(args) => tools::man::run(&args, out),
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
    let command = Cli::command();
    let template = help::template(&command);
    let parsed = command
        .help_template(template)
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
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
