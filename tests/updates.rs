//! Typed filters, reads and updates against a real server.
//!
//! Every test seeds its own database, runs typed filters, sorts, projections and updates, and reads the documents
//! back, typed and raw, to check what the server stored: the exact BSON types, the stored (short) keys, and that
//! refused operations left the documents as they were.

mod support;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use odm::error::{Clause, Invalid, NamedPath};
use odm::update::Operator;
use odm::{collection::FindAndModify, Collection, Embedded, Error, Filter, Lowercase, Model, Projection, Update};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Line {
    #[serde(rename = "s")]
    sku: String,
    #[serde(rename = "p")]
    price: i64,
    #[serde(rename = "q")]
    qty: i32,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Address {
    #[serde(rename = "c")]
    city: String,
    #[serde(rename = "z")]
    zip: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_product", closed)]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "c")]
    category: String,
    #[serde(rename = "st")]
    stock: i32,
    #[serde(rename = "sd")]
    sold: i64,
    #[serde(rename = "pr")]
    price: f64,
    #[serde(rename = "ad")]
    address: Address,
    #[serde(rename = "tg")]
    #[odm(max_items = 5)]
    tags: Vec<String>,
    #[serde(rename = "sc")]
    #[odm(max_items = 8)]
    scores: Vec<i32>,
    #[serde(rename = "ln")]
    #[odm(max_items = 10)]
    lines: Vec<Line>,
    #[serde(rename = "at")]
    attrs: HashMap<String, i32>,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(rename = "ds", skip_serializing_if = "Option::is_none")]
    discount: Option<i32>,
    #[serde(rename = "up")]
    updated: DateTime,
}

/// A smaller view of a product: the same stored keys, only the projected fields.
#[derive(Deserialize, Debug, PartialEq)]
struct NameStock {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "st")]
    stock: i32,
}

/// A nested projection: only the city of the address.
#[derive(Deserialize, Debug, PartialEq)]
struct CityOnly {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "ad")]
    address: City,
}

#[derive(Deserialize, Debug, PartialEq)]
struct City {
    #[serde(rename = "c")]
    city: String,
}

/// A model for upserts: every required field can come from the filter, `$inc`, `$set` or `$setOnInsert`.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "stat_tally", closed)]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    key: String,
    #[serde(rename = "h")]
    hits: i32,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
}

/// Case-normalized e-mail addresses.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "user_account", closed)]
struct Account {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    email: Lowercase,
}

fn line(sku: &str, price: i64, qty: i32) -> Line {
    Line { sku: sku.into(), price, qty }
}

fn address(city: &str, zip: &str) -> Address {
    Address { city: city.into(), zip: zip.into() }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn attrs(entries: &[(&str, i32)]) -> HashMap<String, i32> {
    entries.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

fn apple() -> Product {
    Product {
        id: ObjectId::new(),
        name: "apple".into(),
        category: "fruit".into(),
        stock: 10,
        sold: 100,
        price: 1.5,
        address: address("Paris", "75001"),
        tags: strings(&["red", "sweet"]),
        scores: vec![1, 5, 9],
        lines: vec![line("a", 50, 1), line("b", 150, 2)],
        attrs: attrs(&[("w", 3)]),
        note: Some("fresh".into()),
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

fn banana() -> Product {
    Product {
        id: ObjectId::new(),
        name: "banana".into(),
        category: "fruit".into(),
        stock: 0,
        sold: 250,
        price: 0.5,
        address: address("Lyon", "69001"),
        tags: strings(&["yellow", "sweet"]),
        scores: vec![2, 3],
        lines: vec![line("c", 20, 5)],
        attrs: attrs(&[("w", 7), ("h", 1)]),
        note: None,
        discount: Some(10),
        updated: DateTime::from_millis(0),
    }
}

fn carrot() -> Product {
    Product {
        id: ObjectId::new(),
        name: "carrot".into(),
        category: "veg".into(),
        stock: 25,
        sold: 40,
        price: 0.8,
        address: address("Paris", "75002"),
        tags: Vec::new(),
        scores: Vec::new(),
        lines: Vec::new(),
        attrs: HashMap::new(),
        note: Some("bio".into()),
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

/// A product whose user-supplied strings look like operators: they must stay data.
fn hostile() -> Product {
    Product {
        id: ObjectId::new(),
        name: "$gt".into(),
        category: "odd".into(),
        stock: 5,
        sold: 0,
        price: 9.0,
        address: address("Nice", "06000"),
        tags: strings(&["{\"$ne\": null}"]),
        scores: vec![7],
        lines: vec![line("d", 500, 1), line("e", 5, 9)],
        attrs: attrs(&[("w", 3)]),
        note: None,
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

/// A fresh database with the product collection (validator included) holding `products`.
async fn products(hint: &str, seed: &[Product]) -> (odm::testing::TestDatabase, Collection<Product>) {
    support::setup::seeded(hint, seed).await
}

/// The four seeded products.
async fn seeded(hint: &str) -> (odm::testing::TestDatabase, Collection<Product>) {
    products(hint, &[apple(), banana(), carrot(), hostile()]).await
}

/// The names of the products matching `filter`, sorted by name.
async fn names(coll: &Collection<Product>, filter: Filter<Product>) -> Vec<String> {
    let found = coll.find(filter).sort(Product::fields().name().asc()).await.expect("find");
    found.into_iter().map(|p| p.name).collect()
}

async fn raw_product(db: &odm::mongodb::Database, id: ObjectId) -> Document {
    support::raw::stored(db, "shop_product", id).await
}

async fn get(coll: &Collection<Product>, id: ObjectId) -> Product {
    coll.find_one(Product::fields().id().eq(id)).await.expect("find").expect("present")
}

/// Asserts `result` is an `InvalidOperation` whose cause mentions `needle`.
#[track_caller]
fn assert_refused<T: std::fmt::Debug>(result: odm::error::Result<T>, needle: &str) {
    match result {
        Err(Error::InvalidOperation { cause, .. }) => {
            let reason = cause.to_string();
            assert!(reason.contains(needle), "reason {reason:?} should mention {needle:?}")
        }
        other => panic!("expected InvalidOperation mentioning {needle:?}, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Filters

#[tokio::test]
async fn comparison_operators_select_exactly_the_expected_documents() {
    let (_db, coll) = seeded("filter_cmp").await;
    let f = Product::fields();

    assert_eq!(names(&coll, Filter::everything()).await, ["$gt", "apple", "banana", "carrot"]);
    assert_eq!(names(&coll, f.name().eq("apple")).await, ["apple"]);
    assert_eq!(names(&coll, f.category().ne("fruit")).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().is_in(["veg", "odd"])).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().not_in(["fruit"])).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().is_in(Vec::<String>::new())).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.stock().gt(5)).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.stock().gte(5)).await, ["$gt", "apple", "carrot"]);
    assert_eq!(names(&coll, f.stock().lt(5)).await, ["banana"]);
    assert_eq!(names(&coll, f.stock().lte(5)).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.stock().between(5, 10)).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.price().between(0.5, 1.5)).await, ["apple", "banana", "carrot"]);
    assert_eq!(names(&coll, f.sold().gt(50_i64)).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.id().eq(ObjectId::new())).await, Vec::<String>::new());
    // An optional field compares with the inner type.
    assert_eq!(names(&coll, f.discount().eq(10)).await, ["banana"]);
    assert_eq!(names(&coll, f.note().is_in(["fresh".to_owned(), "bio".to_owned()])).await, ["apple", "carrot"]);

    // The filter documents carry stored keys.
    assert_eq!(f.stock().between(5, 10).into_document().unwrap(), doc! { "st": { "$gte": 5, "$lte": 10 } });
    assert_eq!(f.category().not_in(["fruit"]).into_document().unwrap(), doc! { "c": { "$nin": ["fruit"] } });
}

#[tokio::test]
async fn nested_paths_and_embedded_documents() {
    let (_db, coll) = seeded("filter_nested").await;
    let f = Product::fields();

    assert_eq!(f.address().city().key(), "ad.c");
    assert_eq!(names(&coll, f.address().city().eq("Paris")).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.address().zip().gte("70000")).await, ["apple", "carrot"]);
    // A whole embedded document: `$eq`, matching the exact stored document.
    assert_eq!(
        f.address().eq(address("Paris", "75001")).into_document().unwrap(),
        doc! { "ad": { "$eq": { "c": "Paris", "z": "75001" } } }
    );
    assert_eq!(names(&coll, f.address().eq(address("Paris", "75001"))).await, ["apple"]);
    assert_eq!(names(&coll, f.address().eq(address("Paris", "00000"))).await, Vec::<String>::new());
    // By index inside an array.
    assert_eq!(f.lines().at(1).price().key(), "ln.1.p");
    assert_eq!(names(&coll, f.lines().at(1).price().gt(100)).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().at(0).eq(7)).await, ["$gt"]);
}

#[tokio::test]
async fn and_or_nor_combinations() {
    let (_db, coll) = seeded("filter_logic").await;
    let f = Product::fields();

    // Disjoint fields: one document.
    let both = f.category().eq("fruit").and(f.stock().gt(0));
    assert_eq!(both.clone().into_document().unwrap(), doc! { "c": "fruit", "st": { "$gt": 0 } });
    assert_eq!(names(&coll, both).await, ["apple"]);
    // The same field twice with different operators: one condition (a half-open range bounds one index scan).
    let range = f.stock().gt(0).and(f.stock().lt(20));
    assert_eq!(range.document(), &doc! { "st": { "$gt": 0, "$lt": 20 } });
    // The same operator twice: `$and`, both conditions hold.
    let twice = f.stock().gt(0).and(f.stock().gt(5));
    assert!(twice.document().contains_key("$and"), "{twice:?}");
    assert_eq!(names(&coll, range).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.name().eq("apple").or(f.stock().eq(25))).await, ["apple", "carrot"]);
    assert_eq!(
        names(&coll, Filter::any_of([f.name().eq("banana"), f.category().eq("odd"), f.stock().gt(100)])).await,
        ["$gt", "banana"]
    );
    assert_eq!(
        names(&coll, Filter::all_of([f.category().eq("fruit"), f.sold().gte(100_i64), f.price().lt(1.0)])).await,
        ["banana"]
    );
    assert_eq!(names(&coll, Filter::none_of([f.category().eq("fruit"), f.stock().gt(20)])).await, ["$gt"]);
    // Empty combinations: no alternatives match nothing, no exclusions and no conjuncts match everything.
    assert_eq!(names(&coll, Filter::any_of([])).await, Vec::<String>::new());
    assert_eq!(coll.count(Filter::none_of([])).await.unwrap(), 4);
    assert_eq!(coll.count(Filter::all_of([])).await.unwrap(), 4);
    // Nested combinations.
    let nested = Filter::any_of([
        f.category().eq("veg"),
        Filter::all_of([f.category().eq("fruit"), Filter::none_of([f.address().city().eq("Paris")])]),
    ]);
    assert_eq!(names(&coll, nested).await, ["banana", "carrot"]);
    // `or` of two `and`s on one field each.
    let either = f.stock().gt(20).and(f.stock().lt(30)).or(f.stock().gt(-1).and(f.stock().lt(1)));
    assert_eq!(names(&coll, either).await, ["banana", "carrot"]);
}

