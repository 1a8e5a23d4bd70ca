//! Appends in-process: whole or nothing, serialised, the lock held across the rename, no
//! waiting on pipes, leftovers of killed commands removed.

use super::*;

fn never_wait(_: u32) -> bool {
    false
}

#[test]
fn create_new_refuses_an_existing_file_and_leaves_it_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    create_new(&path, b"one").expect("create");
    let err = create_new(&path, b"two").expect_err("exists");
    assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(fs::read(&path).expect("read"), b"one");
    assert_eq!(
        fs::read_dir(dir.path()).expect("list").count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn append_sees_the_latest_contents_and_a_refusal_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    create_new(&path, b"a\n").expect("create");
    let after = append_locked(&path, |old| {
        Ok::<_, ()>([old, b"b\n"].concat()[old.len()..].to_vec())
    })
    .expect("append");
    assert_eq!(after, b"a\nb\n");
    let refused = append_locked(&path, |_| Err::<Vec<u8>, _>("no"));
    assert!(matches!(refused, Err(AppendError::Rejected("no"))));
    assert_eq!(fs::read(&path).expect("read"), b"a\nb\n");
    assert_eq!(
        fs::read_dir(dir.path()).expect("list").count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn concurrent_appends_are_serialised() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    create_new(&path, b"").expect("create");
    std::thread::scope(|s| {
        for i in 0..8u8 {
            let path = &path;
            s.spawn(move || {
                append_locked(path, |_| Ok::<_, ()>(vec![b'0' + i, b'\n'])).expect("append");
            });
        }
    });
    let mut lines: Vec<u8> = fs::read(&path)
        .expect("read")
        .into_iter()
        .filter(|b| *b != b'\n')
        .collect();
    lines.sort_unstable();
    assert_eq!(lines, b"01234567");
}

#[test]
fn the_lock_is_held_from_the_read_until_the_guard_goes_even_across_the_rename() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    create_new(&path, b"a\n").expect("create");
    let mut locked = Locked::open(&path, &mut never_wait).expect("lock");
    locked.append(b"b\n").expect("append");
    // The new copy is in place and still locked: another command gives up waiting.
    assert_eq!(fs::read(&path).expect("read"), b"a\nb\n");
    let err = Locked::open(&path, &mut never_wait).expect_err("held");
    assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    let mut attempts = Vec::new();
    let err = Locked::open(&path, &mut |n| {
        attempts.push(n);
        n < 2
    })
    .expect_err("still held");
    assert_eq!(
        (err.kind(), attempts),
        (io::ErrorKind::TimedOut, vec![0, 1, 2])
    );
    drop(locked);
    let again = Locked::open(&path, &mut never_wait).expect("free");
    assert_eq!(again.bytes(), b"a\nb\n");
}

#[test]
fn a_pipe_in_a_game_files_place_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for err in [
        read_limited(&path).expect_err("a pipe"),
        Locked::open(&path, &mut never_wait).expect_err("a pipe"),
    ] {
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    }
}

#[test]
fn leftovers_of_killed_commands_are_removed_under_the_lock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    create_new(&path, b"a\n").expect("create");
    for name in [
        ".g.yaml.4242.correspond-tmp",
        ".g.yaml.Xy12ab.correspond-tmp",
        ".other.yaml.1.correspond-tmp",
        "g.yaml.correspond-tmp",
    ] {
        fs::write(dir.path().join(name), b"half").expect("write");
    }
    let locked = Locked::open(&path, &mut never_wait).expect("lock");
    assert_eq!(
        locked.remove_leftovers().expect("remove"),
        [
            ".g.yaml.4242.correspond-tmp",
            ".g.yaml.Xy12ab.correspond-tmp"
        ]
    );
    let mut left: Vec<String> = fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            ".other.yaml.1.correspond-tmp",
            "g.yaml",
            "g.yaml.correspond-tmp"
        ]
    );
}

#[test]
fn a_failed_append_or_rewrite_leaves_the_bytes_as_the_file_holds_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("games");
    fs::create_dir(&folder).expect("mkdir");
    let path = folder.join("g.yaml");
    create_new(&path, b"a\n").expect("create");
    let mut locked = Locked::open(&path, &mut never_wait).expect("lock");
    // With its folder gone, no new copy can be written beside the file.
    fs::remove_dir_all(&folder).expect("remove the folder");
    locked.append(b"b\n").expect_err("nowhere to write");
    assert_eq!(locked.bytes(), b"a\n");
    locked
        .rewrite(b"c\n".to_vec())
        .expect_err("nowhere to write");
    assert_eq!(locked.bytes(), b"a\n");
}

#[test]
fn what_another_program_wrote_while_the_lock_was_held_is_not_overwritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("g.yaml");
    let changed = |e: io::Error| e.get_ref().is_some_and(|inner| inner.is::<Changed>());
    // Written in place (the same file), and put in the file's place (another file, as git
    // checks a file out).
    let in_place = |path: &Path| fs::write(path, b"a\npulled\n").expect("write");
    let renamed = |path: &Path| {
        let other = path.with_extension("new");
        fs::write(&other, b"a\npulled\n").expect("write");
        fs::rename(&other, path).expect("rename");
    };
    // Written in place at the same length, its modification time set back (`cp -p`, `touch
    // -r`): the status-change time still moves.
    let disguised = |path: &Path| {
        let modified = fs::metadata(path)
            .and_then(|m| m.modified())
            .expect("mtime");
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(path, b"b\n").expect("write");
        File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_modified(modified))
            .expect("set the time back");
    };
    for (write, now) in [
        (&in_place as &dyn Fn(&Path), &b"a\npulled\n"[..]),
        (&renamed, b"a\npulled\n"),
        (&disguised, b"b\n"),
    ] {
        fs::write(&path, b"a\n").expect("write");
        let mut locked = Locked::open(&path, &mut never_wait).expect("lock");
        assert!(locked.unchanged().is_ok(), "as read");
        write(&path);
        assert!(changed(locked.unchanged().expect_err("changed")));
        assert!(changed(locked.append(b"mine\n").expect_err("refused")));
        assert!(changed(
            locked.rewrite(b"mine\n".to_vec()).expect_err("refused")
        ));
        assert_eq!(fs::read(&path).expect("read"), now);
        assert_eq!(locked.bytes(), b"a\n", "the bytes are as they were read");
        assert_eq!(
            fs::read_dir(dir.path()).expect("list").count(),
            1,
            "no temporary file left"
        );
    }
    // A command's own writes are what it last read: it goes on appending.
    fs::write(&path, b"a\n").expect("write");
    let mut locked = Locked::open(&path, &mut never_wait).expect("lock");
    locked.append(b"b\n").expect("append");
    locked.append(b"c\n").expect("append");
    assert!(locked.unchanged().is_ok());
    assert_eq!(fs::read(&path).expect("read"), b"a\nb\nc\n");
}
