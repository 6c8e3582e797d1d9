//! The size arithmetic against what `bson` really encodes: each computed worst case is the exact length of a
//! worst-case value's encoding.

use super::text::Message;
use super::{array_bytes, string_bytes, Budget, Reason, Size, Unbounded};
use crate::base::schema::BsonSchema;
use bson::{doc, Bson, Document};

/// The encoded length of `value` as the one element `"v"` of a document, less that document's own bytes and the
/// element's type byte and key: the value's bytes.
fn value_bytes(value: impl Into<Bson>) -> u64 {
    let bytes = bson::serialize_to_vec(&doc! { "v": value.into() }).expect("encodes").len() as u64;
    bytes - 5 - 3
}

#[test]
fn a_string_takes_four_bytes_a_character_at_most() {
    for chars in [0u64, 1, 7, 100] {
        let widest: String = "😀".repeat(chars as usize);
        assert_eq!(value_bytes(widest), string_bytes(chars), "{chars} characters");
    }
    let bounded = String::SIZE.bounded(&[("minLength", 1), ("maxLength", 12)]);
    assert_eq!(bounded, Size::AtMost(value_bytes("😀".repeat(12))));
    // Without a bound a string has none.
    assert!(matches!(String::SIZE.settle(), Budget::Unbounded(Unbounded { reason: Reason::Text, .. })));
    assert_eq!(char::SIZE, Size::AtMost(value_bytes("😀")));
}

#[test]
fn an_array_is_a_document_keyed_by_index() {
    // Across the widths of the keys: "9" to "10", "99" to "100", "999" to "1000".
    for count in [0u64, 1, 9, 10, 11, 99, 100, 101, 1000, 1001] {
        let longs: Vec<i64> = vec![i64::MAX; count as usize];
        assert_eq!(value_bytes(longs), array_bytes(count, 8), "{count} longs");
        let size = <Vec<i64>>::SIZE.bounded(&[("maxItems", count as i64)]);
        assert_eq!(size, Size::AtMost(array_bytes(count, 8)));
    }
    let ids = [bson::oid::ObjectId::new(); 3];
    assert_eq!(<[bson::oid::ObjectId; 3]>::SIZE, Size::AtMost(value_bytes(ids.to_vec())));
    // Elements without a bound leave the array without one, whatever `max_items` says.
    let strings = <Vec<String>>::SIZE.bounded(&[("maxItems", 5)]);
    assert!(matches!(strings, Size::Array { item: Budget::Unbounded(Unbounded { reason: Reason::TextItems, .. }) }));
    assert!(matches!(<Vec<i32>>::SIZE.settle(), Budget::Unbounded(Unbounded { reason: Reason::Items, .. })));
}

#[test]
fn scalars_take_their_encoded_width() {
    let cases: [(Size, Bson); 10] = [
        (i8::SIZE, Bson::Int32(-1)),
        (u16::SIZE, Bson::Int32(65535)),
        (u32::SIZE, Bson::Int64(1)),
        (f32::SIZE, Bson::Double(1.5)),
        (bool::SIZE, Bson::Boolean(true)),
        (bson::oid::ObjectId::SIZE, Bson::ObjectId(bson::oid::ObjectId::new())),
        (bson::DateTime::SIZE, Bson::DateTime(bson::DateTime::now())),
        (bson::Decimal128::SIZE, Bson::Decimal128("1.5".parse().expect("decimal"))),
        (bson::Timestamp::SIZE, Bson::Timestamp(bson::Timestamp { time: 1, increment: 2 })),
        (bson::Uuid::SIZE, Bson::Binary(bson::Binary::from_uuid(bson::Uuid::new()))),
    ];
    for (size, value) in cases {
        let expected = value_bytes(value.clone());
        assert_eq!(size, Size::AtMost(expected), "{value:?}");
    }
    assert_eq!(Option::<i64>::SIZE, i64::SIZE);
    assert_eq!(Box::<bson::oid::ObjectId>::SIZE, Size::AtMost(12));
    for free in [Document::SIZE, <std::collections::HashMap<String, i32>>::SIZE, bson::Binary::SIZE] {
        assert!(matches!(free, Size::Unbounded(_)), "{free:?}");
    }
}

#[test]
fn messages_write_numbers_and_sizes_for_people() {
    let written = |f: fn(&mut Message)| {
        let mut m = Message::new();
        f(&mut m);
        m.as_str().to_owned()
    };
    assert_eq!(written(|m| m.number(0)), "0");
    assert_eq!(written(|m| m.number(999)), "999");
    assert_eq!(written(|m| m.number(16_777_216)), "16,777,216");
    assert_eq!(written(|m| m.number(u64::MAX)), "18,446,744,073,709,551,615");
    assert_eq!(written(|m| m.size(70)), "70 bytes");
    // Tenths round up: "at most" stays true.
    assert_eq!(written(|m| m.size(8397)), "8.3 KiB (8,397 bytes)");
    assert_eq!(written(|m| m.size(1024)), "1.0 KiB (1,024 bytes)");
    assert_eq!(written(|m| m.size(16 * 1024 * 1024)), "16.0 MiB (16,777,216 bytes)");
    // Text that does not fit is left out whole.
    let mut long = Message::new();
    for _ in 0..200 {
        long.push("ünï ");
    }
    assert!(long.as_str().len() <= 1024 && long.as_str().ends_with(' '));
}

