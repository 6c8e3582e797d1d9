//! One model per family of field types, with proptest strategies that produce values of every shape serde can
//! write for it. Shared by the property tests (valid values are accepted) and the hostile-document tests
//! (documents written around the ODM are rejected).

use odm::bson::{oid::ObjectId, Binary, DateTime, Decimal128, Timestamp};
use odm::{Embedded, Model};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

fn oid() -> impl Strategy<Value = ObjectId> {
    any::<[u8; 12]>().prop_map(ObjectId::from_bytes)
}

/// Every integer width, each stored as the exact BSON type serialization writes.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_ints", closed)]
pub struct Ints {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub a: i8,
    pub b: i16,
    pub c: i32,
    pub d: i64,
    pub e: u8,
    pub f: u16,
    pub g: u32,
}

pub fn ints() -> impl Strategy<Value = Ints> {
    (oid(), any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>(), any::<u8>(), any::<u16>(), any::<u32>())
        .prop_map(|(id, a, b, c, d, e, f, g)| Ints { id, a, b, c, d, e, f, g })
}

/// Floats, including NaN, infinities, subnormals and negative zero.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "prop_floats", closed)]
pub struct Floats {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub s: f32,
    pub d: f64,
}

pub fn floats() -> impl Strategy<Value = Floats> {
    (oid(), any::<f32>(), any::<f64>()).prop_map(|(id, s, d)| Floats { id, s, d })
}

/// Booleans, strings (any Unicode) and chars.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_text", closed)]
pub struct Text {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub flag: bool,
    #[serde(rename = "s")]
    pub text: String,
    #[serde(rename = "l")]
    #[odm(max_len = 12, min_len = 1)]
    pub label: String,
    pub ch: char,
    /// Case-normalized text: lowercased on construction, validated by `pattern`.
    #[serde(rename = "lc")]
    pub folded: odm::Lowercase,
}

pub fn text() -> impl Strategy<Value = Text> {
    (oid(), any::<bool>(), any::<String>(), "\\PC{1,12}", any::<char>(), any::<String>())
        .prop_map(|(id, flag, text, label, ch, folded)| Text { id, flag, text, label, ch, folded: folded.into() })
}

/// ObjectIds beside the `_id`.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_oids", closed)]
pub struct Oids {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "o")]
    pub owner: ObjectId,
    #[serde(rename = "r")]
    #[odm(max_items = 5)]
    pub refs: Vec<ObjectId>,
}

pub fn oids() -> impl Strategy<Value = Oids> {
    (oid(), oid(), prop::collection::vec(oid(), 0..=5)).prop_map(|(id, owner, refs)| Oids { id, owner, refs })
}

/// BSON dates over the whole `i64` millisecond range.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_dates", closed)]
pub struct Dates {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "at")]
    pub at: DateTime,
    #[serde(rename = "ts")]
    pub ts: Timestamp,
}

/// Dates in years 1–9999: the Python test server (SecantusDB) cannot decode BSON dates outside that range, though
/// MongoDB can. The validator (`bsonType: "date"`) does not depend on the value.
fn date_millis() -> impl Strategy<Value = i64> {
    -62_135_596_800_000_i64..=253_402_300_799_999
}

pub fn dates() -> impl Strategy<Value = Dates> {
    (oid(), date_millis(), any::<u32>(), any::<u32>()).prop_map(|(id, ms, time, increment)| Dates {
        id,
        at: DateTime::from_millis(ms),
        ts: Timestamp { time, increment },
    })
}

/// `chrono` date-times stored as BSON dates through the bson helper, with `#[serde(with)]` and `serde_as`.
#[serde_with::serde_as]
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_chrono", closed)]
pub struct Chrono {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "at", with = "odm::bson::serde_helpers::datetime::FromChrono04DateTime")]
    pub at: chrono::DateTime<chrono::Utc>,
    #[serde_as(as = "Option<odm::bson::serde_helpers::datetime::FromChrono04DateTime>")]
    #[serde(rename = "up", skip_serializing_if = "Option::is_none", default)]
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

