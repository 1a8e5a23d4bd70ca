//! `correspond completions`: the shell's completion script for the command line, made from the
//! same definition the command line is parsed with, so it never lists a command that is not
//! there.
//!
//! clap_complete's scripts complete commands, options and option values well, but not what a
//! command's arguments by position take: bash's offers every option at an empty word and files
//! only when no option begins with what was typed (`status <TAB>` offered `--json` and no
//! file), and fish's completes no argument by position at all. So each script gets a part of
//! ours, made from the same definition: which argument the word under the cursor is, and what
//! it takes there: game files (`*.yaml`, `*.yml`) and folders where a game file goes (the
//! arguments named in [`GAME_FILES`]), any file where another file goes, a listed value (a
//! claim) where one goes. zsh's script knows positions, and is only told which files a game
//! file is.

use crate::cli::Cli;
use crate::cli::CliError;
use crate::cli::Out;
use clap::{CommandFactory, ValueHint};
use clap_complete::Shell;
use std::fmt::Write as _;

/// Print the completion script for a shell. Bash: `correspond completions bash >
/// ~/.local/share/bash-completion/completions/correspond`; zsh: into a folder of your `fpath`
/// as `_correspond`; fish: `~/.config/fish/completions/correspond.fish`. Where a game file goes,
/// they offer game files (`*.yaml`, `*.yml`) and folders.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// The arguments that name game files (or folders of them), by their id: the same in every
/// command that takes one.
pub(crate) const GAME_FILES: [&str; 4] = ["file", "paths", "a", "b"];

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    // Builds the command, as the walks below need it.
    clap_complete::generate(args.shell, &mut command, "correspond", &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    let grammar = Grammar::of(&command);
    let script = match args.shell {
        Shell::Bash => script + &bash(&grammar),
        Shell::Fish => script + &fish(&grammar),
        Shell::Zsh => zsh(&script),
        _ => script,
    };
    out.write_all(script.as_bytes())?;
    Ok(())
}

/// What an argument by position takes.
enum Takes {
    GameFiles,
    Files,
    Values(Vec<String>),
}

/// An argument by position: the words of its command after the program's, its place among
/// the command's arguments, whether it takes every word from there on, and what it takes.
struct Position {
    command: String,
    index: usize,
    many: bool,
    takes: Takes,
}

/// What the scripts' own part is made from: the command line read once, at every depth.
struct Grammar {
    /// Every argument by position of every command.
    positions: Vec<Position>,
    /// Every command's words (with its aliases): the command's words before it, the name, and
    /// the command's words with it.
    steps: Vec<(String, String, String)>,
    /// The options that take a value (whose next word is theirs), for the count of the words
    /// before the cursor.
    valued: Vec<String>,
}

impl Grammar {
    fn of(program: &clap::Command) -> Grammar {
        let (mut positions, mut steps, mut valued) = (Vec::new(), Vec::new(), Vec::new());
        let mut commands: Vec<(String, &clap::Command)> = vec![(String::new(), program)];
        while let Some((path, command)) = commands.pop() {
            for (index, arg) in command.get_positionals().enumerate() {
                if let Some(takes) = takes(arg) {
                    positions.push(Position {
                        command: path.clone(),
                        index,
                        many: arg.get_num_args().is_some_and(|n| n.max_values() > 1),
                        takes,
                    });
                }
            }
            for arg in command.get_opts() {
                let longs = arg.get_long_and_visible_aliases().into_iter().flatten();
                valued.extend(longs.map(|l| format!("--{l}")));
                let shorts = arg.get_short_and_visible_aliases().into_iter().flatten();
                valued.extend(shorts.map(|s| format!("-{s}")));
            }
            for sub in command.get_subcommands().filter(|c| c.get_name() != "help") {
                let full = [path.as_str(), sub.get_name()].join(" ").trim().to_owned();
                for name in sub.get_name_and_visible_aliases() {
                    steps.push((path.clone(), name.to_owned(), full.clone()));
                }
                commands.push((full, sub));
            }
        }
        positions.sort_by(|a, b| (&a.command, a.index).cmp(&(&b.command, b.index)));
        steps.sort();
        valued.sort();
        valued.dedup();
        Grammar {
            positions,
            steps,
            valued,
        }
    }
}

/// What an argument by position takes, if the scripts' own part completes it.
fn takes(arg: &clap::Arg) -> Option<Takes> {
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|v| v.get_name().to_owned())
        .collect();
    if !values.is_empty() {
        return Some(Takes::Values(values));
    }
    if GAME_FILES.contains(&arg.get_id().as_str()) {
        return Some(Takes::GameFiles);
    }
    matches!(
        arg.get_value_hint(),
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath
    )
    .then_some(Takes::Files)
}

