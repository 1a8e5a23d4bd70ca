//! The command line's error: what went wrong, a hint on what to do, and the exit code.

use std::fmt;
use std::io::{self, Write};

/// The documented exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: done.
    Success,
    /// 1: the input was read and the rules reject it (a bad position string, an illegal move).
    Rejected,
    /// 2: the command line is wrong, or a file could not be read or written.
    Usage,
    /// 3: the check could not see everything it must (`audit` of a shallow or grafted
    /// history): what it saw is reported, and nothing is passed.
    Incomplete,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(match status {
            ExitStatus::Success => 0,
            ExitStatus::Rejected => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Incomplete => 3,
        })
    }
}

/// An error to show the user: a message, optional hints, and an exit status.
#[derive(Debug)]
pub struct CliError {
    status: ExitStatus,
    message: String,
    hints: Vec<String>,
    broken_pipe: bool,
}

impl CliError {
    /// The rules reject the input.
    pub(crate) fn rejected(message: impl fmt::Display) -> Self {
        CliError {
            status: ExitStatus::Rejected,
            message: message.to_string(),
            hints: Vec::new(),
            broken_pipe: false,
        }
    }

    /// The command line asks for something that cannot be done (exit code 2).
    pub(crate) fn usage(message: impl fmt::Display) -> Self {
        CliError {
            status: ExitStatus::Usage,
            message: message.to_string(),
            hints: Vec::new(),
            broken_pipe: false,
        }
    }

    /// The check could not see everything it must (exit code 3).
    pub(crate) fn incomplete(message: impl fmt::Display) -> Self {
        CliError {
            status: ExitStatus::Incomplete,
            message: message.to_string(),
            hints: Vec::new(),
            broken_pipe: false,
        }
    }

    /// A file could not be read or written (exit code 2).
    pub(crate) fn io(path: &std::path::Path, e: &io::Error) -> Self {
        CliError::usage(format!("{}: {e}", correspond::text::path(path)))
    }

    /// Writing the output failed. A closed pipe (`correspond moves ... | head`) is not an error.
    pub(crate) fn output(e: io::Error) -> Self {
        CliError {
            status: ExitStatus::Usage,
            broken_pipe: e.kind() == io::ErrorKind::BrokenPipe,
            message: format!("cannot write the output: {e}"),
            hints: Vec::new(),
        }
    }

    /// Adds a hint: what the user can do about it.
    #[must_use]
    pub(crate) fn hint(mut self, hint: impl fmt::Display) -> Self {
        self.hints.push(hint.to_string());
        self
    }

    /// The exit status this error maps to.
    #[must_use]
    pub fn status(&self) -> ExitStatus {
        self.status
    }

    pub(crate) fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }

    /// Writes `error: ...` and `hint: ...` lines, styled when the stream allows it.
    ///
    /// # Errors
    /// When `err` cannot be written to.
    pub fn report(&self, err: &mut dyn Write) -> io::Result<()> {
        let bold_red = anstyle::Style::new()
            .bold()
            .fg_color(Some(anstyle::AnsiColor::Red.into()));
        let bold = anstyle::Style::new().bold();
        // Messages quote files, file names, git and mail, each escaped where it is quoted;
        // escaping the whole line again is the last guard, and changes nothing already escaped.
        let message = correspond::text::escape(&self.message);
        writeln!(err, "{bold_red}error:{bold_red:#} {message}")?;
        for hint in &self.hints {
            writeln!(
                err,
                "{bold}hint:{bold:#} {}",
                correspond::text::escape(hint)
            )?;
        }
        Ok(())
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::output(e)
    }
}
