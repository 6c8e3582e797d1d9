//! Introspecting a database odm did not write: MongoDB's public sample data loaded by mongosh, and a collection made
//! messy on purpose (mixed types, dates and numbers as text, keys that are data, optional keys), each finding checked
//! against what the test itself counts in the data; sampling a large collection, the names asked for that do not
//! exist, and the progress callback.

use crate::pulled_check::documents_of;
use crate::support::shell::mongosh;
use odm::bson::spec::ElementType;
use odm::bson::{Bson, Document};
use odm::introspect::{Introspect, Read};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(crate) fn sample_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/sample_mflix").join(format!("{name}.json"))
}

/// Loads a file of canonical Extended JSON, one document per line, into `db.coll` with mongosh.
pub(crate) fn load_with_mongosh(db: &str, coll: &str, file: &Path) {
    let script = format!(
        "const lines = require('fs').readFileSync({file:?}, 'utf8').split('\\n').filter(l => l.trim());
         const r = db.getSiblingDB({db:?}).getCollection({coll:?}).insertMany(lines.map(l => EJSON.parse(l)));
         print('inserted', Object.keys(r.insertedIds).length);",
        file = file.display().to_string(),
    );
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "mongosh: {out}");
}

/// Every dotted path of `docs` (`[]` for array elements) with how many values it held of each BSON type (by its type
/// byte), counted independently of the survey.
fn count_paths(docs: &[Document]) -> BTreeMap<String, BTreeMap<u8, u64>> {
    fn walk(prefix: &str, value: &Bson, out: &mut BTreeMap<String, BTreeMap<u8, u64>>) {
        *out.entry(prefix.to_owned()).or_default().entry(value.element_type() as u8).or_default() += 1;
        match value {
            Bson::Document(d) => d.iter().for_each(|(k, v)| walk(&format!("{prefix}.{k}"), v, out)),
            Bson::Array(items) => items.iter().for_each(|v| walk(&format!("{prefix}[]"), v, out)),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for d in docs {
        for (k, v) in d {
            walk(k, v, &mut out);
        }
    }
    out
}

#[tokio::test]
async fn the_public_sample_data_is_surveyed_path_by_path_as_mongosh_stored_it() {
    let db = odm::testing::database("in_mflix").await;
    for name in ["theaters", "users"] {
        load_with_mongosh(db.name(), name, &sample_file(name));
    }
    let found = Introspect::new(&db).await.expect("introspect");
    assert_eq!(found.database, db.name());
    assert!(found.missing.is_empty());
    let names: Vec<&str> = found.collections.iter().map(|c| c.live.name.as_str()).collect();
    assert_eq!(names, ["theaters", "users"]);
    for (surveyed, name) in found.collections.iter().zip(["theaters", "users"]) {
        let docs = documents_of(&sample_file(name));
        assert_eq!(surveyed.read, Read::Every, "{name} is small enough to read whole");
        assert_eq!(surveyed.shape.documents, docs.len() as u64);
        let expected = count_paths(&docs);
        let seen: BTreeMap<String, BTreeMap<u8, u64>> = surveyed
            .shape
            .paths
            .iter()
            .map(|p| (p.path.clone(), p.types.iter().map(|t| (t.kind as u8, t.count)).collect()))
            .collect();
        assert_eq!(seen, expected, "{name}: every path with its types and counts");
        assert!(surveyed.shape.paths.iter().all(|p| p.map.is_none()), "{name}: no object here has keys that are data");
    }
    let theaters = &found.collections[0].shape;
    let coordinates = theaters.path("location.geo.coordinates").unwrap();
    let lengths = coordinates.arrays.as_ref().unwrap();
    assert_eq!((lengths.min, lengths.max, lengths.p95), (2, 2, 2));
    // Zip codes are text that reads as a number; the ones with a leading zero would lose it as numbers.
    let zips = theaters.path("location.address.zipcode").unwrap();
    let numeric = documents_of(&sample_file("theaters"))
        .iter()
        .filter_map(|d| {
            d.get_document("location").ok()?.get_document("address").ok()?.get_str("zipcode").ok().map(str::to_owned)
        })
        .filter(|z| !z.starts_with('0') && z.parse::<u64>().is_ok())
        .count() as u64;
    assert_eq!(zips.numbers_as_strings.as_ref().map_or(0, |s| s.count), numeric);
    assert_eq!(found.collections[0].live.indexes.len(), 1, "only `_id_`: mongosh created none");
}

#[tokio::test]
async fn each_finding_of_a_messy_collection_names_its_documents() {
    let db = odm::testing::database("in_messy").await;
    let (code, out) = mongosh(&format!(
        "const c = db.getSiblingDB({:?}).people;
         c.insertMany([
           {{ _id: 'ada', age: 36, born: '1815-12-10', score: '12', visits: {{ '2024-05-01': 3, '2024-05-02': 1, '2024-05-03': 7 }}, nick: 'A' }},
           {{ _id: 'alan', age: '41', born: ISODate('1912-06-23'), score: '012', visits: {{ '2024-06-01': 2 }} }},
           {{ _id: 'grace', age: NumberLong(85), born: '1906-12-09T00:00:00Z', score: 'high', visits: {{}} }}
         ]);",
        db.name()
    ));
    assert_eq!(code, 0, "mongosh: {out}");
    let found = Introspect::new(&db).collections(["people"]).await.unwrap();
    let shape = &found.collections[0].shape;
    let age = shape.path("age").unwrap();
    let kinds: Vec<(ElementType, u64, Vec<Bson>)> =
        age.types.iter().map(|t| (t.kind, t.count, t.ids.clone())).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds.contains(&(ElementType::String, 1, vec![Bson::from("alan")])));
    assert!(kinds.contains(&(ElementType::Int64, 1, vec![Bson::from("grace")])));
    assert_eq!(age.numbers_as_strings.as_ref().unwrap().ids, [Bson::from("alan")]);
    let born = shape.path("born").unwrap();
    let dates = born.dates_as_strings.as_ref().unwrap();
    assert_eq!((dates.count, dates.ids.clone()), (2, vec![Bson::from("ada"), Bson::from("grace")]));
    let score = shape.path("score").unwrap();
    assert_eq!(score.numbers_as_strings.as_ref().unwrap().ids, [Bson::from("ada")], "'012' keeps its zero as text");
    let visits = shape.path("visits").unwrap();
    let map = visits.map.as_ref().expect("dates as keys are data");
    assert_eq!(map.distinct, 4);
    let entries = shape.path("visits{}").unwrap();
    assert_eq!((entries.present, entries.of, entries.main_type()), (4, 3, Some(ElementType::Int32)));
    let nick = shape.path("nick").unwrap();
    assert_eq!((nick.present, nick.of), (1, 3));
}

#[tokio::test]
async fn a_large_collection_is_sampled_and_the_report_says_so() {
    let db = odm::testing::database("in_sample").await;
    let docs: Vec<Document> = (0..300).map(|i| odm::bson::doc! { "_id": i, "n": i }).collect();
    db.collection::<Document>("big").insert_many(docs).await.unwrap();
    db.collection::<Document>("small").insert_one(odm::bson::doc! { "_id": 1 }).await.unwrap();
    let mut reports = Vec::new();
    let found = Introspect::new(&db)
        .collections(["big", "small", "nowhere"])
        .read_all_up_to(100)
        .sample(50)
        .on_progress(|p| reports.push((p.done, p.total)))
        .await
        .unwrap();
    assert_eq!(found.missing, ["nowhere"]);
    let big = &found.collections[0];
    assert_eq!((big.live.name.as_str(), big.read, big.estimated), ("big", Read::Sample(50), Some(300)));
    assert_eq!(big.shape.documents, 50);
    assert_eq!(big.shape.path("n").unwrap().present, 50);
    assert_eq!((found.collections[1].read, found.collections[1].shape.documents), (Read::Every, 1));
    assert_eq!(reports.last(), Some(&(51, 51)), "{reports:?}");
}
