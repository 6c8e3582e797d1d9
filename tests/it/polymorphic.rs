//! Polymorphic collections against a real server: `#[derive(Model)]` on an internally tagged enum stores every
//! variant in one collection, told apart by the discriminator (serde's tag). The validator is a `oneOf` with one
//! branch per variant, each requiring its own tag value; counters, bounds and closed documents hold inside
//! variants, each check guarded by the discriminator. Every hostile document is written around odm with the raw
//! driver.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::{Collection, Embedded, Filter, Model, Update, VariantOf};
use serde::{Deserialize, Serialize};

/// Who signed up.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Signup {
    #[serde(rename = "em")]
    #[odm(max_len = 64)]
    email: String,
    #[serde(rename = "src")]
    source: Source,
}

/// Where a visitor came from.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Source {
    #[serde(rename = "c")]
    campaign: String,
}

/// A visitor sent by another (a newtype variant: the discriminator is written into this struct's document).
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Referral {
    #[serde(rename = "by")]
    by: String,
    #[serde(rename = "tg")]
    #[odm(max_items = 3)]
    tags: Vec<String>,
}

/// Something a visitor did: one collection, one shape per variant.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "web_event", closed)]
#[odm(index(variant = "purchase", keys = "-amount, coupon"), index(variant = "click", keys = "x, y"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum Event {
    /// A click on the page.
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "x")]
        x: i32,
        #[serde(rename = "y")]
        y: i32,
    },
    /// A purchase, with the SKUs bought (counted).
    Purchase {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "amt")]
        amount: i64,
        #[serde(rename = "sk")]
        #[odm(max_items = 5, counter = "sku_count")]
        skus: Vec<String>,
        #[serde(rename = "sc")]
        sku_count: i32,
        #[serde(rename = "cp", skip_serializing_if = "Option::is_none")]
        #[odm(max_len = 12)]
        coupon: Option<String>,
    },
    /// A signup, stored under a value of its own.
    #[serde(rename = "sig")]
    Signup {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "s")]
        signup: Signup,
    },
    /// A referral.
    #[serde(rename = "ref")]
    Referral(Referral),
    /// A keep-alive: the tag and `_id` only.
    Ping {
        #[serde(rename = "_id")]
        id: ObjectId,
    },
}

fn click() -> Event {
    Event::Click { id: ObjectId::new(), x: 10, y: 20 }
}

fn purchase(amount: i64) -> Event {
    Event::Purchase {
        id: ObjectId::new(),
        amount,
        skus: vec!["a-1".into(), "b-2".into()],
        sku_count: 2,
        coupon: Some("SPRING".into()),
    }
}

fn signup() -> Event {
    let signup = Signup { email: "ada@example.com".into(), source: Source { campaign: "spring".into() } };
    Event::Signup { id: ObjectId::new(), signup }
}

fn referral() -> Event {
    Event::Referral(Referral { by: "grace".into(), tags: vec!["friend".into()] })
}

fn ping() -> Event {
    Event::Ping { id: ObjectId::new() }
}

fn every_variant() -> Vec<Event> {
    vec![click(), purchase(30), signup(), referral(), ping()]
}

