//! Schema evolution: a collection full of version-1 documents, a version-2 model, and the way from one to the other
//! without downtime.
//!
//! Run it with `cargo run --example versioning`: it starts the embedded test server (or uses `MONGODB_URI`), stores
//! documents as version 1 of the application wrote them (one `n` name, no version key), then, as version 2:
//! syncs (the validator accepts both versions while version-1 documents remain), reads everything as the current
//! type (migrated on the way), sees a filter on a field version 1 lacks refused until the migration, migrates the
//! collection in batches with a progress line, and syncs again, which tightens the validator to version 2 alone.

use odm::bson::{doc, oid::ObjectId, Document};
use odm::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// Version 1, as the first release stored contacts: one full name, no version key.
#[derive(Embedded, Deserialize)]
#[odm(closed)]
struct ContactV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 200)]
    name: String,
}

impl Upgrade for ContactV1 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        Contact { id: self.id, v: Version, first: first.into(), last: last.into() }
    }
}

/// Version 2: the name split in two.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "crm", collection = "crm_contact", version = 2, older(ContactV1), closed)]
struct Contact {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "f")]
    #[odm(max_len = 100)]
    first: String,
    #[serde(rename = "l")]
    #[odm(max_len = 100)]
    last: String,
}

const OLD: u64 = 3_000;

// odm's error: the raw driver's errors below convert into it, and it shows a server error by its code and message
// (the driver's own shows the server's reply as bytes).
#[tokio::main]
async fn main() -> odm::error::Result<()> {
    let test_db = odm::testing::database("versioning").await;
    let db: &odm::mongodb::Database = &test_db;
    let raw = db.collection::<Document>(Contact::COLLECTION);

    // What version 1 left behind.
    db.create_collection(Contact::COLLECTION).await?;
    let old: Vec<Document> =
        (0..OLD).map(|i| doc! { "_id": ObjectId::new(), "n": format!("Person{i} Surname{i}") }).collect();
    raw.insert_many(old).await?;

    // Version 2 starts: the validator accepts version-1 documents while they remain, and nothing else.
    let sync = || SchemaSync::new(test_db.client()).database(test_db.name()).model::<Contact>().mode(SyncMode::Apply);
    sync().await?.require_in_sync()?;
    let live = collection_validator(db).await?;
    assert_eq!(live, odm::version::accepting_older::<Contact>().expect("reads version 1"));
    println!("validator while version-1 documents remain: {}", title(&live));
    raw.insert_one(doc! { "n": "Still Version1" }).await?; // a version-1 replica still writing: accepted
    let hybrid = raw.insert_one(doc! { "_v": 2, "n": "Half Migrated" }).await;
    assert!(hybrid.is_err(), "a hybrid of the two versions is refused");

    // Every read returns the current type, migrating on the way.
    let contacts = Collection::<Contact>::new(db);
    let sample = contacts.find(Filter::everything()).limit(2).await?;
    assert!(sample.iter().all(|c| c.first.starts_with("Person")));
    println!("read as version 2: {:?}", sample.iter().map(|c| (&c.first, &c.last)).collect::<Vec<_>>());

    // A filter on a field version 1 stores otherwise cannot match version-1 documents, which reads return with a
    // `last` name: refused while they remain, rather than a silent undercount.
    let f = Contact::fields();
    let early = contacts.count(f.last().eq("Surname7")).await;
    assert!(matches!(early, Err(odm::Error::FilterNotMigrated(_))), "{early:?}");
    println!("a filter on `last` before the migration: refused");

    // Migrate the collection: batches of 500, a progress line per batch.
    let batches = AtomicU64::new(0);
    let report = contacts
        .migrate()
        .batch_size(500)
        .on_progress(|p| {
            batches.fetch_add(1, Ordering::Relaxed);
            let eta = p.eta().map_or_else(|| "?".to_owned(), |e| format!("{:.1}s", e.as_secs_f64()));
            println!("  migrated {}/{} ({:.0}%, {:.0}/s, eta {eta})", p.done, p.total, p.fraction() * 100.0, p.rate());
        })
        .await?;
    println!("{report}");
    assert!(report.is_complete());
    assert_eq!(report.migrated, OLD + 1);
    assert!(batches.load(Ordering::Relaxed) >= 7);
    assert_eq!(raw.count_documents(doc! { "_v": 2 }).await?, OLD + 1);
    assert_eq!(contacts.count(f.last().eq("Surname7")).await?, 1, "none left: the filter finds every match");

    // None left: the next sync tightens the validator to version 2 alone.
    let plan = sync().plan().await?;
    println!("plan once migrated:\n{plan}");
    sync().await?.require_in_sync()?;
    let live = collection_validator(db).await?;
    assert_eq!(live, Contact::validator());
    println!("validator now: {}", title(&live));
    let late = raw.insert_one(doc! { "n": "Too Late" }).await;
    assert!(late.is_err(), "version-1 documents are refused once none are left");
    println!("a version-1 write is refused now");
    // Ends the client's sessions while the runtime still serves it.
    test_db.close().await;
    Ok(())
}

async fn collection_validator(db: &odm::mongodb::Database) -> odm::mongodb::error::Result<Document> {
    let spec = db.run_command(doc! { "listCollections": 1, "filter": { "name": Contact::COLLECTION } }).await?;
    let first = spec.get_document("cursor").and_then(|c| c.get_array("firstBatch")).ok().and_then(|b| b.first());
    let options = first.and_then(|c| c.as_document()).and_then(|c| c.get_document("options").ok());
    Ok(options.and_then(|o| o.get_document("validator").ok()).cloned().unwrap_or_default())
}

fn title(validator: &Document) -> &str {
    validator.get_document("$jsonSchema").and_then(|s| s.get_str("title")).unwrap_or("(none)")
}
