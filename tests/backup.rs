//! Dump and restore against the real server: a dump restored into another database holds every document byte for
//! byte (every BSON type odm stores) with the validator, options and indexes; gzip or not; the files read by an
//! outside BSON reader (the Node `bson` package mongosh brings); a restore into a collection holding documents
//! refused with nothing lost; a validator's refusal named by collection, `_id` and Rust field; an interrupted dump
//! leaving no complete-looking file; a dump in mongodump's older metadata form restored.

mod support;

use futures_util::TryStreamExt;
use odm::backup::{Dump, ReadMode, Restore};
use odm::bson::{doc, oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document, RawDocumentBuf, Regex, Timestamp};
use odm::error::BackupError;
use odm::{Collection, Embedded, Error, Model};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use support::server::{collection_options, live_indexes};

/// A part of an item: an embedded document.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Part {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "w")]
    weight: f64,
}

/// A document holding every BSON type odm stores.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_item", closed, index(keys = "sku", unique), index(keys = "-at, qty"))]
struct Item {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sku")]
    sku: String,
    #[serde(rename = "pr")]
    price: f64,
    #[serde(rename = "qty")]
    qty: i32,
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "am")]
    amount: Decimal128,
    #[serde(rename = "ok")]
    active: bool,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "ts")]
    stamp: Timestamp,
    #[serde(rename = "bin")]
    blob: Binary,
    #[serde(rename = "pt")]
    part: Part,
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
    #[serde(rename = "nt")]
    #[odm(nullable)]
    note: Option<String>,
    /// Free-form: holds what no typed field maps to (a regex, nested arrays, min and max keys).
    #[serde(rename = "x")]
    extra: Document,
}

/// A capped log: options beside the validator.
/// A log kept one collection per month: a dump of the model takes every live month.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12, index(keys = "kind"))]
struct Event {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_entry", capped(size = 1048576, max = 5000))]
struct Entry {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    message: String,
}

fn item(i: u32) -> Item {
    Item {
        id: ObjectId::new(),
        sku: format!("sku-{i:05}"),
        price: f64::from(i) * 1.25 + 0.5,
        qty: i as i32 - 50,
        total: i64::from(i) * 10_000_000_000,
        amount: format!("{i}.0{i}").parse().expect("a decimal"),
        active: i.is_multiple_of(2),
        at: DateTime::from_millis(1_700_000_000_000 + i64::from(i) * 1000),
        stamp: Timestamp { time: 1_700_000_000 + i, increment: i + 1 },
        blob: Binary { subtype: odm::bson::spec::BinarySubtype::Generic, bytes: vec![0, 1, 2, (i % 256) as u8] },
        part: Part { name: format!("part {i} é"), weight: 0.125 },
        tags: vec!["a".into(), format!("t{i}")],
        note: i.is_multiple_of(3).then(|| "fragile".to_owned()),
        extra: doc! {
            "re": Regex { pattern: "^a.c$".to_owned().try_into().expect("a pattern"), options: "i".to_owned().try_into().expect("options") },
            "nested": [[1, 2], { "k": Bson::Null }],
            "lo": Bson::MinKey,
            "hi": Bson::MaxKey,
        },
    }
}

/// A fresh directory for one test's dump (removed by the caller at the end).
fn out_dir(db: &odm::testing::TestDatabase) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("odm-backup-{}", db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The collection's documents as the server stores them, in `_id` order, as raw BSON.
async fn raw_documents(db: &odm::mongodb::Database, collection: &str) -> Vec<RawDocumentBuf> {
    db.collection::<RawDocumentBuf>(collection)
        .find(doc! {})
        .sort(doc! { "_id": 1 })
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read")
}

/// The indexes of a collection without the fields that name its namespace, by name.
async fn indexes_by_name(db: &odm::mongodb::Database, collection: &str) -> Vec<Document> {
    let mut indexes: Vec<Document> = live_indexes(db, collection)
        .await
        .into_iter()
        .map(|mut i| {
            i.remove("ns");
            i
        })
        .collect();
    indexes.sort_by(|a, b| a.get_str("name").unwrap_or("").cmp(b.get_str("name").unwrap_or("")));
    indexes
}

/// Files under `dir` whose names end in `.partial` (left by an unfinished write).
fn partial_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(partial_files(&path));
        } else if path.to_string_lossy().ends_with(".partial") {
            found.push(path);
        }
    }
    found
}

