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

/// The attributes of a line, after its pattern (or its macro's name). A pattern may be quoted
/// in C style, with spaces and escaped quotes inside.
fn attributes(line: &str) -> impl Iterator<Item = &str> {
    let rest = match line.strip_prefix('"') {
        Some(quoted) => {
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
            });
            end.map_or("", |end| &quoted[end..])
        }
        None => line.find([' ', '\t']).map_or("", |at| &line[at..]),
    };
    rest.split([' ', '\t']).filter(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::{Converting, converting};

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
        ] {
            assert_eq!(
                refused(text),
                Some((line, attribute.to_owned())),
                "{text:?}"
            );
        }
    }
}