#[tokio::test]
async fn array_conditions() {
    let (_db, coll) = seeded("filter_array").await;
    let f = Product::fields();

    assert_eq!(names(&coll, f.tags().contains("sweet")).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.tags().contains_all(["red", "sweet"])).await, ["apple"]);
    assert_eq!(names(&coll, f.tags().contains_all(["sweet", "yellow"])).await, ["banana"]);
    assert_eq!(names(&coll, f.tags().len_is(0)).await, ["carrot"]);
    assert_eq!(names(&coll, f.tags().len_is(2)).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.scores().len_is(3)).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().contains(7)).await, ["$gt"]);
    // A whole element document.
    assert_eq!(names(&coll, f.lines().contains(line("c", 20, 5))).await, ["banana"]);
    assert_eq!(names(&coll, f.lines().contains(line("c", 20, 6))).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.lines().contains_all([line("a", 50, 1), line("b", 150, 2)])).await, ["apple"]);

    // `$elemMatch` on sub-documents: both conditions on the same element. The hostile product has one line over
    // 100 and another with more than 5, but no single line with both.
    let both = f.lines().any(|e| e.price().gt(100).and(e.qty().gt(5)));
    assert_eq!(
        both.clone().into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "p": { "$gt": 100_i64 }, "q": { "$gt": 5 } } } }
    );
    assert_eq!(names(&coll, both).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.lines().any(|e| e.price().gt(100).and(e.qty().eq(2)))).await, ["apple"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.price().gt(100))).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.sku().is_in(["c", "e"]))).await, ["$gt", "banana"]);

    // `$elemMatch` on scalars: the condition is on the element itself.
    let mid = f.scores().any(|e| e.between(4, 6));
    assert_eq!(mid.clone().into_document().unwrap(), doc! { "sc": { "$elemMatch": { "$gte": 4, "$lte": 6 } } });
    assert_eq!(names(&coll, mid).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(8))).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.eq(3))).await, ["banana"]);
    // Two conditions on the element itself: one element must satisfy both (4 < x < 6 holds only for 5; without
    // `$elemMatch`, banana's 2 and 3 or the hostile 7 could satisfy one each).
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(2).and(e.lt(4)))).await, ["banana"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(3).and(e.lt(5)))).await, Vec::<String>::new());
    let three = f.scores().any(|e| e.gt(1).and(e.lt(9)).and(e.ne(5)));
    assert_eq!(
        three.clone().into_document().unwrap(),
        doc! { "sc": { "$elemMatch": { "$gt": 1, "$lt": 9, "$ne": 5 } } }
    );
    assert_eq!(names(&coll, three).await, ["$gt", "banana"]);
    // Alternatives on the element itself: `is_in`, or one `any` per alternative.
    assert_eq!(names(&coll, f.scores().any(|e| e.is_in([3, 7]))).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.lt(2)).or(f.scores().any(|e| e.gt(8)))).await, ["apple"]);
    // What `$elemMatch` cannot say about the element itself is refused before sending (it would look for a field
    // named "" and match nothing).
    assert_refused(coll.find(f.scores().any(|e| e.eq(3).or(e.eq(7)))).await, "element itself");
    assert_refused(coll.find(f.scores().any(|e| Filter::none_of([e.eq(3)]))).await, "element itself");
    assert_refused(coll.find(f.scores().any(|e| e.gt(1).and(e.gt(2)))).await, "twice");
    // Alternatives on fields of document elements are sent as MongoDB takes them (`$elemMatch` with `$or` inside).
    // The test server (SecantusDB) refuses a `$elemMatch` whose first key is `$or` ("unknown operator"), so only the
    // document is checked here.
    let either = f.lines().any(|e| e.sku().eq("a").or(e.qty().gt(8)));
    assert_eq!(
        either.into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "$or": [{ "s": "a" }, { "q": { "$gt": 8 } }] } } }
    );
    // Two operators on one field of the element are one condition inside `$elemMatch`, as `between` says it.
    let same_field = f.lines().any(|e| e.price().gt(10).and(e.price().lt(30)));
    assert_eq!(
        same_field.clone().into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "p": { "$gt": 10_i64, "$lt": 30_i64 } } } }
    );
    assert_eq!(names(&coll, same_field).await, ["banana"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.price().between(10, 30))).await, ["banana"]);

    // A filter on a positional path would name a field `$[]`, `$` or `$[id]` and silently match nothing: refused.
    assert_refused(coll.find(f.lines().each().sku().eq("a")).await, "positional");
    assert_refused(coll.count(f.lines().matched().price().gt(1)).await, "positional");
    assert_refused(coll.find(f.lines().filtered("x", |e| e.sku().eq("a")).sku().eq("a")).await, "positional");
    assert_refused(coll.find(f.scores().each().exists(true)).await, "positional");
}

#[tokio::test]
async fn exists_and_map_entries() {
    let (_db, coll) = seeded("filter_exists").await;
    let f = Product::fields();

    assert_eq!(names(&coll, f.note().exists(true)).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.note().exists(false)).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.discount().exists(false)).await, ["$gt", "apple", "carrot"]);

    assert_eq!(f.attrs().entry("w").key(), "at.w");
    assert_eq!(names(&coll, f.attrs().entry("w").eq(3)).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.attrs().entry("w").gt(5)).await, ["banana"]);
    assert_eq!(names(&coll, f.attrs().entry("h").exists(true)).await, ["banana"]);
    assert_eq!(names(&coll, f.attrs().entry("w").exists(false)).await, ["carrot"]);
    // A whole map compares as a document, its keys as data.
    assert_eq!(names(&coll, f.attrs().eq(attrs(&[("w", 3)]))).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.attrs().eq(HashMap::new())).await, ["carrot"]);
}