/// Seeds `count` items and a few log entries into `db`, both collections created by sync.
async fn seed(db: &odm::testing::TestDatabase, count: u32) {
    odm::SchemaSync::new(db.client())
        .database(db.name())
        .model::<Item>()
        .model::<Entry>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync");
    let items = Collection::<Item>::new(db);
    let values: Vec<Item> = (0..count).map(item).collect();
    for chunk in values.chunks(1000) {
        items.insert_many(chunk).await.expect("seed items");
    }
    let entries = Collection::<Entry>::new(db);
    let logs: Vec<Entry> = (0..5).map(|i| Entry { id: ObjectId::new(), message: format!("line {i}") }).collect();
    entries.insert_many(&logs).await.expect("seed entries");
}

fn backup_error(e: Error) -> BackupError {
    match e {
        Error::Backup(b) => *b,
        other => panic!("expected a backup error, got: {other}"),
    }
}

#[tokio::test]
async fn a_dump_restored_elsewhere_is_the_same_byte_for_byte() {
    let src = odm::testing::database("bk_round").await;
    seed(&src, 2500).await;
    let expected_mode = ReadMode::of(src.client()).await.expect("hello");
    for gzip in [false, true] {
        let copy = odm::testing::database("bk_round_copy").await;
        let out = out_dir(&copy);
        let mut batches = 0;
        let mut dump = Dump::new(src.client(), &out).database(src.name()).model::<Item>().model::<Entry>();
        if gzip {
            dump = dump.gzip();
        }
        let report = dump.batch_size(700).on_progress(|_| batches += 1).await.expect("dump");
        assert_eq!(report.read_mode, expected_mode, "{report}");
        let counts: Vec<(&str, u64)> =
            report.collections.iter().map(|c| (c.collection.as_str(), c.documents)).collect();
        assert_eq!(counts, [("shop_item", 2500), ("log_app_entry", 5)], "{report}");
        assert!(batches >= 4, "progress after every batch: {batches} calls");
        let gz = if gzip { ".gz" } else { "" };
        for name in ["shop_item", "log_app_entry"] {
            for file in [format!("{name}.bson{gz}"), format!("{name}.metadata.json{gz}")] {
                assert!(out.join(src.name()).join(&file).is_file(), "{file} written");
            }
        }
        assert!(partial_files(&out).is_empty(), "no temporary file left: {:?}", partial_files(&out));
        // The file is the documents exactly as the server returns them, in `_id` order, one after another (once
        // `gzip` itself has decompressed it).
        let stored = raw_documents(&src, "shop_item").await;
        let bytes: Vec<u8> = stored.iter().flat_map(|d| d.as_bytes().to_vec()).collect();
        let file = std::fs::read(out.join(src.name()).join(format!("shop_item.bson{gz}"))).expect("read the dump");
        let file = if gzip { gzip_tool(&["-dc"], &file) } else { file };
        assert!(file == bytes, "shop_item.bson{gz} is the stored documents, concatenated");
        assert_eq!(report.collections[0].bytes, bytes.len() as u64);

        let restored =
            Restore::new(copy.client(), &out).database(src.name()).into_db(copy.name()).await.expect("restore");
        let counts: Vec<(&str, u64)> =
            restored.collections.iter().map(|c| (c.collection.as_str(), c.documents)).collect();
        assert_eq!(counts, [("log_app_entry", 5), ("shop_item", 2500)], "{restored}");
        for name in ["shop_item", "log_app_entry"] {
            let (a, b) = (raw_documents(&src, name).await, raw_documents(&copy, name).await);
            assert_eq!(a.len(), b.len(), "{name}: as many documents");
            for (x, y) in a.iter().zip(&b) {
                assert!(x.as_bytes() == y.as_bytes(), "{name}: byte-equal documents\n{x:?}\n{y:?}");
            }
            assert_eq!(collection_options(&src, name).await, collection_options(&copy, name).await, "{name} options");
            assert_eq!(indexes_by_name(&src, name).await, indexes_by_name(&copy, name).await, "{name} indexes");
        }
        let options = collection_options(&copy, "log_app_entry").await;
        assert_eq!((options.get_bool("capped").ok(), options.get("max").is_some()), (Some(true), true), "{options}");
        // The copy is in line with the models, as a synced database is.
        odm::SchemaSync::new(copy.client())
            .database(copy.name())
            .model::<Item>()
            .model::<Entry>()
            .mode(odm::SyncMode::Verify)
            .await
            .and_then(|r| r.require_in_sync())
            .expect("the restored collections match the models");
        std::fs::remove_dir_all(&out).expect("cleanup");
    }
}

