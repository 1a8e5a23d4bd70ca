//! `correspond man`: the manual pages, made from the same definition the command line is
//! parsed with (the help of every command and option), in roff for `man`.

use super::{Cli, CliError, Out};
use clap::CommandFactory;

/// Print the manual page of correspond, or of one command, in roff. Install them with
/// `correspond man > ~/.local/share/man/man1/correspond.1` and, for a command,
/// `correspond man play > ~/.local/share/man/man1/correspond-play.1`; then `man correspond`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The command whose page to print; without it, the program's.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut program = Cli::command();
    // Built, each command knows its full name (correspond-play), which its page is named by.
    program.build();
    let page = match &args.command {
        None => program,
        Some(name) => {
            let Some(sub) = program
                .get_subcommands()
                .find(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name))
            else {
                return Err(CliError::usage(format!(
                    "there is no command `{}`",
                    correspond::text::escape(name)
                ))
                .hint("`correspond --help` lists the commands"));
            };
            sub.clone().version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(|e| CliError::usage(format!("cannot make the page: {e}")))?;
    out.write_all(&roff)?;
    Ok(())
}