#[tokio::test]
async fn values_that_look_like_operators_stay_data() {
    let (_db, coll) = seeded("filter_hostile").await;
    let f = Product::fields();

    // A string that is an operator name matches the document holding exactly that string.
    assert_eq!(f.name().eq("$gt").into_document().unwrap(), doc! { "n": "$gt" });
    assert_eq!(names(&coll, f.name().eq("$gt")).await, ["$gt"]);
    assert_eq!(names(&coll, f.name().is_in(["$gt", "$exists"])).await, ["$gt"]);
    // A string that spells an operator document is a string: it matches nothing here...
    assert_eq!(names(&coll, f.name().eq("{\"$ne\": null}")).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.note().eq("{\"$ne\": null}".to_owned())).await, Vec::<String>::new());
    // ...and exactly the element holding it, where there is one.
    assert_eq!(names(&coll, f.tags().contains("{\"$ne\": null}")).await, ["$gt"]);
    // An embedded document whose strings look like operators.
    assert_eq!(names(&coll, f.address().eq(address("$ne", "{\"$gt\": \"\"}"))).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.address().city().eq("{\"$ne\": null}")).await, Vec::<String>::new());

    // A map key that is an operator cannot be sent: refused before sending, whether in a value or a path.
    let evil = attrs(&[("$where", 1)]);
    assert_refused(coll.find(f.attrs().eq(evil.clone())).await, "$where");
    assert_refused(coll.count(f.attrs().ne(evil.clone())).await, "$where");
    assert_refused(coll.find(f.attrs().is_in([evil])).await, "$where");
    assert_refused(coll.find(f.attrs().entry("$where").eq(1)).await, "$where");
    assert_refused(coll.find(f.attrs().entry("a.b").exists(true)).await, "a.b");
    assert_refused(coll.find(f.attrs().entry("").exists(true)).await, "empty");
    assert_refused(coll.find_one(f.attrs().entry("$gt").gt(1)).await, "$gt");
    // A refused condition poisons the whole filter.
    assert_refused(coll.find(f.name().eq("apple").and(f.attrs().entry("$x").eq(1))).await, "$x");
    assert_refused(coll.find(f.name().eq("apple").or(f.attrs().entry("$x").eq(1))).await, "$x");
    assert_refused(coll.delete_many(Filter::none_of([f.attrs().entry("$x").eq(1)])).await, "$x");
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 4, "nothing was deleted");
}

// ---------------------------------------------------------------------------------------------------------------
// Sorts, limits, projections

#[tokio::test]
async fn sort_limit_skip_and_stream() {
    let (_db, coll) = seeded("sort").await;
    let f = Product::fields();
    let all = |v: Vec<Product>| v.into_iter().map(|p| p.name).collect::<Vec<_>>();

    let by_stock = coll.find(Filter::everything()).sort(f.stock().desc()).await.unwrap();
    assert_eq!(all(by_stock), ["carrot", "apple", "$gt", "banana"]);
    let page = coll.find(Filter::everything()).sort(f.stock().desc()).skip(1).limit(2).await.unwrap();
    assert_eq!(all(page), ["apple", "$gt"]);
    let last = coll.find(Filter::everything()).sort(f.stock().desc()).skip(3).limit(2).await.unwrap();
    assert_eq!(all(last), ["banana"]);
    let past = coll.find(Filter::everything()).sort(f.stock().desc()).skip(4).await.unwrap();
    assert!(past.is_empty());
    let two = coll.find(f.category().eq("fruit")).sort(f.price().asc()).limit(1).await.unwrap();
    assert_eq!(all(two), ["banana"]);

    // Ties broken by the next key.
    let by_category = coll.find(Filter::everything()).sort(f.category().asc().then(f.price().desc())).await.unwrap();
    assert_eq!(all(by_category), ["apple", "banana", "$gt", "carrot"]);
    let by_city = coll.find(Filter::everything()).sort(f.address().city().asc().then(f.name().desc())).await.unwrap();
    assert_eq!(all(by_city), ["banana", "$gt", "carrot", "apple"]);

    // Streaming gives the same order.
    let streamed: Vec<Product> =
        coll.find(f.stock().gt(0)).sort(f.sold().asc()).stream().await.unwrap().try_collect().await.unwrap();
    assert_eq!(all(streamed), ["$gt", "carrot", "apple"]);

    // Sorts the server would misread are refused before sending.
    assert_refused(coll.find(Filter::everything()).sort(f.lines().each().price().asc()).await, "positional");
    assert_refused(coll.find(Filter::everything()).sort(f.stock().asc().then(f.stock().desc())).await, "twice");
}

#[tokio::test]
async fn projection_into_smaller_structs() {
    let (_db, coll) = seeded("projection").await;
    let f = Product::fields();

    let p = Projection::only().field(f.name()).field(f.stock()).without_id();
    assert_eq!(p.clone().into_document().unwrap(), doc! { "n": 1, "st": 1, "_id": 0 });
    let slim: Vec<NameStock> = coll.find(f.stock().gt(0)).sort(f.stock().asc()).project(p.clone()).await.unwrap();
    assert_eq!(
        slim,
        [
            NameStock { name: "$gt".into(), stock: 5 },
            NameStock { name: "apple".into(), stock: 10 },
            NameStock { name: "carrot".into(), stock: 25 },
        ]
    );
    // The server sent only those keys.
    let docs: Vec<Document> = coll.find(f.name().eq("apple")).project(p).await.unwrap();
    assert_eq!(docs, [doc! { "n": "apple", "st": 10 }]);

    // A nested field: the sub-document keeps only that key; `_id` comes by default.
    let a = apple();
    let id = coll.find_one(f.name().eq("apple")).await.unwrap().unwrap().id;
    let cities: Vec<CityOnly> =
        coll.find(f.id().eq(id)).project(Projection::only().field(f.address().city())).await.unwrap();
    assert_eq!(cities, [CityOnly { id, address: City { city: a.address.city.clone() } }]);

    // Exclusion.
    let rest: Vec<Document> = coll
        .find(f.name().eq("apple"))
        .project(Projection::except().field(f.lines()).field(f.attrs()).field(f.address()))
        .await
        .unwrap();
    assert_eq!(rest.len(), 1);
    let keys: Vec<&str> = rest[0].keys().map(String::as_str).collect();
    assert_eq!(keys, ["_id", "n", "c", "st", "sd", "pr", "tg", "sc", "nt", "up"]);

    // Positional and overlapping projections are refused before sending.
    let positional = Projection::only().field(f.lines().matched().price());
    assert_refused(coll.find(f.lines().any(|e| e.price().gt(0))).project::<Document>(positional).await, "positional");
    let each = Projection::only().field(f.lines().each().sku());
    assert_refused(coll.find(Filter::everything()).project::<Document>(each).await, "positional");
    let filtered = Projection::only().field(f.lines().filtered("big", |e| e.price().gt(100)).sku());
    assert_refused(coll.find(Filter::everything()).project::<Document>(filtered).await, "positional");
    let overlap = Projection::only().field(f.address()).field(f.address().city());
    assert_refused(coll.find(Filter::everything()).project::<Document>(overlap).await, "overlaps");
}

// ---------------------------------------------------------------------------------------------------------------
// Updates: scalar operators

#[tokio::test]
async fn inc_and_mul_keep_the_stored_numeric_type() {
    let p = apple();
    let (db, coll) = products("upd_inc", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    let u = Update::new().inc(f.stock(), 3).inc(f.sold(), 5_i64).inc(f.price(), 0.25).inc(f.lines().at(1).qty(), 4);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$inc": { "st": 3, "sd": 5_i64, "pr": 0.25, "ln.1.q": 4 } });
    let r = coll.update_one(by_id(), u).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 1));
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get("st"), Some(&Bson::Int32(13)), "an int stays an int");
    assert_eq!(stored.get("sd"), Some(&Bson::Int64(105)), "a long stays a long");
    assert_eq!(stored.get("pr"), Some(&Bson::Double(1.75)));
    assert_eq!(stored.get_array("ln").unwrap()[1].as_document().unwrap().get("q"), Some(&Bson::Int32(6)));

    // Negative steps.
    coll.update_one(by_id(), Update::new().inc(f.stock(), -13).inc(f.sold(), -5_i64)).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get("st"), Some(&Bson::Int32(0)));
    assert_eq!(stored.get("sd"), Some(&Bson::Int64(100)));

    // `$inc` of an absent optional field creates it, as an int.
    coll.update_one(by_id(), Update::new().inc(f.discount(), 7)).await.unwrap();
    assert_eq!(raw_product(&db, p.id).await.get("ds"), Some(&Bson::Int32(7)));

    // `$mul`.
    coll.update_one(by_id(), Update::new().set(f.stock(), 6)).await.unwrap();
    let r = coll
        .update_one(by_id(), Update::new().mul(f.stock(), 7).mul(f.sold(), 3_i64).mul(f.price(), 2.0))
        .await
        .unwrap();
    assert_eq!(r.modified_count, 1);
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get("st"), Some(&Bson::Int32(42)));
    assert_eq!(stored.get("sd"), Some(&Bson::Int64(300)));
    assert_eq!(stored.get("pr"), Some(&Bson::Double(3.5)));
    // Each element through `$[]`.
    coll.update_one(by_id(), Update::new().mul(f.lines().each().price(), 10_i64)).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!(got.lines, [line("a", 500, 1), line("b", 1500, 6)]);
    let stored = raw_product(&db, p.id).await;
    for l in stored.get_array("ln").unwrap() {
        assert!(matches!(l.as_document().unwrap().get("p"), Some(Bson::Int64(_))), "{l}");
    }
    // The typed value still decodes.
    assert_eq!((got.stock, got.sold, got.price, got.discount), (42, 300, 3.5, Some(7)));
}

