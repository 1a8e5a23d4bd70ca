//! The README's examples are run as written: every `$ correspond ...` line in a `console`
//! block is executed, and what it prints (standard output, then standard error) must match the
//! lines below it. A line `...` stands for any number of lines.

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

#[test]
fn readme_examples_print_what_the_readme_says() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let mut in_console = false;
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    for line in readme.lines() {
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
    assert!(examples.len() >= 6, "found {} examples", examples.len());
    for (command, mut expected) in examples {
        while expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        let words = shell_words(&command);
        assert_eq!(
            words.first().map(String::as_str),
            Some("correspond"),
            "{command}"
        );
        let out = correspond()
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
            "README example `{command}` printed:\n{text}"
        );
    }
}