fn chrono_dt() -> impl Strategy<Value = chrono::DateTime<chrono::Utc>> {
    // Millisecond precision (what a BSON date keeps), in the test server's range.
    date_millis().prop_map(|ms| chrono::DateTime::from_timestamp_millis(ms).expect("in chrono's range"))
}

pub fn chrono_values() -> impl Strategy<Value = Chrono> {
    (oid(), chrono_dt(), prop::option::of(chrono_dt())).prop_map(|(id, at, updated_at)| Chrono { id, at, updated_at })
}

/// Decimal128 values from arbitrary finite decimal strings and special values.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_decimals", closed)]
pub struct Decimals {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "v")]
    pub value: Decimal128,
}

pub fn decimals() -> impl Strategy<Value = Decimals> {
    let finite = (any::<i64>(), 0u32..34, -6143i32..6144).prop_map(|(digits, scale, exp)| {
        let s = format!("{digits}E{}", exp.saturating_sub(scale as i32));
        s.parse::<Decimal128>().unwrap_or_else(|_| "0".parse().expect("zero"))
    });
    let special = prop::sample::select(vec![
        "NaN",
        "Infinity",
        "-Infinity",
        "-0",
        "0E-6176",
        "9.999999999999999999999999999999999E+6144",
    ])
    .prop_map(|s| s.parse::<Decimal128>().expect("special decimal"));
    (oid(), prop_oneof![8 => finite, 1 => special]).prop_map(|(id, value)| Decimals { id, value })
}

/// Binary data of several subtypes, and UUIDs.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_binary", closed)]
pub struct Bin {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "b")]
    pub blob: Binary,
    #[serde(rename = "u")]
    pub uuid: odm::bson::Uuid,
}

pub fn binaries() -> impl Strategy<Value = Bin> {
    use odm::bson::spec::BinarySubtype;
    let subtype = prop_oneof![
        Just(BinarySubtype::Generic),
        Just(BinarySubtype::Function),
        (0x80u8..=0xff).prop_map(BinarySubtype::UserDefined)
    ];
    (oid(), subtype, prop::collection::vec(any::<u8>(), 0..64), any::<[u8; 16]>()).prop_map(
        |(id, subtype, bytes, u)| Bin { id, blob: Binary { subtype, bytes }, uuid: odm::bson::Uuid::from_bytes(u) },
    )
}

/// One line item, closed, short keys.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
pub struct Line {
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "q")]
    pub quantity: i32,
    #[serde(rename = "p")]
    pub price: f64,
}

fn line() -> impl Strategy<Value = Line> {
    ("[a-z]{1,8}", any::<i32>(), any::<f64>()).prop_map(|(name, quantity, price)| Line { name, quantity, price })
}

/// Arrays: bounded, unbounded, fixed-size, nested, counted, and sets (counted or not).
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "prop_arrays", closed)]
pub struct Arrays {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_items = 20)]
    pub numbers: Vec<i32>,
    #[serde(rename = "w")]
    #[odm(unbounded)]
    pub words: Vec<String>,
    #[serde(rename = "t")]
    pub triple: [i64; 3],
    #[serde(rename = "g")]
    #[odm(max_items = 4)]
    pub grid: Vec<Vec<f64>>,
    #[serde(rename = "l")]
    #[odm(max_items = 30, counter = "line_count")]
    pub lines: Vec<Line>,
    #[serde(rename = "lc")]
    pub line_count: i32,
    #[serde(rename = "s")]
    #[odm(max_items = 6, unique_items)]
    pub labels: BTreeSet<String>,
    #[serde(rename = "m")]
    #[odm(max_items = 8, counter = "member_count", unique_items)]
    pub members: BTreeSet<i64>,
    #[serde(rename = "mc")]
    pub member_count: i64,
}

