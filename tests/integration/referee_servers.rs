//! The referee behind real git servers, as a club runs it: git's smart HTTP (`git
//! http-backend` under lighttpd) and SSH (OpenSSH's `sshd`), both on loopback. The same pushes
//! are made over `file://`, HTTP and SSH; each must run the hooks, show their `remote:` lines,
//! and be taken or refused exactly alike.
//!
//! The servers are Debian's `lighttpd` and `openssh-server`; `sshd` runs as root here (it
//! logs in the user running the tests, with a key of the test's own). Where they are missing,
//! or the tests do not run as root, the test says plainly that it was skipped; `.ci/run`
//! installs them and sets `CORRESPOND_REQUIRE_TOOLS`, which turns the skip into a failure.

use crate::util::{correspond, git, keygen, keys_dir, transcript};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const LIGHTTPD: &str = "/usr/sbin/lighttpd";
const SSHD: &str = "/usr/sbin/sshd";
const HTTP_BACKEND: &str = "/usr/lib/git-core/git-http-backend";

/// A server process, stopped when dropped.
struct Daemon {
    child: Child,
    port: u16,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // sshd's sessions live on after its listener: they are its children until then.
        let children = format!("/proc/{0}/task/{0}/children", self.child.id());
        for pid in std::fs::read_to_string(children)
            .unwrap_or_default()
            .split_whitespace()
        {
            let _ = Command::new("kill").arg(pid).status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What is missing to run a server, if anything (said when skipping).
fn missing() -> Option<String> {
    let absent: Vec<&str> = [LIGHTTPD, SSHD, HTTP_BACKEND]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if !absent.is_empty() {
        return Some(format!(
            "{} (apt-get install lighttpd openssh-server)",
            absent.join(", ")
        ));
    }
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    (uid != b"0\n").then(|| "root, to run sshd".to_owned())
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// Starts `command` and waits for its port to take connections.
fn start(command: &mut Command, port: u16, log: &Path) -> Daemon {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let daemon = Daemon { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the server did not start: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    daemon
}

/// lighttpd serving the repositories of `root` through `git http-backend`, pushes allowed.
fn lighttpd(dir: &Path, root: &Path) -> Daemon {
    let port = free_port();
    let www = dir.join("www");
    std::fs::create_dir_all(&www).expect("mkdir");
    let path = std::env::var("PATH").unwrap_or_default();
    let config = format!(
        "server.modules = ( \"mod_alias\", \"mod_setenv\", \"mod_cgi\" )\n\
         server.document-root = \"{www}\"\n\
         server.bind = \"127.0.0.1\"\n\
         server.port = {port}\n\
         server.errorlog = \"{dir}/lighttpd.log\"\n\
         server.breakagelog = \"{dir}/cgi.log\"\n\
         alias.url = ( \"/git/\" => \"{HTTP_BACKEND}/\" )\n\
         $HTTP[\"url\"] =~ \"^/git/\" {{\n\
           cgi.assign = ( \"\" => \"\" )\n\
           setenv.set-environment = ( \"GIT_PROJECT_ROOT\" => \"{root}\", \
         \"GIT_HTTP_EXPORT_ALL\" => \"1\", \"PATH\" => \"{path}\" )\n\
         }}\n",
        www = www.display(),
        dir = dir.display(),
        root = root.display(),
    );
    let file = dir.join("lighttpd.conf");
    std::fs::write(&file, config).expect("write");
    start(
        Command::new(LIGHTTPD).arg("-D").arg("-f").arg(&file),
        port,
        &dir.join("lighttpd.log"),
    )
}

/// sshd letting the user running the tests in with the key `dir/client`.
fn sshd(dir: &Path) -> Daemon {
    std::fs::create_dir_all("/run/sshd").expect("sshd's privilege separation folder");
    let port = free_port();
    keygen(dir, "host");
    let client = keygen(dir, "client");
    std::fs::copy(client.with_extension("pub"), dir.join("authorized_keys")).expect("copy");
    let config = format!(
        "Port {port}\nListenAddress 127.0.0.1\nHostKey {dir}/host\nPidFile {dir}/sshd.pid\n\
         AuthorizedKeysFile {dir}/authorized_keys\nAuthenticationMethods publickey\n\
         PasswordAuthentication no\nKbdInteractiveAuthentication no\n\
         PermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\nUseDNS no\n\
         PrintMotd no\n",
        dir = dir.display()
    );
    let file = dir.join("sshd_config");
    std::fs::write(&file, config).expect("write");
    let log = dir.join("sshd.log");
    start(
        Command::new(SSHD)
            .arg("-D")
            .arg("-f")
            .arg(&file)
            .arg("-E")
            .arg(&log),
        port,
        &log,
    )
}

/// A git command with a time limit: a push over HTTP whose server dies can wait for ever.
fn git_timed(dir: &Path, args: &[&str]) -> (bool, String) {
    let mut child = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run git");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("git {args:?} did not end in 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("its output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One club's server and its two players, whose clones reach it at `url`.
struct Club {
    dir: PathBuf,
}

impl Club {
    /// A bare repository with the referee, its clock pinned, in `dir/server.git`; alice's and
    /// bob's clones of it through `url` (with `ssh` as their ssh command, when given).
    fn new(dir: &Path, url: &str, ssh: Option<&str>) -> Club {
        git(dir, &["init", "-q", "--bare", "-b", "main", "server.git"]);
        let server = dir.join("server.git");
        git(&server, &["config", "http.receivepack", "true"]);
        git(
            &server,
            &["config", "correspond.refereeTime", "2026-03-01T10:10:00Z"],
        );
        let (code, _, err) =
            transcript(
                correspond()
                    .current_dir(dir)
                    .args(["referee", "install", "server.git"]),
            );
        assert_eq!((code, err.as_str()), (0, ""));
        for (who, name) in [("alice", "Alice Liddell"), ("bob", "Bob Cratchit")] {
            let mut args = vec!["clone", "-q"];
            let command = ssh.map(|s| format!("core.sshCommand={s}"));
            if let Some(command) = &command {
                args.extend(["-c", command]);
            }
            args.extend([url, who]);
            let (cloned, said) = git_timed(dir, &args);
            assert!(cloned, "{said}");
            let clone = dir.join(who);
            git(&clone, &["config", "user.name", name]);
            git(
                &clone,
                &["config", "user.email", &format!("{who}@example.org")],
            );
            git(&clone, &["checkout", "-q", "-b", "main"]);
        }
        Club {
            dir: dir.to_owned(),
        }
    }

    fn sign(&self, who: &str, journal: &str, time: &str, args: &[&str]) {
        let (code, _, err) = transcript(
            correspond()
                .current_dir(self.dir.join(who))
                .env("CORRESPOND_TIME", time)
                .env("CORRESPOND_JOURNAL", self.dir.join(journal))
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who)),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    }

    /// `git push ARGS` in `who`'s clone: whether it landed, and the `remote:` lines.
    fn push(&self, who: &str, args: &[&str]) -> (bool, Vec<String>) {
        let mut all = vec!["push", "-q"];
        all.extend(args);
        let (landed, said) = git_timed(&self.dir.join(who), &all);
        let remote = said
            .lines()
            .filter_map(|l| l.strip_prefix("remote: "))
            .map(|l| l.trim_end().to_owned())
            .collect();
        (landed, remote)
    }

    /// A club's morning: a game made and accepted, a move, and three pushes the referee
    /// refuses (a rewrite, a record dated an hour ago, another line of the game on a branch),
    /// each followed by the server's state, which must not change.
    fn morning(&self) -> Vec<(bool, Vec<String>)> {
        let bob = keys_dir().join("bob.pub");
        let bob = bob.to_str().expect("UTF-8");
        let state = || git(&self.dir.join("server.git"), &["for-each-ref"]);
        let mut said = Vec::new();
        self.sign(
            "alice",
            "a",
            "2026-03-01T10:05:00Z",
            &[
                "new",
                "chess",
                "game.yaml",
                "--name",
                "alice",
                "--side",
                "white",
                "--opponent",
                "bob",
                "--opponent-key",
                bob,
            ],
        );
        said.push(self.push("alice", &["-u", "origin", "main"]));
        git(&self.dir.join("bob"), &["pull", "-q", "origin", "main"]);
        self.sign("bob", "b", "2026-03-01T10:06:00Z", &["accept", "game.yaml"]);
        said.push(self.push("bob", &["origin", "main"]));
        git(&self.dir.join("alice"), &["pull", "-q"]);
        self.sign(
            "alice",
            "a",
            "2026-03-01T10:07:00Z",
            &["play", "game.yaml", "e4"],
        );
        said.push(self.push("alice", &[]));
        // A rewrite: e4 a minute earlier.
        let game = self.dir.join("alice/game.yaml");
        let text = std::fs::read_to_string(&game).expect("read");
        let earlier = text.replace(
            "time: \"2026-03-01T10:07:00Z\"",
            "time: \"2026-03-01T10:06:30Z\"",
        );
        std::fs::write(&game, earlier).expect("write");
        git(&self.dir.join("alice"), &["commit", "-q", "-am", "earlier"]);
        let before = state();
        said.push(self.push("alice", &[]));
        assert_eq!(state(), before);
        git(
            &self.dir.join("alice"),
            &["reset", "-q", "--hard", "origin/main"],
        );
        // A record dated an hour before the referee's clock.
        git(&self.dir.join("bob"), &["pull", "-q", "origin", "main"]);
        self.sign(
            "bob",
            "b",
            "2026-03-01T09:10:00Z",
            &["play", "game.yaml", "e5"],
        );
        said.push(self.push("bob", &["origin", "main"]));
        assert_eq!(state(), before);
        // Another line of the game, from another machine, on a branch of its own.
        git(
            &self.dir.join("bob"),
            &["reset", "-q", "--hard", "origin/main"],
        );
        // (bob's journal keeps the refused e5: c5 at that place is signed on another machine.)
        self.sign(
            "bob",
            "b2",
            "2026-03-01T10:09:00Z",
            &["play", "game.yaml", "c5"],
        );
        said.push(self.push("bob", &["origin", "main"]));
        git(
            &self.dir.join("bob"),
            &["checkout", "-q", "-b", "alt", "HEAD~1"],
        );
        self.sign(
            "bob",
            "b-elsewhere",
            "2026-03-01T10:09:00Z",
            &["play", "game.yaml", "e5"],
        );
        let before = state();
        said.push(self.push("bob", &["origin", "alt"]));
        assert_eq!(state(), before);
        said
    }
}

fn expected() -> Vec<(bool, Vec<String>)> {
    let lines = |landed: bool, lines: &[&str]| {
        let mut all = vec![
            "correspond referee: the clock is pinned to 2026-03-01T10:10:00Z by \
             correspond.refereeTime, which is for tests only"
                .to_owned(),
        ];
        all.extend(lines.iter().map(|l| format!("correspond referee: {l}")));
        if !landed {
            all.push(
                "correspond referee: push refused (1 problem); nothing was changed".to_owned(),
            );
        }
        (landed, all)
    };
    vec![
        lines(
            true,
            &[
                "refs/heads/main: game.yaml: a new game, verified; waiting for bob (black) to accept the game",
            ],
        ),
        lines(
            true,
            &["refs/heads/main: game.yaml: record 1 taken; alice (white) to move"],
        ),
        lines(
            true,
            &["refs/heads/main: game.yaml: record 2 taken; bob (black) to move"],
        ),
        lines(
            false,
            &[
                "refused refs/heads/main: game.yaml: this push rewrites the game: record 2 \
                        (line 31): this document was changed; a later version may only append \
                        records",
            ],
        ),
        lines(
            false,
            &[
                "refused refs/heads/main: game.yaml: record 3 (line 33): dated \
                        2026-03-01T09:10:00Z, 60 minutes behind the referee's clock \
                        (2026-03-01T10:10:00Z); a document pushed here must be dated within 10 \
                        minutes of it",
            ],
        ),
        lines(
            true,
            &["refs/heads/main: game.yaml: record 3 taken; alice (white) to move"],
        ),
        lines(
            false,
            &[
                "refused refs/heads/alt: game.yaml: game.yaml on refs/heads/main holds \
                        another line of this game, which parts from this one at record 3 (line \
                        33); a game has one line of records in the repository, whatever its \
                        copies are called and wherever they lie",
            ],
        ),
    ]
}

#[test]
fn pushes_over_http_and_ssh_are_refereed_exactly_as_over_file() {
    if let Some(missing) = missing() {
        assert!(
            std::env::var_os("CORRESPOND_REQUIRE_TOOLS").is_none(),
            "the server tests need {missing}, and CORRESPOND_REQUIRE_TOOLS says every test must run"
        );
        eprintln!("SKIPPED: the referee's server tests need {missing}, which is missing");
        return;
    }
    let over_file = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}/server.git", over_file.path().display());
    let file = Club::new(over_file.path(), &url, None).morning();
    assert_eq!(file, expected(), "over file://");

    let over_http = tempfile::tempdir().expect("temp dir");
    let conf = tempfile::tempdir().expect("temp dir");
    let http = lighttpd(conf.path(), over_http.path());
    let url = format!("http://127.0.0.1:{}/git/server.git", http.port);
    assert_eq!(
        Club::new(over_http.path(), &url, None).morning(),
        file,
        "over HTTP"
    );
    drop(http);

    let over_ssh = tempfile::tempdir().expect("temp dir");
    let keys = tempfile::tempdir().expect("temp dir");
    let ssh = sshd(keys.path());
    let command = format!(
        "ssh -i {} -p {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o \
         BatchMode=yes -o LogLevel=ERROR",
        keys.path().join("client").display(),
        ssh.port
    );
    let user = String::from_utf8(Command::new("id").arg("-un").output().expect("id").stdout)
        .expect("a name");
    let url = format!(
        "ssh://{}@127.0.0.1:{}{}/server.git",
        user.trim(),
        ssh.port,
        over_ssh.path().display()
    );
    assert_eq!(
        Club::new(over_ssh.path(), &url, Some(&command)).morning(),
        file,
        "over SSH"
    );
}
