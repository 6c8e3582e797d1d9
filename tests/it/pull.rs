//! Pulling models from a database odm did not write: MongoDB's public sample data loaded by mongosh and a messy
//! collection written by pymongo, pulled from the server; the models compile unedited (a trybuild case written here),
//! read every document of the files back and write them with the same bytes (see `pulled_check.rs`), and their
//! validators accept every stored document on the server. Also: the files `write_to` saves, all or nothing, and a
//! collection no model can read.

use crate::introspect::{load_with_mongosh, sample_file};
use crate::pulled_check;
use crate::support::shell::mongosh;
use odm::bson::{doc, Bson, Document};
use odm::pull::{ModelWriter, Pull};
use std::path::{Path, PathBuf};

/// Writes the messy collection's lines with pymongo where the test server's Python has it (the SecantusDB the
/// harness installs does), else with mongosh; either keeps every type of canonical Extended JSON.
fn load_messy(db: &str, file: &Path) -> &'static str {
    let python = odm::testing::server().program().and_then(|p| Some(p.parent()?.join("python")));
    let script = r#"
import sys
from bson.json_util import loads
from pymongo import MongoClient
docs = [loads(l) for l in open(sys.argv[3]) if l.strip()]
MongoClient(sys.argv[1])[sys.argv[2]]["UserEvents"].insert_many(docs)
"#;
    if let Some(python) = python.filter(|p| p.exists()) {
        let uri = odm::testing::server().uri();
        let run = std::process::Command::new(python).arg("-c").arg(script).arg(uri).arg(db).arg(file).output();
        match run {
            Ok(out) if out.status.success() => return "pymongo",
            Ok(out) => eprintln!("pymongo failed, writing with mongosh: {}", crate::support::shell::output_text(&out)),
            Err(e) => eprintln!("pymongo did not start ({e}), writing with mongosh"),
        }
        // What a failed insert_many wrote before it stopped must not be written twice.
        let (code, out) = mongosh(&format!("db.getSiblingDB({db:?}).UserEvents.drop()"));
        assert_eq!(code, 0, "mongosh: {out}");
    }
    load_with_mongosh(db, "UserEvents", file);
    "mongosh"
}

