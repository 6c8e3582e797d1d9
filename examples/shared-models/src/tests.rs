//! The shared models build their validators, index specs, typed filters, sorts and updates as documents, and encode
//! and decode themselves, with odm's driver-free core: nothing here opens a connection, and the crate does not link
//! the driver. (A unit test module rather than an integration test: the derive gives a variant's field paths the
//! visibility of a field without `pub`, so only this crate can name them.)

use crate::{Balance, Contact, Event, Line, Order};
use odm::bson::{doc, oid::ObjectId, Bson, DateTime, Document, RawDocumentBuf};
use odm::error::Invalid;
use odm::{model::Acknowledgment, model::ReadConcernLevel, model::ReadPreferenceMode, Error, Filter, Model, Update};

fn at() -> DateTime {
    DateTime::from_millis(1_700_000_000_000)
}

fn line() -> Line {
    Line { sku: "A-1".into(), price: 250, quantity: 2 }
}

#[test]
fn the_order_validator_bounds_and_counts_its_lines() {
    let validator = Order::validator();
    let schema = validator.get_document("$jsonSchema").unwrap();
    let required: Vec<&str> = schema.get_array("required").unwrap().iter().filter_map(Bson::as_str).collect();
    assert_eq!(required, ["_id", "cu", "ref", "at", "ln", "lc"]);
    assert_eq!(schema.get("additionalProperties"), Some(&Bson::Boolean(false)));
    let lines = schema.get_document("properties").unwrap().get_document("ln").unwrap();
    assert_eq!(lines.get("maxItems"), Some(&Bson::Int64(50)));
    let item = lines.get_document("items").unwrap();
    assert_eq!(item.get("additionalProperties"), Some(&Bson::Boolean(false)), "closed reaches the embedded lines");
    assert_eq!(item.get_document("properties").unwrap().get_document("q").unwrap().get_str("bsonType").unwrap(), "int");
    // The counter is checked by the server: size(ln) == lc.
    let expr = validator.get_document("$expr").unwrap().to_string();
    assert!(expr.contains("\"$size\": \"$ln\"") && expr.contains("\"$lc\""), "{expr}");
}

#[test]
fn index_specs_are_the_declared_ones_with_stored_keys() {
    let orders: Vec<Document> = Order::indexes().iter().map(|i| i.to_document()).collect();
    assert_eq!(
        orders,
        [
            doc! { "key": { "cu": 1, "at": -1 }, "name": "idx_cu_at" },
            doc! { "key": { "ref": 1 }, "name": "idx_ref", "unique": true },
        ]
    );
    let events: Vec<Document> = Event::indexes().iter().map(|i| i.to_document()).collect();
    assert_eq!(
        events,
        [
            doc! { "key": { "at": 1 }, "name": "idx_at" },
            doc! { "key": { "amt": -1 }, "name": "idx_amt", "partialFilterExpression": { "t": { "$eq": "purchase" } } },
        ]
    );
}

#[test]
fn typed_filters_and_sorts_use_stored_keys() {
    let f = Order::fields();
    assert_eq!(f.customer().eq("c1").and(f.at().gte(at())).to_document(), doc! { "cu": "c1", "at": { "$gte": at() } });
    assert_eq!(
        f.lines().any(|l| l.quantity().gt(2)).to_document(),
        doc! { "ln": { "$elemMatch": { "q": { "$gt": 2 } } } }
    );
    assert_eq!(f.at().desc().into_document().unwrap(), doc! { "at": -1 });
    assert_eq!(Filter::<Order>::everything().to_document(), doc! {});
    // A filter on one variant's field holds the discriminator, so it never matches another variant.
    let e = Event::fields();
    assert_eq!(e.purchase().amount().gt(2000).to_document(), doc! { "t": "purchase", "amt": { "$gt": 2000_i64 } });
}

