//! The files read by other programs' BSON and Extended JSON readers: the Node `bson` package mongosh brings, and
//! pymongo's `bson` (`decode_file_iter`, over a gzip dump) where the test server's Python has it.

use super::*;

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
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().await.expect("dump");
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
}

/// The Python beside the test server's program when it is a virtual environment holding pymongo's `bson` (the
/// SecantusDB the harness installs is one).
fn python_bson() -> Option<PathBuf> {
    let python = odm::testing::server().program()?.parent()?.join("python");
    let check = std::process::Command::new(&python).args(["-c", "import bson.json_util"]).output().ok()?;
    check.status.success().then_some(python)
}

#[tokio::test]
async fn pymongo_reads_the_files_too() {
    let Some(python) = python_bson() else {
        eprintln!("skipped: no Python with pymongo's `bson` beside the test server");
        return;
    };
    let src = odm::testing::database("bk_pymongo").await;
    seed(&src, 30).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().gzip().await.expect("dump");
    let file = out.join(src.name()).join("shop_item.bson.gz");
    let script = r#"
import gzip, sys
from bson import decode_file_iter
from bson.json_util import dumps, CANONICAL_JSON_OPTIONS
with gzip.open(sys.argv[1], "rb") as f:
    for doc in decode_file_iter(f):
        print(dumps(doc, json_options=CANONICAL_JSON_OPTIONS))
"#;
    let run = std::process::Command::new(python).arg("-c").arg(script).arg(&file).output().expect("python runs");
    assert!(run.status.success(), "python: {}", support::shell::output_text(&run));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(run.stdout).expect("utf-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let stored = raw_documents(&src, "shop_item").await;
    assert_eq!(lines.len(), stored.len(), "every document");
    for (line, doc) in lines.iter().zip(&stored) {
        let doc = Document::try_from(doc.as_ref()).expect("a document");
        assert_eq!(line, &Bson::Document(doc).into_canonical_extjson(), "pymongo sees the stored document");
    }
}
