//! Helpers shared by the integration tests.

/// A small deterministic random source (xorshift64*), so that "random" games are the same on
/// every run and every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x % n as u64) as usize
    }
}

/// The salt every test game is created with, so that files and their ids are the same on every
/// run (tests of the salt itself remove it).
pub const SALT: &str = "5a175a175a175a175a175a175a175a175a175a175a175a175a175a175a175a17";

/// The `correspond` binary, built by cargo for these tests, in an environment that does not
/// depend on the machine: no agent, no pinned time, no colour settings, a pinned salt, and the
/// test's own signing journal.
pub fn correspond() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("correspond").expect("the binary is built");
    for var in [
        "NO_COLOR",
        "CLICOLOR_FORCE",
        "SSH_AUTH_SOCK",
        "SSH_ASKPASS",
        "SSH_ASKPASS_REQUIRE",
        "CORRESPOND_TIME",
        "XDG_STATE_HOME",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("CORRESPOND_SALT", SALT)
        .env("CORRESPOND_JOURNAL", journal_dir());
    cmd
}

/// A command run to its end, as a transcript: (exit code, or -1 when a signal ended it; stdout;
/// stderr).
pub fn transcript(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().expect("run correspond");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The signing journal of the running test: one per test (by its thread), shared by all the
/// commands it runs, as a user's journal is, and apart from every other test's.
pub fn journal_dir() -> std::path::PathBuf {
    static BASE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let base = BASE.get_or_init(|| {
        let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("journals");
        // Earlier runs' journals: only those of test processes still running are kept.
        for entry in std::fs::read_dir(&base).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid = name.split('-').next().unwrap_or_default();
            if !std::path::Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        base
    });
    let thread = std::thread::current();
    let name = thread
        .name()
        .map_or_else(|| format!("{:?}", thread.id()), |n| n.replace("::", "."));
    base.join(format!("{}-{name}", std::process::id()))
}

/// The test keys (see tests/keys/README.md).
pub fn keys_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/keys")
}

/// Runs git in `dir`, isolated from the machine's configuration, and returns its stdout.
pub fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(args)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Makes an Ed25519 key pair `dir/name` and `dir/name.pub` with `ssh-keygen`, no passphrase.
pub fn keygen(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let status = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&path)
        .status()
        .expect("run ssh-keygen");
    assert!(status.success(), "ssh-keygen failed");
    path
}

/// What a successful `correspond` run prints.
pub fn stdout_of(args: &[&str]) -> String {
    let out = correspond()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8 output")
}

/// What a failing `correspond` run prints on standard error, after checking its exit code and
/// that it printed nothing on standard output.
pub fn failure(args: &[&str], code: i32) -> String {
    let out = correspond()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    String::from_utf8(out.stderr).expect("UTF-8 errors")
}

/// A running `ssh-agent` on a socket of its own, stopped when dropped.
pub struct Agent {
    child: std::process::Child,
    pub socket: std::path::PathBuf,
}

