//! The examples of the README and of the rules documents are run as written: every `$ correspond
//! ...` line in a `console` block is executed, and what it prints (standard output, then standard
//! error) must match the lines below it. A line `...` stands for any number of lines.

use crate::util::correspond;

/// Splits a command line as a POSIX shell would for the simple cases the README uses: words
/// separated by spaces, single quotes, and a trailing `# comment`.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            '#' if !quoted && !started => break,
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match (expected.split_first(), actual.split_first()) {
        (None, None) => true,
        (Some((&"...", rest)), _) => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        (Some((e, rest)), Some((a, more))) => e == a && matches(rest, more),
        _ => false,
    }
}

/// The `console` examples of a Markdown file: each command with the lines it must print.
fn console_examples(text: &str) -> Vec<(String, Vec<String>)> {
    let mut in_console = false;
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push((command.to_owned(), Vec::new()));
        } else if let Some((_, output)) = examples.last_mut() {
            output.push(line.to_owned());
        }
    }
    examples
}

fn run_examples(name: &str, examples: Vec<(String, Vec<String>)>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (command, mut expected) in examples {
        while expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        let words = shell_words(&command);
        assert_eq!(
            words.first().map(String::as_str),
            Some("correspond"),
            "{name}: {command}"
        );
        let out = correspond()
            .current_dir(root)
            .args(&words[1..])
            .output()
            .expect("run correspond");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let actual: Vec<&str> = text.lines().collect();
        let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
        assert!(
            matches(&expected, &actual),
            "{name} example `{command}` printed:\n{text}"
        );
    }
}

#[test]
fn readme_examples_print_what_the_readme_says() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let examples = console_examples(&readme);
    assert!(examples.len() >= 6, "found {} examples", examples.len());
    run_examples("README.md", examples);
}

#[test]
fn the_rules_documents_examples_print_what_they_say() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let mut found = 0;
    for entry in std::fs::read_dir(&dir).expect("docs/rules") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read a rules document");
        let examples = console_examples(&text);
        found += examples.len();
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(&path);
        run_examples(&name.display().to_string(), examples);
    }
    assert!(found >= 3, "found {found} examples in docs/rules");
}

