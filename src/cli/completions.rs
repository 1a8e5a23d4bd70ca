//! `correspond completions`: the shell's completion script for the command line, made from the
//! same definition the command line is parsed with, so it never lists a command that is not
//! there.

use super::{Cli, CliError, Out};
use clap::CommandFactory;
use clap_complete::Shell;

/// Print the completion script for a shell. Bash: `correspond completions bash >
/// ~/.local/share/bash-completion/completions/correspond`; zsh: into a folder of your `fpath`
/// as `_correspond`; fish: `~/.config/fish/completions/correspond.fish`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "correspond", &mut script);
    out.write_all(&script)?;
    Ok(())
}
