//! Trees read whole and compared, against trees built with libgit2.

use super::{
    GitError, LINK, MAX_ENTRIES, Trees, changes, changes_in, files, read_by_folder_check,
    yaml_blobs,
};
use git2::{Oid, Repository};

/// A new bare repository, in a folder removed when dropped, holding a blob of a game.
fn repository() -> (tempfile::TempDir, Repository, Oid) {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = Repository::init_bare(dir.path()).expect("a repository");
    let game = repo.blob(b"a game\n").expect("a blob");
    (dir, repo, game)
}

/// A tree holding `entries`, each (name, object, mode).
fn tree(repo: &Repository, entries: &[(&str, Oid, i32)]) -> Oid {
    let mut builder = repo.treebuilder(None).expect("a tree builder");
    for (name, id, mode) in entries {
        builder.insert(name, *id, *mode).expect("an entry");
    }
    builder.write().expect("a tree")
}

/// A tree written as raw bytes, which no tree builder would write: each entry its mode, name
/// and object.
fn raw_tree(repo: &Repository, entries: &[(&str, &[u8], Oid)]) -> Oid {
    let mut bytes = Vec::new();
    for (mode, name, id) in entries {
        bytes.extend_from_slice(mode.as_bytes());
        bytes.push(b' ');
        bytes.extend_from_slice(name);
        bytes.push(0);
        bytes.extend_from_slice(id.as_bytes());
    }
    let odb = repo.odb().expect("the object database");
    odb.write(git2::ObjectType::Tree, &bytes).expect("a tree")
}

#[test]
fn a_strict_reading_refuses_what_git_never_writes_and_reads_modes_as_git_checks_out() {
    let (_dir, repo, game) = repository();
    let empty = tree(&repo, &[]);
    // A name of two parts, which a push's check of `zz2/` would never see; `.git`.
    for name in [&b"zz2/bad.yaml"[..], b".git", b".", b".."] {
        let t = raw_tree(&repo, &[("100644", name, game)]);
        assert!(
            matches!(changes(&repo, None, Some(t)), Err(GitError::BadName(_))),
            "{name:?}"
        );
    }
    // A file and a folder of one name, in git's order with an entry between them: a
    // checkout keeps one, and the game would vanish from every clone.
    let t = raw_tree(
        &repo,
        &[
            ("100644", b"g.yaml", game),
            ("100644", b"g.yaml-x", game),
            ("40000", b"g.yaml", empty),
        ],
    );
    assert!(matches!(
        changes(&repo, None, Some(t)),
        Err(GitError::NamedTwice(_))
    ));
    // `120755` is checked out as a symbolic link, and read as one.
    let t = raw_tree(&repo, &[("120755", b"k.yaml", game)]);
    let found = changes_in(&mut Trees::new(&repo), None, Some(t), b"").expect("a diff");
    assert_eq!(found.get(&b"k.yaml"[..]), Some(&(None, Some((game, LINK)))));
}

#[test]
fn a_tree_nested_far_deeper_than_a_stack_is_read_whole() {
    // 20,000 levels, read on a thread of 256 KiB of stack: a walk that recursed into each
    // folder would need many times that.
    let (dir, repo, game) = repository();
    let mut id = tree(&repo, &[("game.yaml", game, 0o100_644)]);
    for _ in 0..20_000 {
        id = tree(&repo, &[("d", id, 0o040_000)]);
    }
    let top = tree(&repo, &[("d", id, 0o040_000), ("top.yml", game, 0o100_644)]);
    let path = dir.path().to_owned();
    let found = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let repo = Repository::open_bare(path).expect("the repository");
            let tree = repo.find_tree(top).expect("the tree");
            yaml_blobs(&repo, &tree).expect("read")
        })
        .expect("a thread")
        .join()
        .expect("no overflow");
    let deep = format!("{}game.yaml", "d/".repeat(20_001));
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        [(deep.into_bytes(), game), (b"top.yml".to_vec(), game)]
    );
}