#[test]
fn the_validator_is_one_of_the_variants_each_requiring_its_tag() {
    let v = Event::validator();
    let schema = v.get_document("$jsonSchema").expect("$jsonSchema");
    assert_eq!(schema.get_str("bsonType").ok(), Some("object"));
    assert_eq!(schema.get_array("required").expect("required"), &vec![Bson::from("t")]);
    let tag = schema.get_document("properties").and_then(|p| p.get_document("t")).expect("tag property");
    assert_eq!(tag, &doc! { "bsonType": "string", "enum": ["click", "purchase", "sig", "ref", "ping"] });
    let branches = schema.get_array("oneOf").expect("oneOf");
    assert_eq!(branches.len(), 5);
    for (branch, value) in branches.iter().zip(["click", "purchase", "sig", "ref", "ping"]) {
        let b = branch.as_document().expect("a branch is a document");
        let required = b.get_array("required").expect("required");
        assert!(required.contains(&Bson::from("t")), "{value}: {b}");
        let props = b.get_document("properties").expect("properties");
        assert_eq!(props.get_document("t").expect("t"), &doc! { "bsonType": "string", "enum": [value] });
        assert_eq!(props.get_document("_id").expect("_id"), &doc! { "bsonType": "objectId" });
        // `closed` closes every variant and every level it owns.
        assert_eq!(b.get_bool("additionalProperties").ok(), Some(false), "{value}");
    }
    let purchase = branches[1].as_document().expect("purchase");
    let props = purchase.get_document("properties").expect("properties");
    assert_eq!(props.get_document("sk").and_then(|s| s.get_i64("maxItems")).ok(), Some(5));
    assert_eq!(props.get_document("cp").and_then(|s| s.get_i64("maxLength")).ok(), Some(12));
    assert!(!purchase.get_array("required").expect("required").contains(&Bson::from("cp")));
    let signup = branches[2].as_document().expect("signup").get_document("properties").expect("properties");
    let inner = signup.get_document("s").expect("s");
    assert_eq!(inner.get_bool("additionalProperties").ok(), Some(false), "embedded levels are closed too: {inner}");
    // The purchase's counter check applies to purchases only.
    let expr = v.get_document("$expr").expect("one counter check");
    let guard = expr.get_array("$or").expect("guarded by the discriminator");
    assert_eq!(guard[0], Bson::from(doc! { "$ne": ["$t", "purchase"] }));
}

#[test]
fn every_variant_serializes_to_a_document_the_validator_describes() {
    for e in every_variant() {
        let d = odm::bson::serialize_to_document(&e).expect("serialize");
        assert!(d.get_str("t").is_ok(), "{d}");
    }
    assert_eq!(<Event as odm::BsonSchema>::type_meta().expect("table").discriminator(), Some("t"));
}

#[tokio::test]
async fn every_variant_round_trips_through_one_collection() {
    let (_db, events) = support::setup::created::<Event>("poly_round_trip").await;
    let all = every_variant();
    events.insert_many(all.clone()).await.expect("every variant is accepted");
    let mut back: Vec<Event> = events.find(Filter::everything()).await.expect("find");
    assert_eq!(back.len(), all.len());
    for e in &all {
        let i = back.iter().position(|b| b == e).unwrap_or_else(|| panic!("{e:?} comes back"));
        back.remove(i);
    }
    let one = events.find_one(Filter::everything()).await.expect("find_one");
    assert!(one.is_some());
    assert_eq!(events.count(Filter::everything()).await.expect("count"), 5);
}

#[tokio::test]
async fn the_server_refuses_documents_no_variant_describes() {
    let (_db, raw) = support::setup::created_raw::<Event>("poly_hostile").await;
    let hostile: Vec<(&str, Document)> = vec![
        ("no tag", doc! { "x": 1, "y": 2 }),
        ("unknown tag", doc! { "t": "scroll", "x": 1, "y": 2 }),
        ("tag of another type", doc! { "t": 1, "x": 1, "y": 2 }),
        ("a click missing a field", doc! { "t": "click", "x": 1 }),
        ("a click with a purchase's field", doc! { "t": "click", "x": 1, "y": 2, "amt": 5_i64 }),
        ("a purchase with a click's fields", doc! { "t": "click", "amt": 5_i64, "sk": [], "sc": 0 }),
        ("a purchase tagged as a click", doc! { "t": "click", "amt": 5_i64, "sk": [], "sc": 0, "x": 1, "y": 2 }),
        ("a counter out of step", doc! { "t": "purchase", "amt": 5_i64, "sk": ["a"], "sc": 2 }),
        ("over the bound", doc! { "t": "purchase", "amt": 5_i64, "sk": ["a", "b", "c", "d", "e", "f"], "sc": 6 }),
        ("a string too long", doc! { "t": "purchase", "amt": 5_i64, "sk": [], "sc": 0, "cp": "x".repeat(13) }),
        ("a wrong type", doc! { "t": "purchase", "amt": "5", "sk": [], "sc": 0 }),
        ("an open level", doc! { "t": "sig", "s": { "em": "a@b", "src": { "c": "x", "stray": 1 } } }),
        ("a ping with a stray key", doc! { "t": "ping", "x": 1 }),
        ("a referral over its bound", doc! { "t": "ref", "by": "a", "tg": ["1", "2", "3", "4"] }),
        ("a referral with a stray key", doc! { "t": "ref", "by": "a", "tg": [], "x": 1 }),
    ];
    for (what, d) in hostile {
        let err = raw.insert_one(&d).await.expect_err(what);
        let err = odm::Error::from_write::<Event>(err);
        assert_eq!(err.code(), Some(121), "{what}: {err}");
    }
    // What odm writes is accepted, and so is the same document written by hand.
    for e in every_variant() {
        raw.insert_one(odm::bson::serialize_to_document(&e).expect("serialize")).await.expect("accepted");
    }
    raw.insert_one(doc! { "t": "purchase", "amt": 5_i64, "sk": ["a"], "sc": 1 }).await.expect("a valid purchase");
}