#[tokio::test]
async fn min_max_and_current_date() {
    let p = apple();
    let (db, coll) = products("upd_minmax", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // `$min` lowers only.
    let r = coll.update_one(by_id(), Update::new().min(f.stock(), 20)).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 0));
    coll.update_one(by_id(), Update::new().min(f.stock(), 4).min(f.price(), 2.0)).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!((got.stock, got.price), (4, 1.5));
    // `$max` raises only.
    let r = coll.update_one(by_id(), Update::new().max(f.sold(), 50_i64)).await.unwrap();
    assert_eq!(r.modified_count, 0);
    coll.update_one(by_id(), Update::new().max(f.sold(), 1000_i64).max(f.address().zip(), "99999")).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!((got.sold, got.address.zip.as_str()), (1000, "99999"));
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get("st"), Some(&Bson::Int32(4)));
    assert_eq!(stored.get("sd"), Some(&Bson::Int64(1000)));

    // `$currentDate` writes the server's time as a BSON date.
    let before = DateTime::now().timestamp_millis();
    let u = Update::new().current_date(f.updated());
    assert_eq!(u.clone().build().unwrap().update, doc! { "$currentDate": { "up": true } });
    coll.update_one(by_id(), u).await.unwrap();
    let after = DateTime::now().timestamp_millis();
    let stored = raw_product(&db, p.id).await;
    let Some(Bson::DateTime(at)) = stored.get("up") else { panic!("`up` is not a date: {stored}") };
    // Same machine, but allow for clock granularity between client and server.
    let at = at.timestamp_millis();
    assert!(at >= before - 2_000 && at <= after + 2_000, "{before} <= {at} <= {after}");
    assert_eq!(get(&coll, p.id).await.updated.timestamp_millis(), at);
}

#[tokio::test]
async fn set_unset_and_optional_fields() {
    let p = apple();
    let (db, coll) = products("upd_set", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // `set(None)` on an optional field that is absent when `None` removes the key.
    let u = Update::new().set(f.note(), None::<String>);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$unset": { "nt": "" } });
    coll.update_one(by_id(), u).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert!(!stored.contains_key("nt"), "{stored}");
    assert_eq!(get(&coll, p.id).await.note, None);

    // `set(Some)` writes the inner value (not a wrapper).
    coll.update_one(by_id(), Update::new().set(f.note(), Some("ripe".to_owned())).set(f.discount(), 15)).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get("nt"), Some(&Bson::String("ripe".into())));
    assert_eq!(stored.get("ds"), Some(&Bson::Int32(15)));

    // `unset`.
    coll.update_one(by_id(), Update::new().unset(f.discount()).unset(f.note())).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert!(!stored.contains_key("ds") && !stored.contains_key("nt"), "{stored}");

    // `set` of scalars, an embedded document, a nested field, a map entry, a whole array, an element by index.
    let u = Update::new()
        .set(f.name(), "green apple")
        .set(f.address(), address("Rome", "00100"))
        .set(f.attrs().entry("h"), 2)
        .set(f.tags(), strings(&["green"]))
        .set(f.lines().at(0).sku(), "a2")
        .set(f.scores().at(2), 10);
    let r = coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(r.modified_count, 1);
    let got = get(&coll, p.id).await;
    let mut expected = p.clone();
    expected.name = "green apple".into();
    expected.address = address("Rome", "00100");
    expected.attrs.insert("h".into(), 2);
    expected.tags = strings(&["green"]);
    expected.lines[0].sku = "a2".into();
    expected.scores[2] = 10;
    expected.note = None;
    assert_eq!(got, expected);
    coll.update_one(by_id(), Update::new().set(f.address().city(), "Milan")).await.unwrap();
    assert_eq!(raw_product(&db, p.id).await.get_document("ad").unwrap(), &doc! { "c": "Milan", "z": "00100" });

    // A value whose strings look like operators is stored as is.
    coll.update_one(by_id(), Update::new().set(f.name(), "{\"$set\": 1}").set(f.attrs().entry("w"), 9)).await.unwrap();
    assert_eq!(raw_product(&db, p.id).await.get_str("n").unwrap(), "{\"$set\": 1}");
    // But a map value with an operator key is refused before sending.
    let before = raw_product(&db, p.id).await;
    assert_refused(coll.update_one(by_id(), Update::new().set(f.attrs(), attrs(&[("$inc", 1)]))).await, "$inc");
    assert_refused(coll.update_one(by_id(), Update::new().set(f.attrs().entry("$inc"), 1)).await, "$inc");
    assert_refused(coll.update_one(by_id(), Update::new().set(f.attrs().entry("x.y"), 1)).await, "x.y");
    // Only the paths in a refusal are named in Rust terms; the explanation reads as written, backquotes included.
    let text = |result: odm::error::Result<_>| result.expect_err("refused").to_string();
    assert_eq!(
        text(coll.update_one(by_id(), Update::new().set(f.attrs().entry("$where"), 1)).await),
        "Product: map key \"$where\" under `Product.attrs` (stored `at`) cannot be addressed: keys starting with `$` \
         are reserved for operators; nothing was sent"
    );
    assert_eq!(
        text(coll.update_one(by_id(), Update::new().set(f.attrs().entry("x.y"), 1)).await),
        "Product: map key \"x.y\" under `Product.attrs` (stored `at`) cannot be addressed: `.` separates path \
         segments, so the key could never be queried or updated; nothing was sent"
    );
    assert_eq!(
        text(coll.update_one(by_id(), Update::new().set(f.attrs(), attrs(&[("$inc", 1)]))).await),
        "Product: `Product.attrs` (stored `at`): key \"$inc\" in the value cannot be stored: keys starting with `$` \
         are reserved for operators; nothing was sent"
    );
    // Building alone gives the same typed error, paths named through the model, the explanation untouched.
    assert_eq!(
        Update::new().set(f.attrs().entry("$where"), 1).build().expect_err("refused").to_string(),
        "Product: map key \"$where\" under `Product.attrs` (stored `at`) cannot be addressed: keys starting with `$` \
         are reserved for operators; nothing was sent"
    );
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was sent");
}

// ---------------------------------------------------------------------------------------------------------------
// Updates: arrays

#[tokio::test]
async fn push_with_position_sort_and_slice() {
    let p = apple();
    let (db, coll) = products("upd_push", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // Plain push and push_each, merged into one `$each`.
    let u = Update::new().push(f.tags(), "crisp").push_each(f.tags(), ["juicy"]);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$push": { "tg": { "$each": ["crisp", "juicy"] } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "crisp", "juicy"]);
    // One element is sent bare.
    let u = Update::new().push(f.lines(), line("z", 1, 1));
    assert_eq!(u.clone().build().unwrap().update, doc! { "$push": { "ln": { "s": "z", "p": 1_i64, "q": 1 } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines.last(), Some(&line("z", 1, 1)));

    // `$position`.
    coll.update_one(by_id(), Update::new().push_with(f.tags(), ["first"], |m| m.position(0))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["first", "red", "sweet", "crisp", "juicy"]);
    coll.update_one(by_id(), Update::new().push_with(f.scores(), [4], |m| m.position(-1))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 5, 4, 9]);

    // `$sort` and `$slice`: keep the three highest.
    let u = Update::new().push_with(f.scores(), [7, 3], |m| m.sort_desc().slice(3));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$push": { "sc": { "$each": [7, 3], "$sort": -1, "$slice": 3 } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [9, 7, 5]);
    // Keep the last two after an ascending sort; push nothing, just reorder and cut.
    coll.update_one(by_id(), Update::new().push_with(f.scores(), Vec::<i32>::new(), |m| m.sort_asc().slice(-2)))
        .await
        .unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [7, 9]);
    // Position plus slice: insert at the front, keep the first two.
    coll.update_one(by_id(), Update::new().push_with(f.scores(), [0], |m| m.position(0).slice(2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [0, 7]);

    // `$sort` by a field of the elements.
    let u = Update::new().push_with(f.lines(), [line("m", 75, 3)], |m| m.sort_by(|e| e.price().desc()));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$push": { "ln": { "$each": [{ "s": "m", "p": 75_i64, "q": 3 }], "$sort": { "p": -1 } } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    let skus: Vec<String> = get(&coll, p.id).await.lines.into_iter().map(|l| l.sku).collect();
    assert_eq!(skus, ["b", "m", "a", "z"]);
    coll.update_one(
        by_id(),
        Update::new().push_with(f.lines(), Vec::<Line>::new(), |m| m.sort_by(|e| e.sku().asc()).slice(2)),
    )
    .await
    .unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2)]);
    // Types of pushed values are the field's own.
    let stored = raw_product(&db, p.id).await;
    assert!(matches!(stored.get_array("sc").unwrap()[0], Bson::Int32(0)), "{stored}");
    assert!(matches!(stored.get_array("ln").unwrap()[0].as_document().unwrap().get("p"), Some(Bson::Int64(50))));
}

