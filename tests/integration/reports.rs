//! Snapshots of what `verify` and `log --hashes` report for every game in `games/` and every
//! invalid file in `tests/invalid/`: the result or first defect, each record's events, and the
//! state hashes that let two replays be compared record by record. Paths are relative and
//! times come from the files, so the snapshots hold nothing of the machine.

use crate::util::correspond;
use std::path::Path;

fn report(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let relative = path.strip_prefix(root).expect("inside the project");
    let mut text = String::new();
    for args in [vec!["verify"], vec!["log", "--hashes"]] {
        let out = correspond()
            .current_dir(root)
            .args(&args)
            .arg(relative)
            .output()
            .expect("run");
        text.push_str(&format!(
            "$ correspond {} {}\n",
            args.join(" "),
            relative.display()
        ));
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        text.push_str(&format!(
            "(exit code {})\n\n",
            out.status.code().unwrap_or(-1)
        ));
    }
    text
}

#[test]
fn reports_of_the_example_games() {
    insta::glob!("../../games", "**/*.yaml", |path| {
        insta::assert_snapshot!(report(path));
    });
}

#[test]
fn reports_of_the_invalid_files() {
    insta::glob!("../invalid", "*.yaml", |path| {
        insta::assert_snapshot!(report(path));
    });
}