#[test]
fn files_whose_paths_spell_out_more_than_the_limit_are_not_read() {
    // 20,000 files at the bottom of 2,000 folders: 80 MB of paths from a few objects.
    let (_dir, repo, game) = repository();
    let names: Vec<String> = (0..20_000).map(|n| format!("{n}.yaml")).collect();
    let files: Vec<(&str, Oid, i32)> = names
        .iter()
        .map(|n| (n.as_str(), game, 0o100_644))
        .collect();
    let mut id = tree(&repo, &files);
    for _ in 0..2_000 {
        id = tree(&repo, &[("d", id, 0o040_000)]);
    }
    let read = yaml_blobs(&repo, &repo.find_tree(id).expect("the tree"));
    assert!(
        matches!(read, Err(GitError::TooManyEntries { .. })),
        "{read:?}"
    );
}

#[test]
fn a_tree_that_names_one_folder_over_and_over_is_read_no_further_than_the_limit() {
    // 30 levels, each naming the level below twice: a billion paths in 31 trees.
    let (_dir, repo, game) = repository();
    let mut id = tree(&repo, &[("game.yaml", game, 0o100_644)]);
    for _ in 0..30 {
        id = tree(&repo, &[("a", id, 0o040_000), ("b", id, 0o040_000)]);
    }
    let read = yaml_blobs(&repo, &repo.find_tree(id).expect("the tree"));
    assert!(
        matches!(read, Err(GitError::TooManyEntries { limit: MAX_ENTRIES })),
        "{read:?}"
    );
}

#[test]
fn a_diff_reports_what_differs_under_the_folder_and_nothing_else() {
    let (_dir, repo, game) = repository();
    let other = repo.blob(b"another game\n").expect("a blob");
    let (file, link, folder) = (0o100_644, 0o120_000, 0o040_000);
    let inner = tree(&repo, &[("g.yaml", game, file)]);
    let hidden = tree(&repo, &[("h.yaml", game, file)]);
    let old_games = tree(
        &repo,
        &[
            ("a.yaml", game, file),
            ("b.yaml", game, file),
            ("c.yml", game, file),
            ("x.yaml", game, file),
            ("x.yaml-notes.yaml", game, file),
            (".h", hidden, folder),
        ],
    );
    let new_games = tree(
        &repo,
        &[
            ("a.yaml", other, file),
            ("b.yaml", game, link),
            ("c.yml", game, file),
            ("x.yaml", inner, folder),
            ("x.yaml-notes.yaml", game, file),
            (".h", inner, folder),
            ("n.yaml", game, file),
        ],
    );
    let old = tree(
        &repo,
        &[("games", old_games, folder), ("top.yaml", game, file)],
    );
    let new = tree(
        &repo,
        &[("games", new_games, folder), ("top.yaml", other, file)],
    );
    let found =
        changes_in(&mut Trees::new(&repo), Some(old), Some(new), b"games/").expect("a diff");
    let paths: Vec<&[u8]> = found.keys().map(Vec::as_slice).collect();
    assert_eq!(
        paths,
        [
            &b"games/a.yaml"[..],
            b"games/b.yaml",
            b"games/n.yaml",
            b"games/x.yaml",
            b"games/x.yaml/g.yaml",
        ]
    );
    // A file that became a folder of the same name: both halves, met at one path.
    assert_eq!(
        found[&b"games/x.yaml"[..]],
        (Some((game, file)), Some((inner, folder)))
    );
    assert_eq!(
        found[&b"games/b.yaml"[..]],
        (Some((game, file)), Some((game, link)))
    );
    // Against nothing, the folder's every entry; the whole tree's, matching `files`.
    for (side, prefix) in [(new, &b"games/"[..]), (old, b""), (new, b"")] {
        let listed =
            changes_in(&mut Trees::new(&repo), None, Some(side), prefix).expect("a listing");
        let whole = files(&repo, &repo.find_tree(side).expect("a tree"), &|p| {
            p.starts_with(prefix) && read_by_folder_check(p)
        })
        .expect("the files");
        let listed: Vec<_> = listed
            .into_iter()
            .filter(|(_, (_, now))| now.is_some_and(|(_, m)| m != folder))
            .map(|(path, (_, now))| (path, now))
            .collect();
        let whole: Vec<_> = whole.into_iter().map(|(p, e)| (p, Some(e))).collect();
        assert_eq!(listed, whole);
    }
    // A hidden folder on the way is passed over, as `verify FOLDER` passes it over.
    assert!(
        changes_in(&mut Trees::new(&repo), Some(old), Some(new), b"games/.h/")
            .expect("a diff")
            .is_empty()
    );
}
