// The typed update and filter forms that are allowed: plain fields, whole counted arrays, pushes and guarded
// `add_to_set`/`pop` on counted arrays, `$setOnInsert` on `_id` and shard keys, filters on every field, nested
// positional paths, `Lowercase` fields, map entries and `keep_last` arrays.
use odm::bson::{doc, oid::ObjectId, DateTime};
use odm::{Embedded, Lowercase, Model, Update};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct Line {
    #[serde(rename = "p")]
    price: i64,
    #[serde(rename = "q")]
    qty: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "region", index(keys = "region, status"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "tt")]
    total: i64,
    #[serde(rename = "em")]
    email: Lowercase,
    #[serde(rename = "it")]
    #[odm(max_items = 100, counter = "item_count")]
    items: Vec<Line>,
    #[serde(rename = "ic")]
    item_count: i32,
    #[serde(rename = "vi")]
    #[odm(max_items = 1000, counter = "vote_count")]
    voter_ids: Vec<ObjectId>,
    #[serde(rename = "vc")]
    vote_count: i64,
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
    #[serde(rename = "ev")]
    #[odm(max_items = 5, keep_last)]
    events: Vec<i64>,
    #[serde(rename = "nt")]
    notes: BTreeMap<String, Line>,
    #[serde(rename = "ua")]
    updated_at: DateTime,
    #[serde(rename = "cp", skip_serializing_if = "Option::is_none")]
    coupon: Option<String>,
}

/// Sharded on `_id` alone: the implicit `_id` index serves it.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_event", shard_key = "id")]
struct Event {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
}

fn line(price: i64, qty: i32) -> Line {
    Line { price, qty }
}

