//! Every document of every game in `games/` is valid against the JSON Schemas in `schemas/`,
//! read by a YAML parser of its own (not the program's reader); and the schemas reject what
//! they must, so that these checks can fail.

use serde_json::{Value, json};
use std::path::Path;

/// Serves header.schema.json, which the other schemas refer to.
pub(crate) struct Local(pub(crate) Value);

impl jsonschema::Retrieve for Local {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        if uri.as_str().ends_with("/header.schema.json") {
            Ok(self.0.clone())
        } else {
            Err(format!("unknown schema {}", uri.as_str()).into())
        }
    }
}

pub(crate) fn schema(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("read schema"))
        .expect("schema is JSON")
}

fn validators() -> (jsonschema::Validator, jsonschema::Validator) {
    let header = schema("header.schema.json");
    let build = |s: &Value| {
        jsonschema::options()
            .with_retriever(Local(header.clone()))
            .build(s)
            .expect("a valid schema")
    };
    (build(&header), build(&schema("record.schema.json")))
}

/// The documents of a game file as JSON values.
fn documents(text: &str) -> Vec<Value> {
    let start = text.find("---\n").expect("a header");
    text[start..]
        .split("---\n")
        .filter(|d| !d.is_empty())
        .map(|d| serde_saphyr::from_str::<Value>(d).expect("YAML"))
        .collect()
}

fn errors(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn every_game_document_matches_the_schemas() {
    let (header, record) = validators();
    let mut checked = 0;
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let folders = std::fs::read_dir(&games)
        .expect("games")
        .map(|e| e.expect("entry").path());
    let files = folders.flat_map(|dir| {
        std::fs::read_dir(dir)
            .expect("a game folder")
            .map(|e| e.expect("entry").path())
    });
    for path in files.filter(|p| p.extension().is_some_and(|e| e == "yaml")) {
        let text = std::fs::read_to_string(&path).expect("read");
        for (i, doc) in documents(&text).iter().enumerate() {
            let validator = if i == 0 { &header } else { &record };
            let problems = errors(validator, doc);
            assert!(
                problems.is_empty(),
                "{} document {i}: {problems:?}",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 400, "only {checked} documents checked");
}

#[test]
fn the_schemas_reject_what_the_format_forbids() {
    let (header, record) = validators();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/resignation.yaml"),
    )
    .expect("read");
    let docs = documents(&text);
    let mut bad_header = docs[0].clone();
    bad_header["players"][1]["key"] = json!("ssh-rsa AAAAB3NzaC1yc2E");
    assert!(!errors(&header, &bad_header).is_empty(), "an RSA key");
    let mut extra = docs[0].clone();
    extra["referee"] = json!("carol");
    assert!(!errors(&header, &extra).is_empty(), "an unknown field");
    let mut no_move = docs[3].clone();
    no_move.as_object_mut().expect("a map").remove("move");
    assert!(
        !errors(&record, &no_move).is_empty(),
        "a move record without its move"
    );
    let mut stray = docs[1].clone();
    stray["move"] = json!("c2c3");
    assert!(!errors(&record, &stray).is_empty(), "an accept with a move");
    let mut seq = docs[3].clone();
    seq["seq"] = json!(0);
    assert!(!errors(&record, &seq).is_empty(), "record number 0");
}

/// The schema's name rule is the program's: tried with every code point of the planes that
/// hold assigned characters, between two letters, and with the rule's edge cases.
#[test]
fn the_schemas_name_rule_is_the_programs() {
    let (header, _) = validators();
    let docs = documents(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/resignation.yaml"),
        )
        .expect("read"),
    );
    let name_validator = jsonschema::options()
        .build(&json!({"$ref": "#/$defs/name", "$defs": schema("header.schema.json")["$defs"]}))
        .expect("the name rule alone");
    let mut names: Vec<String> = [
        "alice",
        "Bob Smith",
        "o'hara",
        "zoë",
        "a.b-c_d@e",
        " alice",
        "alice ",
        "a  b",
        "",
        "x",
        "Иван Петров",
        "王小明",
        "bob\u{3164}",
        "\u{3164}",
        "a\u{200b}b",
        "a\u{202e}b",
        "a\nb",
        "a#b",
        "a:b",
        "a\"b",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    names.push("x".repeat(40));
    names.push("x".repeat(41));
    names.push("é".repeat(40));
    let planes = (0..0x3_0000).chain(0xE_0000..0xF_0000);
    names.extend(planes.filter_map(char::from_u32).map(|c| format!("a{c}b")));
    let mut checked = 0;
    for name in &names {
        let program = correspond::log::valid_name(name);
        let schema = name_validator.is_valid(&json!(name));
        assert_eq!(
            program,
            schema,
            "{name:?} ({:?}): the program says {program}, the schema {schema}",
            name.chars().map(|c| c as u32).collect::<Vec<_>>()
        );
        checked += 1;
    }
    assert!(checked > 190_000);
    // The rule is the one the header's players are held to.
    let mut invisible = docs[0].clone();
    invisible["players"][1]["name"] = json!("bob\u{3164}");
    assert!(!errors(&header, &invisible).is_empty(), "a Hangul filler");
}

/// The registry is the one list of games: the header schema's `game` enum, the rules documents
/// and the command line's choices all name exactly its games, in its order.
#[test]
fn the_schema_the_docs_and_the_help_list_the_registrys_games() {
    use correspond::games::GameKind;
    let registry: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    let header = schema("header.schema.json");
    let listed: Vec<&str> = header["properties"]["game"]["enum"]
        .as_array()
        .expect("the header schema lists the games")
        .iter()
        .map(|v| v.as_str().expect("a game's name"))
        .collect();
    assert_eq!(listed, registry, "schemas/header.schema.json");
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let mut documented: Vec<String> = std::fs::read_dir(&docs)
        .expect("docs/rules")
        .map(|e| {
            let name = e.expect("an entry").file_name();
            name.to_string_lossy().trim_end_matches(".md").to_owned()
        })
        .collect();
    documented.sort();
    let mut sorted = registry.clone();
    sorted.sort_unstable();
    assert_eq!(documented, sorted, "docs/rules/ has one document per game");
    let help = crate::util::correspond()
        .args(["new", "--help"])
        .output()
        .expect("run correspond");
    let help = String::from_utf8(help.stdout).expect("UTF-8 help");
    // Help wraps long lines: compared with every run of white space as one space.
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = words(&help);
    let listed = words(
        &GameKind::ALL
            .iter()
            .map(|k| format!("- {}: {}", k.name(), k.about()))
            .collect::<Vec<_>>()
            .join(" "),
    );
    assert!(
        help.contains(&format!("Possible values: {listed} <FILE>")),
        "`correspond new --help` offers the registry's games, in order, and no other:\n{help}"
    );
}

/// The record kinds are one table in the program: the record schema's `kind` list and the
/// kinds documented in docs/file-format.md are exactly its kinds.
#[test]
fn the_schema_and_the_docs_list_the_programs_record_kinds() {
    use correspond::log::Kind;
    let mut kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    kinds.sort_unstable();
    let record = schema("record.schema.json");
    let mut listed: Vec<&str> = record["properties"]["kind"]["enum"]
        .as_array()
        .expect("the record schema lists the kinds")
        .iter()
        .map(|v| v.as_str().expect("a kind"))
        .collect();
    listed.sort_unstable();
    assert_eq!(listed, kinds, "schemas/record.schema.json");
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/file-format.md"))
            .expect("docs/file-format.md");
    let table = docs
        .split("| kind | payload | who, and when |")
        .nth(1)
        .expect("the table of kinds");
    let mut documented: Vec<&str> = table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_start_matches("| `")
                .split('`')
                .next()
                .expect("a kind")
        })
        .collect();
    documented.sort_unstable();
    assert_eq!(documented, kinds, "docs/file-format.md");
}

