//! `correspond --help`: every command on one line, under headings of what players do with it,
//! as git, cargo and jj list theirs, so that the list fits one screen; a command's whole help
//! stays in `correspond help COMMAND` and its manual page. The headings are the folders of
//! src/cli/.

use clap::builder::StyledStr;
use std::fmt::Write as _;

/// The headings, each with its commands and the line that says what each does.
pub(crate) const GROUPS: &[(&str, &[(&str, &str)])] = &[
    (
        "Start and play a game",
        &[
            ("new", "Start a game: its header, signed, in a new file"),
            ("accept", "Accept a game your opponent created"),
            (
                "play",
                "Play a move: check it, sign it, append it, commit it",
            ),
            ("flip", "Take your part in the coin flip that is due"),
            ("resign", "Resign the game"),
            ("offer-runoff", "Offer a Run-Off, or in chess a draw"),
            ("accept-runoff", "Accept the Run-Off or draw offered"),
            ("claim-runoff", "Claim a Run-Off or draw the rules give"),
            ("claim-timeout", "Claim the game on time"),
            ("leave", "Take days of leave, which stop your clock"),
            ("withdraw", "Withdraw your conditional lines"),
            (
                "disclose",
                "Disclose your hidden conditional lines that answer no move",
            ),
        ],
    ),
    (
        "Read a game",
        &[
            ("status", "Where a game stands, and what is expected next"),
            ("show", "Draw a position, or a game file's"),
            ("log", "List a game's records"),
            ("moves", "List the legal moves of a position"),
            (
                "position",
                "Play moves from a position and print the position reached",
            ),
            ("perft", "Count the positions a number of turns away"),
            ("pgn", "Write a chess or Insurrection game as PGN"),
            ("import-pgn", "Make a game file of a PGN game"),
            ("html", "Write a game file as one HTML page"),
            ("gif", "Write a game file as an animated GIF"),
            ("extract", "Print what OpenSSH needs to check one document"),
        ],
    ),
    (
        "Check games and settle disputes",
        &[
            (
                "verify",
                "Check game files: signatures, chain, turns, rules, result",
            ),
            ("audit", "Check a game file's git history"),
            ("compare", "Compare two copies of one game"),
            ("check-proof", "Check a proof of equivocation"),
            ("adjudicate", "As the game's arbiter, end it"),
        ],
    ),
    (
        "Run a tournament",
        &[(
            "tournament",
            "A round robin: entries, the lot, its games, the crosstable",
        )],
    ),
    (
        "Play by mail",
        &[
            ("mail", "Write a message that carries a game's new records"),
            ("receive", "Take in records that arrived by mail"),
        ],
    ),
    (
        "Run a club",
        &[
            (
                "games",
                "List the games under folders, and whose turn it is",
            ),
            ("standings", "The standings of the games under folders"),
            (
                "ratings",
                "Rating lists anyone can recompute from the games",
            ),
            (
                "rating-rules",
                "Write a club's rating rules, signed by its key",
            ),
            ("site", "Write a static site of the games under folders"),
            ("referee", "Install or repair a shared repository's referee"),
            ("setup-git", "Set up a git repository for game files"),
            (
                "merge-driver",
                "Merge two versions of a game file (git's merge driver)",
            ),
        ],
    ),
    (
        "This program",
        &[
            ("journal", "The signing journal: export, import, restore"),
            ("completions", "Print a shell's completion script"),
            ("man", "Print the manual pages"),
            ("help", "Print this list, or a command's whole help"),
        ],
    ),
];

/// The help of `correspond` itself, in clap's template language: the list of [`GROUPS`] in place
/// of clap's one list of commands, each command's aliases after its line, as clap writes them.
pub(crate) fn template(command: &clap::Command) -> StyledStr {
    let styles = clap::builder::styling::Styles::default();
    let (header, literal) = (styles.get_header(), styles.get_literal());
    let aliases = |name: &str| {
        let aliases: Vec<&str> = command
            .find_subcommand(name)
            .map(|c| c.get_visible_aliases().collect())
            .unwrap_or_default();
        match aliases.as_slice() {
            [] => String::new(),
            aliases => format!(" [alias: {}]", aliases.join(", ")),
        }
    };
    let width = GROUPS
        .iter()
        .flat_map(|(_, commands)| commands.iter())
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    let mut text = String::from("{before-help}{about-with-newline}\n{usage-heading} {usage}\n");
    for (heading, commands) in GROUPS {
        let _ = write!(text, "\n{header}{heading}:{header:#}\n");
        for (name, line) in *commands {
            let pad = " ".repeat(width - name.len());
            let also = aliases(name);
            let _ = writeln!(text, "  {literal}{name}{literal:#}{pad}  {line}{also}");
        }
    }
    let _ = write!(
        text,
        "\n{header}Options:{header:#}\n{{options}}{{after-help}}"
    );
    StyledStr::from(text)
}

#[cfg(test)]
mod tests {
    use super::GROUPS;
    use clap::CommandFactory;

    /// Every command is under one heading, once, and nothing else is: a new command that was
    /// not given a place fails here.
    #[test]
    fn every_command_is_listed_once() {
        let mut listed: Vec<&str> = GROUPS
            .iter()
            .flat_map(|(_, commands)| commands.iter().map(|(name, _)| *name))
            .collect();
        listed.sort_unstable();
        let command = crate::cli::Cli::command();
        let mut commands: Vec<&str> = command
            .get_subcommands()
            .map(clap::Command::get_name)
            .chain(["help"])
            .collect();
        commands.sort_unstable();
        assert_eq!(listed, commands);
    }
}
