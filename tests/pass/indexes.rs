// Every accepted index and capped form: stored keys, default `idx_` names, options, nested paths (keys, weights,
// partial filters), keys under one array (not parallel), type aliases checked by const assertions, `CAPPED`.
use odm::bson::{doc, oid::ObjectId, Document, DateTime};
use odm::{model::Capped, Embedded, index::IndexSpec, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Embedded, Serialize, Deserialize)]
pub struct Point {
    #[serde(rename = "type")]
    #[odm(not_a_date)]
    kind: String,
    #[serde(rename = "c")]
    #[odm(max_items = 2)]
    coordinates: Vec<f64>,
}

/// Compound, unique, nested (two keys under one array), partial, collation, TTL + hidden, hashed, field wildcard,
/// explicit `:1`/`:-1`, sparse, and every partial operator.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", max_indexes = 9)]
#[odm(index(keys = "merchant, status, -created_at, amount"))]
#[odm(index(keys = "number", unique, name = "idx_order_no"))]
#[odm(index(keys = "items.name, items.quantity", partial = "status = 'paid', amount >= 10"))]
#[odm(index(
    keys = "email",
    unique,
    partial = "email exists",
    collation(locale = "en", strength = 2, caseLevel = false, numericOrdering = true)
))]
#[odm(index(keys = "created_at:-1", ttl = 2592000, hidden))]
#[odm(index(keys = "owner:hashed"))]
#[odm(index(keys = "items.$**"))]
#[odm(index(keys = "merchant:1, amount:-1", sparse))]
#[odm(index(keys = "amount", partial = "amount > 1.5, amount <= 1000, status type string, vip = true, amount < 2000"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "no")]
    number: String,
    #[serde(rename = "em", skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
    #[serde(rename = "o")]
    owner: ObjectId,
    #[serde(rename = "v")]
    vip: bool,
}

/// Text (with a nested text key and its weight), 2dsphere on an embedded point, the all-fields wildcard.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_store")]
#[odm(index(keys = "title:text, body:text, line.name:text", weights = "title:10, line.name:3", default_language = "english"))]
#[odm(index(keys = "location:2dsphere"))]
#[odm(index(keys = "$**"))]
struct Store {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
    #[serde(rename = "l")]
    location: Point,
    #[serde(rename = "ln")]
    line: Item,
}

type When = DateTime;

/// A log collection kept small by a TTL index (on a date behind an alias, checked at compile time, written with the
/// long option name); nested defaults beside an explicit name (names compared at compile time).
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(index(keys = "at", expire_after_seconds = 86400))]
#[odm(index(keys = "line.name"))]
#[odm(index(keys = "line.quantity", name = "idx_l_qty"))]
struct OrderEvent {
    #[serde(rename = "at")]
    at: When,
    #[serde(rename = "l")]
    line: Item,
}

/// The dates at which a session's grants end: a TTL index on them expires the session at the earliest one.
#[derive(Embedded, Serialize, Deserialize)]
pub struct Grants {
    #[serde(rename = "e")]
    #[odm(max_items = 8)]
    ends: Vec<DateTime>,
}

type Deadlines = Vec<When>;