fn main() {
    let f = Order::fields();
    let id = ObjectId::new();

    // Plain fields: `$set` (a `Lowercase` value is normalized), `$inc`, `$mul`, `$min`, `$max`, `$unset`,
    // `$currentDate`; `$setOnInsert` writes `_id` and the shard key once, when an upsert inserts.
    let u = Update::<Order>::new()
        .set(f.status(), "paid")
        .set(f.email(), "Ann@Example.COM")
        .inc(f.total(), 5)
        .unset(f.coupon())
        .current_date(f.updated_at())
        .set_on_insert(f.id(), id)
        .set_on_insert(f.region(), "eu")
        .build()
        .unwrap();
    assert_eq!(
        u.update,
        doc! {
            "$set": { "st": "paid", "em": "ann@example.com" },
            "$unset": { "cp": "" },
            "$inc": { "tt": 5_i64 },
            "$currentDate": { "ua": true },
            "$setOnInsert": { "_id": id, "rg": "eu" },
        }
    );
    assert!(u.guard().is_none());
    let epoch = DateTime::from_millis(0);
    let u = Update::<Order>::new().mul(f.total(), 2).max(f.updated_at(), epoch).min(f.status(), "a").build().unwrap();
    assert_eq!(u.update, doc! { "$mul": { "tt": 2_i64 }, "$min": { "st": "a" }, "$max": { "ua": epoch } });

    // A whole counted array is set together with its counter.
    let u = Update::<Order>::new().set(f.items(), vec![line(10, 1), line(20, 2)]).build().unwrap();
    assert_eq!(u.update, doc! { "$set": { "it": [{ "p": 10_i64, "q": 1 }, { "p": 20_i64, "q": 2 }], "ic": 2 } });

    // Pushes count their elements in the same update.
    let u = Update::<Order>::new().push(f.items(), line(10, 1)).push(f.items(), line(20, 2)).build().unwrap();
    assert_eq!(
        u.update,
        doc! { "$push": { "it": { "$each": [{ "p": 10_i64, "q": 1 }, { "p": 20_i64, "q": 2 }] } }, "$inc": { "ic": 2 } }
    );
    assert!(u.guard().is_none());

    // `add_to_set` on a counted array: a guarded `$push`, so the counter moves only when the element is new (a
    // `long` counter is incremented by a `long`).
    let voter = ObjectId::new();
    let u = Update::<Order>::new().add_to_set(f.voter_ids(), voter).build().unwrap();
    assert_eq!(u.update, doc! { "$push": { "vi": voter }, "$inc": { "vc": 1_i64 } });
    assert_eq!(u.guard(), Some(&doc! { "vi": { "$ne": voter } }));

    // `pop` on a counted array: only a non-empty array loses an element.
    let u = Update::<Order>::new().pop_first(f.items()).build().unwrap();
    assert_eq!(u.update, doc! { "$pop": { "it": -1 }, "$inc": { "ic": -1 } });
    assert_eq!(u.guard(), Some(&doc! { "it.0": { "$exists": true } }));

    // `push_with` on a counted array takes `$position` and `$sort`, not `$slice`.
    let u = Update::<Order>::new().push_with(f.items(), [line(5, 1)], |m| m.position(0)).build().unwrap();
    assert_eq!(
        u.update,
        doc! { "$push": { "it": { "$each": [{ "p": 5_i64, "q": 1 }], "$position": 0 } }, "$inc": { "ic": 1 } }
    );

    // Arrays without a counter take every array operator; a `keep_last` array cuts to its bound on push.
    let u = Update::<Order>::new()
        .push_with(f.tags(), ["new"], |m| m.position(0).slice(10))
        .push(f.events(), 7)
        .build()
        .unwrap();
    assert_eq!(
        u.update,
        doc! {
            "$push": {
                "tg": { "$each": ["new"], "$position": 0, "$slice": 10 },
                "ev": { "$each": [7_i64], "$slice": -5 },
            }
        }
    );
    let u = Update::<Order>::new().pull(f.tags(), "old").add_each_to_set(f.events(), [1, 2]).build().unwrap();
    assert_eq!(u.update, doc! { "$addToSet": { "ev": { "$each": [1_i64, 2_i64] } }, "$pull": { "tg": "old" } });

    // Elements of a counted array are plain paths: every element, one by index, the ones an array filter selects.
    let u = Update::<Order>::new().inc(f.items().each().qty(), 1).build().unwrap();
    assert_eq!(u.update, doc! { "$inc": { "it.$[].q": 1 } });
    let u = Update::<Order>::new().set(f.items().at(2).price(), 15).build().unwrap();
    assert_eq!(u.update, doc! { "$set": { "it.2.p": 15_i64 } });
    let u = Update::<Order>::new().set(f.items().filtered("cheap", |l| l.price().lt(100)).qty(), 0).build().unwrap();
    assert_eq!(u.update, doc! { "$set": { "it.$[cheap].q": 0 } });
    assert_eq!(u.array_filters(), vec![doc! { "cheap.p": { "$lt": 100_i64 } }]);

    // Map entries, and fields of the embedded values they hold.
    let u = Update::<Order>::new().set(f.notes().entry("gift").qty(), 1).build().unwrap();
    assert_eq!(u.update, doc! { "$set": { "nt.gift.q": 1 } });

    // Filters name any field: `_id`, the counter, the shard key, a `Lowercase` field (normalized too).
    let filter = f
        .id()
        .eq(id)
        .and(f.item_count().gte(1))
        .and(f.region().eq("eu"))
        .and(f.email().eq("ANN@example.com"))
        .and(f.items().any(|l| l.price().gt(5)));
    assert_eq!(
        filter.into_document().unwrap(),
        doc! {
            "_id": id,
            "ic": { "$gte": 1 },
            "rg": "eu",
            "em": "ann@example.com",
            "it": { "$elemMatch": { "p": { "$gt": 5_i64 } } },
        }
    );

    let e = Event::fields();
    let u = Update::<Event>::new().set(e.kind(), "paid").set_on_insert(e.id(), id).build().unwrap();
    assert_eq!(u.update, doc! { "$set": { "k": "paid" }, "$setOnInsert": { "_id": id } });
    assert_eq!(e.id().eq(id).into_document().unwrap(), doc! { "_id": id });

    // The declared shard keys, in stored keys, as `sh.shardCollection` takes them.
    assert_eq!(Order::SHARD_KEY.map(|k| k.to_document()), Some(doc! { "rg": 1 }));
    assert_eq!(Event::SHARD_KEY.map(|k| k.to_document()), Some(doc! { "_id": 1 }));
}