#[tokio::test]
async fn add_to_set_pull_and_pop() {
    let p = apple();
    let (db, coll) = products("upd_set_ops", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // `$addToSet` is idempotent.
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "ripe")).await.unwrap();
    assert_eq!(r.modified_count, 1);
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "ripe")).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 0));
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "red")).await.unwrap();
    assert_eq!(r.modified_count, 0);
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "ripe"]);
    let u = Update::new().add_each_to_set(f.tags(), ["sweet", "round", "round"]);
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$addToSet": { "tg": { "$each": ["sweet", "round", "round"] } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "ripe", "round"]);
    // Documents: equal only when the whole element is equal.
    coll.update_one(by_id(), Update::new().add_to_set(f.lines(), line("a", 50, 1))).await.unwrap();
    coll.update_one(by_id(), Update::new().add_to_set(f.lines(), line("a", 50, 2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2), line("a", 50, 2)]);

    // `$pull` of equal elements.
    coll.update_one(by_id(), Update::new().pull(f.tags(), "ripe")).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "round"]);
    coll.update_one(by_id(), Update::new().pull(f.lines(), line("a", 50, 2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2)]);
    let r = coll.update_one(by_id(), Update::new().pull(f.tags(), "absent")).await.unwrap();
    assert_eq!(r.modified_count, 0);

    // `$pull` by condition, on documents and on scalars.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 5, 9, 5, 2])).await.unwrap();
    let u = Update::new().pull_where(f.scores(), |e| e.gte(5)).pull_where(f.lines(), |e| e.price().lt(100));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$pull": { "sc": { "$gte": 5 }, "ln": { "p": { "$lt": 100_i64 } } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!(got.scores, [1, 2]);
    assert_eq!(got.lines, [line("b", 150, 2)]);
    coll.update_one(by_id(), Update::new().pull_where(f.tags(), |e| e.is_in(["red", "round"]))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["sweet"]);
    // Two conditions on the element itself: one operator document.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 2, 3, 4, 5])).await.unwrap();
    let u = Update::new().pull_where(f.scores(), |e| e.gt(1).and(e.lt(5)));
    assert_eq!(u.clone().build().unwrap().update, doc! { "$pull": { "sc": { "$gt": 1, "$lt": 5 } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 5]);
    let before = raw_product(&db, p.id).await;
    assert_refused(
        coll.update_one(by_id(), Update::new().pull_where(f.scores(), |e| e.eq(1).or(e.eq(5)))).await,
        "element itself",
    );
    assert_eq!(raw_product(&db, p.id).await, before);
    coll.update_one(by_id(), Update::new().pull_where(f.lines(), |e| e.sku().eq("b").and(e.qty().eq(2))))
        .await
        .unwrap();
    assert!(get(&coll, p.id).await.lines.is_empty());

    // `$pop`.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 2, 3, 4])).await.unwrap();
    let u = Update::new().pop_first(f.scores());
    assert_eq!(u.clone().build().unwrap().update, doc! { "$pop": { "sc": -1 } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [2, 3, 4]);
    coll.update_one(by_id(), Update::new().pop_last(f.scores())).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [2, 3]);
    // Two arrays in one update.
    coll.update_one(by_id(), Update::new().pop_last(f.scores()).pop_first(f.tags())).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get_array("sc").unwrap(), &vec![Bson::Int32(2)]);
    assert_eq!(stored.get_array("tg").unwrap(), &Vec::<Bson>::new());
    // Popping an empty array changes nothing.
    let r = coll.update_one(by_id(), Update::new().pop_first(f.tags())).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 0));
}

#[tokio::test]
async fn positional_updates() {
    let mut p = apple();
    p.lines = vec![line("a", 50, 1), line("b", 150, 2), line("c", 250, 3), line("d", 20, 4)];
    let mut q = banana();
    q.lines = vec![line("b", 150, 7), line("x", 500, 1)];
    let (db, coll) = products("upd_positional", &[p.clone(), q.clone()]).await;
    let f = Product::fields();

    // `$`: the element the filter matched (the filter names the array).
    let u = Update::new().set(f.lines().matched().qty(), 99).inc(f.lines().matched().price(), 1_i64);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$set": { "ln.$.q": 99 }, "$inc": { "ln.$.p": 1_i64 } });
    let r = coll.update_one(f.id().eq(p.id).and(f.lines().any(|e| e.sku().eq("b"))), u).await.unwrap();
    assert_eq!(r.modified_count, 1);
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 1), line("b", 151, 99), line("c", 250, 3), line("d", 20, 4)]
    );
    assert_eq!(get(&coll, q.id).await.lines, q.lines, "the other document is untouched");
    // On scalars: the matched element itself.
    coll.update_one(f.id().eq(p.id).and(f.scores().contains(5)), Update::new().set(f.scores().matched(), 50))
        .await
        .unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 50, 9]);

    // `$[]`: every element.
    let r = coll.update_one(f.id().eq(p.id), Update::new().inc(f.lines().each().qty(), 1)).await.unwrap();
    assert_eq!(r.modified_count, 1);
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 100), line("c", 250, 4), line("d", 20, 5)]
    );

    // `$[id]` with arrayFilters: only the selected elements change.
    let big = f.lines().filtered("big", |e| e.price().gt(100));
    assert_eq!(big.qty().key(), "ln.$[big].q");
    let u = Update::new().set(big.qty(), 0);
    let built = u.clone().build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "ln.$[big].q": 0 } });
    assert_eq!(built.array_filters, [doc! { "big.p": { "$gt": 100_i64 } }]);
    let r = coll.update_many(Filter::everything(), u).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (2, 2));
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 0), line("c", 250, 0), line("d", 20, 5)]
    );
    assert_eq!(get(&coll, q.id).await.lines, [line("b", 150, 0), line("x", 500, 0)]);

    // Two identifiers in one update, and one identifier used by two paths.
    let cheap = f.lines().filtered("cheap", |e| e.price().lt(30).and(e.sku().ne("zz")));
    let pricey = f.lines().filtered("pricey", |e| e.price().gte(250));
    let u = Update::new().set(cheap.sku(), "cheap").inc(cheap.qty(), 10).set(pricey.sku(), "pricey");
    let built = u.clone().build().unwrap();
    assert_eq!(built.array_filters.len(), 2, "{built:?}");
    coll.update_one(f.id().eq(p.id), u).await.unwrap();
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 0), line("pricey", 250, 0), line("cheap", 20, 15)]
    );
    // Scalars with an array filter.
    coll.update_one(f.id().eq(p.id), Update::new().set(f.scores(), vec![1, 8, 3, 9])).await.unwrap();
    coll.update_one(f.id().eq(p.id), Update::new().mul(f.scores().filtered("odd", |e| e.lt(5)), 100)).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [100, 8, 300, 9]);

    // Refused before sending: a bad identifier, one identifier with two conditions.
    let before = raw_product(&db, p.id).await;
    let bad = f.lines().filtered("Big", |e| e.price().gt(1));
    assert_refused(coll.update_one(f.id().eq(p.id), Update::new().set(bad.qty(), 1)).await, "identifier");
    let bad = f.lines().filtered("x-1", |e| e.price().gt(1));
    assert_refused(coll.update_one(f.id().eq(p.id), Update::new().set(bad.qty(), 1)).await, "identifier");
    let one = f.lines().filtered("k", |e| e.price().gt(1));
    let other = f.lines().filtered("k", |e| e.price().gt(2));
    assert_refused(
        coll.update_one(f.id().eq(p.id), Update::new().set(one.qty(), 1).set(other.sku(), "k")).await,
        "two different conditions",
    );
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was sent");
}

