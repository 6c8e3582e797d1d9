//! Collection names in file names as mongodump writes them (Go's `url.PathEscape`): the collections made by mongosh,
//! their files named as mongodump names them, and read back by a restore, with or without their metadata files.

use super::*;

/// Odd collection names and the file names mongodump gives them.
const NAMES: [(&str, &str); 6] = [
    ("log,2026;q1", "log%2C2026%3Bq1"),
    ("a b?c", "a%20b%3Fc"),
    ("rate%", "rate%25"),
    ("naïve#1", "na%C3%AFve%231"),
    ("q&a=+@:~x", "q&a=+@:~x"),
    ("it's(1)*!", "it%27s%281%29%2A%21"),
];

#[tokio::test]
async fn file_names_are_escaped_as_mongodump_escapes_them_and_read_back() {
    let src = odm::testing::database("bk_names").await;
    let inserts: String =
        NAMES.iter().map(|(name, _)| format!("d.getCollection({name:?}).insertOne({{ n: {name:?} }});\n")).collect();
    let (code, out) = support::shell::mongosh(&format!("const d = db.getSiblingDB({:?});\n{inserts}", src.name()));
    assert_eq!(code, 0, "mongosh: {out}");
    let out = out_dir(&src);
    let mut dump = Dump::new(src.client(), &*out);
    for (name, _) in NAMES {
        dump = dump.collection(src.name(), name);
    }
    let report = dump.await.expect("dump");
    assert_eq!(report.collections.len(), NAMES.len(), "{report}");
    let dir = out.join(src.name());
    for (name, file) in NAMES {
        assert!(dir.join(format!("{file}.bson")).is_file(), "{name}: {file}.bson");
        assert!(dir.join(format!("{file}.metadata.json")).is_file(), "{name}: {file}.metadata.json");
    }

    // Read back with the metadata (which names the collection) and, as a bare mongodump copy, without it.
    for with_metadata in [true, false] {
        if !with_metadata {
            for (_, file) in NAMES {
                std::fs::remove_file(dir.join(format!("{file}.metadata.json"))).expect("remove");
            }
        }
        let copy = odm::testing::database("bk_names_copy").await;
        Restore::new(copy.client(), &*out).into_db(copy.name()).await.expect("restore");
        let mut restored = copy.list_collection_names().await.expect("names");
        restored.sort();
        let mut expected: Vec<String> = NAMES.iter().map(|(n, _)| (*n).to_owned()).collect();
        expected.sort();
        assert_eq!(restored, expected, "with metadata: {with_metadata}");
        for (name, _) in NAMES {
            let stored = copy.collection::<Document>(name).find_one(doc! {}).await.expect("find").expect("one");
            assert_eq!(stored.get_str("n").ok(), Some(name));
        }
    }
}