impl Agent {
    pub fn start(dir: &std::path::Path) -> Agent {
        let socket = dir.join("agent.sock");
        let child = std::process::Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("ssh-agent");
        for _ in 0..200 {
            if socket.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        Agent { child, socket }
    }

    pub fn add(&self, key: &std::path::Path, askpass: Option<&std::path::Path>) {
        let mut cmd = std::process::Command::new("ssh-add");
        cmd.env("SSH_AUTH_SOCK", &self.socket).arg("-q").arg(key);
        if let Some(program) = askpass {
            cmd.env("SSH_ASKPASS", program)
                .env("SSH_ASKPASS_REQUIRE", "force")
                .stdin(std::process::Stdio::null());
        }
        let out = cmd.output().expect("ssh-add");
        assert!(
            out.status.success(),
            "ssh-add: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Agent {
    /// Loads one of the test keys (`tests/keys/NAME`, without a passphrase) into the agent,
    /// through a copy that only its owner may read, as `ssh-add` demands.
    pub fn hold(&self, name: &str) {
        let dir = self.socket.parent().expect("the socket is in a folder");
        let private = dir.join(format!("held-{name}"));
        std::fs::copy(keys_dir().join(name), &private).expect("copy the key");
        std::fs::set_permissions(
            &private,
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .expect("chmod");
        self.add(&private, None);
        std::fs::remove_file(&private).expect("remove the copy");
    }
}

/// `correspond ARGS --key tests/keys/WHO --no-commit` in `dir`, at `time`: it must succeed with
/// nothing on standard error; what it printed.
pub fn signed(dir: &std::path::Path, time: &str, who: &str, args: &[&str]) -> String {
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", time)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit"),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    out
}

/// A chess game made in `dir` at `time`: alice (white) proposes `file` to bob, with `extra`
/// arguments for `new`, and bob accepts.
pub fn chess_accepted(dir: &std::path::Path, time: &str, file: &str, extra: &[&str]) {
    let new = new_chess(file, extra);
    let new: Vec<&str> = new.iter().map(String::as_str).collect();
    signed(dir, time, "alice", &new);
    signed(dir, time, "bob", &["accept", file]);
}

/// The arguments of `new` for a chess game in `file` that alice (white) proposes to bob, with
/// `extra` arguments after them.
pub fn new_chess(file: &str, extra: &[&str]) -> Vec<String> {
    new_game("chess", "white", file, extra)
}

/// The arguments of `new` for a game of `game` in `file` that alice (`side`) proposes to bob,
/// with `extra` arguments after them.
pub fn new_game(game: &str, side: &str, file: &str, extra: &[&str]) -> Vec<String> {
    let bob = keys_dir().join("bob.pub");
    let mut new = vec!["new", game, file, "--name", "alice", "--side", side];
    new.extend(["--opponent", "bob", "--opponent-key"]);
    new.push(bob.to_str().expect("UTF-8"));
    new.extend(extra);
    new.into_iter().map(str::to_owned).collect()
}

/// Arguments as a shell would take them, for a transcript: one with a space in quotes.
pub fn shown_args(args: &[&str]) -> String {
    let words: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains(' ') {
                format!("'{a}'")
            } else {
                (*a).to_owned()
            }
        })
        .collect();
    words.join(" ")
}

/// `bytes` signed by the test key `key` with `ssh-keygen -Y sign`: the signature line's value.
pub fn ssh_sign(dir: &std::path::Path, key: &str, bytes: &str) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let private = dir.join(format!("{key}.key"));
    std::fs::copy(keys_dir().join(key), &private).expect("copy the key");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let message = dir.join("record.bytes");
    std::fs::write(&message, bytes).expect("write");
    let _ = std::fs::remove_file(dir.join("record.bytes.sig"));
    let out = std::process::Command::new("ssh-keygen")
        .args(["-Y", "sign", "-n", "correspond", "-f"])
        .arg(&private)
        .arg(&message)
        .output()
        .expect("ssh-keygen");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join("record.bytes.sig"))
        .expect("the signature")
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect()
}

/// Whether `tool` runs (with `probe`, as `--version`). Where it does not, the test says plainly
/// on standard error what it skipped (`skipped`); CI (`.ci/run` installs every tool the tests
/// use and sets `CORRESPOND_REQUIRE_TOOLS`) fails instead.
pub fn tool_present(tool: &str, probe: &[&str], skipped: &str) -> bool {
    let present = std::process::Command::new(tool)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        assert!(
            std::env::var_os("CORRESPOND_REQUIRE_TOOLS").is_none(),
            "{tool} is not installed, and CORRESPOND_REQUIRE_TOOLS says every test must run"
        );
        // Past the test harness's capture, so that the skip shows even when the test passes.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("SKIPPED: {skipped}, which is not installed\n").as_bytes(),
        );
    }
    present
}
