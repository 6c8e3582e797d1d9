//! What a pulled model must do with the documents it was pulled from: shared by `tests/it/pull.rs` (which counts
//! what to expect and writes a trybuild case) and the case's `main` (which runs the pulled models).

use odm::bson::{doc, Bson, Document, RawDocumentBuf};
use std::collections::BTreeMap;
use std::path::Path;

/// The documents of a file of canonical Extended JSON, one per line, keys in file order.
pub fn documents_of(file: &Path) -> Vec<Document> {
    std::fs::read_to_string(file)
        .expect("sample data")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let json: serde_json::Value = serde_json::from_str(l).expect("one JSON document per line");
            match Bson::try_from(json).expect("canonical Extended JSON") {
                Bson::Document(d) => d,
                other => panic!("not a document: {other:?}"),
            }
        })
        .collect()
}

/// Reads every document of `file` with `M` and writes it back: every one must decode, and all but `differ` must
/// come back with the same bytes; those must differ only by a key holding `null` on one side and absent on the other.
/// Saves the model's validator to `validator` (canonical Extended JSON), for the test to try on the server.
pub fn check<M>(file: &str, differ: usize, validator: &str)
where
    M: odm::Model + serde::Serialize + serde::de::DeserializeOwned,
{
    let json = Bson::Document(M::validator()).into_canonical_extjson().to_string();
    std::fs::write(validator, json).expect("writes the validator");
    let mut changed = 0;
    for doc in documents_of(Path::new(file)) {
        let raw = RawDocumentBuf::try_from(&doc).expect("encodes");
        let value: M = odm::codec::decode(&raw).unwrap_or_else(|e| panic!("{file}: {e}: {doc}"));
        let back = odm::codec::encode(&value).unwrap_or_else(|e| panic!("{file}: {e}: {doc}"));
        if back.as_bytes() != raw.as_bytes() {
            changed += 1;
            let back = Document::try_from(back.as_ref()).expect("decodes");
            assert_eq!(without_nulls(&back), without_nulls(&doc), "{file}: more than a null changed");
        }
    }
    assert_eq!(changed, differ, "{file}: documents written back with other bytes");
}

