//! The survey against documents built here: paths, types and presence, arrays, maps, counters, strings.

use super::*;
use bson::rawdoc;

fn shape_of(docs: &[bson::RawDocumentBuf]) -> Shape {
    let mut s = Survey::new();
    docs.iter().for_each(|d| s.add(d));
    s.shape()
}

#[test]
fn paths_types_presence_and_sample_ids() {
    let shape = shape_of(&[
        rawdoc! { "_id": 1, "name": "Ada", "address": { "city": "London" } },
        rawdoc! { "_id": 2, "name": 7, "address": { "city": "Paris", "zip": "75001" } },
        rawdoc! { "_id": 3, "name": "Grace" },
    ]);
    assert_eq!(shape.documents, 3);
    let paths: Vec<_> = shape.paths.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["_id", "name", "address", "address.city", "address.zip"]);
    let name = shape.path("name").unwrap();
    assert_eq!(name.types.len(), 2);
    assert_eq!((name.types[0].kind, name.types[0].count), (ElementType::String, 2));
    assert_eq!(name.types[0].ids, [Bson::Int32(1), Bson::Int32(3)]);
    assert_eq!(name.types[1].ids, [Bson::Int32(2)]);
    let zip = shape.path("address.zip").unwrap();
    assert_eq!((zip.present, zip.of), (1, 2));
    assert!(zip.numbers_as_strings.is_some());
    assert_eq!(shape.path("address").unwrap().of, 3);
}

#[test]
fn arrays_and_their_elements() {
    let shape = shape_of(&[
        rawdoc! { "_id": 1, "items": [ { "sku": "a" }, { "sku": "b", "qty": 2 } ] },
        rawdoc! { "_id": 2, "items": [] },
        rawdoc! { "_id": 3, "items": [ { "sku": "c" } ] },
    ]);
    let items = shape.path("items").unwrap();
    let lengths = items.arrays.as_ref().unwrap();
    assert_eq!((lengths.count, lengths.min, lengths.max), (3, 0, 2));
    let elements = shape.path("items[]").unwrap();
    assert_eq!((elements.present, elements.of), (3, 3));
    let qty = shape.path("items[].qty").unwrap();
    assert_eq!((qty.present, qty.of), (1, 3));
}

#[test]
fn keys_that_are_data_fold_into_entries() {
    let shape = shape_of(&[
        rawdoc! { "_id": 1, "daily": { "2024-05-01": 3, "2024-05-02": 4, "2024-05-03": 1 } },
        rawdoc! { "_id": 2, "daily": { "2024-06-01": "x" } },
    ]);
    let daily = shape.path("daily").unwrap();
    let map = daily.map.as_ref().expect("dates as keys are data");
    assert_eq!((map.distinct, map.more), (4, false));
    let entries = shape.path("daily{}").unwrap();
    assert_eq!(entries.present, 4);
    assert_eq!(
        entries.types.iter().map(|t| (t.kind, t.count)).collect::<Vec<_>>(),
        [(ElementType::Int32, 3), (ElementType::String, 1)]
    );
    assert!(shape.path("daily.2024-05-01").is_none());
}

#[test]
fn many_distinct_keys_are_a_map_and_memory_stays_bounded() {
    let mut s = Survey::new();
    for i in 0..5_000 {
        let mut seen = bson::RawDocumentBuf::new();
        seen.append(bson::raw::CString::try_from(format!("user_{i}")).unwrap(), rawdoc! { "at": i, "n": 1 });
        s.add(&rawdoc! { "_id": i, "seen": seen });
    }
    let shape = s.shape();
    let seen = shape.path("seen").unwrap();
    let map = seen.map.as_ref().unwrap();
    assert_eq!((map.distinct, map.more), (KEYS_COUNTED as u64, true));
    assert_eq!(shape.path("seen{}").unwrap().present, 5_000);
    assert_eq!(shape.path("seen{}.at").unwrap().present, 5_000);
    assert_eq!(shape.paths.len(), 5, "{:?}", shape.paths.iter().map(|p| &p.path).collect::<Vec<_>>());
}

#[test]
fn counters_named_for_their_arrays_are_compared_with_them() {
    let shape = shape_of(&[
        rawdoc! { "_id": 1, "tags": ["a", "b"], "tags_count": 2, "other": 5 },
        rawdoc! { "_id": 2, "tags": ["a"], "tags_count": 3_i64 },
        rawdoc! { "_id": 3, "lines": [ { "sku": "x", "parts": [1, 2, 3], "nParts": 3 } ] },
    ]);
    let pairs: Vec<_> = shape
        .counters
        .iter()
        .map(|p| (p.array.as_str(), p.counter.as_str(), p.agree, p.disagree.as_ref().map(|d| d.ids.clone())))
        .collect();
    assert_eq!(
        pairs,
        [("lines[].parts", "lines[].nParts", 1, None), ("tags", "tags_count", 1, Some(vec![Bson::Int32(2)]))]
    );
    assert_eq!(shape.sizes.as_ref().unwrap().count, 3);
    assert_eq!(shape.near_limit, None);
    assert_eq!(shape.path("lines[].parts").unwrap().key, "parts");
    assert_eq!(shape.path("lines[]").unwrap().key, "[]");
}

#[test]
fn strings_that_are_dates_or_numbers() {
    let shape = shape_of(&[
        rawdoc! { "_id": 1, "at": "2024-05-01T10:00:00Z", "code": "02138", "n": "12" },
        rawdoc! { "_id": 2, "at": "soon", "code": "10001", "n": "12.5" },
    ]);
    assert_eq!(shape.path("at").unwrap().dates_as_strings.as_ref().unwrap().ids, [Bson::Int32(1)]);
    assert_eq!(shape.path("code").unwrap().numbers_as_strings.as_ref().unwrap().count, 1);
    assert_eq!(shape.path("n").unwrap().numbers_as_strings.as_ref().unwrap().count, 2);
    assert_eq!(shape.path("at").unwrap().strings.as_ref().unwrap().max, 20);
}
