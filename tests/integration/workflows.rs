//! The CI workflows in docs/ci/, for hosts that run no server hooks: their commands, run as
//! written in a club's clone, pass a clean history, and fail one where a game was deleted or a
//! clone too shallow to see it all.

use crate::util::git;
use std::path::Path;

/// The install command both workflows run first; the test runs the binary cargo built instead.
const INSTALL: &str = "cargo install --locked --git \"$CORRESPOND_SOURCE\" correspond";

fn docs(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/ci")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the workflow");
    serde_saphyr::from_str(&text).expect("the workflow is YAML")
}

/// Each workflow's commands after the install, which must be the same in both.
fn checks() -> Vec<String> {
    let github = docs("github-actions.yml");
    let steps = github["jobs"]["games"]["steps"].as_array().expect("steps");
    assert_eq!(
        steps[0]["with"]["fetch-depth"], 0,
        "the whole history is fetched"
    );
    let runs: Vec<String> = steps
        .iter()
        .filter_map(|s| s["run"].as_str().map(str::to_owned))
        .collect();
    let gitlab = docs("gitlab-ci.yml");
    assert_eq!(gitlab["games"]["variables"]["GIT_DEPTH"], "0");
    let script: Vec<String> = gitlab["games"]["script"]
        .as_array()
        .expect("a script")
        .iter()
        .map(|s| s.as_str().expect("a command").to_owned())
        .collect();
    assert_eq!(runs, script, "the two workflows run the same commands");
    assert_eq!(runs[0], INSTALL);
    runs[1..].to_vec()
}

/// Runs a workflow's command with `sh -e` in `dir`, the built program first on the PATH: (exit
/// code, stdout, stderr).
fn run(dir: &Path, command: &str) -> (i32, String, String) {
    let program = assert_cmd::cargo::cargo_bin("correspond");
    let bin = program.parent().expect("a folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .current_dir(dir)
        .env("PATH", path)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["-ec", command])
        .output()
        .expect("run sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A club's repository: two finished games, the workflows themselves, and a YAML file that is
/// not a game.
fn club(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main", "club"]);
    let club = dir.join("club");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    std::fs::create_dir_all(club.join("games")).expect("mkdir");
    std::fs::create_dir_all(club.join(".github/workflows")).expect("mkdir");
    for (from, to) in [
        ("chess/morphy-opera-game-1858.yaml", "games/opera.yaml"),
        ("campaign/run-off-claim.yaml", "games/run-off.yaml"),
    ] {
        std::fs::copy(games.join(from), club.join(to)).expect("copy");
    }
    let ci = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci");
    std::fs::copy(
        ci.join("github-actions.yml"),
        club.join(".github/workflows/games.yml"),
    )
    .expect("copy");
    std::fs::copy(ci.join("gitlab-ci.yml"), club.join(".gitlab-ci.yml")).expect("copy");
    std::fs::write(club.join("compose.yml"), "services: {}\n").expect("write");
    git(&club, &["add", "."]);
    commit(&club, "the club's games");
}

fn commit(dir: &Path, message: &str) {
    git(
        dir,
        &[
            "-c",
            "user.name=Club",
            "-c",
            "user.email=club@example.org",
            "commit",
            "-q",
            "-m",
            message,
        ],
    );
}

#[test]
fn the_ci_workflows_pass_a_clean_club_and_fail_a_deleted_game_or_a_shallow_clone() {
    let [verify, audit] = <[String; 2]>::try_from(checks()).expect("verify, then audit");
    assert_eq!(
        (verify.as_str(), audit.as_str()),
        ("correspond verify .", "correspond audit .")
    );
    let dir = tempfile::tempdir().expect("temp dir");
    club(dir.path());
    let club = dir.path().join("club");
    let (code, out, err) = run(&club, &verify);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.ends_with("2 files: 2 valid, 0 invalid\npassed over 1 file that is not a game file: ./compose.yml\n"),
        "{out}"
    );
    let (code, out, err) = run(&club, &audit);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.ends_with("\n2 game files audited: every history clean\n"),
        "{out}"
    );
    // A clone that cannot see the whole history does not pass.
    let url = format!("file://{}", club.display());
    git(
        dir.path(),
        &["clone", "-q", "--depth", "1", &url, "shallow"],
    );
    let (code, out, _) = run(&dir.path().join("shallow"), &audit);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.ends_with("\n2 game files audited: 0 with violations, 2 not seen whole\n"),
        "{out}"
    );
    // A game deleted: nothing is left to verify, and the audit names it.
    git(&club, &["rm", "-q", "games/opera.yaml"]);
    commit(&club, "tidy up");
    assert_eq!(run(&club, &verify).0, 0, "verify sees only what is there");
    let (code, out, _) = run(&club, &audit);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("      VIOLATION: deletes the game file\n"),
        "{out}"
    );
    assert!(
        out.ends_with("\n2 game files audited: 1 with violations, 0 not seen whole\n"),
        "{out}"
    );
    // The games' folder deleted whole: each game in it is still audited, and named.
    git(&club, &["rm", "-q", "-r", "games"]);
    commit(&club, "no more games");
    let (code, out, _) = run(&club, &audit);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.matches("      VIOLATION: deletes the game file\n")
            .count(),
        2,
        "{out}"
    );
    assert!(
        out.ends_with("\n2 game files audited: 2 with violations, 0 not seen whole\n"),
        "{out}"
    );
    // A folder that never held a game is no clean history.
    std::fs::create_dir(club.join("empty")).expect("mkdir");
    std::fs::write(club.join("empty/notes.yml"), "a: 1\n").expect("write");
    git(&club, &["add", "empty"]);
    commit(&club, "notes");
    assert_eq!(
        run(&club, "correspond audit empty"),
        (
            2,
            String::new(),
            "error: no game file has ever been in empty on this branch: nothing to audit\nhint: \
             audit looks for *.yaml and *.yml game files, passing over hidden ones\n"
                .to_owned()
        )
    );
}