#[test]
fn an_unbounded_budget_names_the_field_and_the_way_to_it() {
    let inner = Unbounded { reason: Reason::Text, holder: Some(("Line", "notes")), via: None };
    assert_eq!(
        Budget::Unbounded(inner).to_string(),
        "unbounded: `Line.notes` holds a string without a length bound (`max_len`)"
    );
    let nested = Unbounded { via: Some(("Order", "items")), ..inner };
    assert_eq!(
        nested.to_string(),
        "`Order.items` holds `Line.notes`, which holds a string without a length bound (`max_len`)"
    );
    assert_eq!(Budget::AtMost(70).to_string(), "at most 70 bytes");
    assert!(Budget::AtMost(super::DOCUMENT_LIMIT + 1).exceeds_document_limit());
    assert!(!Budget::AtMost(super::DOCUMENT_LIMIT).exceeds_document_limit());
}

/// A map has no bound whatever its values (its keys and how many are free), and its message says what does have one:
/// its entries held as a bounded array of `Entry` documents (`tests/pass/size_budget_advice.rs` follows it).
#[test]
fn a_map_is_unbounded_and_its_advice_is_an_array_of_entries() {
    use std::collections::{BTreeMap, HashMap};
    for map in [<HashMap<String, String>>::SIZE, <BTreeMap<String, Vec<String>>>::SIZE, <HashMap<String, i32>>::SIZE] {
        assert_eq!(map, Size::unbounded(Reason::Map));
    }
    let labels = Unbounded { reason: Reason::Map, holder: Some(("Product", "labels")), via: None };
    assert_eq!(
        labels.to_string(),
        "`Product.labels` holds a map, whose keys and how many are chosen at run time, which no attribute bounds (for \
         a bounded budget, hold its entries as an array: `#[derive(Embedded, Serialize, Deserialize)] struct Entry { \
         #[odm(max_len = N)] key: String, value: V }`, `V` the map's value type, and `#[odm(max_items = N)] \
         Vec<Entry>`)"
    );
}

mod refusal {
    use crate::base::kind::BsonKind;
    use crate::base::meta::tables::{document, oversize};
    use crate::base::meta::{FieldMeta, FieldType, TypeMeta};
    use crate::base::size::{Budget, Reason};

    static ID: FieldType = FieldType::fixed(BsonKind::ObjectId);
    static TEXT: FieldType = FieldType::fixed(BsonKind::String);
    /// `_id`, a string of up to 5,000,000 characters (20 MB), and a `mixed` field without a bound.
    static PAGE: TypeMeta = TypeMeta::new(
        "Page",
        &[
            FieldMeta::new("id", "_id", &ID),
            FieldMeta::new("body", "b", &TEXT).keywords(&[("maxLength", 5_000_000)]),
            FieldMeta::new("extra", "x", &FieldType::MIXED),
        ],
    )
    .model();
    static NOTE: TypeMeta =
        TypeMeta::new("Note", &[FieldMeta::new("body", "b", &TEXT).keywords(&[("maxLength", 1000)])]).model();

    /// A part without a bound leaves the budget unbounded, but does not hide bounded parts that are over the limit
    /// on their own: the model is refused at its largest field all the same.
    #[test]
    fn bounded_parts_over_the_limit_are_refused_beside_a_part_without_a_bound() {
        let Budget::Unbounded(u) = document(&PAGE) else { panic!("`extra` has no bound") };
        assert_eq!((u.reason, u.holder), (Reason::Free, Some(("Page", "extra"))));
        let refusal = oversize(Some(&PAGE)).expect("over the limit");
        assert_eq!(refusal.at, 1, "at `body`");
        let text = refusal.message();
        // 5 + (1 + 4 + 12) + (1 + 2 + 4 + 4·5,000,000 + 1)
        assert!(text.starts_with("one `Page` document can take more than 19.1 MiB (20,000,030 bytes)"), "{text}");
        assert!(text.contains("field `body` alone takes up to 19.1 MiB (20,000,008 bytes)"), "{text}");
        assert!(text.ends_with("(rule `model-size`)"), "{text}");
        // 5 + (1 + 2 + 4 + 4·1,000 + 1) + the `_id` the driver adds (1 + 4 + 12).
        assert_eq!(document(&NOTE), Budget::AtMost(4030));
        assert!(oversize(Some(&NOTE)).is_none());
    }
}