/// The header schema holds tags to the reader's rule (src/log/tags.rs) where JSON Schema can say
/// it: a PGN date, no tags on a game PGN does not write (the registry's list), no tag about one
/// colour before a coin flip, no `TimeControl` beside a clock, no more than 32 with what PGN
/// export writes from the header beside them.
#[test]
fn the_header_schema_holds_tags_to_the_readers_rule() {
    use correspond::games::GameKind;
    use correspond::replay::Protocol as _;
    let (header, _) = validators();
    let schema = schema("header.schema.json");
    let without_pgn: Vec<&str> = schema["allOf"][0]["if"]["properties"]["game"]["enum"]
        .as_array()
        .expect("the games without PGN")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    let registry: Vec<&str> = GameKind::ALL
        .iter()
        .filter(|kind| !correspond::with_game!(**kind, G => G::PGN))
        .map(|kind| kind.name())
        .collect();
    assert_eq!(without_pgn, registry, "schemas/header.schema.json allOf[0]");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chess = std::fs::read_to_string(root.join("games/chess/morphy-opera-game-1858.yaml"))
        .expect("read");
    let tagged = documents(&chess)[0].clone();
    assert_eq!(errors(&header, &tagged), Vec::<String>::new());
    let with = |change: &dyn Fn(&mut Value)| {
        let mut doc = tagged.clone();
        change(&mut doc);
        errors(&header, &doc)
    };
    assert!(
        !with(&|d| d["tags"]["Date"] = json!("1858-11-02")).is_empty(),
        "an ISO date"
    );
    assert!(
        with(&|d| d["tags"]["Date"] = json!("1858.11.??")).is_empty(),
        "a PGN date"
    );
    let tossed = |d: &mut Value| {
        d["players"][0]["side"] = json!("toss");
        d["players"][1]["side"] = json!("toss");
    };
    assert!(
        !with(&|d| {
            tossed(d);
            d["tags"]["WhiteElo"] = json!("2100");
        })
        .is_empty(),
        "a colour's tag before the toss"
    );
    assert!(
        with(&|d| {
            tossed(d);
            d["tags"].as_object_mut().expect("tags").remove("Black");
        })
        .is_empty(),
        "tags about no colour before the toss"
    );
    let clock = json!({"days-per-move": 3});
    assert!(
        !with(&|d| {
            d["time-control"] = clock.clone();
            d["tags"]["TimeControl"] = json!("1/86400");
        })
        .is_empty(),
        "TimeControl beside a clock"
    );
    assert!(
        with(&|d| d["tags"]["TimeControl"] = json!("40/7200")).is_empty(),
        "an imported game's TimeControl"
    );
    // At most 32 with the Date and TimeControl PGN export writes from the header beside them.
    let filled = |d: &mut Value, n: usize, dated: bool, timed: bool| {
        let mut tags = serde_json::Map::new();
        for i in 0..n {
            tags.insert(format!("T{i:02}"), json!("x"));
        }
        if dated {
            tags.insert("Date".into(), json!("1858.??.??"));
        }
        d["tags"] = Value::Object(tags);
        if timed {
            d["time-control"] = clock.clone();
        }
    };
    for (n, dated, timed, holds) in [
        (31, true, false, true),
        (32, true, false, false),
        (31, false, false, true),
        (32, false, false, false),
        (30, true, true, true),
        (31, true, true, false),
        (30, false, true, true),
        (31, false, true, false),
    ] {
        let found = with(&|d| filled(d, n, dated, timed));
        assert_eq!(
            found.is_empty(),
            holds,
            "{n} tags, Date {dated}, clock {timed}: {found:?}"
        );
    }
    let campaign =
        std::fs::read_to_string(root.join("games/campaign/resignation.yaml")).expect("read");
    let mut doc = documents(&campaign)[0].clone();
    assert_eq!(errors(&header, &doc), Vec::<String>::new());
    doc["tags"] = json!({"Event": "Club"});
    assert!(
        !errors(&header, &doc).is_empty(),
        "tags on a Campaign header"
    );
}

