//! The `.gitattributes` lines a referee refuses: those that would make git check game files out
//! with other bytes than the ones signed. A game file's signatures cover its exact bytes, so a
//! pushed `*.yaml text eol=crlf` would leave every fresh clone holding games that no longer
//! verify, though the server's bytes are intact.
//!
//! Every attribute that changes bytes between the repository and a work tree is named here:
//! `text` and its older spelling `crlf`, `eol`, `filter`, `ident` and `working-tree-encoding`.
//! Only unsetting one (`-text`, as `correspond setup-git` writes, or the `binary` macro) is
//! taken: set, given a value, or made unspecified again (`!text`, which hands the choice back to
//! each user's `core.autocrlf`), it is refused, whatever files its pattern names, since a game
//! file may have any name (see docs/referee.md). A macro (`[attr]name ...`) is held to the same
//! rule where it is defined.

/// The attributes that change a file's bytes on checkout.
const CONVERTING: [&str; 6] = [
    "text",
    "crlf",
    "eol",
    "filter",
    "ident",
    "working-tree-encoding",
];

/// A `.gitattributes` line that a referee refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converting {
    /// Its line number, from 1.
    pub line: usize,
    /// The line, as it is (a line that is not UTF-8 is shown with its bytes replaced).
    pub text: String,
    /// The attribute in it that changes bytes, as written (`text`, `eol=crlf`, `!text`).
    pub attribute: String,
}

/// The first line of a `.gitattributes` file that would change the bytes of files on checkout.
#[must_use]
pub fn converting(bytes: &[u8]) -> Option<Converting> {
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches('\r').trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for attribute in attributes(line) {
            let bare = attribute.trim_start_matches(['-', '!']);
            let name = bare.split('=').next().unwrap_or(bare);
            if CONVERTING.contains(&name) && !attribute.starts_with('-') {
                return Some(Converting {
                    line: index + 1,
                    text: line.to_owned(),
                    attribute: attribute.to_owned(),
                });
            }
        }
    }
    None
}

/// What git takes as blank between a pattern and its attributes, and between attributes.
const BLANK: [char; 3] = [' ', '\t', '\r'];

/// The attributes of a line, after its pattern (or its macro's name). A pattern may be quoted
/// in C style, with blanks and escaped quotes inside; a quote left open is no quoting, as git
/// reads it then.
fn attributes(line: &str) -> impl Iterator<Item = &str> {
    let quoted = line.strip_prefix('"').and_then(|quoted| {
        let mut escaped = false;
        let end = quoted.char_indices().find_map(|(i, c)| match c {
            _ if escaped => {
                escaped = false;
                None
            }
            '\\' => {
                escaped = true;
                None
            }
            '"' => Some(i + 1),
            _ => None,
        })?;
        Some(&quoted[end..])
    });
    let rest = quoted.unwrap_or_else(|| line.find(BLANK).map_or("", |at| &line[at..]));
    rest.split(BLANK).filter(|a| !a.is_empty())
}

/// The lines of a `.gitattributes` file that keep bytes as they are on checkout: those that
/// unset one of the attributes that would change them (`-text`, `binary`), by line number.
#[must_use]
pub fn keeping(bytes: &[u8]) -> Vec<(usize, String)> {
    let mut kept = Vec::new();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches('\r').trim_start();
        if line.starts_with('#') {
            continue;
        }
        let keeps = attributes(line).any(|a| {
            a == "binary"
                || a.strip_prefix('-')
                    .is_some_and(|name| CONVERTING.contains(&name))
        });
        if keeps {
            kept.push((index + 1, line.to_owned()));
        }
    }
    kept
}

/// The first line of `before` that keeps bytes on checkout (see [`keeping`]) and that `after`
/// (`None`: the file deleted) no longer holds: dropping it hands files back to each user's
/// `core.autocrlf`.
#[must_use]
pub fn dropped(before: &[u8], after: Option<&[u8]>) -> Option<(usize, String)> {
    let after: Vec<String> = after
        .map(keeping)
        .unwrap_or_default()
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    keeping(before)
        .into_iter()
        .find(|(_, line)| !after.contains(line))
}

#[cfg(test)]
mod tests {
    use super::{Converting, converting, dropped, keeping};

    fn refused(text: &str) -> Option<(usize, String)> {
        converting(text.as_bytes()).map(
            |Converting {
                 line, attribute, ..
             }| (line, attribute),
        )
    }

    #[test]
    fn lines_that_keep_bytes_are_taken() {
        for text in [
            "",
            "# text eol=crlf\n",
            "*.yaml merge=correspond -text\n",
            "*.png binary\n*.yaml -text -crlf -eol -filter -ident\n",
            "*.md diff=markdown linguist-documentation\n",
            "\"a text file.txt\" -text\n",
            "[attr]keep -text -filter\n*.yaml keep\n",
            "*.txt\n",
            "text\n",
        ] {
            assert_eq!(refused(text), None, "{text:?}");
        }
    }

    #[test]
    fn each_attribute_that_changes_bytes_is_refused_with_its_line() {
        for (text, line, attribute) in [
            ("*.yaml text eol=crlf\n", 1, "text"),
            ("*.png binary\n*.yaml eol=lf\n", 2, "eol=lf"),
            ("* text=auto\n", 1, "text=auto"),
            ("*.yaml -text\n*.yaml !text\n", 2, "!text"),
            ("g.yml crlf\n", 1, "crlf"),
            ("*.yaml filter=lfs diff=lfs merge=lfs\n", 1, "filter=lfs"),
            ("*.yaml ident\n", 1, "ident"),
            (
                "*.yaml working-tree-encoding=UTF-16\n",
                1,
                "working-tree-encoding=UTF-16",
            ),
            ("[attr]sneaky text\n", 1, "text"),
            ("\"g \\\" h.yaml\"\ttext\r\n", 1, "text"),
            ("  *.yaml   -text   eol=crlf\n", 1, "eol=crlf"),
            ("*.yaml\reol=crlf\n", 1, "eol=crlf"),
            ("*.yaml -text\rtext\n", 1, "text"),
            ("\"*.yaml text\n", 1, "text"),
        ] {
            assert_eq!(
                refused(text),
                Some((line, attribute.to_owned())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_line_that_keeps_bytes_may_not_be_dropped() {
        let before = b"*.yaml merge=correspond -text\n*.png binary\n*.md diff\n";
        assert_eq!(
            keeping(before),
            [
                (1, "*.yaml merge=correspond -text".to_owned()),
                (2, "*.png binary".to_owned())
            ]
        );
        assert_eq!(
            dropped(
                before,
                Some(b"*.png binary\n*.yaml merge=correspond -text\n")
            ),
            None
        );
        assert_eq!(
            dropped(before, Some(b"*.png binary\n")),
            Some((1, "*.yaml merge=correspond -text".to_owned()))
        );
        assert_eq!(
            dropped(before, None),
            Some((1, "*.yaml merge=correspond -text".to_owned()))
        );
        assert_eq!(dropped(b"*.md diff\n", None), None);
    }
}