#[tokio::test]
async fn a_counter_out_of_step_is_named_in_rust_terms() {
    let (_db, raw) = support::setup::created_raw::<Event>("poly_counter_error").await;
    let err = raw.insert_one(doc! { "t": "purchase", "amt": 5_i64, "sk": ["a"], "sc": 2 }).await.expect_err("refused");
    let text = odm::Error::from_write::<Event>(err).to_string();
    assert!(text.contains("skus") && text.contains("sku_count"), "{text}");
}

#[test]
fn a_filter_on_a_variant_field_adds_the_discriminator() {
    let f = Event::fields();
    assert_eq!(f.purchase().amount().key(), "amt");
    assert_eq!(f.purchase().only().into_document().unwrap(), doc! { "t": "purchase" });
    assert_eq!(
        f.purchase().amount().gt(10).into_document().unwrap(),
        doc! { "t": "purchase", "amt": { "$gt": 10_i64 } }
    );
    // Two fields of one variant share the discriminator.
    let both = f.purchase().amount().gt(10).and(f.purchase().skus().contains("a-1"));
    assert_eq!(both.into_document().unwrap(), doc! { "t": "purchase", "amt": { "$gt": 10_i64 }, "sk": "a-1" });
    // Fields of two variants: no document is both.
    let neither = f.purchase().amount().gt(10).and(f.click().x().eq(1));
    assert!(neither.into_document().unwrap().contains_key("$and"));
    let either = f.purchase().amount().gt(10).or(f.click().x().eq(1));
    assert_eq!(
        either.into_document().unwrap(),
        doc! { "$or": [{ "t": "purchase", "amt": { "$gt": 10_i64 } }, { "t": "click", "x": 1 }] }
    );
    // Nested fields, newtype variants and unit-like variants.
    assert_eq!(
        f.signup().signup().source().campaign().eq("spring").into_document().unwrap(),
        doc! { "t": "sig", "s.src.c": "spring" }
    );
    assert_eq!(f.referral().by().eq("grace").into_document().unwrap(), doc! { "t": "ref", "by": "grace" });
    assert_eq!(f.ping().only().into_document().unwrap(), doc! { "t": "ping" });
}

#[tokio::test]
async fn filters_on_variant_fields_never_match_another_variant() {
    let (db, events) = support::setup::seeded::<Event, _>("poly_filters", every_variant()).await;
    events.insert_one(purchase(5)).await.expect("insert");
    // A document of another variant holding a key of the same name (the collection is open to raw writes when
    // validation is off for this one write): the discriminator keeps it out.
    let raw = db.collection::<Document>(Event::COLLECTION);
    support::raw::insert_outside(&raw, vec![doc! { "t": "click", "x": 1, "y": 2, "amt": 1000_i64 }]).await;
    let f = Event::fields();
    let big: Vec<Event> = events.find(f.purchase().amount().gt(10)).await.expect("find");
    assert_eq!(big.len(), 1);
    assert!(matches!(big[0], Event::Purchase { amount: 30, .. }), "{big:?}");
    assert_eq!(events.count(f.purchase().only()).await.expect("count"), 2);
    assert_eq!(events.count(f.referral().by().eq("grace")).await.expect("count"), 1);
    let one = events.find_one(f.signup().signup().email().eq("ada@example.com")).await.expect("find_one");
    assert!(matches!(one, Some(Event::Signup { .. })), "{one:?}");
    let sorted: Vec<Event> = events.find(f.purchase().only()).sort(f.purchase().amount().asc()).await.expect("sort");
    assert!(matches!(sorted[..], [Event::Purchase { amount: 5, .. }, Event::Purchase { amount: 30, .. }]));
}