#[tokio::test]
async fn update_one_many_and_upsert() {
    let (_db, coll) = seeded("upd_counts").await;
    let f = Product::fields();

    let r = coll.update_one(f.category().eq("fruit"), Update::new().inc(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 1));
    assert_eq!(coll.count(f.stock().is_in([11, 1])).await.unwrap(), 1);
    let r = coll.update_many(f.category().eq("fruit"), Update::new().inc(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (2, 2));
    let r = coll.update_many(Filter::everything(), Update::new().set(f.category(), "fruit")).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (4, 2), "two were fruit already");
    let r = coll.update_many(f.name().eq("nothing"), Update::new().set(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (0, 0));
    assert!(r.upserted_id.is_none());
    assert_eq!(coll.count(f.category().eq("fruit")).await.unwrap(), 4);

    // Upserts: the first inserts from the filter's equalities, `$setOnInsert` and the update.
    let (db, tallies) = support::setup::created::<Tally>("upd_upsert").await;
    let t = Tally::fields();
    let upsert = |first: &str, last: &str| {
        Update::new().inc(t.hits(), 1).set(t.last(), last.to_owned()).set_on_insert(t.first(), first.to_owned())
    };
    let r = tallies.upsert_one(t.key().eq("home"), upsert("a", "b")).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (0, 0));
    let Some(Bson::ObjectId(id)) = r.upserted_id else { panic!("expected an upserted ObjectId, got {r:?}") };
    let stored = support::raw::stored(&db, "stat_tally", id).await;
    assert_eq!(stored, doc! { "_id": id, "k": "home", "h": 1, "l": "b", "f": "a" });
    assert_eq!(stored.get("h"), Some(&Bson::Int32(1)));
    // The second updates the same document; `$setOnInsert` does nothing.
    let r = tallies.upsert_one(t.key().eq("home"), upsert("z", "c")).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count, r.upserted_id.clone()), (1, 1, None));
    let all = tallies.find(Filter::everything()).await.unwrap();
    assert_eq!(all, [Tally { id, key: "home".into(), hits: 2, first: "a".into(), last: "c".into() }]);
    // A different key inserts another.
    let r = tallies.upsert_one(t.key().eq("away"), upsert("x", "y")).await.unwrap();
    assert!(r.upserted_id.is_some());
    assert_eq!(tallies.count(Filter::everything()).await.unwrap(), 2);
    // `$setOnInsert` may write `_id`, once.
    let chosen = ObjectId::new();
    let u = || upsert("s", "t").set_on_insert(t.id(), chosen);
    let r = tallies.upsert_one(t.key().eq("chosen"), u()).await.unwrap();
    assert_eq!(r.upserted_id, Some(Bson::ObjectId(chosen)));
    let r = tallies.upsert_one(t.key().eq("chosen"), u()).await.unwrap();
    assert_eq!((r.matched_count, r.upserted_id), (1, None));
    assert_eq!(tallies.find_one(t.id().eq(chosen)).await.unwrap().map(|t| t.hits), Some(2));
    tallies.delete_one(t.id().eq(chosen)).await.unwrap();
    // An upsert by `_id`: the filter's `_id` is the new document's.
    let id = ObjectId::new();
    let r =
        tallies.upsert_one(t.id().eq(id), upsert("p", "q").set_on_insert(t.key(), "by id".to_owned())).await.unwrap();
    assert_eq!(r.upserted_id, Some(Bson::ObjectId(id)));
    assert_eq!(
        tallies.find_one(t.id().eq(id)).await.unwrap(),
        Some(Tally { id, key: "by id".into(), hits: 1, first: "p".into(), last: "q".into() })
    );
}

#[tokio::test]
async fn conflicting_and_empty_updates_are_refused_before_sending() {
    let p = apple();
    let (db, coll) = products("upd_conflict", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);
    let before = raw_product(&db, p.id).await;

    assert_refused(coll.update_one(by_id(), Update::new().set(f.stock(), 1).inc(f.stock(), 1)).await, "twice");
    // The refusal names the Rust path beside the stored one.
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.stock(), 1).set(f.stock(), 2)).await,
        "`Product.stock` (stored `st`) is updated twice",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.address(), address("X", "1")).set(f.address().city(), "Y")).await,
        "overlap",
    );
    assert_refused(
        coll.update_many(by_id(), Update::new().set(f.address().zip(), "1").set(f.address(), address("X", "1"))).await,
        "overlap",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.lines().at(0).qty(), 1).push(f.lines(), line("q", 1, 1))).await,
        "overlap",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().inc(f.lines().each().qty(), 1).set(f.lines(), Vec::<Line>::new())).await,
        "overlap",
    );
    assert_refused(coll.upsert_one(by_id(), Update::new().pull(f.tags(), "red").push(f.tags(), "x")).await, "twice");
    assert_refused(
        coll.find_one_and_update(by_id(), Update::new().min(f.stock(), 1).max(f.stock(), 9), FindAndModify::after())
            .await,
        "twice",
    );
    assert_refused(coll.update_one(by_id(), Update::new()).await, "empty");
    assert_refused(coll.update_many(Filter::everything(), Update::new()).await, "empty");
    assert_refused(coll.upsert_one(by_id(), Update::new()).await, "empty");
    assert_refused(coll.find_one_and_update(by_id(), Update::new(), FindAndModify::before()).await, "empty");
    // Sibling paths do not conflict (a prefix of the key string is not a prefix path).
    let u = Update::new().set(f.stock(), 1).set(f.address().city(), "A").set(f.address().zip(), "B");
    assert!(u.build().is_ok());

    assert_eq!(raw_product(&db, p.id).await, before, "the document is unchanged");
}

#[tokio::test]
async fn find_and_modify_delete_and_replace() {
    let (db, coll) = seeded("upd_fam").await;
    let f = Product::fields();

    // Before / after.
    let old = coll
        .find_one_and_update(f.name().eq("apple"), Update::new().inc(f.stock(), 5), FindAndModify::before())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(old.stock, 10);
    let new = coll
        .find_one_and_update(f.name().eq("apple"), Update::new().inc(f.stock(), 5), FindAndModify::after())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(new.stock, 20);
    assert_eq!(new, Product { stock: 20, ..old.clone() });
    // With a sort: the cheapest fruit.
    let cheapest = coll
        .find_one_and_update(
            f.category().eq("fruit"),
            Update::new().set(f.note(), Some("cheapest".to_owned())),
            FindAndModify::after().sort(f.price().asc()),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!((cheapest.name.as_str(), cheapest.note.as_deref()), ("banana", Some("cheapest")));
    // Nothing matches: `None`, nothing written.
    let none = coll
        .find_one_and_update(f.name().eq("nothing"), Update::new().set(f.stock(), 1), FindAndModify::after())
        .await
        .unwrap();
    assert!(none.is_none());
    // With an array filter.
    let after = coll
        .find_one_and_update(
            f.name().eq("$gt"),
            Update::new().set(f.lines().filtered("big", |e| e.price().gt(100)).qty(), 42),
            FindAndModify::after(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.lines, [line("d", 500, 42), line("e", 5, 9)]);
    // Upsert through find_one_and_update.
    let (_tdb, tallies) = support::setup::created::<Tally>("upd_fam_upsert").await;
    let t = Tally::fields();
    let u = || Update::new().inc(t.hits(), 1).set_on_insert(t.first(), "f".to_owned()).set(t.last(), "l".to_owned());
    let created = tallies.find_one_and_update(t.key().eq("k"), u(), FindAndModify::after().upsert()).await.unwrap();
    assert_eq!(created.map(|c| (c.key, c.hits)), Some(("k".to_owned(), 1)));
    let missing = tallies.find_one_and_update(t.key().eq("j"), u(), FindAndModify::before().upsert()).await.unwrap();
    assert!(missing.is_none(), "before an upsert there was nothing");
    assert_eq!(tallies.count(Filter::everything()).await.unwrap(), 2);

    // find_one_and_delete.
    let gone = coll.find_one_and_delete(f.name().eq("carrot")).await.unwrap().unwrap();
    assert_eq!(gone.name, "carrot");
    assert!(coll.find_one_and_delete(f.name().eq("carrot")).await.unwrap().is_none());
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 3);

    // replace_one.
    let mut replacement = hostile();
    replacement.id = after.id;
    replacement.name = "replaced".into();
    replacement.tags = Vec::new();
    let r = coll.replace_one(f.id().eq(after.id), &replacement).await.unwrap();
    assert_eq!((r.matched_count, r.modified_count), (1, 1));
    assert_eq!(get(&coll, after.id).await, replacement);
    assert_eq!(raw_product(&db, after.id).await.get_array("tg").unwrap(), &Vec::<Bson>::new());
    let r = coll.replace_one(f.name().eq("nothing"), &replacement).await.unwrap();
    assert_eq!(r.matched_count, 0);
    // A replacement that breaks the validator is refused by the server, by Rust field.
    let mut invalid = replacement.clone();
    invalid.tags = strings(&["1", "2", "3", "4", "5", "6"]);
    let err = coll.replace_one(f.id().eq(after.id), &invalid).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures[0].path, "Product.tags", "{err}");

    // delete_one / delete_many counts.
    assert_eq!(coll.delete_one(f.name().eq("nothing")).await.unwrap(), 0);
    assert_eq!(coll.delete_one(f.category().eq("fruit")).await.unwrap(), 1);
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 2);
    coll.insert_many([apple(), banana(), carrot()]).await.unwrap();
    assert_eq!(coll.delete_many(f.category().eq("fruit")).await.unwrap(), 3);
    assert_eq!(names(&coll, Filter::everything()).await, ["carrot", "replaced"]);
    assert_eq!(coll.delete_many(Filter::everything()).await.unwrap(), 2);
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Diff updates