#[tokio::test]
async fn pulled_models_compile_read_every_document_back_and_their_validators_accept_the_data() {
    let db = odm::testing::database("pull_mflix").await;
    for name in ["theaters", "users"] {
        load_with_mongosh(db.name(), name, &sample_file(name));
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pulled-{}", db.name()));
    std::fs::create_dir_all(&out).expect("a directory for the case");
    let messy = out.join("UserEvents.json");
    std::fs::write(&messy, pulled_check::messy_lines()).expect("writes the messy lines");
    let writer = load_messy(db.name(), &messy);
    eprintln!("messy collection written by {writer}");

    // The audit of the messy collection pymongo wrote: every rule its data breaks, each once.
    let audit = odm::audit::Audit::new(&db).collections(["UserEvents"]).await.expect("audit");
    let mut rules: Vec<&str> = audit.findings().map(|(_, f)| f.rule).collect();
    rules.sort_unstable();
    rules.dedup();
    assert_eq!(
        rules,
        [
            "array-bound",
            "counter-in-step",
            "data-validator",
            "date-string",
            "id-objectid",
            "key-short",
            "name-case",
            "type-number-string",
            "type-one-bson-type",
            "type-option-absent"
        ],
        "{audit}"
    );

    let report = Pull::new(&db).await.expect("pull");
    assert!(report.unpullable.is_empty() && report.missing.is_empty(), "{report}");
    let files = [sample_file("theaters"), messy.clone(), sample_file("users")];
    let names: Vec<&str> = report.models.iter().map(|m| m.collection.as_str()).collect();
    assert_eq!(names, ["UserEvents", "theaters", "users"], "name order");
    let (mut modules, mut checks) = (String::new(), String::new());
    for (model, file) in report.models.iter().zip([&files[1], &files[0], &files[2]]) {
        // The server's documents and the file's are the same, in the same order: pulled from either, one model.
        let docs = pulled_check::documents_of(file);
        let mut survey = odm::introspect::Survey::new();
        for d in &docs {
            survey.add(&odm::bson::RawDocumentBuf::try_from(d).expect("encodes"));
        }
        let shape = survey.shape();
        let from_file = ModelWriter::new(&model.collection, &shape).database(db.name()).write().expect("writes");
        assert_eq!(model.source, from_file.source, "{}: pulled from the server as from the file", model.collection);
        let path = out.join(format!("{}.rs", model.module));
        std::fs::write(&path, &model.source).expect("writes the module");
        pulled_check::assert_rustfmt_keeps(&path);
        modules.push_str(&format!("mod {} {{\n{}}}\n\n", model.module, model.source));
        let validator = out.join(format!("{}.validator.json", model.module));
        checks.push_str(&format!(
            "    pulled::check::<{}::{}>({:?}, {}, {:?});\n",
            model.module,
            model.model,
            file.display().to_string(),
            pulled_check::documents_in_a_minority_state(&docs),
            validator.display().to_string(),
        ));
    }
    let case = out.join("pulled_models.rs");
    let check_rs = Path::new(env!("CARGO_MANIFEST_DIR")).join("pulled_check.rs");
    std::fs::write(
        &case,
        format!(
            "// Written by tests/it/pull.rs: the models odm pulled, unedited, and a main that reads their data back.\n\
             #![allow(dead_code)]\n\n{modules}#[path = {:?}]\nmod pulled;\n\nfn main() {{\n{checks}}}\n",
            check_rs.display().to_string()
        ),
    )
    .expect("writes the case");
    let t = trybuild::TestCases::new();
    t.pass(&case);
    drop(t);

    // Each model's validator, as the pulled code generates it, accepts every stored document: counted by the server.
    for model in &report.models {
        let text = std::fs::read_to_string(out.join(format!("{}.validator.json", model.module))).expect("validator");
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let Ok(Bson::Document(validator)) = Bson::try_from(json) else { panic!("a document") };
        let refused = db
            .collection::<Document>(&model.collection)
            .count_documents(doc! { "$nor": [validator] })
            .await
            .expect("count");
        assert_eq!(refused, 0, "{}: documents the pulled model's validator refuses", model.collection);
    }
    std::fs::remove_dir_all(&out).expect("removes the case");
}

/// The adoption guide shows `theaters.rs` as pull writes it for the sample data, as found and as version 2: the
/// text in the guide is the output, character for character (the guide's doctests compile both and run a document
/// through them).
#[test]
fn the_guide_shows_the_models_pull_writes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../odm/src/guide/existing-database.md");
    let guide = std::fs::read_to_string(&path).expect("the guide");
    let docs = pulled_check::documents_of(&sample_file("theaters"));
    let mut survey = odm::introspect::Survey::new();
    for d in &docs {
        survey.add(&odm::bson::RawDocumentBuf::try_from(d).expect("encodes"));
    }
    let shape = survey.shape();
    for (module, versioned) in [("theaters", false), ("theaters_v2", true)] {
        let open = format!("# mod {module} {{\n");
        let start = guide.find(&open).unwrap_or_else(|| panic!("`{open}` in the guide")) + open.len();
        let end = start + guide[start..].find("# }\n").expect("its end");
        let writer = ModelWriter::new("theaters", &shape).database("sample_mflix").versioned(versioned);
        let pulled = writer.write().expect("writes");
        if guide[start..end] != pulled.source {
            let fresh = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("guide-{module}.rs"));
            std::fs::write(&fresh, &pulled.source).expect("writes");
            panic!("the guide's `{module}` is not what pull writes now ({}); paste that in the guide", fresh.display());
        }
    }
}