/// The `sh` blocks of a README section, in order.
fn sh_blocks(readme: &str, heading: &str) -> String {
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has {heading}"));
    let section = &readme[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut script = String::new();
    let mut inside = false;
    for line in section.lines() {
        if line.starts_with("```") {
            inside = line == "```sh";
            continue;
        }
        if inside {
            script.push_str(line);
            script.push('\n');
        }
    }
    script
}

/// Runs a script in an empty folder, with this build of `correspond` first on the PATH and
/// nothing from the machine's configuration; returns its standard output.
fn run_script(script: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = assert_cmd::cargo::cargo_bin("correspond");
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir.path())
        .env("PATH", path)
        .env("HOME", dir.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("SSH_AUTH_SOCK")
        .env_remove("CORRESPOND_TIME")
        .env_remove("CORRESPOND_SALT")
        .env_remove("CORRESPOND_JOURNAL")
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the walk-through failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README")
}

/// The walk-through, the dispute section and the audit recipe run as written. The dispute
/// section runs straight after the walk-through, from the folder that it says: the one the
/// walk-through made its clones in.
#[test]
fn readme_walkthrough_and_audit_recipe_run_as_written() {
    if !crate::util::tool_present("jq", &["--version"], "the README walk-through needs jq") {
        return;
    }
    let readme = readme();
    let script = sh_blocks(&readme, "## Playing over git")
        + "test -d shared.git && test -d alice/.git && test -d bob/.git\n"
        + &sh_blocks(&readme, "## Settling a dispute")
        + &sh_blocks(&readme, "## Auditing a game with OpenSSH alone");
    assert!(script.contains("correspond new") && script.contains("ssh-keygen -Y verify"));
    let stdout = run_script(&script);
    assert!(
        stdout.contains("valid: campaign, alice (heads) v bob (tails)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("heads wins: bob (tails) resigned"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Good \"correspond\" signature for bob"),
        "{stdout}"
    );
    // The dispute: a clean audit, an equivocation proved, and the proof checked by OpenSSH.
    for expected in [
        "0 violations in 3 commits; at ",
        "refused: alice signed record 2 already",
        "EQUIVOCATION: alice signed two different records numbered 2: move e2e4 in \
         alice/duel.yaml",
        "duel.proof: valid proof: in game ",
        "Good \"correspond\" signature for alice",
        "move: d2d4",
        "proof holds: alice signed two different records at one place\n",
        // A plain pull of diverged histories runs the merge driver, and the audit is clean.
        "duel.yaml: ours extends theirs; keeping ours\n",
        "0 violations in 5 commits; at ",
    ] {
        assert!(stdout.contains(expected), "no `{expected}` in\n{stdout}");
    }
    assert_eq!(
        stdout
            .matches("Good \"correspond\" signature for alice")
            .count(),
        2,
        "{stdout}"
    );
}

/// The game by email runs as written: challenge, acceptance, moves, a quoting reply, a message
/// received twice, a mailbox out of order.
#[test]
fn readme_email_walkthrough_runs_as_written() {
    let script = sh_blocks(&readme(), "## Playing by email");
    assert!(script.contains("correspond mail") && script.contains("--mbox"));
    let stdout = run_script(&script);
    for expected in [
        "record 0: alice (white) game proposed\n",
        "players: alice (white) SHA256:",
        "record 1: bob (black) accepted\n",
        "record 2: alice (white) e4\n",
        "nothing new: game.yaml already holds every record received (records 0 to 3)\n",
        "record 3: bob (black) e5\nnow: alice (white) to move\n",
        "alice and bob hold the same game file\n",
        "by the crossing rule",
        "record 5: bob (black) offers a draw\n",
        "the crossing is settled alike\n",
    ] {
        assert!(stdout.contains(expected), "no `{expected}` in\n{stdout}");
    }
}

/// A director's walk-through runs as written: keys made, the event announced, three players
/// entered by their own keys, the lot drawn, the games made, the folder checked.
#[test]
fn readme_tournament_walkthrough_runs_as_written() {
    let script = sh_blocks(&readme(), "## Running a tournament");
    assert!(script.contains("correspond tournament new") && script.contains("tournament start"));
    let stdout = run_script(&script);
    for expected in [
        "created spring/tournament.yaml: Spring Cup, chess, round-robin, directed by dora\n",
        "entered cat in Spring Cup (3 entrants)\n",
        "now: the lot waits for the nonces of dora, ann, ben, cat\n",
        "now: the lot is drawn; the games are played\n",
        "round 1, board 1 of Spring Cup\n",
        "spring/tournament.yaml: valid: tournament Spring Cup: chess, round-robin, 3 players, \
         directed by dora: 3 games: 3 in play\n",
        "4 files: 4 valid, 0 invalid\n",
        "ranking so far: 0 of 3 games settled\n",
    ] {
        assert!(stdout.contains(expected), "no `{expected}` in\n{stdout}");
    }
}

/// The README's OpenSSH recipe for a proof refuses a forgery that OpenSSH alone would pass: a
/// genuine record and a copy of it whose Ed25519 signature is respelled (`S + L`, made here by
/// Python, as a forger would). `check-proof` refuses it too.
#[test]
fn the_proof_recipe_refuses_one_record_with_its_signature_respelled() {
    let blocks = sh_blocks(&readme(), "## Settling a dispute");
    let recipe = &blocks[blocks.find("(\nset -eu\nP=duel.proof").expect("the recipe")..];
    let keys = crate::util::keys_dir();
    let script = format!(
        r#"cp '{keys}/alice.pub' alice_key.pub
correspond new chess g.yaml --name alice --side white --opponent bob --opponent-key '{keys}/bob.pub' --key '{keys}/alice' --no-commit > /dev/null
correspond accept g.yaml --key '{keys}/bob' --no-commit > /dev/null
correspond play g.yaml e4 --key '{keys}/alice' --no-commit > /dev/null
python3 - <<'PY'
import base64
text = open("g.yaml").read()
record = text[text.rindex("---\n"):]
head, sig = record.split("signature: ")
blob = bytearray(base64.b64decode(sig.strip()))
L = 2**252 + 27742317777372353535851937790883648493
s = int.from_bytes(blob[-32:], "little") + L
blob[-32:] = s.to_bytes(32, "little")
open("forged.proof", "w").write(text + head + "signature: " + base64.b64encode(bytes(blob)).decode() + "\n")
PY
if correspond check-proof forged.proof; then echo "check-proof passed it"; fi
# Two headers alice signed (two games she created) are no proof either.
correspond new chess h.yaml --name alice --side white --opponent bob --opponent-key '{keys}/bob.pub' --key '{keys}/alice' --no-commit > /dev/null
{{ awk '/^---$/{{n++}} n==1' g.yaml; awk '/^---$/{{n++}} n==1' h.yaml; }} > headers.proof
if bash -euo pipefail -c '{headers}'; then echo "the recipe passed two headers"; fi
{recipe}"#,
        keys = keys.display(),
        recipe = recipe.replace("P=duel.proof", "P=forged.proof"),
        headers = recipe
            .replace("P=duel.proof", "P=headers.proof")
            .replace('\'', "'\\''"),
    );
    let out = run_recipe(&["-euo", "pipefail"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    // OpenSSH verifies both "rivals": without the last check the forgery would pass.
    assert_eq!(
        stdout
            .matches("Good \"correspond\" signature for alice")
            .count(),
        2,
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.ends_with("not a proof: both rivals sign the same bytes\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("check-proof passed it"), "{stdout}");
    assert!(
        stdout.contains("not a proof: rival 1 is not record 0 after the common part\n")
            && !stdout.contains("the recipe passed two headers"),
        "{stdout}"
    );
    assert!(
        stderr.starts_with(
            "error: forged.proof: not a proof of equivocation: record 2 (line 25): the two \
             records sign the same bytes (one record, its signature spelled twice): that is no \
             conflict\n"
        ),
        "{stderr}"
    );
}

/// The proof recipe pasted into a shell without `set -e`, as a terminal runs it: a proof whose
/// rival record was changed after signing stops at OpenSSH's refusal, and never says the proof
/// holds.
#[test]
fn the_proof_recipe_stops_at_a_bad_signature_without_set_e() {
    let blocks = sh_blocks(&readme(), "## Settling a dispute");
    let recipe = &blocks[blocks.find("(\nset -eu\nP=duel.proof").expect("the recipe")..];
    let recipe = &recipe[..recipe.find("\n)\n").expect("the recipe's end") + 3];
    let keys = crate::util::keys_dir();
    let script = format!(
        r#"cp '{keys}/alice.pub' alice_key.pub
correspond new chess duel.yaml --name alice --side white --opponent bob --opponent-key '{keys}/bob.pub' --key '{keys}/alice' --no-commit > /dev/null
correspond accept duel.yaml --key '{keys}/bob' --no-commit > /dev/null
cp duel.yaml laptop.yaml
correspond play duel.yaml e4 --key '{keys}/alice' --no-commit > /dev/null
CORRESPOND_JOURNAL="$PWD/laptop-journal" correspond play laptop.yaml d4 --key '{keys}/alice' --no-commit > /dev/null
correspond compare duel.yaml laptop.yaml --proof duel.proof > /dev/null || true
correspond check-proof duel.proof > /dev/null
sed -i 's/^move: d2d4$/move: d2d3/' duel.proof
grep -q '^move: d2d3$' duel.proof
{recipe}
echo "the recipe exited $?""#,
        keys = keys.display(),
    );
    let out = run_recipe(&[], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout
            .matches("Good \"correspond\" signature for alice")
            .count(),
        1,
        "rival 1 verifies, rival 2 does not:\n{stdout}\n{stderr}"
    );
    assert!(!stdout.contains("proof holds"), "{stdout}\n{stderr}");
    assert!(
        stdout.ends_with("the recipe exited 255\n"),
        "{stdout}\n{stderr}"
    );
    assert!(stderr.contains("Signature verification failed"), "{stderr}");
}

/// A proof recipe's script run by bash with `options`, in a folder of its own, with this
/// build's `correspond` first on the PATH and a journal of its own.
fn run_recipe(options: &[&str], script: &str) -> std::process::Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = assert_cmd::cargo::cargo_bin("correspond");
    std::process::Command::new("bash")
        .args(options)
        .args(["-c", script])
        .current_dir(dir.path())
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.parent().expect("bin dir").display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("CORRESPOND_JOURNAL", dir.path().join("journal"))
        .env_remove("CORRESPOND_SALT")
        .output()
        .expect("bash")
}

/// The README's list of games is the registry's: each registered game named in bold in its
/// "Games:" paragraph, by the name its description begins with, and no other; and each has its
/// rules page in docs/rules/.
#[test]
fn the_readme_names_every_registered_game_and_each_has_its_rules() {
    use correspond::games::GameKind;
    let readme = readme();
    let start = readme.find("\nGames: ").expect("a Games: paragraph");
    let paragraph = &readme[start..start + readme[start + 1..].find("\n\n").expect("its end")];
    let bold: Vec<String> = paragraph
        .split("**")
        .skip(1)
        .step_by(2)
        .map(str::to_lowercase)
        .collect();
    let registered: Vec<String> = GameKind::ALL
        .iter()
        .map(|kind| {
            let about = kind.about();
            let end = about.find([':', '(']).unwrap_or(about.len());
            about[..end].trim().to_lowercase()
        })
        .collect();
    assert_eq!(bold, registered);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for kind in GameKind::ALL {
        let rules = root.join(format!("docs/rules/{}.md", kind.name()));
        assert!(rules.is_file(), "{}", rules.display());
    }
}
