//! The program in the shell: completion scripts for every shell clap knows, bash's, zsh's and
//! fish's tried in the real shells, and manual pages for the program and each command.

use crate::util::{correspond, stdout_of, transcript};
use std::collections::BTreeSet;

/// What bash's completion offers for the words of a command line, the last being completed:
/// the script `completions bash` prints, loaded into a real bash, and its function called as
/// bash's `complete` would call it.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("correspond.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).expect("write the script");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let last = words.len() - 1;
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={last}\n\
         f=$(complete -p correspond | sed -E 's/.* -F ([^ ]+) .*/\\1/')\n\
         \"$f\" correspond '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words[last],
        words[last - 1]
    );
    let out = std::process::Command::new("bash")
        .arg("--noprofile")
        .arg("--norc")
        .arg("-c")
        .arg(program)
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_commands_options_and_values() {
    assert_eq!(
        bash_completes(&["correspond", "claim-t"]),
        ["claim-timeout"]
    );
    assert_eq!(
        bash_completes(&["correspond", "pl"]),
        ["play"],
        "a command by its first letters"
    );
    assert_eq!(
        bash_completes(&["correspond", "new", "chess", "g.yaml", "--time"]),
        ["--time-control"]
    );
    // A side and a variant: every game's, checked against the game's own once it is known.
    assert_eq!(
        bash_completes(&["correspond", "new", "chess", "g.yaml", "--side", ""]),
        [
            "black",
            "coin",
            "guerrilla",
            "heads",
            "tails",
            "toss",
            "white"
        ]
    );
    assert_eq!(
        bash_completes(&["correspond", "new", "chess", "g.yaml", "--side", "t"]),
        ["tails", "toss"]
    );
    // Text, not a file: a name, a time control, a tag, a comment, an address complete to
    // what was typed; a path still completes to the files it may be (this folder's).
    for words in [
        &["correspond", "new", "chess", "g.yaml", "--name", "Car"][..],
        &[
            "correspond",
            "new",
            "chess",
            "g.yaml",
            "--time-control",
            "Car",
        ],
        &["correspond", "new", "chess", "g.yaml", "--tag", "Car"],
        &["correspond", "play", "g.yaml", "e4", "--comment", "Car"],
        &["correspond", "mail", "g.yaml", "--to", "Car"],
    ] {
        assert_eq!(bash_completes(words), ["Car"], "{words:?}");
    }
    // In the order the folder lists them.
    let mut files = bash_completes(&["correspond", "play", "g.yaml", "e4", "--key", "Car"]);
    files.sort();
    assert_eq!(files, ["Cargo.lock", "Cargo.toml"]);
    for command in ["new", "moves", "show", "import-pgn"] {
        assert_eq!(
            bash_completes(&["correspond", command, "--variant", "a"]),
            ["assassination"],
            "{command}"
        );
    }
    assert_eq!(
        bash_completes(&["correspond", "completions", ""]),
        ["bash", "elvish", "fish", "powershell", "zsh"]
    );
}

/// A folder holding game files, another file and a folder, where completion is tried.
fn folder_of_games() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["alice.yaml", "bob.yml", "notes.txt"] {
        std::fs::write(dir.path().join(name), "").expect("write");
    }
    std::fs::create_dir(dir.path().join("club")).expect("a folder");
    dir
}

/// The command lines tried in every shell, each up to the cursor, with what is offered there:
/// game files and folders where a game file goes, at an empty word too; the claims after a
/// game file; a shell's name.
const BY_POSITION: [(&str, &[&str]); 7] = [
    ("correspond status ", &["alice.yaml", "bob.yml", "club"]),
    ("correspond status a", &["alice.yaml"]),
    (
        "correspond verify alice.yaml ",
        &["alice.yaml", "bob.yml", "club"],
    ),
    ("correspond play ", &["alice.yaml", "bob.yml", "club"]),
    (
        "correspond claim-runoff alice.yaml ",
        &["fifty-moves", "halfmove-clock", "repetition"],
    ),
    (
        "correspond claim-draw --key k alice.yaml h",
        &["halfmove-clock"],
    ),
    (
        "correspond completions ",
        &["bash", "elvish", "fish", "powershell", "zsh"],
    ),
];

