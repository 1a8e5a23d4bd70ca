//! schemas/game-file.schema.json, the one schema an editor checks every document of a game file
//! against (header or record): the header and record schemas bundled into one file with no
//! reference outside it, since an editor resolves neither the schemas' own ids nor the
//! neighbouring files. It must be exactly that bundle, and must take every document of every
//! game in `games/` and refuse what the two schemas refuse.

use serde_json::{Value, json};
use std::path::Path;

fn schemas() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

fn read(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(schemas().join(name)).expect("a schema"))
        .expect("JSON")
}

/// `schema` as a part of the bundle under `#/$defs/{at}`: its own id and dialect dropped, and
/// each reference pointed inside the bundle.
fn embedded(mut schema: Value, at: &str) -> Value {
    fn point(value: &mut Value, at: &str) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get_mut("$ref") {
                    *target = if let Some(inside) = target.strip_prefix("header.schema.json#") {
                        format!("#/$defs/header{inside}")
                    } else if let Some(inside) = target.strip_prefix('#') {
                        format!("#/$defs/{at}{inside}")
                    } else {
                        panic!("a reference the bundle cannot hold: {target}")
                    };
                }
                map.values_mut().for_each(|v| point(v, at));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| point(v, at)),
            _ => {}
        }
    }
    let map = schema.as_object_mut().expect("a schema object");
    map.remove("$schema");
    map.remove("$id");
    point(&mut schema, at);
    schema
}

fn bundle() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://correspond.invalid/schemas/game-file.schema.json",
        "title": "correspond game file: any document",
        "description": "Every YAML document of a game file, the header or a record, for an editor's YAML support (see README.md, \"Editing a game file\"). Made from header.schema.json and record.schema.json by tests/integration/editor_schema.rs; do not edit it by hand.",
        "oneOf": [{ "$ref": "#/$defs/header" }, { "$ref": "#/$defs/record" }],
        "$defs": {
            "header": embedded(read("header.schema.json"), "header"),
            "record": embedded(read("record.schema.json"), "record"),
        }
    })
}

#[test]
fn the_editor_schema_is_the_bundle_of_the_header_and_record_schemas() {
    let expected = serde_json::to_string_pretty(&bundle()).expect("JSON") + "\n";
    let path = schemas().join("game-file.schema.json");
    if std::env::var_os("CORRESPOND_WRITE_SCHEMAS").is_some() {
        std::fs::write(&path, &expected).expect("write the bundle");
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == expected,
        "schemas/game-file.schema.json is not the bundle of the header and record schemas: \
         run this test with CORRESPOND_WRITE_SCHEMAS=1, and read the difference before \
         committing it"
    );
}

#[test]
fn the_editor_schema_takes_every_game_document_and_refuses_what_the_format_forbids() {
    let validator = jsonschema::validator_for(&read("game-file.schema.json")).expect("a schema");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut checked = 0;
    for folder in std::fs::read_dir(&games).expect("games") {
        for file in std::fs::read_dir(folder.expect("entry").path()).expect("a folder") {
            let path = file.expect("entry").path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let start = text.find("---\n").expect("a header");
            for doc in text[start..].split("---\n").filter(|d| !d.is_empty()) {
                let value: Value = serde_saphyr::from_str(doc).expect("YAML");
                let problems: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| e.to_string())
                    .collect();
                assert!(problems.is_empty(), "{}: {problems:?}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} documents");
    let record = json!({
        "seq": 1, "prev": "0".repeat(64), "signer": "alice", "kind": "resign",
        "time": "2026-01-01T00:00:00Z", "signature": "U1NIU0lHAAAA"
    });
    assert!(validator.is_valid(&record));
    for comment in ["gg", "x", "zoë: 1.e4!?", "a: b # c"] {
        let mut with = record.clone();
        with["comment"] = json!(comment);
        assert!(validator.is_valid(&with), "{comment}");
    }
    for comment in ["", "a\u{202e}b", "a\u{200d}b", "a\u{2028}b"] {
        let mut with = record.clone();
        with["comment"] = json!(comment);
        assert!(!validator.is_valid(&with), "{comment:?}");
    }
    for (what, change) in [
        ("an unknown kind", json!({ "kind": "castle" })),
        ("a comment with a brace", json!({ "comment": "{gg}" })),
        (
            "a comment with a space at its end",
            json!({ "comment": "gg " }),
        ),
        (
            "a header's field in a record",
            json!({ "format": "correspond/1" }),
        ),
        ("a move in a resignation", json!({ "move": "e2e4" })),
        (
            "an adjudication without a reason",
            json!({ "kind": "adjudicate", "result": "draw" }),
        ),
    ] {
        let mut bad = record.clone();
        bad.as_object_mut()
            .expect("an object")
            .extend(change.as_object().expect("an object").clone());
        assert!(!validator.is_valid(&bad), "{what}");
    }
}