#[tokio::test]
async fn updates_of_variant_fields_write_only_that_variant_and_keep_counters_in_step() {
    let (_db, events) = support::setup::seeded::<Event, _>("poly_updates", every_variant()).await;
    let f = Event::fields();
    // Every document matches the filter, but only purchases hold `amount`: the update adds the discriminator.
    let r = events.update_many(Filter::everything(), Update::new().set(f.purchase().amount(), 99)).await.expect("set");
    assert_eq!((r.matched, r.modified), (1, 1));
    // A push to a counted array inside a variant moves its counter in the same update.
    let r =
        events.update_one(Filter::everything(), Update::new().push(f.purchase().skus(), "c-3")).await.expect("push");
    assert_eq!(r.modified, 1);
    let Some(Event::Purchase { amount, skus, sku_count, .. }) =
        events.find_one(f.purchase().only()).await.expect("find")
    else {
        panic!("a purchase")
    };
    assert_eq!((amount, skus.len(), sku_count), (99, 3, 3));
    // Nested fields of a variant, and a newtype variant's fields.
    let r = events
        .update_many(Filter::everything(), Update::new().set(f.signup().signup().source().campaign(), "autumn"))
        .await
        .expect("nested");
    assert_eq!(r.modified, 1);
    let r =
        events.update_many(Filter::everything(), Update::new().push(f.referral().tags(), "vip")).await.expect("ref");
    assert_eq!(r.modified, 1);
    // One document is one variant: an update writing two variants' fields is refused before sending.
    let both = Update::new().set(f.purchase().amount(), 1).set(f.click().x(), 1);
    let err = events.update_many(Filter::everything(), both).await.expect_err("two variants");
    match &err {
        odm::Error::InvalidOperation {
            cause: odm::error::Invalid::MixedVariants { path, variant, other, tag },
            ..
        } => {
            assert_eq!((*variant, *other), ("click", "purchase"), "{err}");
            assert!(path.rust().is_some_and(|p| p.ends_with(".x")), "{path:?}");
            assert!(!tag.is_empty());
        }
        other => panic!("expected MixedVariants, got {other:?}"),
    }
    assert!(err.to_string().contains("variant"), "{err}");
    // The built update says which variant it writes.
    let built = Update::<Event>::new().set(f.click().y(), 3).build().expect("build");
    assert_eq!(built.variant(), Some(&doc! { "t": "click" }));
}

#[tokio::test]
async fn update_changes_rewrites_a_changed_variant_key_by_key() {
    let (db, events) = support::setup::created::<Event>("poly_update_changes").await;
    let old = click();
    let Event::Click { id, .. } = old else { unreachable!() };
    events.insert_one(&old).await.expect("insert");
    let f = Event::fields();
    // Same variant: only the changed field.
    let moved = Event::Click { id, x: 11, y: 20 };
    let u = Update::diff(&old, &moved).build().expect("diff");
    assert_eq!(u.update, doc! { "$set": { "x": 11 } });
    events.update_changes(f.click().id().eq(id), &old, &moved).await.expect("same variant");
    // Another variant: the discriminator is set, the old variant's fields unset.
    let paid = Event::Purchase { id, amount: 7, skus: vec![], sku_count: 0, coupon: None };
    events.update_changes(f.click().id().eq(id), &moved, &paid).await.expect("another variant");
    let back = events.find_one(f.purchase().id().eq(id)).await.expect("find");
    assert_eq!(back, Some(paid));
    let raw = db.collection::<Document>(Event::COLLECTION);
    let stored = raw.find_one(doc! { "_id": id }).await.expect("raw").expect("stored");
    assert!(!stored.contains_key("x") && !stored.contains_key("y"), "{stored}");
}

