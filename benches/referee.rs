//! The referee, and `audit` of a folder, at a club's scale: repositories of 100, 1,000 and
//! 10,000 chess games, each grown over six commits (its header, the acceptance and four moves,
//! one document a commit, the games interleaved as a club plays them, a hundred games a folder).
//! The records are signed in process by the library's writer and the commits made by `git
//! fast-import`, so that building the largest takes seconds, not hours.
//!
//! For each size it prints: `referee install` (every game verified, the index built); the
//! pre-receive hook's time and peak memory for a push of one record (the median of several
//! real pushes over `file://`, each to another game, the hook timed by a wrapper that reads its
//! resource use); and `audit games/` on a clone. Then the ratios the referee is held to: a
//! record accepted at 10,000 games costs at most 1.5 times what it costs at 100 (time and
//! memory), and the audit at 10,000 games at most 12 times what it takes at 1,000 (linear: 10).
//! The raw Ed25519 rate measured in the same run is printed beside, as the machine's yardstick.
//!
//! Run with `cargo bench --bench referee` (it needs git and python3).

mod common;
use common::{key, raw_rate};
use correspond::digest::Digest;
use correspond::games::chess::Chess;
use correspond::log::{Action, Header, Player, Timestamp, header_document, header_unsigned};
use correspond::replay::Seat;
use correspond::sign::Signer as _;
use correspond::writer::Writer;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [100, 1000, 10_000];
const MOVES: [&str; 4] = ["e2e4", "e7e5", "g1f3", "b8c6"];
/// The pushes timed at each size, each of one record to another game.
const PUSHES: usize = 7;
/// The audits timed at each size, of which the fastest counts: on a shared machine a run can
/// lose a tenth of its time to others, and the least disturbed run is the cost. The sizes take
/// turns, push by push and audit by audit, so that a slow minute of the machine falls on all of
/// them alike and not on one size's ratio.
const AUDITS: usize = 5;
const TIME: &str = "2026-01-01T00:00:00Z";
const CORRESPOND: &str = env!("CARGO_BIN_EXE_correspond");

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("referee: run with `cargo bench --bench referee`");
        return;
    }
    let r1 = raw_rate(1);
    println!("raw Ed25519 verification: {r1:.0}/s on one core");
    let started = Instant::now();
    let games = games(SIZES[SIZES.len() - 1]);
    eprintln!(
        "signed {} games of 6 documents in {:.1} s",
        games.len(),
        started.elapsed().as_secs_f64()
    );
    let clubs: Vec<Club> = SIZES
        .iter()
        .map(|&size| Club::new(&games[..size]))
        .collect();
    for push in 0..PUSHES {
        for club in &clubs {
            club.push(push);
        }
    }
    let mut audits = vec![Vec::new(); clubs.len()];
    for _ in 0..AUDITS {
        for (club, times) in clubs.iter().zip(&mut audits) {
            times.push(club.audit());
        }
    }
    let mut measured = Vec::new();
    for ((size, club), times) in SIZES.iter().zip(&clubs).zip(audits) {
        let m = club.measured(times.into_iter().min().expect("audits"));
        println!(
            "{size:>6} games: install {:.2} s; hook for one record {:.1} ms (pushes {:.1} to \
             {:.1} ms), peak memory {:.1} MiB; audit games/ {:.2} s",
            m.install.as_secs_f64(),
            ms(m.hook),
            ms(m.hook_min),
            ms(m.hook_max),
            m.memory as f64 / 1024.0,
            m.audit.as_secs_f64()
        );
        measured.push(m);
    }
    let (small, middle, large) = (&measured[0], &measured[1], &measured[2]);
    let hook = ratio(large.hook, small.hook);
    let memory = large.memory as f64 / small.memory as f64;
    let audit = ratio(large.audit, middle.audit);
    println!(
        "hook, one record at 10,000 games / at 100: time {hook:.2}, peak memory {memory:.2}; \
         target at most 1.5: {}",
        met(hook <= 1.5 && memory <= 1.5)
    );
    println!(
        "audit games/ at 10,000 games / at 1,000: {audit:.2} (linear: 10); target at most 12: {}",
        met(audit <= 12.0)
    );
    println!(
        "install at 10,000 games / at 1,000: {:.2} (linear: 10)",
        ratio(large.install, middle.install)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "NOT MET" }
}

