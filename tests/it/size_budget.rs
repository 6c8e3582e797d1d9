//! The document-size budget (rule `model-size`): each model's computed worst case is the exact encoded length of a
//! worst-case value (strings at their bound in 4-byte characters, arrays full, options present, the largest variant
//! of each enum), what the server stores for such a value has that length too, and an unbounded budget names the
//! field without a bound. The sync report lists every model's budget.

use odm::bson::{doc, oid::ObjectId, DateTime, Decimal128, Document};
use odm::size::{Budget, Reason, Unbounded};
use odm::{Collection, Embedded, Model, SchemaSync};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A short code: the newtype carries the bound of the strings it holds.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Code(#[odm(max_len = 6)] String);

/// One line of an order: every field bounded.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Line {
    #[serde(rename = "n")]
    #[odm(max_len = 20)]
    name: String,
    #[serde(rename = "p")]
    price: f64,
    #[serde(rename = "q")]
    quantity: i32,
    #[serde(rename = "d")]
    dims: [i64; 3],
    #[serde(rename = "c")]
    code: Code,
}

#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Wire {
    #[serde(rename = "ib")]
    #[odm(max_len = 34)]
    iban: String,
}

/// Internally tagged: the largest variant is the wire transfer.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "k")]
enum Payment {
    #[serde(rename = "card")]
    Card {
        #[serde(rename = "l4")]
        #[odm(max_len = 4)]
        last4: String,
    },
    #[serde(rename = "cash")]
    Cash,
    #[serde(rename = "wire")]
    Wire(Wire),
}

/// Stored as a string: the longest name is the worst case.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
enum Status {
    #[serde(rename = "open")]
    Open,
    #[serde(rename = "shipped")]
    Shipped,
}

/// Adjacently tagged: `{t: "txt", c: {b: …}}`.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Remark {
    #[serde(rename = "txt")]
    Text {
        #[serde(rename = "b")]
        #[odm(max_len = 8)]
        body: String,
    },
    #[serde(rename = "no")]
    Nothing,
}

#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "it")]
    #[odm(max_items = 12)]
    items: Vec<Line>,
    #[serde(rename = "pm")]
    payment: Payment,
    #[serde(rename = "st")]
    status: Status,
    #[serde(rename = "rm", skip_serializing_if = "Option::is_none")]
    remark: Option<Remark>,
    #[serde(rename = "at")]
    placed: DateTime,
    #[serde(rename = "tg")]
    #[odm(max_items = 3)]
    tags: Vec<Code>,
    #[serde(rename = "ok")]
    paid: bool,
    #[serde(rename = "tot")]
    total: Decimal128,
    #[serde(rename = "nk")]
    #[odm(nullable)]
    nick: Option<Code>,
    #[serde(rename = "cn")]
    #[odm(max_len = 3)]
    country: String,
}

/// A string of `n` characters of 4 bytes each, the widest UTF-8 has.
fn widest(n: usize) -> String {
    "😀".repeat(n)
}

fn worst_order() -> Order {
    let line =
        Line { name: widest(20), price: f64::MAX, quantity: i32::MIN, dims: [i64::MAX; 3], code: Code(widest(6)) };
    Order {
        id: ObjectId::new(),
        items: vec![line; 12],
        payment: Payment::Wire(Wire { iban: widest(34) }),
        status: Status::Shipped,
        remark: Some(Remark::Text { body: widest(8) }),
        placed: DateTime::now(),
        tags: vec![Code(widest(6)); 3],
        paid: true,
        total: "12345.6789".parse().expect("decimal"),
        nick: Some(Code(widest(6))),
        country: widest(3),
    }
}

/// A model that declares no `_id`: the driver adds an ObjectId, which the budget counts.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "shop_visit")]
struct Visit {
    #[serde(rename = "u")]
    #[odm(max_len = 5)]
    user: String,
    #[serde(rename = "w")]
    when: DateTime,
}

/// A polymorphic model: its largest variant is its worst case.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    #[serde(rename = "c")]
    Click {
        #[serde(rename = "x")]
        x: i32,
    },
    #[serde(rename = "s")]
    Search {
        #[serde(rename = "q")]
        #[odm(max_len = 30)]
        query: String,
    },
}

/// An element `_id: ObjectId`, which the driver adds to a document without one.
const IMPLICIT_ID: u64 = 1 + 4 + 12;

fn encoded_len<T: Serialize>(value: &T) -> u64 {
    odm::bson::serialize_to_vec(value).expect("encodes").len() as u64
}

#[test]
fn the_budget_is_the_length_of_a_worst_case_value() {
    assert_eq!(Order::size_budget(), Budget::AtMost(encoded_len(&worst_order())));
    let visit = Visit { user: widest(5), when: DateTime::now() };
    assert_eq!(Visit::size_budget(), Budget::AtMost(encoded_len(&visit) + IMPLICIT_ID));
    let search = Event::Search { query: widest(30) };
    assert_eq!(Event::size_budget(), Budget::AtMost(encoded_len(&search) + IMPLICIT_ID));
    // Smaller values stay under it: a shorter string, fewer items, an absent option, a smaller variant.
    let mut small = worst_order();
    small.items.truncate(3);
    small.remark = None;
    small.payment = Payment::Cash;
    small.country = "fr".into();
    assert!(encoded_len(&small) < Order::size_budget().bytes().expect("bounded"));
}

