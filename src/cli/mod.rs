//! The command line: argument parsing, dispatch to the games, and every byte the program prints.
//!
//! Only this layer talks to the terminal. Each subcommand lives in its own file with its
//! arguments (whose doc comments are the help text) and a `run` function that writes to the
//! output it is given and returns a [`CliError`] on failure; [`main`] turns that into a message
//! on standard error and an exit code.

mod error;
mod game;
mod moves;
mod perft;
mod position;
mod render;
mod show;

pub use error::{CliError, ExitStatus};

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Play board games by correspondence.
///
/// The rules commands (`moves`, `perft`, `position`, `show`) answer questions about positions of
/// a game; they read nothing but their arguments.
#[derive(Debug, Parser)]
#[command(name = "correspond", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Moves(moves::Args),
    Perft(perft::Args),
    Position(position::Args),
    Show(show::Args),
}

/// Runs a parsed command line, writing its output to `out`.
///
/// # Errors
/// A [`CliError`] saying what went wrong and what to do about it.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(args) => moves::run(&args, out),
        Command::Perft(args) => perft::run(&args, out),
        Command::Position(args) => position::run(&args, out),
        Command::Show(args) => show::run(&args, out),
    }
}

/// The whole program: parse, run, report, and exit with the documented code.
#[must_use]
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout and succeed; usage errors go to stderr.
            let _ = e.print();
            return if e.use_stderr() {
                ExitStatus::Usage.into()
            } else {
                ExitStatus::Success.into()
            };
        }
    };
    let mut out = anstream::stdout().lock();
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(CliError::output));
    match result {
        Ok(()) => ExitStatus::Success.into(),
        Err(e) if e.is_broken_pipe() => ExitStatus::Success.into(),
        Err(e) => {
            let mut err = anstream::stderr().lock();
            let _ = e.report(&mut err);
            e.status().into()
        }
    }
}