/// `n` chess games between alice and bob, each as the text of its six versions.
fn games(n: usize) -> Vec<[String; 6]> {
    let (alice, bob) = (key("alice"), key("bob"));
    let time = Timestamp::parse(TIME).expect("a time");
    (0..n)
        .map(|i| {
            let header = Header {
                game: "chess".to_owned(),
                options: BTreeMap::new(),
                players: [
                    Player {
                        name: "alice".to_owned(),
                        side: "white".to_owned(),
                        key: alice.public_key().clone(),
                    },
                    Player {
                        name: "bob".to_owned(),
                        side: "black".to_owned(),
                        key: bob.public_key().clone(),
                    },
                ],
                created: time.clone(),
                salt: Digest::of(&(i as u64).to_le_bytes()),
                commitment: None,
                time_control: None,
                leave_days: 0,
                arbiter: None,
                tags: BTreeMap::new(),
            };
            let signature = alice
                .sign(header_unsigned(&header).as_bytes())
                .expect("signed");
            let mut text = header_document(&header, &signature);
            let mut versions = vec![text.clone()];
            let mut writer = Writer::<Chess>::open(text.as_bytes()).expect("a game");
            let actions = std::iter::once(Action::Accept { nonce: None })
                .chain(MOVES.iter().map(|m| Action::Move((*m).to_owned())));
            for (n, action) in actions.enumerate() {
                let seat = Seat::BOTH[(n + 1) % 2];
                let signer = if seat == Seat::BOTH[0] { &alice } else { &bob };
                let record = writer.next(seat, action, time.clone());
                let written = writer.write(record, signer, None).expect("a legal record");
                text.push_str(&written.text);
                writer = written.writer;
                versions.push(text.clone());
            }
            versions.try_into().expect("six versions")
        })
        .collect()
}

/// Where game `i` lies: a hundred games a folder.
fn path(i: usize) -> String {
    format!("games/{:03}/g{i:05}.yaml", i / 100)
}

/// What one size measured.
struct Measured {
    install: Duration,
    hook: Duration,
    hook_min: Duration,
    hook_max: Duration,
    /// Peak memory of the hook, in KiB (the median of the pushes).
    memory: u64,
    audit: Duration,
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
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
}

/// A bare repository holding `games` as a club grows them, built with `git fast-import`.
fn build(dir: &Path, games: &[[String; 6]]) {
    git(dir, &["init", "-q", "--bare", "-b", "main", "club.git"]);
    let mut import = Command::new("git")
        .current_dir(dir.join("club.git"))
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import");
    let mut input = std::io::BufWriter::new(import.stdin.take().expect("its input"));
    let mut mark = 0;
    for version in 0..6 {
        for (i, game) in games.iter().enumerate() {
            mark += 1;
            let message = format!("{}: record {version}", path(i));
            write!(
                input,
                "commit refs/heads/main\nmark :{mark}\ncommitter Club <club@example.org> \
                 1767225600 +0000\ndata {}\n{message}\n",
                message.len() + 1
            )
            .expect("write");
            if mark > 1 {
                writeln!(input, "from :{}", mark - 1).expect("write");
            }
            let text = &game[version];
            write!(
                input,
                "M 100644 inline {}\ndata {}\n{text}\n",
                path(i),
                text.len()
            )
            .expect("write");
        }
    }
    drop(input);
    assert!(import.wait().expect("fast-import ends").success());
    git(&dir.join("club.git"), &["gc", "-q"]);
}