/// The install step as written: cargo builds and installs this repository's committed `HEAD`
/// (`CORRESPOND_SOURCE` as a club would set it, here a `file://` URL) into a folder of the
/// test's own (`CARGO_INSTALL_ROOT`), and the workflow's checks pass with that program.
#[test]
fn the_ci_workflows_install_step_installs_a_correspond_that_checks_the_club() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let head = std::process::Command::new("git")
        .arg("-C")
        .arg(manifest)
        .args(["rev-parse", "--verify", "-q", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let Some(head) = head else {
        assert!(
            std::env::var_os("CORRESPOND_REQUIRE_TOOLS").is_none(),
            "the install step installs from a git repository, and this source is not one"
        );
        // Past the test harness's capture, so that the skip shows even when the test passes.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIPPED: the CI workflow's install step needs this source as a git repository\n",
        );
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("root");
    // Kept between runs, so that a second run builds only what changed. cargo can take the
    // program built from an earlier commit for this one's (a checkout of each commit, and
    // its fingerprints, by time): so when the commit changes, correspond's own fingerprints
    // go, and it is built again (its dependencies are kept).
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("workflow-install");
    let built = target.join("built-from");
    if std::fs::read_to_string(&built).ok().as_deref() != Some(head.as_str()) {
        let fingerprints = target.join("release/.fingerprint");
        for entry in std::fs::read_dir(&fingerprints)
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with("correspond-")
            {
                std::fs::remove_dir_all(entry.path()).expect("remove a fingerprint");
            }
        }
    }
    let out = std::process::Command::new("sh")
        .current_dir(dir.path())
        .env(
            "CORRESPOND_SOURCE",
            format!("file://{}", manifest.display()),
        )
        .env("CARGO_INSTALL_ROOT", &root)
        .env("CARGO_TARGET_DIR", &target)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["-ec", INSTALL])
        .output()
        .expect("run sh");
    assert!(
        out.status.success(),
        "the install step failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let installed = root.join("bin/correspond");
    assert!(installed.is_file(), "no program at {}", installed.display());
    std::fs::write(&built, &head).expect("write the commit built from");
    club(dir.path());
    let path = format!(
        "{}:{}",
        root.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for check in checks() {
        let out = std::process::Command::new("sh")
            .current_dir(dir.path().join("club"))
            .env("PATH", &path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args(["-ec", &check])
            .output()
            .expect("run sh");
        assert!(
            out.status.success(),
            "{check}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