/// What a shell offers at the end of `line`, in `dir`, with `script` loaded as its user would:
/// sorted, each once, a folder without its `/`.
fn offered(shell: &str, script: &str, dir: &std::path::Path, line: &str) -> Vec<String> {
    let program = match shell {
        "bash" => format!(
            "source {script}\nread -ra COMP_WORDS <<< '{line}'\n[[ '{line}' == *' ' ]] && \
             COMP_WORDS+=('')\nCOMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\nCOMP_LINE='{line}'\n\
             COMP_POINT=${{#COMP_LINE}}\nf=$(complete -p correspond | sed -E 's/.* -F ([^ ]+) \
             .*/\\1/')\n\"$f\" correspond \"${{COMP_WORDS[COMP_CWORD]}}\" \
             \"${{COMP_WORDS[COMP_CWORD-1]}}\"\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
        ),
        "fish" => format!("source {script}\ncomplete -C'{line}'\n"),
        // The matches zsh's completion adds, as it adds them, in a zsh on a pseudo-terminal.
        _ => ZSH_HARNESS
            .replace(
                "FPATH",
                &std::path::Path::new(script)
                    .parent()
                    .expect("its folder")
                    .display()
                    .to_string(),
            )
            .replace("LINE", line),
    };
    let mut command = std::process::Command::new(shell);
    match shell {
        "bash" => command.args(["--noprofile", "--norc", "-c"]),
        "fish" => command.args(["-N", "-c"]),
        _ => command.args(["-f", "-c"]),
    };
    let out = command
        .arg(program)
        .current_dir(dir)
        .output()
        .expect("run the shell");
    assert!(
        out.status.success(),
        "{shell}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut offered: Vec<String> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| {
            l.split('\t')
                .next()
                .unwrap_or(l)
                .trim_end_matches('/')
                .to_owned()
        })
        .filter(|l| !l.is_empty())
        .collect();
    offered.sort();
    offered.dedup();
    offered
}

/// zsh's completion driven on a pseudo-terminal, each match it adds printed (as
/// zsh-capture-completion does it).
const ZSH_HARNESS: &str = r#"zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=(FPATH \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits; builtin compadd -A __hits "$@"
  local h; for h in $__hits; do echo -E - "MATCH:$h"; done
}'
zpty -w z "bindkey '^I' complete-word"
zpty -w z "null-line () { echo -E - \$'\\0' }"
zpty -w z "compprefuncs=( null-line ); comppostfuncs=( null-line exit )"
zpty -w z "LINE"$'\t'
integer tog=0
while zpty -r z; do :; done | while IFS= read -r line; do
  if [[ $line == *$'\0\r' ]]; then (( tog++ )) && exit 0 || continue; fi
  (( tog )) && [[ $line == MATCH:* ]] && echo -E - ${${line#MATCH:}%$'\r'}
done
zpty -d z
"#;

#[test]
fn bash_zsh_and_fish_complete_arguments_by_position() {
    let dir = folder_of_games();
    let scripts = tempfile::tempdir().expect("temp dir");
    for shell in ["bash", "zsh", "fish"] {
        let skipped = format!("completion in {shell}");
        if !crate::util::tool_present(shell, &["-c", "exit 0"], &skipped) {
            continue;
        }
        // zsh finds `_correspond` on its fpath, the others are given their script.
        let name = if shell == "zsh" { "_correspond" } else { shell };
        let script = scripts.path().join(name);
        std::fs::write(&script, stdout_of(&["completions", shell])).expect("write the script");
        let script = script.display().to_string();
        for (line, expected) in BY_POSITION {
            assert_eq!(
                offered(shell, &script, dir.path(), line),
                expected.to_vec(),
                "{shell}: {line}"
            );
        }
    }
}

/// fish's script says of each option that takes a value whether it completes file names: only
/// the options that take a path (or a key, which may be a key file) do.
#[test]
fn fish_completes_file_names_only_where_a_path_goes() {
    let script = stdout_of(&["completions", "fish"]);
    let (mut files, mut text) = (BTreeSet::new(), BTreeSet::new());
    for line in script.lines().filter(|l| l.contains(" -r")) {
        let name = line
            .split(" -l ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .expect("an option");
        if line.contains(" -F") {
            files.insert(name);
        } else if line.contains(" -f") {
            text.insert(name);
        } else {
            panic!("neither files nor text: {line}");
        }
    }
    let paths = [
        "arbiter-key",
        "black-key",
        "check",
        "dir",
        "key",
        "maildir",
        "mbox",
        "opponent-key",
        "output",
        "program",
        "proof",
        "publish",
        "rating-rules",
        "rules",
        "white-key",
    ];
    assert_eq!(files, BTreeSet::from(paths));
    for option in [
        "name",
        "comment",
        "time-control",
        "tag",
        "to",
        "wait",
        "position",
        "at",
    ] {
        assert!(text.contains(option), "{option}: {text:?}");
    }
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    let commands = stdout_of(&["--help"]);
    // The commands, one line each under headings, before the options; the whole list fits one
    // screen of 80 columns.
    let listing = commands
        .split_once("\nUsage: ")
        .and_then(|(_, rest)| rest.split_once("\n\n"))
        .and_then(|(_, rest)| rest.split_once("\nOptions:\n"))
        .map(|(listing, _)| listing)
        .expect("a listing before the options");
    let names: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(
        names.contains(&"claim-timeout") && names.len() >= 30,
        "{names:?}"
    );
    assert!(listing.lines().count() <= 60, "{listing}");
    assert!(
        listing.lines().all(|l| l.chars().count() <= 80),
        "{listing}"
    );
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "a command listed twice");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for name in &names {
            assert!(script.contains(name), "{shell}: no `{name}` in its script");
        }
    }
    let (code, out, err) = transcript(correspond().args(["completions", "tcsh"]));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: invalid value 'tcsh' for '<SHELL>'\n  [possible values: bash, elvish, fish, powershell, zsh]\n"),
        "{err}"
    );
}