#[tokio::test]
async fn write_to_saves_every_module_or_nothing() {
    let db = odm::testing::database("pull_files").await;
    let (code, out) = mongosh(&format!(
        "const d = db.getSiblingDB({:?}); d.orders.insertOne({{ n: 1 }}); d.OrderLines.insertOne({{ q: 2 }});",
        db.name()
    ));
    assert_eq!(code, 0, "mongosh: {out}");
    let report = Pull::new(&db).await.expect("pull");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pull-files-{}", db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    let written = report.write_to(&dir).expect("writes");
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["order_lines.rs", "orders.rs", "mod.rs"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("mod.rs")).unwrap().lines().filter(|l| l.starts_with("pub mod")).count(),
        2
    );
    // A second write replaces nothing and says which files stood in the way.
    std::fs::write(dir.join("orders.rs"), "// mine").unwrap();
    std::fs::remove_file(dir.join("order_lines.rs")).unwrap();
    let err = report.write_to(&dir).expect_err("files exist");
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
    assert!(err.to_string().contains("orders.rs") && err.to_string().contains("mod.rs"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("orders.rs")).unwrap(), "// mine", "left as it was");
    assert!(!dir.join("order_lines.rs").exists(), "nothing written");
}

#[tokio::test]
async fn a_collection_whose_top_level_keys_no_field_can_hold_gets_no_model() {
    let db = odm::testing::database("pull_bad").await;
    // Dotted top-level keys need a server that stores them (wire version 13 and later, MongoDB 5.0).
    let hello = db.run_command(doc! { "hello": 1 }).await.expect("hello");
    let wire = hello.get_i32("maxWireVersion").unwrap_or(0);
    let raw = db.collection::<Document>("prices");
    raw.insert_one(doc! { "n": 1 }).await.expect("insert");
    if wire >= 13 {
        let (code, out) = mongosh(&format!("db.getSiblingDB({:?}).prices.insertOne({{ 'price.usd': 5 }})", db.name()));
        assert_eq!(code, 0, "mongosh: {out}");
        let report = Pull::new(&db).await.expect("pull");
        assert!(report.models.is_empty(), "{report}");
        assert_eq!(report.unpullable.len(), 1);
        let why = report.unpullable[0].to_string();
        assert!(why.contains("\"price.usd\"") && why.contains("key-dot"), "{why}");
    }
    let asked = Pull::new(&db).collections(["prices", "absent"]).await.expect("pull");
    assert_eq!(asked.missing, ["absent"]);
}