#[tokio::test]
async fn diff_updates_write_only_the_changes() {
    let old = apple();
    let (db, coll) = products("diff", std::slice::from_ref(&old)).await;
    let f = Product::fields();

    let mut new = old.clone();
    new.address.city = "Lille".into();
    new.tags.push("crisp".into());
    new.note = None;
    let built = Update::diff(&old, &new).build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "ad.c": "Lille" }, "$unset": { "nt": "" }, "$push": { "tg": "crisp" } });
    assert!(built.guard.is_none() && built.array_filters.is_empty());
    let r = coll.update_changes(f.id().eq(old.id), &old, &new).await.unwrap().expect("something changed");
    assert_eq!((r.matched_count, r.modified_count), (1, 1));
    assert_eq!(get(&coll, old.id).await, new);
    let stored = raw_product(&db, old.id).await;
    assert!(!stored.contains_key("nt"));
    assert_eq!(stored.get_document("ad").unwrap(), &doc! { "c": "Lille", "z": "75001" });

    // Equal values: nothing is sent.
    assert!(Update::diff(&new, &new).is_empty());
    assert!(coll.update_changes(f.id().eq(old.id), &new, &new).await.unwrap().is_none());
    assert_refused(coll.update_one(f.id().eq(old.id), Update::diff(&new, &new)).await, "empty");

    // Several pushes, an element change, an Option from None to Some, a map entry added and one removed.
    let mut newer = new.clone();
    newer.lines.push(line("c", 1, 1));
    newer.lines.push(line("d", 2, 2));
    newer.scores[1] = 6;
    newer.discount = Some(3);
    newer.attrs.remove("w");
    newer.attrs.insert("h".into(), 4);
    newer.sold = 101;
    let built = Update::diff(&new, &newer).build().unwrap();
    assert_eq!(
        built.update,
        doc! {
            "$set": { "sd": 101_i64, "sc.1": 6, "at.h": 4, "ds": 3 },
            "$unset": { "at.w": "" },
            "$push": { "ln": { "$each": [{ "s": "c", "p": 1_i64, "q": 1 }, { "s": "d", "p": 2_i64, "q": 2 }] } },
        }
    );
    coll.update_changes(f.id().eq(old.id), &new, &newer).await.unwrap().unwrap();
    assert_eq!(get(&coll, old.id).await, newer);
    let stored = raw_product(&db, old.id).await;
    assert_eq!(stored.get("sd"), Some(&Bson::Int64(101)));
    assert_eq!(stored.get("ds"), Some(&Bson::Int32(3)));

    // A shrunk array is rewritten whole; a changed element inside a grown one too.
    let mut shorter = newer.clone();
    shorter.lines.remove(0);
    shorter.tags[0] = "dark red".into();
    shorter.tags.push("late".into());
    let built = Update::diff(&newer, &shorter).build().unwrap();
    assert_eq!(built.update.get_document("$set").unwrap().get_array("ln").unwrap().len(), 3);
    assert_eq!(
        built.update.get_document("$set").unwrap().get_array("tg").unwrap(),
        &vec![Bson::from("dark red"), "sweet".into(), "crisp".into(), "late".into()]
    );
    coll.update_changes(f.id().eq(old.id), &newer, &shorter).await.unwrap().unwrap();
    assert_eq!(get(&coll, old.id).await, shorter);

    // A change inside an element of an array of the same length: that field only.
    let mut tweaked = shorter.clone();
    tweaked.lines[1].qty = 7;
    tweaked.address = address("Metz", "57000");
    let built = Update::diff(&shorter, &tweaked).build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "ln.1.q": 7, "ad.c": "Metz", "ad.z": "57000" } });
    coll.update_changes(f.id().eq(old.id), &shorter, &tweaked).await.unwrap().unwrap();
    assert_eq!(get(&coll, old.id).await, tweaked);
    let shorter = tweaked;

    // A map key that cannot be stored is refused before sending, like on insert.
    let mut evil = shorter.clone();
    evil.attrs.insert("$where".into(), 1);
    assert_refused(coll.update_changes(f.id().eq(old.id), &shorter, &evil).await, "$where");
    let mut evil_insert = evil.clone();
    evil_insert.id = ObjectId::new();
    let err = coll.insert_one(&evil_insert).await.unwrap_err();
    assert!(matches!(&err, Error::InvalidKey { path, .. } if path == "at.$where"), "{err}");

    // A diff changing `_id` is refused before sending.
    let mut moved = shorter.clone();
    moved.id = ObjectId::new();
    moved.stock = 1;
    assert!(Update::diff(&shorter, &moved).build().unwrap_err().to_string().contains("_id"));
    assert_refused(coll.update_changes(f.id().eq(old.id), &shorter, &moved).await, "_id");
    // Also when `_id` is the only change: an error, not "nothing changed".
    let moved_only = Product { id: ObjectId::new(), ..shorter.clone() };
    assert_refused(coll.update_changes(f.id().eq(old.id), &shorter, &moved_only).await, "_id");
    assert_eq!(get(&coll, old.id).await, shorter, "unchanged");
}

/// Maps of maps: run-time keys below the top level.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_groups")]
struct Groups {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "g")]
    groups: HashMap<String, HashMap<String, i32>>,
}

#[test]
fn run_time_keys_are_checked_at_any_depth() {
    let old = Groups { id: ObjectId::new(), groups: HashMap::new() };
    let f = Groups::fields();
    for bad in ["$gt", "a.b"] {
        let inner = HashMap::from([(bad.to_owned(), 1)]);
        // A diff adding an entry whose value holds a bad key.
        let mut new = old.clone();
        new.groups.insert("ok".into(), inner.clone());
        let err = Update::diff(&old, &new).build().unwrap_err().to_string();
        assert!(err.contains(bad) && err.contains("g.ok"), "{err}");
        // The same value through typed paths: the entry, the whole map, a filter.
        let err = Update::new().set(f.groups().entry("ok"), inner.clone()).build().unwrap_err().to_string();
        assert!(err.contains(bad) && err.contains("g.ok"), "{err}");
        let err = Update::new().set(f.groups(), new.groups.clone()).build().unwrap_err();
        assert!(matches!(err, odm::Error::InvalidOperation { model: "Groups", .. }), "{err}");
        assert!(err.to_string().contains(bad), "{err}");
        let err = f.groups().entry("ok").eq(inner).into_document().unwrap_err().to_string();
        assert!(err.contains(bad), "{err}");
    }
    // Good keys pass, and only the new entry is written.
    let mut new = old.clone();
    new.groups.insert("ok".into(), HashMap::from([("fine".to_owned(), 1)]));
    let built = Update::diff(&old, &new).build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "g.ok": { "fine": 1 } } });
}

/// Fields whose names clippy's `wrong_self_convention` reads as conversions: their path methods take `&self` like
/// every other. The derive emits no `allow` for that lint (each lint attribute costs every build); the workspace's
/// `clippy -D warnings` over this file checks the lint stays quiet on generated methods.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Shipment {
    #[serde(rename = "ia")]
    is_active: bool,
    #[serde(rename = "tc")]
    to_city: String,
    #[serde(rename = "fw")]
    from_warehouse: String,
    #[serde(rename = "is")]
    into_stock: bool,
    #[serde(rename = "ao")]
    as_of: DateTime,
}

#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "ship_route")]
struct Route {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    shipment: Shipment,
    #[serde(rename = "to")]
    to_port: String,
}