#[test]
fn manual_pages_for_the_program_and_each_command() {
    let page = stdout_of(&["man"]);
    let lines: Vec<&str> = page.lines().collect();
    assert_eq!(
        lines[2..6],
        [
            ".TH correspond 1  \"correspond 0.1.0\" ",
            ".SH NAME",
            "correspond \\- Play board games by correspondence: signed, append\\-only game files \
             and a deterministic replayer",
            ".SH SYNOPSIS",
        ]
    );
    assert!(page.contains("\n.SH SUBCOMMANDS\n"), "{page}");
    let play = stdout_of(&["man", "play"]);
    assert!(
        play.contains(".TH correspond-play 1  \"play 0.1.0\" \n.SH NAME\ncorrespond\\-play \\- "),
        "{play}"
    );
    assert!(play.contains("\\fB\\-\\-defer\\fR"), "{play}");
    // Every page into a folder, each the one `man COMMAND` prints.
    let dir = tempfile::tempdir().expect("temp dir");
    let man1 = dir.path().join("man1");
    let (code, out, err) = transcript(correspond().arg("man").arg("--dir").arg(&man1));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let mut pages: Vec<String> = std::fs::read_dir(&man1)
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(
        out,
        format!(
            "wrote {} manual pages into {}\n",
            pages.len(),
            man1.display()
        )
    );
    assert!(pages.contains(&"correspond.1".to_owned()), "{pages:?}");
    assert!(pages.contains(&"correspond-play.1".to_owned()), "{pages:?}");
    assert_eq!(
        std::fs::read_to_string(man1.join("correspond-play.1")).expect("the page"),
        play
    );
    // Every page any page names is written, at every depth, and none is a `help` page.
    assert!(
        pages.contains(&"correspond-journal-export.1".to_owned()),
        "{pages:?}"
    );
    assert!(
        pages.contains(&"correspond-referee-install.1".to_owned()),
        "{pages:?}"
    );
    assert!(!pages.iter().any(|p| p.contains("help")), "{pages:?}");
    let mut named = 0;
    for file in &pages {
        let text = std::fs::read_to_string(man1.join(file)).expect("a page");
        assert!(text.is_ascii(), "{file}: groff reads a page as Latin-1");
        for referred in text.split("correspond\\-").skip(1) {
            let Some((name, _)) = referred.split_once("(1)") else {
                continue;
            };
            let name = name.replace("\\-", "-");
            named += 1;
            assert!(
                pages.contains(&format!("correspond-{name}.1")),
                "{file} names correspond-{name}(1), which has no page"
            );
        }
    }
    assert!(named > 40, "only {named} references");
    // A command within another by its page's name.
    assert_eq!(
        stdout_of(&["man", "journal-export"]),
        std::fs::read_to_string(man1.join("correspond-journal-export.1")).expect("the page")
    );
    // Every page as groff reads it, without a warning; the characters outside ASCII as groff's
    // escapes, drawn as the help text has them.
    if crate::util::tool_present(
        "groff",
        &["--version"],
        "the manual pages were not read by groff",
    ) {
        for file in &pages {
            let out = std::process::Command::new("groff")
                .args(["-man", "-ww", "-z"])
                .arg(man1.join(file))
                .output()
                .expect("run groff");
            assert_eq!(
                (
                    out.status.success(),
                    String::from_utf8_lossy(&out.stderr).as_ref()
                ),
                (true, ""),
                "{file}"
            );
        }
        let out = std::process::Command::new("groff")
            .args(["-man", "-Tutf8"])
            .arg(man1.join("correspond-standings.1"))
            .output()
            .expect("run groff");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("a draw ½") && !text.contains('Â'), "{text}");
    }
    // An alias names its command's page.
    assert_eq!(stdout_of(&["man", "reveal"]), stdout_of(&["man", "flip"]));
    assert_eq!(
        transcript(correspond().args(["man", "nosuch"])),
        (
            2,
            String::new(),
            "error: there is no command `nosuch`\nhint: `correspond --help` lists the commands\n"
                .to_owned()
        )
    );
}