/// The adoption path end to end on the sample data as mongosh wrote it: audit (findings), pull version 2 beside the
/// shape as found, sync its rollout validator, migrate every document, sync again (the validator tightens to
/// version 2), audit again: no finding. The pulled modules compile unedited (the case is written here).
#[tokio::test]
async fn version_2_takes_the_sample_data_to_the_rules_and_the_audit_comes_back_clean() {
    let db = odm::testing::database("pull_v2").await;
    for name in ["theaters", "users"] {
        load_with_mongosh(db.name(), name, &sample_file(name));
    }
    let before = odm::audit::Audit::new(&db).await.expect("audit");
    assert!(!before.is_clean(), "{before}");
    let report = Pull::new(&db).versioned(true).await.expect("pull");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pulled-{}", db.name()));
    std::fs::create_dir_all(&out).expect("a directory for the case");
    let mut modules = String::new();
    for model in &report.models {
        let path = out.join(format!("{}.rs", model.module));
        std::fs::write(&path, &model.source).expect("writes the module");
        pulled_check::assert_rustfmt_keeps(&path);
        modules.push_str(&format!("mod {} {{\n{}}}\n\n", model.module, model.source));
    }
    let case = out.join("version_2.rs");
    std::fs::write(
        &case,
        format!(
            "// Written by tests/it/pull.rs: version 2 of the models odm pulled, unedited, synced and migrated.\n\
             #![allow(dead_code)]\n\n{modules}\
             #[tokio::main]\n\
             async fn main() {{\n\
             \x20   let client = odm::mongodb::Client::with_uri_str({uri:?}).await.expect(\"client\");\n\
             \x20   let db = client.database({db:?});\n\
             \x20   let sync = || odm::SchemaSync::new(&client).database({db:?}).model::<theaters::Theater>().model::<users::User>().mode(odm::SyncMode::Apply);\n\
             \x20   let _rollout = sync().await.expect(\"the rollout validator\");\n\
             \x20   let t = odm::Collection::<theaters::Theater>::new(&db).migrate().await.expect(\"migrate theaters\");\n\
             \x20   assert!(t.failed.is_empty() && t.pending == 0 && t.migrated == 1564, \"{{t}}\");\n\
             \x20   let u = odm::Collection::<users::User>::new(&db).migrate().await.expect(\"migrate users\");\n\
             \x20   assert!(u.failed.is_empty() && u.pending == 0 && u.migrated == 185, \"{{u}}\");\n\
             \x20   sync().await.expect(\"the validator tightened\").require_in_sync().expect(\"in sync\");\n\
             \x20   let at_2 = db.collection::<odm::bson::Document>(\"theaters\").count_documents(odm::bson::doc! {{ \"_v\": 2 }}).await.expect(\"count\");\n\
             \x20   assert_eq!(at_2, 1564, \"every theater stored at version 2\");\n\
             }}\n",
            uri = odm::testing::server().uri(),
            db = db.name(),
        ),
    )
    .expect("writes the case");
    let t = trybuild::TestCases::new();
    t.pass(&case);
    drop(t);
    let after = odm::audit::Audit::new(&db).await.expect("audit");
    assert!(after.is_clean(), "{after}");
    std::fs::remove_dir_all(&out).expect("removes the case");
}

/// Version 2 of the messy collection: short keys, dates and numbers from text, a counter recomputed; where a path
/// holds several types the step is a `compile_error!` naming the key, its types and what to decide.
#[test]
fn version_2_of_a_messy_collection_says_what_a_person_must_decide() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pulled-messy-v2");
    std::fs::create_dir_all(&out).expect("a directory");
    let file = out.join("UserEvents.json");
    std::fs::write(&file, pulled_check::messy_lines()).expect("writes the lines");
    let mut survey = odm::introspect::Survey::new();
    for d in pulled_check::documents_of(&file) {
        survey.add(&odm::bson::RawDocumentBuf::try_from(&d).expect("encodes"));
    }
    let shape = survey.shape();
    let pulled = ModelWriter::new("UserEvents", &shape).versioned(true).write().expect("writes");
    let path = out.join("user_events.rs");
    std::fs::write(&path, &pulled.source).expect("writes");
    pulled_check::assert_rustfmt_keeps(&path);
    let source = &pulled.source;
    for expected in [
        "#[odm(\n    collection = \"UserEvents\",\n    existing_name,\n    version = 2,\n    older(UserEventV1)\n)]",
        "compile_error!(",
        "`age`: holds int ×2, string ×1, long ×1 (rule `type-one-bson-type`)",
        "    #[odm(max_items = 2, counter = \"likes_count\")]\n    pub likes: Vec<String>,",
        "        let likes_count = self.likes.len() as i32;\n",
        "    #[serde(rename = \"plc\")]\n    pub preferred_language_code: String,",
        "    #[serde(rename = \"joinedAt\")]\n    pub joined_at: DateTime,",
        "#[serde(rename = \"joinedAt\", deserialize_with = \"odm::pull::date_from_text\")]",
        "impl Upgrade for UserEventV1 {",
        "impl From<ItemV1> for Item {",
        "    pub last_login: Option<DateTime>,",
        "deserialize_with = \"odm::pull::optional_date_from_text\"",
        "    #[odm(max_items = 2, counter = \"items_count\")]\n    pub items: Vec<Item>,\n    pub items_count: i32,",
        "        let items_count = self.items.len() as i32;\n",
    ] {
        assert!(source.contains(expected), "{expected}\n---\n{source}");
    }
    std::fs::remove_dir_all(&out).expect("removes");
}