#[tokio::test]
async fn the_server_stores_a_worst_case_document_in_exactly_its_budget() {
    let db = odm::testing::database("size_budget").await;
    SchemaSync::new(db.client())
        .database(db.name())
        .model::<Order>()
        .model::<Visit>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync");
    let orders = Collection::<Order>::new(&db);
    let worst = worst_order();
    orders.insert_one(&worst).await.expect("the validator accepts the worst case");
    let stored = db.collection::<Document>("shop_order").find_one(doc! { "_id": worst.id }).await.expect("read");
    let stored = stored.expect("stored");
    assert_eq!(Budget::AtMost(encoded_len(&stored)), Order::size_budget());
    let read = orders.find_one(Order::fields().id().eq(worst.id)).await.expect("typed read");
    assert_eq!(read.as_ref(), Some(&worst));

    let visits = Collection::<Visit>::new(&db);
    visits.insert_one(Visit { user: widest(5), when: DateTime::now() }).await.expect("insert");
    let stored = db.collection::<Document>("shop_visit").find_one(doc! {}).await.expect("read").expect("stored");
    assert!(stored.contains_key("_id"));
    assert_eq!(Budget::AtMost(encoded_len(&stored)), Visit::size_budget());
    // One character more than the bound is refused by the server's `maxLength`, which counts characters.
    let over = doc! { "_id": ObjectId::new(), "u": widest(6), "w": DateTime::now() };
    assert!(db.collection::<Document>("shop_visit").insert_one(over).await.is_err());
    db.close().await;
}

#[derive(Embedded, Serialize, Deserialize)]
struct Memo {
    #[serde(rename = "b")]
    body: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_memo_book")]
struct MemoBook {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    #[odm(max_items = 3)]
    memos: Vec<Memo>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "tg")]
    #[odm(max_items = 5)]
    tags: Vec<String>,
    #[serde(rename = "pr")]
    prefs: HashMap<String, i32>,
}

#[test]
fn an_unbounded_budget_names_the_field_without_a_bound() {
    let Budget::Unbounded(memo) = MemoBook::size_budget() else { panic!("a memo's body has no bound") };
    assert_eq!(
        memo,
        Unbounded { reason: Reason::Text, holder: Some(("Memo", "body")), via: Some(("MemoBook", "memos")) }
    );
    assert_eq!(
        MemoBook::size_budget().to_string(),
        "unbounded: `MemoBook.memos` holds `Memo.body`, which holds a string without a length bound (`max_len`)"
    );
    // The first field without a bound is the one named: the tags' strings, before the map; the advice is the element
    // type's bound, which `max_len` on the array is not (`tests/pass/size_budget_advice.rs` compiles it).
    let Budget::Unbounded(post) = Post::size_budget() else { panic!("a tag has no length bound") };
    assert_eq!((post.reason, post.holder, post.via), (Reason::TextItems, Some(("Post", "tags")), None));
    assert!(post.to_string().contains("struct Name(#[odm(max_len = N)] String);` and `Vec<Name>`"), "{post}");
}

#[derive(Embedded, Serialize, Deserialize)]
struct Block {
    #[serde(rename = "t")]
    #[odm(max_len = 100_000)]
    text: String,
}

/// Over 16 MiB in the worst case (100 blocks of up to 400 KB), stored anyway: sync reports it.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_archive", size_budget = "warn")]
struct Archive {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "bl")]
    #[odm(max_items = 100)]
    blocks: Vec<Block>,
}

#[tokio::test]
async fn the_sync_report_lists_every_models_budget() {
    assert!(Archive::size_budget().exceeds_document_limit());
    let db = odm::testing::database("size_report").await;
    let report = SchemaSync::new(db.client())
        .database(db.name())
        .model::<Order>()
        .model::<MemoBook>()
        .model::<Archive>()
        .await
        .expect("sync");
    let ns = |c: &str| format!("{}.{c}", db.name());
    let text = report.to_string();
    let order = Order::size_budget().bytes().expect("bounded");
    let expected = [
        "document size budgets:".to_owned(),
        format!("- {}: {} per document", ns("shop_order"), Order::size_budget()),
        format!(
            "- {}: unbounded: `MemoBook.memos` holds `Memo.body`, which holds a string without a length bound \
             (`max_len`)",
            ns("shop_memo_book")
        ),
        format!(
            "- {}: at most 38.2 MiB (40,001,721 bytes) per document, OVER the 16 MiB MongoDB stores in one document \
             (`size_budget = \"warn\"`): a write of a document that large fails",
            ns("shop_archive")
        ),
    ];
    let tail: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("document size budgets")).collect();
    assert_eq!(tail, expected, "{text}");
    // The order's size for people: kibibytes, tenths rounded up, and the exact count.
    let kib = (order * 10).div_ceil(1024);
    let exact = order.to_string();
    assert_eq!(
        Order::size_budget().to_string(),
        format!(
            "at most {}.{} KiB ({},{} bytes)",
            kib / 10,
            kib % 10,
            &exact[..exact.len() - 3],
            &exact[exact.len() - 3..]
        )
    );
    let budgets: Vec<(String, Budget)> = report.budgets.iter().map(|(n, b)| (n.collection.clone(), *b)).collect();
    assert_eq!(
        budgets,
        [
            ("shop_order".to_owned(), Order::size_budget()),
            ("shop_memo_book".to_owned(), MemoBook::size_budget()),
            ("shop_archive".to_owned(), Archive::size_budget()),
        ]
    );
    db.close().await;
}