#[test]
fn paths_of_fields_named_like_conversions() {
    let f = Route::fields();
    let when = DateTime::from_millis(0);
    let filter = Filter::all_of([
        f.shipment().is_active().eq(true),
        f.shipment().to_city().eq("Oslo"),
        f.shipment().from_warehouse().eq("W1"),
        f.shipment().into_stock().eq(false),
        f.shipment().as_of().eq(when),
        f.to_port().eq("Bergen"),
    ]);
    assert_eq!(
        filter.into_document().unwrap(),
        doc! { "s.ia": true, "s.tc": "Oslo", "s.fw": "W1", "s.is": false, "s.ao": when, "to": "Bergen" }
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Case-normalized text and validation

#[tokio::test]
async fn lowercase_fields_are_normalized_everywhere() {
    let (db, accounts) = support::setup::created::<Account>("lowercase").await;
    let f = Account::fields();

    let ann = Account { id: ObjectId::new(), email: "Ann@Example.COM".into() };
    accounts.insert_one(&ann).await.unwrap();
    assert_eq!(support::raw::stored(&db, "user_account", ann.id).await.get_str("e").unwrap(), "ann@example.com");
    assert_eq!(f.email().eq("ANN@example.com").into_document().unwrap(), doc! { "e": "ann@example.com" });
    assert_eq!(accounts.find_one(f.email().eq("ANN@example.com")).await.unwrap(), Some(ann.clone()));
    assert_eq!(accounts.count(f.email().is_in(["ANN@EXAMPLE.COM", "bob@x"])).await.unwrap(), 1);
    // Updates are normalized too.
    accounts.update_one(f.id().eq(ann.id), Update::new().set(f.email(), "Ann.B@Example.com")).await.unwrap();
    assert_eq!(support::raw::stored(&db, "user_account", ann.id).await.get_str("e").unwrap(), "ann.b@example.com");
    assert_eq!(accounts.count(f.email().eq("ANN.B@EXAMPLE.COM")).await.unwrap(), 1);

    // Around the ODM, an uppercase value is refused by the validator (`pattern`).
    let schema = Account::validator();
    assert!(format!("{schema}").contains("^[^A-Z]*$"), "{schema}");
    let err = db
        .collection::<Document>("user_account")
        .insert_one(doc! { "_id": ObjectId::new(), "e": "Bob@Example.com" })
        .await
        .expect_err("the validator's `pattern` refuses uppercase");
    let err = Error::from_write::<Account>(err);
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.first().map(|f| f.path.as_str()), Some("Account.email"), "{err}");
    assert_eq!(v.failures.first().map(|f| f.rule.as_str()), Some("pattern"), "{err}");
    assert_eq!(accounts.count(Filter::everything()).await.unwrap(), 1);
}

#[tokio::test]
async fn push_past_max_items_is_a_validation_error_naming_the_field() {
    let mut p = apple();
    p.tags = strings(&["1", "2", "3", "4"]);
    let (db, coll) = products("max_items", std::slice::from_ref(&p)).await;
    let f = Product::fields();

    coll.update_one(f.id().eq(p.id), Update::new().push(f.tags(), "5")).await.unwrap();
    let before = raw_product(&db, p.id).await;
    let err = coll.update_one(f.id().eq(p.id), Update::new().push(f.tags(), "6")).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    assert_eq!(v.failures[0].path, "Product.tags");
    assert_eq!(v.failures[0].stored_path, "tg");
    assert_eq!(v.failures[0].rule, "maxItems");
    assert_eq!(v.failures[0].expected.as_deref(), Some("5"));
    assert!(err.to_string().contains("Product.tags"), "{err}");
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was written");
    // The same through find_one_and_update and update_many.
    let err = coll
        .find_one_and_update(f.id().eq(p.id), Update::new().push_each(f.tags(), ["6", "7"]), FindAndModify::after())
        .await
        .unwrap_err();
    // `findAndModify` reports the failure as a command error; its `errInfo` is read from the raw reply.
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    assert_eq!(v.failures[0].path, "Product.tags", "{err}");
    let err = coll.update_many(Filter::everything(), Update::new().add_to_set(f.tags(), "new")).await.unwrap_err();
    assert!(matches!(&err, Error::Validation(v) if v.failures[0].path == "Product.tags"), "{err}");
    // Another bounded array: named as well.
    let err =
        coll.update_one(f.id().eq(p.id), Update::new().push_each(f.scores(), [1, 2, 3, 4, 5, 6])).await.unwrap_err();
    assert!(matches!(&err, Error::Validation(v) if v.failures[0].path == "Product.scores"), "{err}");
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was written");
}

/// The cause of a refusal, typed: which rule, which paths (stored and Rust).
#[track_caller]
fn cause<T: std::fmt::Debug>(result: odm::error::Result<T>) -> Invalid {
    match result {
        Err(Error::InvalidOperation { model: "Product", cause }) => cause,
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

/// `path` as stored and as the Rust path under `Product`.
#[track_caller]
fn at(path: &NamedPath, stored: &str, rust: &str) {
    assert_eq!((path.stored(), path.rust()), (stored, Some(rust)), "{path:?}");
}

#[test]
fn refusals_carry_a_typed_cause_with_both_paths() {
    let f = Product::fields();
    match cause(Update::new().set(f.stock(), 1).inc(f.stock(), 1).build()) {
        Invalid::PathConflict { first, first_operator: Operator::Set, second, second_operator: Operator::Inc } => {
            at(&first, "st", "Product.stock");
            at(&second, "st", "Product.stock");
        }
        other => panic!("{other:?}"),
    }
    match cause(Update::new().set(f.address(), address("X", "1")).set(f.address().city(), "Y").build()) {
        Invalid::PathConflict { first, second, .. } => {
            at(&first, "ad", "Product.address");
            at(&second, "ad.c", "Product.address.city");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(cause(Update::<Product>::new().build()), Invalid::EmptyUpdate));
    match cause(Update::new().set(f.attrs(), attrs(&[("$inc", 1)])).build()) {
        Invalid::ValueKey { path, key, reason } => {
            at(&path, "at", "Product.attrs");
            assert_eq!(key, "$inc");
            assert!(reason.contains('$'), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    match cause(f.attrs().entry("a.b").exists(true).into_document()) {
        Invalid::PathKey { under, key, .. } => {
            at(&under, "at", "Product.attrs");
            assert_eq!(key, "a.b");
        }
        other => panic!("{other:?}"),
    }
    let bad = f.lines().filtered("Big", |e| e.price().gt(1));
    match cause(Update::new().set(bad.qty(), 1).build()) {
        Invalid::ArrayFilterIdentifier { path, identifier: "Big" } => assert_eq!(path.stored(), "ln.$[Big]"),
        other => panic!("{other:?}"),
    }
    let (one, other) = (f.lines().filtered("k", |e| e.price().gt(1)), f.lines().filtered("k", |e| e.price().gt(2)));
    let two = cause(Update::new().set(one.qty(), 1).set(other.sku(), "k").build());
    assert!(matches!(two, Invalid::ArrayFilterConflict { identifier: "k" }), "{two:?}");
    match cause(f.scores().any(|e| e.eq(3).or(e.eq(7))).into_document()) {
        Invalid::ElementCondition { path } => at(&path, "sc", "Product.scores"),
        other => panic!("{other:?}"),
    }
    match cause(f.scores().any(|e| e.gt(1).and(e.gt(2))).into_document()) {
        Invalid::ElementOperatorTwice { path, operator } => {
            at(&path, "sc", "Product.scores");
            assert_eq!(operator, "$gt");
        }
        other => panic!("{other:?}"),
    }
    match cause(f.lines().each().sku().eq("a").into_document()) {
        Invalid::Positional { path, clause: Clause::Filter } => at(&path, "ln.$[].s", "Product.lines[].sku"),
        other => panic!("{other:?}"),
    }
    match cause(f.lines().each().price().asc().into_document()) {
        Invalid::Positional { path, clause: Clause::Sort } => at(&path, "ln.$[].p", "Product.lines[].price"),
        other => panic!("{other:?}"),
    }
    match cause(f.stock().asc().then(f.stock().desc()).into_document()) {
        Invalid::Repeated { path, clause: Clause::Sort } => at(&path, "st", "Product.stock"),
        other => panic!("{other:?}"),
    }
    match cause(Projection::only().field(f.lines().matched().price()).into_document()) {
        Invalid::Positional { path, clause: Clause::Projection } => at(&path, "ln.$.p", "Product.lines[$].price"),
        other => panic!("{other:?}"),
    }
    match cause(Projection::only().field(f.address()).field(f.address().city()).into_document()) {
        Invalid::Overlap { first, second } => {
            at(&first, "ad.c", "Product.address.city");
            at(&second, "ad", "Product.address");
        }
        other => panic!("{other:?}"),
    }
    let old = apple();
    let mut moved = old.clone();
    moved.id = ObjectId::new();
    match cause(Update::diff(&old, &moved).build()) {
        Invalid::Immutable { path, what } => {
            at(&path, "_id", "Product.id");
            assert_eq!(what, "`_id`");
        }
        other => panic!("{other:?}"),
    }
}