/// The Node `bson` package mongosh's npm install brings, when mongosh came from npm (and `node` is on `PATH`).
fn node_bson() -> Option<(PathBuf, PathBuf)> {
    let node =
        std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join("node")).find(|p| p.is_file())?;
    let mongosh = std::fs::canonicalize(odm::testing::mongosh()).ok()?;
    let bson = mongosh
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "node_modules") && p.join("bson/package.json").is_file())?
        .join("bson");
    Some((node, bson))
}

#[tokio::test]
async fn an_outside_bson_reader_reads_the_files() {
    let Some((node, bson)) = node_bson() else {
        eprintln!("skipped: no Node `bson` package beside mongosh (mongosh given by MONGOSH or on PATH, not from npm)");
        return;
    };
    let src = odm::testing::database("bk_outside").await;
    seed(&src, 40).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &out).database(src.name()).model::<Item>().await.expect("dump");
    let dir = out.join(src.name());
    let script = format!(
        r#"
const {{ BSON, EJSON }} = require({bson:?});
const fs = require("fs");
const data = fs.readFileSync({file:?});
let at = 0;
while (at < data.length) {{
  const len = data.readInt32LE(at);
  const doc = BSON.deserialize(data.subarray(at, at + len), {{ promoteLongs: false, promoteValues: false, promoteBuffers: false, bsonRegExp: true }});
  console.log(EJSON.stringify(doc, {{ relaxed: false }}));
  at += len;
}}
const meta = EJSON.parse(fs.readFileSync({meta:?}, "utf8"), {{ relaxed: false }});
console.log(EJSON.stringify(meta, {{ relaxed: false }}));
"#,
        bson = bson.to_string_lossy(),
        file = dir.join("shop_item.bson").to_string_lossy(),
        meta = dir.join("shop_item.metadata.json").to_string_lossy(),
    );
    let run = std::process::Command::new(node).arg("-e").arg(script).output().expect("node runs");
    assert!(run.status.success(), "node: {}", support::shell::output_text(&run));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(run.stdout).expect("utf-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let stored = raw_documents(&src, "shop_item").await;
    assert_eq!(lines.len(), stored.len() + 1, "every document, then the metadata");
    for (line, doc) in lines.iter().zip(&stored) {
        let doc = Document::try_from(doc.as_ref()).expect("a document");
        assert_eq!(line, &Bson::Document(doc).into_canonical_extjson(), "the outside reader sees the stored document");
    }
    // The metadata file parses as canonical Extended JSON there too, validator and all.
    let file = std::fs::read(dir.join("shop_item.metadata.json")).expect("metadata");
    let ours: serde_json::Value = serde_json::from_slice(&file).expect("JSON");
    assert_eq!(lines.last(), Some(&ours), "the outside reader reads the metadata as written");
    let meta = Bson::try_from(ours).expect("Extended JSON");
    let meta = meta.as_document().expect("an object");
    assert_eq!(meta.get_document("options").expect("options").get_document("validator").ok(), Some(&Item::validator()));
    assert_eq!(meta.get_str("collectionName").ok(), Some("shop_item"));
    assert_eq!(meta.get_str("type").ok(), Some("collection"));
    let names: Vec<&str> = meta
        .get_array("indexes")
        .expect("indexes")
        .iter()
        .filter_map(|i| i.as_document()?.get_str("name").ok())
        .collect();
    assert_eq!(names.len(), 3, "_id and the two declared indexes: {names:?}");
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn a_restore_never_merges_into_documents() {
    let src = odm::testing::database("bk_merge").await;
    seed(&src, 30).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &out).database(src.name()).model::<Item>().model::<Entry>().await.expect("dump");

    // The target's log already holds a document, written by another program; its items collection is missing.
    let copy = odm::testing::database("bk_merge_copy").await;
    let theirs = doc! { "_id": "theirs", "m": "kept" };
    copy.collection::<Document>("log_app_entry").insert_one(theirs.clone()).await.expect("outside insert");
    let refused = Restore::new(copy.client(), &out).database(src.name()).into_db(copy.name()).await;
    let error = refused.expect_err("refused");
    let text = error.to_string();
    match backup_error(error) {
        BackupError::NotEmpty { namespace } => assert_eq!(namespace, format!("{}.log_app_entry", copy.name())),
        other => panic!("expected NotEmpty, got {other}"),
    }
    assert!(text.contains("drop_existing()") && text.contains("nothing was restored"), "{text}");
    // Nothing changed: their document alone, and the other collection not created either.
    let left: Vec<Document> = copy
        .collection::<Document>("log_app_entry")
        .find(doc! {})
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read");
    assert_eq!(left, [theirs]);
    assert!(!copy.list_collection_names().await.expect("names").contains(&"shop_item".to_owned()));

    // Asked to, the restore replaces the collection with the dumped one.
    let report = Restore::new(copy.client(), &out)
        .database(src.name())
        .into_db(copy.name())
        .drop_existing()
        .await
        .expect("restore replacing");
    let replaced: Vec<(&str, bool)> = report.collections.iter().map(|c| (c.collection.as_str(), c.replaced)).collect();
    assert_eq!(replaced, [("log_app_entry", true), ("shop_item", false)], "{report}");
    for name in ["log_app_entry", "shop_item"] {
        assert_eq!(raw_documents(&src, name).await, raw_documents(&copy, name).await, "{name}");
    }
    assert_eq!(collection_options(&src, "log_app_entry").await, collection_options(&copy, "log_app_entry").await);

    // A dump never overwrites one: the same directory again is refused before anything is written.
    let again = Dump::new(src.client(), &out).database(src.name()).model::<Item>().await.expect_err("exists");
    let text = again.to_string();
    assert!(matches!(backup_error(again), BackupError::Exists { path } if path.ends_with("shop_item.bson")), "{text}");
    assert!(text.contains("choose an empty directory"), "{text}");
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn a_refused_document_is_named_by_collection_id_and_field() {
    let src = odm::testing::database("bk_refused").await;
    seed(&src, 20).await;
    // A document the validator refuses, written past it by another program (as before the validator existed).
    let bad_id = ObjectId::new();
    let mut bad = odm::bson::serialize_to_document(&item(999)).expect("encode");
    bad.insert("_id", bad_id);
    bad.insert("pr", "nine");
    let raw = src.collection::<Document>("shop_item");
    support::raw::insert_outside(&raw, vec![bad]).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &out).database(src.name()).model::<Item>().batch_size(7).await.expect("dump");

    let copy = odm::testing::database("bk_refused_copy").await;
    let error = Restore::new(copy.client(), &out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Item>()
        .batch_size(5)
        .await
        .expect_err("the validator refuses it");
    let text = error.to_string();
    let before = raw_documents(&src, "shop_item")
        .await
        .iter()
        .take_while(|d| d.get_object_id("_id").ok() != Some(bad_id))
        .count();
    match backup_error(error) {
        BackupError::Refused { namespace, id, restored, code, validation, .. } => {
            assert_eq!(namespace, format!("{}.shop_item", copy.name()));
            assert_eq!(id, Bson::ObjectId(bad_id));
            assert_eq!(restored, before as u64, "the documents before it, in file order");
            assert_eq!(code, 121);
            let v = validation.expect("the validator's failures");
            assert_eq!(v.model, "Item");
            assert!(v.failures.iter().any(|f| f.path == "Item.price" && f.stored_path == "pr"), "{:?}", v.failures);
        }
        other => panic!("expected Refused, got {other}"),
    }
    assert!(
        text.contains(&bad_id.to_hex()) && text.contains("price") && text.contains("bypass_validation()"),
        "{text}"
    );
    let count = copy.collection::<Document>("shop_item").count_documents(doc! {}).await.expect("count");
    assert_eq!(count, before as u64, "nothing after the refused document");

    // Asked to, the restore loads it as it was stored.
    Restore::new(copy.client(), &out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Item>()
        .drop_existing()
        .bypass_validation()
        .await
        .expect("restore bypassing the validator");
    assert_eq!(raw_documents(&src, "shop_item").await, raw_documents(&copy, "shop_item").await);
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn an_interrupted_dump_leaves_no_complete_looking_file() {
    let src = odm::testing::database("bk_cut").await;
    seed(&src, 3000).await;
    let out = out_dir(&src);
    // The dump is abandoned (its future dropped, as a cancelled job's is) in the middle of the items.
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let mut tx = Some(tx);
    let dump = Dump::new(src.client(), &out)
        .database(src.name())
        .model::<Entry>()
        .model::<Item>()
        .batch_size(200)
        .on_progress(move |p| {
            if p.done >= 5 + 1000 {
                if let Some(tx) = tx.take() {
                    let _ = tx.send(());
                }
            }
        });
    tokio::select! {
        finished = dump => panic!("the dump was to be interrupted, it finished: {finished:?}"),
        _ = rx => {}
    }
    let dir = out.join(src.name());
    // The collection written before the interruption is complete; the one being written has no file at all.
    assert!(dir.join("log_app_entry.bson").is_file() && dir.join("log_app_entry.metadata.json").is_file());
    assert!(!dir.join("shop_item.bson").exists(), "no cut-short shop_item.bson");
    assert!(!dir.join("shop_item.metadata.json").exists());
    assert!(partial_files(&out).is_empty(), "the temporary file is removed: {:?}", partial_files(&out));
    // What is there restores completely.
    let copy = odm::testing::database("bk_cut_copy").await;
    let report = Restore::new(copy.client(), &out).database(src.name()).into_db(copy.name()).await.expect("restore");
    assert_eq!(report.collections.len(), 1, "{report}");
    assert_eq!(raw_documents(&src, "log_app_entry").await, raw_documents(&copy, "log_app_entry").await);
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn a_dump_in_mongodumps_older_metadata_form_restores() {
    // What an older mongodump wrote: relaxed Extended JSON, `ns` in the index specs, no `type`, and the documents
    // gzip-compressed beside an uncompressed file of another collection.
    let copy = odm::testing::database("bk_mongodump").await;
    let out = out_dir(&copy);
    let dir = out.join("legacy");
    std::fs::create_dir_all(&dir).expect("dir");
    let docs = [doc! { "_id": 1, "n": "a", "d": 1.5 }, doc! { "_id": 2, "n": "b", "l": 7_i64 }];
    let mut bytes = Vec::new();
    for d in &docs {
        bytes.extend(RawDocumentBuf::try_from(d).expect("raw").as_bytes());
    }
    std::fs::write(dir.join("people.bson.gz"), gzip(&bytes)).expect("write");
    let meta = r#"{"options":{"validator":{"n":{"$type":"string"}},"validationLevel":"strict","validationAction":"error"},"indexes":[{"v":2,"key":{"_id":1},"name":"_id_","ns":"legacy.people"},{"v":2,"key":{"n":1},"name":"n_1","ns":"legacy.people","unique":true}],"uuid":"7c0d2cfa1b0a4d0f9a3f4f1c2b3a4d5e","collectionName":"people"}"#;
    std::fs::write(dir.join("people.metadata.json.gz"), gzip(meta.as_bytes())).expect("write");
    let report = Restore::new(copy.client(), &out).database("legacy").into_db(copy.name()).await.expect("restore");
    assert_eq!(report.collections[0].documents, 2, "{report}");
    assert_eq!(report.collections[0].indexes, 1, "{report}");
    let stored: Vec<Document> = copy
        .collection::<Document>("people")
        .find(doc! {})
        .sort(doc! { "_id": 1 })
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read");
    assert_eq!(stored, docs);
    let options = collection_options(&copy, "people").await;
    assert_eq!(options.get_document("validator").ok(), Some(&doc! { "n": { "$type": "string" } }));
    let unique = indexes_by_name(&copy, "people").await.into_iter().find(|i| i.get_str("name").ok() == Some("n_1"));
    assert_eq!(unique.and_then(|i| i.get_bool("unique").ok()), Some(true));
    std::fs::remove_dir_all(&out).expect("cleanup");
}

/// `bytes` gzip-compressed by `gzip` itself, as mongodump's `--gzip` files are made by another program.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    gzip_tool(&["-c"], bytes)
}

/// What the `gzip` command prints for `bytes` on its input, run with `args`.
fn gzip_tool(args: &[&str], bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new("gzip")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip runs");
    child.stdin.take().expect("stdin").write_all(bytes).expect("feed gzip");
    let out = child.wait_with_output().expect("gzip output");
    assert!(out.status.success());
    out.stdout
}

#[tokio::test]
async fn a_database_given_alone_is_dumped_whole() {
    let src = odm::testing::database("bk_whole").await;
    seed(&src, 10).await;
    src.collection::<Document>("misc_note").insert_one(doc! { "_id": 1, "t": "no model" }).await.expect("insert");
    let view = src.create_collection("shop_item_view").view_on("shop_item".to_owned()).pipeline(vec![]).await;
    let out = out_dir(&src);
    let report = Dump::new(src.client(), &out).database(src.name()).await.expect("dump");
    let mut names: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    names.sort();
    assert_eq!(names, ["log_app_entry", "misc_note", "shop_item"], "{report}");
    match view {
        Ok(()) => {
            assert_eq!(report.skipped, [(format!("{}.shop_item_view", src.name()), "view".to_owned())], "{report}")
        }
        Err(e) => eprintln!("no view to leave out: the server refused to create one: {e}"),
    }
    let absent = Dump::new(src.client(), out.join("absent")).collection(src.name(), "misc_gone").await.expect("dump");
    assert_eq!(absent.absent, [format!("{}.misc_gone", src.name())], "{absent}");
    assert!(absent.collections.is_empty() && !out.join("absent").join(src.name()).join("misc_gone.bson").exists());
    let nothing = Dump::new(src.client(), &out).await.expect_err("nothing to dump");
    assert!(matches!(backup_error(nothing), BackupError::NothingChosen));
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn a_collection_dropped_during_the_dump_leaves_no_file() {
    let src = odm::testing::database("bk_dropped").await;
    seed(&src, 500).await;
    let out = out_dir(&src);
    let (db_name, uri) = (src.name().to_owned(), odm::testing::server().uri().to_owned());
    let mut dropped = false;
    // Once the log is written, another program drops the items before the dump reads them.
    let result = Dump::new(src.client(), &out)
        .database(src.name())
        .model::<Entry>()
        .model::<Item>()
        .batch_size(100)
        .on_progress(|p| {
            if p.done >= 5 && !dropped {
                dropped = true;
                let (db_name, uri) = (db_name.clone(), uri.clone());
                std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
                    runtime.block_on(async {
                        let client = odm::mongodb::Client::with_uri_str(&uri).await.expect("client");
                        client.database(&db_name).collection::<Document>("shop_item").drop().await.expect("drop");
                    });
                })
                .join()
                .expect("dropped");
            }
        })
        .await;
    assert!(dropped, "the items were dropped during the dump");
    let dir = out.join(src.name());
    match result {
        // The server may refuse to read a collection dropped since the snapshot; odm refuses to keep what it read.
        Err(Error::Backup(b)) => {
            assert!(matches!(&*b, BackupError::Vanished { namespace } if namespace.ends_with(".shop_item")), "{b}")
        }
        Err(other) => eprintln!("the server refused the read: {other}"),
        Ok(report) => panic!("the dump of a dropped collection succeeded: {report}"),
    }
    assert!(dir.join("log_app_entry.bson").is_file(), "the collection before it is complete");
    assert!(!dir.join("shop_item.bson").exists() && !dir.join("shop_item.metadata.json").exists());
    assert!(partial_files(&out).is_empty(), "{:?}", partial_files(&out));
    std::fs::remove_dir_all(&out).expect("cleanup");
}

#[tokio::test]
async fn every_live_instance_of_a_templated_model_is_dumped() {
    let src = odm::testing::database("bk_periods").await;
    let months = ["log_app_event_202611", "log_app_event_202612"];
    for (month, at) in months.iter().zip([11, 12]) {
        let start = DateTime::builder().year(2026).month(at).day(2).build().expect("a date");
        odm::SchemaSync::new(src.client())
            .database(src.name())
            .instance::<Event>(start)
            .expect("key")
            .await
            .and_then(|r| r.require_in_sync())
            .expect("sync");
        let docs: Vec<Document> =
            (0..3).map(|i| doc! { "_id": ObjectId::new(), "k": format!("{month}-{i}") }).collect();
        src.collection::<Document>(month).insert_many(docs).await.expect("insert");
    }
    // Not an instance: the template does not name it.
    src.collection::<Document>("log_app_event_backup").insert_one(doc! { "k": "x" }).await.expect("insert");
    let out = out_dir(&src);
    let report = Dump::new(src.client(), &out).database(src.name()).model::<Event>().await.expect("dump");
    let names: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(names, months, "{report}");
    let copy = odm::testing::database("bk_periods_copy").await;
    Restore::new(copy.client(), &out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Event>()
        .await
        .expect("restore");
    for month in months {
        assert_eq!(raw_documents(&src, month).await, raw_documents(&copy, month).await, "{month}");
        assert_eq!(indexes_by_name(&src, month).await, indexes_by_name(&copy, month).await, "{month}");
    }
    std::fs::remove_dir_all(&out).expect("cleanup");
}

/// The environment variable that gives [`dump_worker`] its spec.
const WORKER_ENV: &str = "ODM_BACKUP_WORKER";

/// Run by [`a_killed_dump_leaves_no_complete_looking_file`] in a process of its own: dumps the items slowly into
/// the directory its spec names, until it is killed.
#[tokio::test]
#[ignore = "run by a_killed_dump_leaves_no_complete_looking_file"]
async fn dump_worker() {
    let spec = support::workers::worker_spec(WORKER_ENV, "a_killed_dump_leaves_no_complete_looking_file").await;
    let out = PathBuf::from(&spec.rest[0]);
    let report = Dump::new(&spec.client, out)
        .database(&spec.db)
        .model::<Entry>()
        .model::<Item>()
        .batch_size(10)
        .on_progress(|p| {
            if p.done > 5 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        })
        .await;
    panic!("the worker was to be killed before the dump finished: {report:?}");
}

#[tokio::test]
async fn a_killed_dump_leaves_no_complete_looking_file() {
    let src = odm::testing::database("bk_killed").await;
    seed(&src, 400).await;
    let out = out_dir(&src);
    let spec =
        format!("{}|{}|{}|{}", odm::testing::server().uri(), src.name(), support::workers::start_in(0), out.display());
    let mut child = support::workers::spawn("dump_worker", WORKER_ENV, spec);
    let dir = out.join(src.name());
    let partial = dir.join(".shop_item.bson.partial");
    let waited = std::time::Instant::now();
    while !(partial.is_file() && std::fs::metadata(&partial).map(|m| m.len()).unwrap_or(0) > 0) {
        assert!(waited.elapsed().as_secs() < 60, "the worker never wrote shop_item");
        assert!(child.try_wait().expect("worker status").is_none(), "the worker ended before it was killed");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // SIGKILL: nothing of the dump runs after it, as after a crash or a power cut.
    child.kill().expect("kill the worker");
    child.wait().expect("reap the worker");
    assert!(dir.join("log_app_entry.bson").is_file() && dir.join("log_app_entry.metadata.json").is_file());
    assert!(!dir.join("shop_item.bson").exists(), "the cut-short file kept its temporary name");
    assert!(partial.is_file(), "the cut-short file is there, hidden, under its temporary name");
    // A restore takes the complete collection and not the cut-short one.
    let copy = odm::testing::database("bk_killed_copy").await;
    let report = Restore::new(copy.client(), &out).database(src.name()).into_db(copy.name()).await.expect("restore");
    let names: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(names, ["log_app_entry"], "{report}");
    // Dumping the rest into the same directory starts the cut-short file again and completes it.
    let rest = Dump::new(src.client(), &out).database(src.name()).model::<Item>().await.expect("dump the rest");
    assert_eq!(rest.collections[0].documents, 400, "{rest}");
    assert!(partial_files(&out).is_empty(), "{:?}", partial_files(&out));
    let file = std::fs::read(dir.join("shop_item.bson")).expect("read");
    let stored: Vec<u8> = raw_documents(&src, "shop_item").await.iter().flat_map(|d| d.as_bytes().to_vec()).collect();
    assert!(file == stored, "the completed file is the stored documents");
    std::fs::remove_dir_all(&out).expect("cleanup");
}