#[tokio::test]
async fn a_newtype_variant_is_read_as_the_struct_it_wraps() {
    let (_db, events) = support::setup::seeded::<Event, _>("poly_find_variant", every_variant()).await;
    let other = Referral { by: "alan".into(), tags: vec![] };
    events.insert_one(other.clone().into_model()).await.expect("insert");
    let f = Event::fields();
    let all: Vec<Referral> =
        events.find_variant(Filter::everything()).sort(f.referral().by().asc()).await.expect("find_variant");
    assert_eq!(all.iter().map(|r| r.by.as_str()).collect::<Vec<_>>(), ["alan", "grace"]);
    let grace: Option<Referral> = events.find_one_variant(f.referral().by().eq("grace")).await.expect("find_one");
    assert_eq!(grace.map(|r| r.tags), Some(vec!["friend".to_owned()]));
    // The discriminator is part of the filter: a filter matching every variant still returns referrals only.
    assert_eq!(events.find_variant::<Referral>(Filter::everything()).limit(10).await.expect("all").len(), 2);
    assert_eq!(<Referral as VariantOf<Event>>::TAG, ("t", "ref"));
}

/// Fields every variant has alike: paths without a discriminator.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "web_visit")]
#[serde(tag = "k")]
enum Visit {
    #[serde(rename = "v")]
    View {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: odm::bson::DateTime,
        #[serde(rename = "p")]
        page: String,
    },
    #[serde(rename = "l")]
    Leave {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: odm::bson::DateTime,
    },
}

#[tokio::test]
async fn fields_every_variant_shares_are_paths_of_the_whole_model() {
    let (_db, visits) = support::setup::created::<Visit>("poly_common").await;
    let (a, b) = (ObjectId::new(), ObjectId::new());
    let now = odm::bson::DateTime::now();
    visits.insert_one(Visit::View { id: a, at: now, page: "/".into() }).await.expect("insert");
    visits.insert_one(Visit::Leave { id: b, at: now }).await.expect("insert");
    let f = Visit::fields();
    assert_eq!(f.id().eq(b).into_document().unwrap(), doc! { "_id": b });
    assert_eq!(visits.find_one(f.id().eq(b)).await.expect("by id"), Some(Visit::Leave { id: b, at: now }));
    assert_eq!(visits.count(f.at().lte(now)).await.expect("count"), 2);
    assert_eq!(visits.count(f.view().at().lte(now)).await.expect("count"), 1);
}