fn without_nulls(doc: &Document) -> Document {
    doc.iter()
        .filter(|(_, v)| !matches!(v, Bson::Null))
        .map(|(k, v)| {
            let v = match v {
                Bson::Document(d) => Bson::Document(without_nulls(d)),
                other => other.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// Documents holding the less common state at a path that is absent from some documents and `null` in others,
/// counted by walking the documents (independently of the survey).
pub fn documents_in_a_minority_state(docs: &[Document]) -> usize {
    // Per path: documents whose parent object holds it absent, null, or a value.
    fn walk(prefix: &str, doc: &Document, keys: &mut Vec<(String, bool)>) {
        for (k, v) in doc {
            let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            keys.push((path.clone(), matches!(v, Bson::Null)));
            if let Bson::Document(d) = v {
                walk(&path, d, keys);
            }
        }
    }
    let mut per_doc: Vec<Vec<(String, bool)>> = Vec::new();
    let mut seen: BTreeMap<String, [u64; 2]> = BTreeMap::new();
    for doc in docs {
        let mut keys = Vec::new();
        walk("", doc, &mut keys);
        for (path, null) in &keys {
            seen.entry(path.clone()).or_default()[usize::from(*null)] += 1;
        }
        per_doc.push(keys);
    }
    // Absent = documents whose parent is there but the key is not; parents here are always documents.
    let parents = |path: &str| -> u64 {
        match path.rsplit_once('.') {
            None => docs.len() as u64,
            Some((parent, _)) => seen.get(parent).map_or(0, |c| c[0]),
        }
    };
    let mut minority: BTreeMap<String, bool> = BTreeMap::new();
    for (path, [values, nulls]) in &seen {
        let absent = parents(path) - values - nulls;
        if absent > 0 && *nulls > 0 {
            // `true`: the nulls are the minority (the model leaves the key out).
            minority.insert(path.clone(), absent >= *nulls);
        }
    }
    per_doc
        .iter()
        .filter(|keys| {
            minority.iter().any(|(path, nulls_minor)| {
                let here = keys.iter().find(|(p, _)| p == path);
                matches!((here, nulls_minor), (Some((_, true)), true) | (None, false))
            })
        })
        .count()
}

/// rustfmt, with its default settings (as in a project without a `rustfmt.toml`), leaves the pulled source as it is
/// (when rustfmt is installed). The file is checked from a copy outside this repository, whose own `rustfmt.toml`
/// would apply otherwise.
pub fn assert_rustfmt_keeps(path: &Path) {
    let dir =
        std::env::temp_dir().join(format!("odm-rustfmt-{}-{}", std::process::id(), path.display().to_string().len()));
    std::fs::create_dir_all(&dir).expect("a directory outside the repository");
    let copy = dir.join(path.file_name().expect("a file name"));
    std::fs::copy(path, &copy).expect("copies the file");
    let run = std::process::Command::new("rustfmt").args(["--edition", "2021", "--check"]).arg(&copy).output();
    let _ = std::fs::remove_dir_all(&dir);
    match run {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!("rustfmt would change {}:\n{}", path.display(), String::from_utf8_lossy(&out.stdout)),
        Err(e) => eprintln!("rustfmt not run ({e}): the format is not checked"),
    }
}

/// A collection as years of other programs leave one, as canonical Extended JSON lines: a CamelCase name, `_id`s
/// chosen by hand, a number stored as int, long and string, dates as text, a long key, a second `id`, a counter in
/// step with its array and one out of step, a map keyed by dates (out of order), a key absent from some documents and `null` in one,
/// arrays only ever empty, arrays of mixed elements, optional keys inside array elements, a key so long its
/// attribute does not fit on a line.
pub fn messy_lines() -> String {
    let docs = [
        doc! {
            "_id": "u-1", "userName": "ann", "age": 41, "joinedAt": "2024-05-01T10:00:00Z",
            "preferredLanguageCode": "en", "tags": ["a", "b"], "tags_count": 2,
            "daily": { "2024-05-03": { "hits": 1 }, "2024-05-01": { "hits": 3 }, "2024-05-02": { "hits": 5 } },
            "id": 7, "score": 1.5, "note": Bson::Null, "type": "basic", "items": [{ "sku": "x", "qty": 1 }],
            "empty": [], "lastSeenOnTheLegacyCheckoutServiceBeforeTheMigrationOfTwentyNineteen": "web",
            "likes": ["a"], "likes_count": 1, "lastLogin": "2024-06-01T09:00:00Z",
        },
        doc! {
            "_id": "u-2", "userName": "bob", "age": "41", "joinedAt": "2024-05-02T10:00:00Z",
            "preferredLanguageCode": "fr", "tags": [], "tags_count": 0,
            "daily": { "2024-06-01": { "hits": 2 }, "2024-06-02": { "hits": 2 }, "2024-06-03": { "hits": 9 } },
            "id": 8, "score": 2.5, "note": "hi", "type": "pro",
            "items": [{ "sku": "y", "qty": 2, "gift": true }, { "sku": "z", "qty": 1 }], "empty": [],
            "misc": [1, "two"], "aliases": ["b"], "likes": ["b", "c"], "likes_count": 5, "lastLogin": Bson::Null,
        },
        doc! {
            "_id": "u-3", "userName": "cy", "age": 29_i64, "joinedAt": "2024-05-03T08:00:00Z",
            "preferredLanguageCode": "de", "tags": ["c"], "tags_count": 1,
            "daily": { "2024-07-02": { "hits": 4 }, "2024-07-01": { "hits": 1 }, "2024-07-05": { "hits": 0 } },
            "id": 9, "score": 0.5, "type": "basic", "items": [], "empty": [], "misc": [true],
            "lastSeenOnTheLegacyCheckoutServiceBeforeTheMigrationOfTwentyNineteen": "app",
            "likes": [], "likes_count": 0,
        },
        doc! {
            "_id": "u-4", "userName": "dee", "age": 52, "joinedAt": "2024-05-04T08:00:00Z",
            "preferredLanguageCode": "en", "tags": ["a", "c", "d"], "tags_count": 3,
            "daily": { "2024-08-01": { "hits": 7 }, "2024-08-02": { "hits": 1 }, "2024-08-03": { "hits": 2 } },
            "id": 10, "score": 4.0, "type": "pro", "items": [{ "sku": "x", "qty": 5 }], "empty": [],
            "aliases": ["d", "dd"], "likes": ["x"], "likes_count": 1, "lastLogin": "2024-06-02",
        },
    ];
    docs.iter().map(|d| Bson::Document(d.clone()).into_canonical_extjson().to_string() + "\n").collect()
}