/// A newtype over an array of dates: its element kind and its bound pass through (a field of this type needs no
/// `max_items` of its own).
#[derive(Embedded, Serialize, Deserialize)]
pub struct Renewals(#[odm(max_items = 4)] Vec<DateTime>);

/// TTL indexes on arrays of dates: a direct `Vec<DateTime>`, one behind a newtype and one behind an alias (checked
/// by const assertions), and one nested in an embedded document.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_user_session", max_indexes = 4)]
#[odm(index(keys = "expires", ttl = 0))]
#[odm(index(keys = "renewals", ttl = 30))]
#[odm(index(keys = "deadlines", ttl = 60))]
#[odm(index(keys = "grants.ends", ttl = 3600))]
struct UserSession {
    #[serde(rename = "ex")]
    #[odm(max_items = 4)]
    expires: Vec<DateTime>,
    #[serde(rename = "dl")]
    #[odm(max_items = 4)]
    deadlines: Deadlines,
    #[serde(rename = "g")]
    grants: Grants,
    #[serde(rename = "rn")]
    renewals: Renewals,
}

/// A log collection kept small by `capped`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_audit", capped(size = 4096, max = 100))]
struct OrderAudit {
    #[serde(rename = "m")]
    message: String,
}

fn docs<M: Model>() -> Vec<Document> {
    M::indexes().iter().map(IndexSpec::to_document).collect()
}

fn main() {
    assert_eq!(
        docs::<Order>(),
        vec![
            doc! { "key": { "mi": 1, "st": 1, "ca": -1, "am": 1 }, "name": "idx_mi_st_ca_am" },
            doc! { "key": { "no": 1 }, "name": "idx_order_no", "unique": true },
            doc! {
                "key": { "it.n": 1, "it.q": 1 }, "name": "idx_it_n_it_q",
                "partialFilterExpression": { "st": { "$eq": "paid" }, "am": { "$gte": 10_i64 } },
            },
            doc! {
                "key": { "em": 1 }, "name": "idx_em", "unique": true,
                "partialFilterExpression": { "em": { "$exists": true } },
                "collation": { "locale": "en", "strength": 2, "caseLevel": false, "numericOrdering": true },
            },
            doc! { "key": { "ca": -1 }, "name": "idx_ca", "hidden": true, "expireAfterSeconds": 2_592_000_i64 },
            doc! { "key": { "o": "hashed" }, "name": "idx_o" },
            doc! { "key": { "it.$**": 1 }, "name": "idx_it" },
            doc! { "key": { "mi": 1, "am": -1 }, "name": "idx_mi_am", "sparse": true },
            doc! {
                "key": { "am": 1 }, "name": "idx_am",
                "partialFilterExpression": {
                    "am": { "$gt": 1.5, "$lte": 1000_i64, "$lt": 2000_i64 },
                    "st": { "$type": "string" },
                    "v": { "$eq": true },
                },
            },
        ]
    );
    assert_eq!(<Order as Model>::CAPPED, None);

    assert_eq!(
        docs::<Store>(),
        vec![
            doc! {
                "key": { "t": "text", "b": "text", "ln.n": "text" }, "name": "idx_t_b_ln_n",
                "weights": { "t": 10, "ln.n": 3 }, "default_language": "english",
            },
            doc! { "key": { "l": "2dsphere" }, "name": "idx_l" },
            doc! { "key": { "$**": 1 }, "name": "idx_all" },
        ]
    );

    assert_eq!(
        docs::<OrderEvent>(),
        vec![
            doc! { "key": { "at": 1 }, "name": "idx_at", "expireAfterSeconds": 86_400_i64 },
            doc! { "key": { "l.n": 1 }, "name": "idx_l_n" },
            doc! { "key": { "l.q": 1 }, "name": "idx_l_qty" },
        ]
    );
    assert_eq!(<OrderEvent as Model>::CAPPED, None);

    assert_eq!(
        docs::<UserSession>(),
        vec![
            doc! { "key": { "ex": 1 }, "name": "idx_ex", "expireAfterSeconds": 0_i64 },
            doc! { "key": { "rn": 1 }, "name": "idx_rn", "expireAfterSeconds": 30_i64 },
            doc! { "key": { "dl": 1 }, "name": "idx_dl", "expireAfterSeconds": 60_i64 },
            doc! { "key": { "g.e": 1 }, "name": "idx_g_e", "expireAfterSeconds": 3600_i64 },
        ]
    );

    assert!(docs::<OrderAudit>().is_empty());
    assert_eq!(<OrderAudit as Model>::CAPPED, Some(Capped { size: 4096, max: Some(100) }));
}