#[tokio::test]
async fn an_index_of_one_variant_holds_that_variant_s_documents_only() {
    let indexes = Event::indexes();
    let shown: Vec<(String, Document, Option<Document>)> =
        indexes.iter().map(|i| (i.name.clone(), i.keys.clone(), i.partial_filter_expression.clone())).collect();
    assert_eq!(
        shown,
        [
            ("idx_amt_cp".to_owned(), doc! { "amt": -1, "cp": 1 }, Some(doc! { "t": { "$eq": "purchase" } })),
            ("idx_x_y".to_owned(), doc! { "x": 1, "y": 1 }, Some(doc! { "t": { "$eq": "click" } })),
        ]
    );
    let db = odm::testing::database("poly_indexes").await;
    let sync = || odm::SchemaSync::new(db.client()).database(db.name()).model::<Event>();
    sync().await.expect("sync").require_in_sync().expect("created");
    assert!(sync().plan().await.expect("plan").is_in_sync(), "the server keeps them as declared");
    let events = Collection::<Event>::new(&db);
    events.insert_many([click(), purchase(5), purchase(9)]).await.expect("insert");
    let top = events.find(Event::fields().purchase().amount().gt(1)).sort(Event::fields().purchase().amount().desc());
    let amounts: Vec<i64> = top
        .await
        .expect("the partial index's own filter")
        .into_iter()
        .map(|e| match e {
            Event::Purchase { amount, .. } => amount,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(amounts, [9, 5]);
}

#[tokio::test]
async fn the_schema_checker_explains_each_document_by_its_own_variant() {
    let db = odm::testing::database("poly_check").await;
    // Written before the validator: one document of each kind of damage, and good ones.
    db.create_collection(Event::COLLECTION).await.unwrap();
    let events = Collection::<Event>::new(&db);
    events.insert_many([click(), purchase(5)]).await.unwrap();
    let raw = db.collection::<Document>(Event::COLLECTION);
    let (bad_click, bad_purchase) = (ObjectId::new(), ObjectId::new());
    raw.insert_many([
        doc! { "_id": bad_click, "t": "click", "x": "ten", "y": 2 },
        doc! { "_id": bad_purchase, "t": "purchase", "amt": 5_i64, "sk": ["a"], "sc": 3 },
    ])
    .await
    .unwrap();
    let synced = odm::SchemaSync::new(db.client())
        .database(db.name())
        .model::<Event>()
        .mode(odm::SyncMode::Apply)
        .await
        .unwrap();
    assert!(!synced.is_in_sync(), "staged as moderate/warn while documents fail it: {synced}");
    let report = events.check_schema().await.expect("check");
    assert_eq!((report.checked, report.failing), (4, 2), "{report}");
    let shown: Vec<(odm::check::Check, String, Vec<Bson>)> =
        report.findings.iter().map(|f| (f.check, f.stored_path.clone(), f.sample_ids.clone())).collect();
    assert!(shown.contains(&(odm::check::Check::Invalid, "x".into(), vec![bad_click.into()])), "{report}");
    assert!(shown.contains(&(odm::check::Check::Counter, "sc".into(), vec![bad_purchase.into()])), "{report}");
    assert!(!report.findings.iter().any(|f| f.check == odm::check::Check::Other), "every failure explained: {report}");
}

/// The validation error of inserting `d` around odm (the raw driver) into the strict collection of `Event`.
async fn refused(raw: &odm::mongodb::Collection<Document>, d: Document) -> odm::error::ValidationError {
    match odm::Error::from_write::<Event>(raw.insert_one(&d).await.expect_err("refused")) {
        odm::Error::Validation(v) => *v,
        other => panic!("not a validation error: {other}"),
    }
}

#[tokio::test]
async fn a_document_of_no_variant_is_explained_variant_by_variant_each_failure_once() {
    let (_db, raw) = support::setup::created_raw::<Event>("poly_no_variant").await;

    // A purchase without its tag: every variant fails, each for its own reasons and all for the missing tag.
    let v = refused(&raw, doc! { "amt": 5_i64, "sk": [], "sc": 0 }).await;
    let text = v.to_string();
    println!("{text}");
    assert_eq!(text.matches("Event.t: required").count(), 1, "{text}");
    assert!(
        text.starts_with(
            "Event: document failed validation: Event.t: required (expected present, found missing); as click: "
        ),
        "{text}"
    );
    let click =
        "as click: Event.amount: additionalProperties (expected no such key (closed document), found extra key), \
                 Event.skus: additionalProperties";
    assert!(text.contains(click), "{text}");
    for variant in ["sig", "ref", "ping"] {
        assert_eq!(text.matches(&format!("; as {variant}: ")).count(), 1, "{variant}: {text}");
    }
    assert!(
        text.contains("as sig: Event.amount: additionalProperties") && text.contains("Event.signup: required"),
        "{text}"
    );
    // Each failure once, and each variant's failures together.
    for (i, f) in v.failures.iter().enumerate() {
        assert!(!v.failures[..i].contains(f), "{f} twice: {text}");
    }
    let groups: Vec<Option<&str>> = v.failures.iter().map(|f| f.variant.as_deref()).collect();
    let mut seen: Vec<Option<&str>> = Vec::new();
    for g in groups.iter().copied() {
        if seen.last() != Some(&g) {
            assert!(!seen.contains(&g), "{g:?} split: {text}");
            seen.push(g);
        }
    }
    assert_eq!(seen, [None, Some("click"), Some("sig"), Some("ref"), Some("ping")], "{text}");

    // An unknown tag is said once, by the tag's own list of variants, not once per variant.
    let text = refused(&raw, doc! { "t": "bogus", "amt": 5_i64 }).await.to_string();
    println!("{text}");
    assert_eq!(text.matches("Event.t: enum").count(), 1, "{text}");
    assert!(
        text.contains("Event.t: enum (expected click or purchase or sig or ref or ping, found bogus); as click: "),
        "{text}"
    );
    assert!(
        text.contains(
            "; as purchase: Event.skus: required (expected present, found missing), Event.sku_count: required"
        ),
        "{text}"
    );

    // A document of one variant is explained by that variant alone, unlabelled.
    let v = refused(&raw, doc! { "t": "purchase", "amt": "5", "sk": [], "sc": 0 }).await;
    assert_eq!(
        v.to_string(),
        "Event: document failed validation: Event.amount: bsonType (expected long, found string)"
    );
    assert!(v.failures.iter().all(|f| f.variant.is_none()));
}

#[tokio::test]
async fn a_string_too_long_is_shown_by_its_length_not_its_value() {
    let (_db, raw) = support::setup::created_raw::<Event>("poly_max_length").await;
    let coupon = "SECRET-".repeat(5) + "ÄÖÜßéè"; // 41 characters, 47 bytes: the server counts characters
    let v = refused(&raw, doc! { "t": "purchase", "amt": 5_i64, "sk": [], "sc": 0, "cp": &coupon }).await;
    let text = v.to_string();
    assert_eq!(text, "Event: document failed validation: Event.coupon: maxLength (expected 12, found length 41)");
    assert!(!text.contains("SECRET"), "{text}");
    assert_eq!((v.failures[0].rule.as_str(), v.failures[0].actual.as_deref()), ("maxLength", Some("length 41")));
}

/// A sign-up stored by a newtype variant of [`PageView`]: `user` and `at` as the struct variant stores them.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Joined {
    #[serde(rename = "u")]
    user: String,
    #[serde(rename = "at")]
    at: i64,
    #[serde(rename = "src")]
    source: String,
}

/// A polymorphic model whose shared fields are declared by a struct variant and by the struct a newtype variant
/// wraps.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "page_view", index(keys = "user, -at"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum PageView {
    Click {
        #[serde(rename = "u")]
        user: String,
        #[serde(rename = "at")]
        at: i64,
        #[serde(rename = "p")]
        page: String,
    },
    Joined(Joined),
}