pub fn arrays() -> impl Strategy<Value = Arrays> {
    (
        oid(),
        prop::collection::vec(any::<i32>(), 0..=20),
        prop::collection::vec(any::<String>(), 0..40),
        any::<[i64; 3]>(),
        prop::collection::vec(prop::collection::vec(any::<f64>(), 0..5), 0..=4),
        prop::collection::vec(line(), 0..=30),
        prop::collection::btree_set("[a-z]{0,4}", 0..=6),
        prop::collection::btree_set(any::<i64>(), 0..=8),
    )
        .prop_map(|(id, numbers, words, triple, grid, lines, labels, members)| Arrays {
            id,
            numbers,
            words,
            triple,
            grid,
            line_count: lines.len() as i32,
            lines,
            labels,
            member_count: members.len() as i64,
            members,
        })
}

/// Optional fields: absent when `None`, or `null` when declared nullable.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_options", closed)]
pub struct Options {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "i", skip_serializing_if = "Option::is_none")]
    pub int: Option<i32>,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(rename = "nn")]
    #[odm(nullable)]
    pub nullable: Option<i64>,
    #[serde(rename = "ln", skip_serializing_if = "Option::is_none")]
    pub line: Option<Line>,
    #[serde(rename = "v", skip_serializing_if = "Option::is_none")]
    #[odm(max_items = 3)]
    pub values: Option<Vec<bool>>,
}

pub fn options() -> impl Strategy<Value = Options> {
    (
        oid(),
        prop::option::of(any::<i32>()),
        prop::option::of(any::<String>()),
        prop::option::of(any::<i64>()),
        prop::option::of(line()),
        prop::option::of(prop::collection::vec(any::<bool>(), 0..=3)),
    )
        .prop_map(|(id, int, text, nullable, line, values)| Options { id, int, text, nullable, line, values })
}

/// A newtype stored as its inner string.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Email(pub String);

/// A voter list with its counter, two levels down.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
pub struct Review {
    #[serde(rename = "t")]
    pub text: String,
    #[serde(rename = "v")]
    #[odm(max_items = 10, counter = "helpful_votes")]
    pub voter_ids: Vec<ObjectId>,
    #[serde(rename = "hv")]
    pub helpful_votes: i64,
}

/// An address inside a customer.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
pub struct Address {
    #[serde(rename = "c")]
    pub city: String,
    #[serde(rename = "z", skip_serializing_if = "Option::is_none")]
    pub zip: Option<String>,
}

/// Nested embedded documents, three levels deep, with counters inside arrays.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_nested", closed)]
pub struct Nested {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "e")]
    pub email: Email,
    #[serde(rename = "a")]
    pub address: Address,
    #[serde(rename = "r")]
    #[odm(max_items = 5)]
    pub reviews: Vec<Review>,
}

fn review() -> impl Strategy<Value = Review> {
    ("\\PC{0,20}", prop::collection::vec(oid(), 0..=10)).prop_map(|(text, voter_ids)| Review {
        text,
        helpful_votes: voter_ids.len() as i64,
        voter_ids,
    })
}

pub fn nested() -> impl Strategy<Value = Nested> {
    (
        oid(),
        "[a-z]{1,8}@[a-z]{1,8}\\.com",
        "\\PC{1,10}",
        prop::option::of("[0-9]{5}"),
        prop::collection::vec(review(), 0..=5),
    )
        .prop_map(|(id, email, city, zip, reviews)| Nested {
            id,
            email: Email(email),
            address: Address { city, zip },
            reviews,
        })
}

/// A unit enum, stored as a string.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    #[serde(rename = "x")]
    Done,
}

/// The data of a payment by card.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Card {
    #[serde(rename = "l4")]
    pub last4: String,
}

/// An internally tagged enum: unit, newtype and struct variants.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "k", rename_all = "lowercase")]
pub enum Payment {
    Cash,
    Card(Card),
    Transfer {
        #[serde(rename = "ib")]
        iban: String,
        #[serde(rename = "am")]
        amount: i64,
    },
}

