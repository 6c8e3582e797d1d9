//! Click, purchase and signup events in one collection: a polymorphic model (an internally tagged enum), one
//! discriminator, a shape per variant.
//!
//! Run it with `cargo run --example polymorphic_events`: it starts the embedded test server (or uses `MONGODB_URI`),
//! syncs the collection (a `oneOf` validator tied to the discriminator, an index of purchases only), writes every
//! kind of event, and shows that filters and updates on one variant's fields never touch another variant, that a
//! query can return one variant's type, and that the server refuses documents no variant describes.

use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::prelude::*;
use odm::VariantOf;
use serde::{Deserialize, Serialize};

/// Who signed up, and from which campaign: the struct the `signup` variant wraps, readable on its own.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Signup {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "em")]
    #[odm(max_len = 254)]
    email: String,
    #[serde(rename = "cp", skip_serializing_if = "Option::is_none")]
    #[odm(max_len = 40)]
    campaign: Option<String>,
}

/// Something a visitor did.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "web", collection = "web_event", closed)]
#[odm(index(keys = "at"))]
#[odm(index(variant = "purchase", keys = "-amount"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum Event {
    /// A click at a point of a page.
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: DateTime,
        #[serde(rename = "x")]
        x: i32,
        #[serde(rename = "y")]
        y: i32,
    },
    /// A purchase, with the SKUs bought (at most 20, counted).
    Purchase {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: DateTime,
        /// In cents.
        #[serde(rename = "amt")]
        amount: i64,
        #[serde(rename = "sk")]
        #[odm(max_items = 20, counter = "sku_count")]
        skus: Vec<String>,
        #[serde(rename = "sc")]
        sku_count: i32,
    },
    /// A signup (a newtype variant: the struct's fields and the tag in one document).
    Signup(Signup),
}

fn click(x: i32, y: i32) -> Event {
    Event::Click { id: ObjectId::new(), at: DateTime::now(), x, y }
}

fn purchase(amount: i64, skus: &[&str]) -> Event {
    let skus: Vec<String> = skus.iter().map(|s| s.to_string()).collect();
    Event::Purchase { id: ObjectId::new(), at: DateTime::now(), amount, sku_count: skus.len() as i32, skus }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("polymorphic_events").await;
    let db: &odm::mongodb::Database = &test_db;

    // The validator a DBA reviews: one branch per variant, each requiring its own tag value.
    let validator = Event::validator();
    let schema = validator.get_document("$jsonSchema")?;
    assert_eq!(schema.get_array("oneOf")?.len(), 3);
    println!("validator branches: {}", schema.get_array("oneOf")?.len());
    let indexes = Event::indexes();
    assert_eq!(indexes[1].partial_filter_expression, Some(doc! { "t": { "$eq": "purchase" } }));
    println!("indexes: {}, {} (partial: {:?})", indexes[0], indexes[1], indexes[1].partial_filter_expression);
    odm::SchemaSync::new(test_db.client()).database(test_db.name()).model::<Event>().await?.require_in_sync()?;

    let events = Collection::<Event>::new(db);
    let signup = Signup {
        id: ObjectId::new(),
        at: DateTime::now(),
        email: "ada@example.com".into(),
        campaign: Some("spring".into()),
    };
    events
        .insert_many([
            click(10, 20),
            click(30, 5),
            purchase(1999, &["tea"]),
            purchase(4500, &["tea", "cup"]),
            signup.clone().into_model(),
        ])
        .await?;

    // Every variant comes back as the enum.
    let f = Event::fields();
    let all = events.find(Filter::everything()).await?;
    assert_eq!(all.len(), 5);
    println!("all events: {}", all.len());

    // A filter on a purchase field adds the discriminator itself: `x > 10` on clicks never sees purchases.
    let big = events.find(f.purchase().amount().gt(2000)).await?;
    assert!(matches!(big.as_slice(), [Event::Purchase { amount: 4500, .. }]));
    let right = events.count(f.click().x().gt(10)).await?;
    assert_eq!(right, 1);
    println!("purchases over 20.00: {}, clicks right of x=10: {right}", big.len());
    let (clicks, purchases) = (events.count(f.click().only()).await?, events.count(f.purchase().only()).await?);
    assert_eq!((clicks, purchases), (2, 2));
    println!("per variant: {clicks} clicks, {purchases} purchases");

    // An update on a variant's fields writes that variant only, and keeps its counter in step.
    let result = events
        .update_many(Filter::everything(), Update::new().push(f.purchase().skus(), "gift wrap".to_owned()))
        .await?;
    assert_eq!(result.modified, 2, "both purchases, no click or signup");
    for e in events.find(f.purchase().only()).await? {
        let Event::Purchase { skus, sku_count, .. } = e else { unreachable!("a purchase filter") };
        assert_eq!(sku_count as usize, skus.len());
    }
    println!("gift wrap added to {} purchases, counters in step", result.modified);

    // One variant's own type: the discriminator is added, and the struct comes back.
    let signups: Vec<Signup> = events.find_variant(Filter::everything()).await?;
    assert_eq!(signups, [signup]);
    println!("signups: {:?}", signups.iter().map(|s| s.email.as_str()).collect::<Vec<_>>());

    // Documents written around odm that no variant describes are refused by the server.
    let raw = db.collection::<Document>(Event::COLLECTION);
    for hostile in [
        doc! { "t": "purchase", "at": DateTime::now(), "x": 1, "y": 2 },
        doc! { "t": "refund", "at": DateTime::now(), "amt": 5_i64 },
        doc! { "at": DateTime::now(), "x": 1, "y": 2 },
        doc! { "t": "purchase", "at": DateTime::now(), "amt": 5_i64, "sk": ["a"], "sc": 3 },
    ] {
        let err = raw.insert_one(hostile).await.expect_err("no variant describes it");
        let err = odm::Error::from_write::<Event>(err);
        assert_eq!(err.code(), Some(121));
        println!("rejected: {err}");
    }
    // Ends the client's sessions while the runtime still serves it.
    test_db.close().await;
    Ok(())
}
