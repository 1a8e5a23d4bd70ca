use super::*;

use crate::log::Conditional;

fn lines(texts: &[&str]) -> Vec<Vec<String>> {
    let owned: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
    Conditional::parse(&owned)
        .expect("lines in their one spelling")
        .lines()
        .to_vec()
}

fn moves(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_owned).collect()
}

#[test]
fn every_place_opens_to_its_reply_and_to_nothing_else() {
    let binding = Digest::of(b"the move");
    let seed = Digest::of(b"seed");
    let lines = lines(&["c7c5 g1f3", "e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 g8f6 d2d4"]);
    let tree = Tree::new(&binding, &seed, &lines).expect("a tree");
    for (played, reply) in [
        ("c7c5", "g1f3"),
        ("e7e5", "g1f3"),
        ("e7e5 g1f3 b8c6", "f1b5"),
        ("e7e5 g1f3 g8f6", "d2d4"),
    ] {
        let at = key(&binding, &moves(played));
        let (shown, opening) = tree.open(&at).expect("a place of the lines");
        assert_eq!(shown, reply);
        assert_eq!(reply_after(&lines, &moves(played)), Some(reply));
        assert!(opening.opens(&tree.root(), &at, reply));
        // Another reply, another place, another tree's root or a changed sibling: refused.
        assert!(!opening.opens(&tree.root(), &at, "a2a3"));
        assert!(!opening.opens(&tree.root(), &key(&binding, &moves("d7d5")), reply));
        assert!(!opening.opens(&Digest::of(b"other root"), &at, reply));
        let mut bent = opening.clone();
        bent.proof[0].0[0] ^= 1;
        assert!(!bent.opens(&tree.root(), &at, reply));
        let mut short = opening.clone();
        short.proof.pop();
        assert!(!short.opens(&tree.root(), &at, reply));
    }
    for played in ["d7d5", "e7e5 g1f3 d7d6"] {
        assert!(
            tree.open(&key(&binding, &moves(played))).is_none(),
            "{played}"
        );
        assert_eq!(reply_after(&lines, &moves(played)), None);
    }
}

#[test]
fn the_root_depends_on_the_binding_the_seed_and_every_reply() {
    let binding = Digest::of(b"the move");
    let seed = Digest::of(b"seed");
    let root = |b: &Digest, s: &Digest, l: &[&str]| Tree::new(b, s, &lines(l)).map(|t| t.root());
    let one = root(&binding, &seed, &["e7e5 g1f3"]);
    assert_eq!(one, root(&binding, &seed, &["e7e5 g1f3"]));
    assert_ne!(
        one,
        root(&Digest::of(b"another move"), &seed, &["e7e5 g1f3"])
    );
    assert_ne!(
        one,
        root(&binding, &Digest::of(b"another seed"), &["e7e5 g1f3"])
    );
    assert_ne!(one, root(&binding, &seed, &["e7e5 b1c3"]));
    assert_ne!(one, root(&binding, &seed, &["e7e5 g1f3 b8c6 f1b5"]));
}

#[test]
fn a_proof_is_short_and_its_length_does_not_count_the_lines() {
    let binding = Digest::of(b"the move");
    let seed = Digest::of(b"seed");
    let one = lines(&["e7e5 g1f3"]);
    // Thirty lines of thirty moves: 450 places, the most lines can have.
    let many: Vec<String> = (0..30)
        .map(|i| {
            (0..30)
                .map(|j| format!("a{}b{}", i % 8 + 1, j % 8 + 1))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let many: Vec<String> = {
        // Distinct first moves, so that no two lines share a place.
        let mut m: Vec<String> = many
            .iter()
            .enumerate()
            .map(|(i, l)| format!("c{}d{} {l}", i / 8 + 1, i % 8 + 1))
            .map(|l| l.split(' ').take(30).collect::<Vec<_>>().join(" "))
            .collect();
        m.sort();
        m
    };
    let many = Conditional::parse(&many)
        .expect("thirty lines")
        .lines()
        .to_vec();
    for lines in [one, many] {
        let tree = Tree::new(&binding, &seed, &lines).expect("a tree");
        assert_eq!(tree.leaves.len(), LEAVES);
        let played = &lines[0][..1];
        let (_, opening) = tree.open(&key(&binding, played)).expect("a place");
        assert!(
            (5..=30).contains(&opening.proof.len()),
            "{}",
            opening.proof.len()
        );
    }
}

#[test]
fn keys_are_length_prefixed() {
    let binding = Digest::of(b"the move");
    assert_ne!(
        key(&binding, &moves("e2e4 e7e5")),
        key(&binding, &["e2e4e7e5".to_owned()])
    );
    assert_ne!(
        key(&binding, &moves("e2e4")),
        key(&Digest::of(b"x"), &moves("e2e4"))
    );
}

#[test]
fn a_proof_tells_of_few_other_moves_that_no_line_answers_them() {
    let binding = Digest::of(b"the move");
    let seed = Digest::of(b"seed");
    let lines = lines(&["c7c5 g1f3", "e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 g8f6 d2d4"]);
    let tree = Tree::new(&binding, &seed, &lines).expect("a tree");
    let at = key(&binding, &moves("e7e5"));
    let (_, opening) = tree.open(&at).expect("a place");
    // Every other place of the lines is a leaf: no proof may say it is absent.
    for played in ["c7c5", "e7e5 g1f3 b8c6", "e7e5 g1f3 g8f6"] {
        assert!(!opening.shows_absent(&at, &key(&binding, &moves(played))));
    }
    assert!(!opening.shows_absent(&at, &at));
    // Of 4,000 moves no line holds, a proof shows a few absent: about one in 360.
    let shown = (0..4000u32)
        .filter(|i| opening.shows_absent(&at, &key(&binding, &[format!("x{i}")])))
        .count();
    assert!(shown < 40, "{shown} of 4000");
}