#[tokio::test]
async fn a_shared_field_of_a_struct_and_a_newtype_variant_is_filtered_and_indexed_across_both() {
    let db = odm::testing::database("poly_shared_newtype").await;
    let sync = || odm::SchemaSync::new(db.client()).database(db.name()).model::<PageView>();
    sync().await.expect("sync").require_in_sync().expect("created");
    let names: Vec<String> = db.collection::<Document>("page_view").list_index_names().await.expect("indexes");
    assert!(names.contains(&"idx_u_at".to_owned()), "{names:?}");
    let spec = PageView::indexes().into_iter().find(|i| i.name == "idx_u_at").expect("declared");
    assert_eq!((spec.keys, spec.partial_filter_expression), (doc! { "u": 1, "at": -1 }, None));

    let views = Collection::<PageView>::new(&db);
    let click = |user: &str, at| PageView::Click { user: user.into(), at, page: "/".into() };
    let joined = |user: &str, at| PageView::Joined(Joined { user: user.into(), at, source: "ad".into() });
    views.insert_many([click("ada", 1), joined("ada", 2), click("lin", 3), joined("lin", 4)]).await.expect("insert");
    let f = PageView::fields();
    let filter: Filter<PageView> = f.user().eq("ada");
    assert_eq!(filter.clone().into_document().expect("filter"), doc! { "u": "ada" }, "no discriminator");
    let mut found = views.find(filter).sort(f.at().desc()).await.expect("find");
    assert_eq!(found, [joined("ada", 2), click("ada", 1)], "both variants, newest first");
    // A variant's path still keeps to its variant.
    found = views.find(f.joined().user().eq("ada")).await.expect("find");
    assert_eq!(found, [joined("ada", 2)]);
    // The shared index serves the filter across both variants.
    let plan = views.find(f.user().eq("lin")).sort(f.at().desc()).explain().await.expect("explain");
    assert_eq!(plan.index.as_deref(), Some("idx_u_at"), "{plan}");
}