/// An adjacently tagged enum.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c", rename_all_fields = "camelCase")]
pub enum Event {
    Ping,
    Note(String),
    Moved { from_x: i32, to_x: i32 },
}

/// A struct that stores its name under a tag (`ty: "receipt"`), closed so no other key gets in.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "ty", rename = "receipt")]
#[odm(closed)]
pub struct Receipt {
    #[serde(rename = "n")]
    pub number: i32,
}

/// Enums of every supported tagging.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_enums", closed)]
pub struct Enums {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "s")]
    pub status: Status,
    #[serde(rename = "p")]
    pub payment: Payment,
    #[serde(rename = "e")]
    pub event: Event,
    #[serde(rename = "h")]
    #[odm(max_items = 4)]
    pub history: Vec<Status>,
    #[serde(rename = "r")]
    pub receipt: Receipt,
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![Just(Status::Pending), Just(Status::InProgress), Just(Status::Done)]
}

pub fn enums() -> impl Strategy<Value = Enums> {
    let payment = prop_oneof![
        Just(Payment::Cash),
        "[0-9]{4}".prop_map(|last4| Payment::Card(Card { last4 })),
        ("[A-Z]{2}[0-9]{10}", any::<i64>()).prop_map(|(iban, amount)| Payment::Transfer { iban, amount }),
    ];
    let event = prop_oneof![
        Just(Event::Ping),
        any::<String>().prop_map(Event::Note),
        (any::<i32>(), any::<i32>()).prop_map(|(from_x, to_x)| Event::Moved { from_x, to_x }),
    ];
    let receipt = any::<i32>().prop_map(|number| Receipt { number });
    (oid(), status(), payment, event, prop::collection::vec(status(), 0..=4), receipt).prop_map(
        |(id, status, payment, event, history, receipt)| Enums { id, status, payment, event, history, receipt },
    )
}

/// Maps with dynamic keys: scalars and embedded documents as values.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_maps", closed)]
pub struct Maps {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "c")]
    pub counts: HashMap<String, i64>,
    #[serde(rename = "l")]
    pub lines: BTreeMap<String, Line>,
}

/// Every key odm stores: empty, or any text not starting with `$` and without `.` or NUL.
fn map_key() -> impl Strategy<Value = String> {
    "([^$.\\x00][^.\\x00]{0,10})?"
}

pub fn maps() -> impl Strategy<Value = Maps> {
    (
        oid(),
        prop::collection::hash_map(map_key(), any::<i64>(), 0..8),
        prop::collection::btree_map(map_key(), line(), 0..4),
    )
        .prop_map(|(id, counts, lines)| Maps { id, counts, lines })
}

/// A comment: the struct a newtype variant of [`Activity`] wraps.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Comment {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "tx")]
    #[odm(max_len = 40)]
    pub text: String,
}

/// A polymorphic model: struct, counted and newtype variants in one closed collection.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "prop_activity", closed)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Activity {
    Login {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: DateTime,
        #[serde(rename = "ok")]
        ok: bool,
    },
    Basket {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "it")]
        #[odm(max_items = 5, counter = "item_count")]
        items: Vec<i64>,
        #[serde(rename = "ic")]
        item_count: i32,
        #[serde(rename = "cp", skip_serializing_if = "Option::is_none")]
        coupon: Option<String>,
    },
    #[serde(rename = "cm")]
    Comment(Comment),
}

pub fn activities() -> impl Strategy<Value = Activity> {
    prop_oneof![
        (oid(), date_millis(), any::<bool>()).prop_map(|(id, ms, ok)| Activity::Login {
            id,
            at: DateTime::from_millis(ms),
            ok
        }),
        (oid(), prop::collection::vec(any::<i64>(), 0..=5), proptest::option::of(any::<String>()))
            .prop_map(|(id, items, coupon)| Activity::Basket { id, item_count: items.len() as i32, items, coupon }),
        (oid(), "\\PC{0,40}").prop_map(|(id, text)| Activity::Comment(Comment { id, text })),
    ]
}