/// Every list of games and of sides in every schema is the registry's: an `enum` that names a
/// registered game names each of them, in the registry's order, and nothing else (or those
/// without PGN, or with it, the one property a schema tells games apart by); one that names
/// a side names every game's sides (and `toss`, where it has it), and nothing else. A new game
/// that left a schema's list stale fails here.
#[test]
fn every_schemas_lists_of_games_and_sides_are_the_registrys() {
    use correspond::games::GameKind;
    use correspond::replay::Protocol as _;
    let games: Vec<String> = GameKind::ALL.iter().map(|k| k.name().to_owned()).collect();
    let without_pgn: Vec<String> = GameKind::ALL
        .iter()
        .filter(|kind| !correspond::with_game!(**kind, G => G::PGN))
        .map(|k| k.name().to_owned())
        .collect();
    // A tournament's games: those whose headers hold the tags that name an event.
    let with_pgn: Vec<String> = games
        .iter()
        .filter(|g| !without_pgn.contains(g))
        .cloned()
        .collect();
    let mut sides: Vec<String> = GameKind::ALL
        .iter()
        .flat_map(|kind| {
            correspond::with_game!(*kind, G => G::SIDES.iter().map(ToString::to_string).collect::<Vec<_>>())
        })
        .collect();
    sides.sort();
    sides.dedup();
    fn enums<'a>(value: &'a Value, found: &mut Vec<(String, &'a Vec<Value>)>, at: &str) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    if let (true, Value::Array(items)) = (key == "enum", inner) {
                        found.push((at.to_owned(), items));
                    }
                    enums(inner, found, &format!("{at}/{key}"));
                }
            }
            Value::Array(items) => {
                for (i, inner) in items.iter().enumerate() {
                    enums(inner, found, &format!("{at}/{i}"));
                }
            }
            _ => {}
        }
    }
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut names: Vec<_> = std::fs::read_dir(&folder)
        .expect("schemas")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .filter(|n| n.ends_with(".schema.json"))
        .collect();
    names.sort();
    let (mut game_lists, mut side_lists) = (0, 0);
    for name in &names {
        let value = schema(name);
        let mut found = Vec::new();
        enums(&value, &mut found, "");
        for (at, items) in found {
            let words: Vec<String> = items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            if words
                .iter()
                .any(|w| games.contains(w) && !sides.contains(w))
            {
                assert!(
                    words == games || words == without_pgn || words == with_pgn,
                    "{name}{at}: the games {words:?}, not the registry's {games:?}"
                );
                game_lists += 1;
            }
            // (`guerrilla` is a game and a side: a list is of sides where it names another.)
            if words
                .iter()
                .any(|w| sides.contains(w) && !games.contains(w))
            {
                let mut listed: Vec<String> = words.into_iter().filter(|w| w != "toss").collect();
                listed.sort();
                assert_eq!(listed, sides, "{name}{at}: the sides");
                side_lists += 1;
            }
        }
    }
    // The lists are there to be checked: the header's, the editor's bundle's and the outputs'.
    assert!(game_lists >= 8, "{game_lists} lists of games");
    assert!(side_lists >= 1, "{side_lists} lists of sides");
}
