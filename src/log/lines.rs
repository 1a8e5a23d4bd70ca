//! The lines of a game file's text. Finding them is most of reading a file, whose lines are
//! short and many, so each is found by `memchr`, whose cost per search is small.

/// The lines of `text`, each with its newline (the last may have none), as
/// `str::split_inclusive('\n')` gives them.
pub(super) fn inclusive(text: &str) -> impl Iterator<Item = &str> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|newline| newline + 1)
        .chain((!text.is_empty() && !text.ends_with('\n')).then_some(text.len()));
    ends.scan(0, move |start, end| {
        let line = &text[*start..end];
        *start = end;
        Some(line)
    })
}

/// The lines of `text` without their newlines, as `str::split_terminator('\n')` gives them.
pub(super) fn bare(text: &str) -> impl Iterator<Item = &str> {
    inclusive(text).map(|line| line.strip_suffix('\n').unwrap_or(line))
}

/// How many newlines `text` holds: its lines, in a game file, which ends each with one.
pub(super) fn count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
}

#[cfg(test)]
mod tests {
    use super::{bare, count, inclusive};

    #[test]
    fn lines_are_what_the_standard_library_finds() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "é\nü"] {
            let want: Vec<&str> = text.split_inclusive('\n').collect();
            assert_eq!(inclusive(text).collect::<Vec<_>>(), want, "{text:?}");
            let want: Vec<&str> = text.split_terminator('\n').collect();
            assert_eq!(bare(text).collect::<Vec<_>>(), want, "{text:?}");
            assert_eq!(count(text), text.matches('\n').count(), "{text:?}");
        }
    }
}