#[test]
fn updates_keep_counters_in_step_and_are_checked_before_sending() {
    let f = Order::fields();
    let built = Update::new().push(f.lines(), line()).set(f.customer(), "c2".to_owned()).build().unwrap();
    assert_eq!(
        built.update,
        doc! { "$set": { "cu": "c2" }, "$inc": { "lc": 1 }, "$push": { "ln": { "sk": "A-1", "p": 250_i64, "q": 2 } } }
    );
    assert_eq!(built.variant(), None);

    let e = Event::fields();
    let built = Update::new().push(e.purchase().skus(), "gift".to_owned()).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "sc": 1 }, "$push": { "sk": "gift" } });
    assert_eq!(built.variant(), Some(&doc! { "t": "purchase" }), "only purchases are written");

    // Two operators on one path: MongoDB would refuse it (code 40); the core refuses it first, naming the field.
    let refused = Update::new().set(f.lines(), vec![line()]).push(f.lines(), line()).build();
    match refused {
        Err(Error::InvalidOperation { cause: Invalid::PathConflict { first, second, .. }, .. }) => {
            assert_eq!((first.stored(), second.stored()), ("ln", "ln"), "both writes name the lines");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_versioned_model_validates_and_reads_older_documents() {
    let tight = Contact::validator();
    let schema = tight.get_document("$jsonSchema").unwrap();
    assert_eq!(schema.get_str("title").unwrap(), "version 2");
    let version = schema.get_document("properties").unwrap().get_document("_v").unwrap();
    assert_eq!(version.get_array("enum").unwrap(), &vec![Bson::Int32(2)]);

    // While version-1 documents remain, the validator accepts both shapes.
    let rollout = odm::version::accepting_older::<Contact>().unwrap();
    let shapes = rollout.get_document("$jsonSchema").unwrap().get_array("oneOf").unwrap();
    assert_eq!(shapes.len(), 2);
    assert!(shapes[1].as_document().unwrap().get_document("properties").unwrap().contains_key("n"));

    // A version-1 document decodes as the current type through its upgrade step.
    let id = ObjectId::new();
    let raw = RawDocumentBuf::try_from(&doc! { "_id": id, "n": "Ada Lovelace" }).unwrap();
    let read = odm::codec::decode::<Contact>(&raw).unwrap();
    assert_eq!(read, Contact { id, v: odm::Version, first: "Ada".into(), last: "Lovelace".into() });
}

#[test]
fn models_encode_with_stored_keys_and_refuse_what_they_cannot_read() {
    let id = ObjectId::new();
    let order = Order { id, customer: "c".into(), reference: "r".into(), at: at(), lines: vec![line()], line_count: 1 };
    let encoded = Document::try_from(odm::codec::encode(&order).unwrap().as_ref()).unwrap();
    let expected = doc! {
        "_id": id, "cu": "c", "ref": "r", "at": at(), "ln": [{ "sk": "A-1", "p": 250_i64, "q": 2 }], "lc": 1,
    };
    assert_eq!(encoded, expected);

    let wrong = RawDocumentBuf::try_from(&doc! { "_id": id, "cu": 5 }).unwrap();
    match odm::codec::decode::<Order>(&wrong) {
        Err(Error::Decode(e)) => assert!(e.to_string().contains("customer"), "{e}"),
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[test]
fn model_settings_are_constants_of_the_model() {
    assert_eq!(Balance::SHARD_KEY.map(|k| k.to_document()), Some(doc! { "rg": 1, "cu": 1 }));
    assert_eq!(Balance::READ_CONCERN, Some(ReadConcernLevel::Majority));
    assert_eq!(Balance::READ_PREFERENCE, Some(ReadPreferenceMode::Nearest));
    let write = Balance::WRITE_CONCERN.unwrap();
    assert_eq!(
        (write.w, write.journal, write.timeout_ms),
        (Some(Acknowledgment::Tag("majority")), Some(true), Some(5000))
    );
    assert_eq!(Balance::REVISION, Some("rv"));
    let indexes: Vec<Document> = Balance::indexes().iter().map(|i| i.to_document()).collect();
    assert_eq!(indexes, [doc! { "key": { "rg": 1, "cu": 1, "up": -1 }, "name": "idx_rg_cu_up" }]);
    // A map of run-time keys: any key MongoDB stores, each value a long, nothing else.
    let schema = Balance::validator();
    let limits = schema.get_document("$jsonSchema").unwrap().get_document("properties").unwrap().get_document("lim");
    let limits = limits.unwrap();
    assert_eq!(limits.get("additionalProperties"), Some(&Bson::Boolean(false)));
    let values: Vec<&Bson> = limits.get_document("patternProperties").unwrap().values().collect();
    assert_eq!(values, [&Bson::Document(doc! { "bsonType": "long" })]);
}