/// bash: `_correspond_positional`, put in place of clap_complete's `_correspond`, whose answer
/// stands for an option and its value; for an argument by position it answers by position.
fn bash(grammar: &Grammar) -> String {
    let mut step_cases = String::new();
    for (path, name, full) in &grammar.steps {
        let _ = writeln!(
            step_cases,
            "                    '{path}:{name}') path='{full}'; n=0 ;;"
        );
    }
    let mut answers = String::new();
    for p in &grammar.positions {
        let answer = match &p.takes {
            Takes::GameFiles => "_correspond_game_files \"$cur\"".to_owned(),
            Takes::Files => "COMPREPLY=()".to_owned(),
            Takes::Values(values) => format!(
                "mapfile -t COMPREPLY < <(compgen -W '{}' -- \"$cur\")",
                values.join(" ")
            ),
        };
        let _ = writeln!(
            answers,
            "    if [[ $path == '{}' ]] && ((n {} {})); then {answer}; return 0; fi",
            p.command,
            if p.many { ">=" } else { "==" },
            p.index,
        );
    }
    format!(
        r#"
# By position (correspond's own part): which argument the word under the cursor is, and what it
# takes there; clap_complete's answer stands for options and their values.
_correspond_game_files() {{
    compopt -o filenames 2> /dev/null
    mapfile -t COMPREPLY < <(compgen -d -- "$1"; compgen -f -X '!*.[yY][aA][mM][lL]' -- "$1"; compgen -f -X '!*.[yY][mM][lL]' -- "$1")
}}
_correspond_positional() {{
    _correspond "$@"
    local cur="${{COMP_WORDS[COMP_CWORD]}}"
    [[ $cur == -* ]] && return 0
    local i word path='' n=0 skip=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        if ((skip)); then
            # `--key=value` reaches bash as three words.
            [[ $word == = ]] || skip=0
            continue
        fi
        case "$word" in
            {valued}) skip=1 ;;
            -*) ;;
            *)
                case "$path:$word" in
{step_cases}                    *) n=$((n + 1)) ;;
                esac
                ;;
        esac
    done
    ((skip)) && return 0
{answers}    return 0
}}
if [[ "${{BASH_VERSINFO[0]}}" -eq 4 && "${{BASH_VERSINFO[1]}}" -ge 4 || "${{BASH_VERSINFO[0]}}" -gt 4 ]]; then
    complete -F _correspond_positional -o nosort -o bashdefault -o default correspond
else
    complete -F _correspond_positional -o bashdefault -o default correspond
fi
"#,
        valued = grammar.valued.join("|"),
    )
}

/// fish: which argument the word under the cursor is (`__correspond_at`), and a completion for
/// each argument by position that takes game files or listed values; elsewhere fish completes
/// files, as clap_complete's script leaves it to.
fn fish(grammar: &Grammar) -> String {
    let mut step_cases = String::new();
    for (path, name, full) in &grammar.steps {
        let _ = writeln!(
            step_cases,
            "                    case '{path}:{name}'\n                        set path '{full}'; set n 0"
        );
    }
    let mut out = format!(
        r#"
# By position (correspond's own part): `__correspond_at COMMAND INDEX [many]` says whether the
# word under the cursor is that command's argument at that place (or past it, for one that
# takes every word from there on).
function __correspond_at
    set -l path ''
    set -l n 0
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case {valued}
                set skip 1
            case '-*'
            case '*'
                switch "$path:$word"
{step_cases}                    case '*'
                        set n (math $n + 1)
                end
        end
    end
    test $skip = 0; and test "$path" = $argv[1]; or return 1
    if set -q argv[3]
        test $n -ge $argv[2]
    else
        test $n -eq $argv[2]
    end
end
function __correspond_game_files
    # As typed, quotes and escapes read (a folder `my games` is typed `my\ games`).
    set -l cur (commandline -ct | string unescape)
    __fish_complete_directories $cur ''
    # Not __fish_complete_suffix, which lists every file, those with the suffix first.
    for file in $cur*.yaml $cur*.yml $cur*.YAML $cur*.YML
        test -f $file; and echo $file
    end
end
"#,
        valued = grammar.valued.join(" "),
    );
    for p in &grammar.positions {
        let many = if p.many { " many" } else { "" };
        let condition = format!("__correspond_at '{}' {}{many}", p.command, p.index);
        match &p.takes {
            Takes::GameFiles => {
                let _ = writeln!(
                    out,
                    "complete -c correspond -n \"{condition}\" -f -a '(__correspond_game_files)'"
                );
            }
            Takes::Values(values) => {
                let _ = writeln!(
                    out,
                    "complete -c correspond -n \"{condition}\" -f -a '{}'",
                    values.join(" ")
                );
            }
            Takes::Files => {}
        }
    }
    out
}

/// zsh: clap_complete's script completes an argument by position; a game file's is told to
/// offer game files and folders, not every file (`_path_files`, which, unlike `_files`, does
/// not go on to every file where no game file is).
fn zsh(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    for line in script.split_inclusive('\n') {
        let spec = line.trim_start_matches(['\'', '*', ':']);
        let game = GAME_FILES
            .iter()
            .any(|id| spec.starts_with(&format!("{id} -- ")));
        if game && line.starts_with('\'') && line.contains(":_files' ") {
            out.push_str(&line.replacen(
                ":_files' ",
                ":_path_files -/ -g \"*.(yaml|yml|YAML|YML)(-.)\"' ",
                1,
            ));
        } else {
            out.push_str(line);
        }
    }
    out
}
