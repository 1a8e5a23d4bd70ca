//! The integration tests, compiled into one binary (as ripgrep and jj do) so that a test run
//! links once.

mod arbiter;
mod audit_folder;
mod audit_shallow;
mod browser;
mod campaign_agreement;
mod campaign_naive;
mod campaign_props;
mod chess_props;
mod cli_chess;
mod cli_files;
mod cli_games;
mod cli_guerrilla;
mod cli_refusals;
mod cli_rules;
mod clocks;
mod comments;
pub(crate) mod conditional;
mod conformance;
mod crossing;
mod crossing_leave;
mod desk;
mod disputes;
mod editor_schema;
mod endless_input;
pub(crate) mod forks;
mod games;
mod git_settings;
mod git_states;
mod guerrilla_agreement;
mod guerrilla_naive;
mod guerrilla_props;
mod guerrilla_vectors;
mod hidden;
mod hostile;
mod hostile_text;
mod interruptions;
mod invalid;
mod journal;
mod journal_damage;
mod json;
mod key_choice;
mod keys;
mod mail;
mod mail_clients;
mod mail_nesting;
mod mail_refusals;
mod pages;
mod perft_files;
mod pgn_reader;
mod pgn_round_trip;
mod pgn_tags;
mod pictures;
mod pixels;
mod progress;
mod ratings;
mod ratings_shown;
mod readback;
mod readme;
mod referee;
mod referee_club;
mod referee_install;
mod referee_race;
mod referee_servers;
mod referee_tournament;
mod reports;
mod schema;
mod shell;
mod show;
mod site;
mod stale_copies;
mod standings;
mod stumbles;
mod tournament;
mod tournament_swiss;
mod util;
mod vs_shakmaty;
mod workflows;
mod written_meanwhile;
mod wrong_places;

/// Every `.rs` file in this folder must be a module above, or its tests would silently not run.
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("read main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read tests/integration") {
        let path = entry.expect("directory entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs")
            && stem != "main"
            && !main.contains(&format!("mod {stem};"))
        {
            missing.push(stem.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "not declared in tests/integration/main.rs: {missing:?}"
    );
}