/// A club's repository on a server with the referee's hook, timed by a wrapper, and a clone.
struct Club<'g> {
    _dir: tempfile::TempDir,
    games: &'g [[String; 6]],
    clone: PathBuf,
    log: PathBuf,
    install: Duration,
}

impl<'g> Club<'g> {
    /// The repository of `games`, the referee installed (timed), and a clone.
    fn new(games: &'g [[String; 6]]) -> Self {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        build(dir, games);
        let server = dir.join("club.git");
        let started = Instant::now();
        let out = Command::new(CORRESPOND)
            .current_dir(dir)
            .args(["referee", "install", "club.git"])
            .output()
            .expect("install");
        let install = started.elapsed();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        git(
            &server,
            &["config", "correspond.refereeTime", "2026-01-01T00:05:00Z"],
        );
        // The hook, timed by a wrapper that reads its resource use when it ends.
        let log = dir.join("hook.log");
        let wrapper = format!(
            "#!/bin/sh\nexec python3 -c 'import resource, subprocess, sys, time\n\
             t = time.perf_counter(); r = subprocess.run(sys.argv[1:]); t = time.perf_counter() - t\n\
             m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n\
             open(\"{log}\", \"a\").write(f\"{{t}} {{m}}\\n\"); sys.exit(r.returncode)' {CORRESPOND} \
             referee hook --max-skew 10 --wait 60\n",
            log = log.display()
        );
        std::fs::write(server.join("hooks/pre-receive"), wrapper).expect("write the wrapper");
        git(dir, &["clone", "-q", "club.git", "clone"]);
        let clone = dir.join("clone");
        git(&clone, &["config", "user.name", "Club"]);
        git(&clone, &["config", "user.email", "club@example.org"]);
        Club {
            _dir: tmp,
            games,
            clone,
            log,
            install,
        }
    }

    /// Push `push` of [`PUSHES`]: one record to another game.
    fn push(&self, push: usize) {
        let time = Timestamp::parse("2026-01-01T00:04:00Z").expect("a time");
        let i = push * self.games.len() / PUSHES + push;
        let file = self.clone.join(path(i));
        let text = std::fs::read_to_string(&file).expect("the game");
        let writer = Writer::<Chess>::open(text.as_bytes()).expect("a game");
        let record = writer.next(Seat::BOTH[0], Action::Move("d2d4".to_owned()), time);
        let written = writer
            .write(record, &key("alice"), None)
            .expect("a legal move");
        std::fs::write(&file, text + &written.text).expect("write");
        git(&self.clone, &["commit", "-q", "-am", "d4"]);
        git(&self.clone, &["push", "-q", "origin", "main"]);
    }

    /// One audit of the clone's `games/`, timed.
    fn audit(&self) -> Duration {
        let started = Instant::now();
        let out = Command::new(CORRESPOND)
            .current_dir(&self.clone)
            .args(["audit", "games"])
            .output()
            .expect("audit");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        started.elapsed()
    }

    /// What the pushes' hooks measured, with the fastest audit.
    fn measured(&self, audit: Duration) -> Measured {
        let mut hooks: Vec<(f64, u64)> = std::fs::read_to_string(&self.log)
            .expect("the hook's log")
            .lines()
            .map(|l| {
                let (t, m) = l.split_once(' ').expect("two figures");
                (t.parse().expect("a time"), m.parse().expect("a size"))
            })
            .collect();
        assert_eq!(hooks.len(), PUSHES);
        hooks.sort_by(|a, b| a.0.total_cmp(&b.0));
        let seconds = |s: f64| Duration::from_secs_f64(s);
        let mut memory: Vec<u64> = hooks.iter().map(|h| h.1).collect();
        memory.sort_unstable();
        Measured {
            install: self.install,
            hook: seconds(hooks[PUSHES / 2].0),
            hook_min: seconds(hooks[0].0),
            hook_max: seconds(hooks[PUSHES - 1].0),
            memory: memory[PUSHES / 2],
            audit,
        }
    }
}
