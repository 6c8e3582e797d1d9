//! The subset pattern against the real server: a product keeps its latest reviews embedded and every review in the
//! overflow collection; concurrent pushes lose none and store none twice; a push interrupted between its two writes
//! leaves nothing (the server runs transactions) or the review in the overflow collection only (it does not), as
//! the server says of itself; a push onto a product that does not exist leaves no stray review.

use crate::support;

use odm::bson::{doc, oid::ObjectId};
use odm::subset::{overflow_of, PushKeeping};
use odm::{Collection, Embedded, Error, Filter, Model, Update};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use support::commands::client_named;
use support::server::runs_transactions;

/// A review as the product embeds it.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct ReviewText {
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
}

/// A product with its 10 latest reviews.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "rv")]
    #[odm(max_items = 10, keep_last, overflow(model = "Review", owner = "product"))]
    reviews: Vec<ReviewText>,
}

/// Every review of every product.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_review", index(keys = "product, -id"))]
struct Review {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "by")]
    #[odm(max_len = 80)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
    /// Set by moderation later: absent in a review a push writes.
    #[serde(rename = "md", skip_serializing_if = "Option::is_none")]
    moderated: Option<bool>,
}

fn review(author: String) -> ReviewText {
    ReviewText { author, stars: 4 }
}

/// A fresh database with both collections synced and one product without reviews.
async fn shop(
    db: &odm::mongodb::Database,
    client: &odm::mongodb::Client,
) -> (Collection<Product>, Collection<Review>, ObjectId) {
    odm::SchemaSync::new(client)
        .database(db.name())
        .model::<Product>()
        .model::<Review>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync both models");
    let (products, reviews) = (Collection::<Product>::new(db), Collection::<Review>::new(db));
    let id = ObjectId::new();
    products.insert_one(Product { id, name: "lamp".into(), reviews: Vec::new() }).await.unwrap();
    (products, reviews, id)
}

async fn embedded(products: &Collection<Product>, id: ObjectId) -> Vec<String> {
    let f = Product::fields();
    let product = products.find_one(f.id().eq(id)).await.unwrap().expect("the product");
    product.reviews.into_iter().map(|r| r.author).collect()
}

#[tokio::test]
async fn the_latest_ten_stay_embedded_and_all_twenty_five_are_kept() {
    let db = odm::testing::database("subset_25").await;
    let (products, reviews, id) = shop(&db, db.client()).await;
    let leading: Vec<&str> = <Review as odm::BsonSchema>::OBJECT
        .expect("a table")
        .fields
        .iter()
        .filter(|f| f.leads_index)
        .map(|f| f.key)
        .collect();
    assert_eq!(leading, ["pr"], "the index reading one product's reviews uses");
    let atomic = runs_transactions(db.client()).await;
    let mut ids = Vec::new();
    for i in 0..25 {
        let pushed = PushKeeping::new(&products, &reviews, id, review(format!("a{i:02}"))).await.unwrap();
        assert_eq!(pushed.atomic, atomic, "one transaction exactly when the server runs them");
        ids.push(pushed.overflow_id);
    }
    let latest: Vec<String> = (15..25).map(|i| format!("a{i:02}")).collect();
    assert_eq!(embedded(&products, id).await, latest, "the last 10, oldest first");
    let all = overflow_of::<Product, _>(&reviews, id).await.unwrap();
    let authors: Vec<String> = all.iter().map(|r| r.author.clone()).collect();
    let newest_first: Vec<String> = (0..25).rev().map(|i| format!("a{i:02}")).collect();
    assert_eq!(authors, newest_first, "every review, newest first");
    assert!(all.iter().all(|r| r.product == id && r.moderated.is_none()));
    assert_eq!(all.iter().map(|r| r.id).collect::<Vec<_>>(), ids.into_iter().rev().collect::<Vec<_>>());
    let page = overflow_of::<Product, _>(&reviews, id).skip(10).limit(5).await.unwrap();
    let names: Vec<&str> = page.iter().map(|r| r.author.as_str()).collect();
    assert_eq!(names, ["a14", "a13", "a12", "a11", "a10"], "the first reviews not embedded any more");
    let other = overflow_of::<Product, _>(&reviews, ObjectId::new()).await.unwrap();
    assert!(other.is_empty(), "another product's reviews are its own");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_pushes_lose_no_review_and_store_none_twice() {
    let db = odm::testing::database("subset_concurrent").await;
    let (products, reviews, id) = shop(&db, db.client()).await;
    let (tasks, each) = (6, 8);
    let mut handles = Vec::new();
    for t in 0..tasks {
        let (products, reviews) = (products.clone(), reviews.clone());
        handles.push(tokio::spawn(async move {
            for i in 0..each {
                PushKeeping::new(&products, &reviews, id, review(format!("t{t}-{i}"))).await.unwrap();
            }
        }));
    }
    for h in handles {
        h.await.unwrap();
    }
    let sent: BTreeSet<String> = (0..tasks).flat_map(|t| (0..each).map(move |i| format!("t{t}-{i}"))).collect();
    let kept: Vec<String> =
        overflow_of::<Product, _>(&reviews, id).await.unwrap().into_iter().map(|r| r.author).collect();
    assert_eq!(kept.len(), sent.len(), "each review stored once");
    assert_eq!(kept.iter().cloned().collect::<BTreeSet<_>>(), sent, "every review stored");
    let latest = embedded(&products, id).await;
    assert_eq!(latest.len(), 10);
    assert_eq!(latest.iter().collect::<BTreeSet<_>>().len(), 10, "no review embedded twice");
    for t in 0..tasks {
        // Each task pushes in order: its embedded reviews appear in the order it pushed them.
        let mine: Vec<usize> =
            latest.iter().filter_map(|a| a.strip_prefix(&format!("t{t}-")).map(|i| i.parse().unwrap())).collect();
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "task {t}'s reviews out of order: {latest:?}");
        // ...and they are its latest ones.
        assert!(mine.iter().enumerate().all(|(k, i)| *i == each - mine.len() + k), "task {t}: {latest:?}");
    }
}

#[tokio::test]
async fn a_push_onto_a_missing_product_leaves_no_review() {
    let db = odm::testing::database("subset_missing").await;
    let (products, reviews, _) = shop(&db, db.client()).await;
    let nobody = ObjectId::new();
    let err = PushKeeping::new(&products, &reviews, nobody, review("ghost".into())).await.unwrap_err();
    assert!(matches!(err, Error::NotFound { .. }), "{err}");
    assert_eq!(err.model(), Some("Product"), "the model's name, not its path: {err}");
    assert_eq!(reviews.count(Filter::everything()).await.unwrap(), 0, "no review refers to nothing");
}

/// [`shop`] on a client named `app`, which a fail point can single out.
async fn named_shop(
    app: &str,
    hint: &str,
) -> (odm::mongodb::Client, Collection<Product>, Collection<Review>, ObjectId) {
    let client = client_named(app).await;
    let db = client.database(odm::testing::database(hint).await.name());
    let (products, reviews, id) = shop(&db, &client).await;
    (client, products, reviews, id)
}

/// Makes the server fail the next `update` of clients named `app`, as a crash between the push's two writes
/// would stop it; false (with a note) when the server has no `failCommand` fail point.
async fn fail_next_update(client: &odm::mongodb::Client, app: &str) -> bool {
    let armed = client
        .database("admin")
        .run_command(doc! {
            "configureFailPoint": "failCommand",
            "mode": { "times": 1 },
            "data": { "failCommands": ["update"], "errorCode": 8, "appName": app },
        })
        .await;
    if let Err(e) = &armed {
        eprintln!("skipped: this server has no failCommand fail point (start it with test commands on): {e}");
    }
    armed.is_ok()
}

#[tokio::test]
async fn a_push_interrupted_between_its_writes_loses_no_review() {
    let app = "odm-subset-cut";
    let (client, products, reviews, id) = named_shop(app, "subset_cut").await;
    if !fail_next_update(&client, app).await {
        return;
    }
    let result = PushKeeping::new(&products, &reviews, id, review("cut".into())).await;
    assert!(result.is_err(), "the push failed");
    let kept = reviews.count(Filter::everything()).await.unwrap();
    assert!(embedded(&products, id).await.is_empty(), "the array was not written");
    if runs_transactions(&client).await {
        assert_eq!(kept, 0, "one transaction: the overflow insert was rolled back with the push");
    } else {
        assert_eq!(kept, 1, "overflow first: the review is kept in the full history");
    }
    // The next push goes through, and the history has no gap.
    PushKeeping::new(&products, &reviews, id, review("next".into())).await.unwrap();
    assert_eq!(embedded(&products, id).await, ["next"]);
    assert_eq!(reviews.count(Filter::everything()).await.unwrap(), kept + 1);
}

#[tokio::test]
async fn collections_bound_to_a_session_write_overflow_first() {
    let app = "odm-subset-ordered";
    let (client, products, reviews, id) = named_shop(app, "subset_ordered").await;
    // A session without a transaction: the writes are not atomic, so their order is what keeps the review.
    let session = odm::Session::start(&client).await.unwrap();
    let (bound_products, bound_reviews) = (products.with_session(&session), reviews.with_session(&session));
    let pushed = PushKeeping::new(&bound_products, &bound_reviews, id, review("first".into())).await.unwrap();
    assert!(!pushed.atomic, "no transaction was open");
    if !fail_next_update(&client, app).await {
        return;
    }
    let result = PushKeeping::new(&bound_products, &bound_reviews, id, review("cut".into())).await;
    assert!(result.is_err(), "the push failed");
    assert_eq!(embedded(&products, id).await, ["first"], "the array was not written");
    let kept: Vec<String> =
        overflow_of::<Product, _>(&reviews, id).await.unwrap().into_iter().map(|r| r.author).collect();
    assert_eq!(kept, ["cut", "first"], "overflow first: the cut review is kept in the full history");
}

#[tokio::test]
async fn inside_the_callers_transaction_both_writes_go_or_neither() {
    let db = odm::testing::database("subset_callers").await;
    let (products, reviews, id) = shop(&db, db.client()).await;
    if !runs_transactions(db.client()).await {
        return;
    }
    #[derive(Debug)]
    struct Changed;
    impl std::fmt::Display for Changed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("changed my mind")
        }
    }
    impl std::error::Error for Changed {}
    let outcome = odm::Transaction::new(db.client())
        .run(|s| {
            let (products, reviews) = (products.with_session(&s), reviews.with_session(&s));
            async move {
                let pushed = PushKeeping::new(&products, &reviews, id, review("maybe".into())).await?;
                assert!(pushed.atomic, "written in the caller's transaction");
                Err::<(), _>(odm::transaction::abort(Changed))
            }
        })
        .await;
    assert!(outcome.unwrap_err().aborted::<Changed>().is_some());
    assert!(embedded(&products, id).await.is_empty(), "the push was rolled back");
    assert_eq!(reviews.count(Filter::everything()).await.unwrap(), 0, "the overflow insert was rolled back");
}

#[tokio::test]
async fn a_plain_push_onto_the_array_is_refused_before_sending() {
    let db = odm::testing::database("subset_plain_push").await;
    let (products, reviews, id) = shop(&db, db.client()).await;
    let f = Product::fields();
    let pushes = [
        odm::Update::new().push(f.reviews(), review("plain".into())),
        odm::Update::new().push_each(f.reviews(), [review("each".into())]),
        odm::Update::new().add_to_set(f.reviews(), review("set".into())),
    ];
    for update in pushes {
        let err = products.update_one(f.id().eq(id), update).await.expect_err("refused");
        let odm::Error::InvalidOperation { cause: odm::error::Invalid::OverflowPush { .. }, .. } = &err else {
            panic!("{err}")
        };
        assert!(err.to_string().contains("push through `odm::subset::PushKeeping`"), "{err}");
        assert!(err.to_string().contains("Product.reviews"), "names the Rust field: {err}");
    }
    assert!(embedded(&products, id).await.is_empty(), "nothing was sent");
    assert!(overflow_of::<Product, _>(&reviews, id).await.unwrap().is_empty());
}

#[tokio::test]
async fn update_changes_never_adds_to_the_array_behind_its_overflow_collections_back() {
    let db = odm::testing::database("subset_changes").await;
    let (products, reviews, id) = shop(&db, db.client()).await;
    PushKeeping::new(&products, &reviews, id, review("kept".into())).await.unwrap();
    let f = Product::fields();
    let old = products.find_one(f.id().eq(id)).await.unwrap().expect("the product");

    // An appended review (a `$push` of the difference), an edited one (a `$set` inside the array) and a shorter
    // array (a `$set` of it) alike: the overflow collection would never see the change.
    let mut appended = old.clone();
    appended.reviews.push(review("appended".into()));
    let mut edited = old.clone();
    edited.reviews = vec![review("other".into())];
    let mut emptied = old.clone();
    emptied.reviews.clear();
    for new in [appended, edited, emptied] {
        let err = products.update_changes(f.id().eq(id), &old, &new).await.expect_err("refused");
        let odm::Error::InvalidOperation { cause: odm::error::Invalid::OverflowRewrite { .. }, .. } = &err else {
            panic!("{err}")
        };
        assert!(err.to_string().contains("Product.reviews"), "names the Rust field: {err}");
        assert!(err.to_string().contains("odm::subset::PushKeeping"), "says how: {err}");
    }
    assert_eq!(embedded(&products, id).await, ["kept"], "nothing was sent");
    assert_eq!(overflow_of::<Product, _>(&reviews, id).await.unwrap().len(), 1);

    // Other fields change as usual beside the array as it was read.
    let mut renamed = old.clone();
    renamed.name = "desk lamp".into();
    products.update_changes(f.id().eq(id), &old, &renamed).await.expect("a change beside the array").expect("sent");
    let stored = products.find_one(f.id().eq(id)).await.unwrap().expect("the product");
    assert_eq!((stored.name.as_str(), stored.reviews.len()), ("desk lamp", 1));
}

/// A book with its 3 latest reviews embedded, and what it keeps about all of them.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_book")]
struct Book {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(max_items = 3, keep_last, overflow(model = "BookReview", owner = "book"))]
    reviews: Vec<ReviewText>,
    /// Every review ever pushed, not only the embedded ones.
    #[serde(rename = "rc")]
    review_count: i32,
    /// The stars of every review.
    #[serde(rename = "st")]
    star_total: i64,
    /// The best review's stars.
    #[serde(rename = "bs", skip_serializing_if = "Option::is_none")]
    best: Option<i32>,
    /// Voters on the book: a counted set, whose guarded updates cannot go along with a push.
    #[serde(rename = "vo")]
    #[odm(max_items = 10, counter = "voter_count", unique_items)]
    voters: Vec<String>,
    #[serde(rename = "vc")]
    voter_count: i32,
}

/// Every review of every book.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_book_review", index(keys = "book, -id"))]
struct BookReview {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "bk")]
    book: ObjectId,
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn what_the_owner_keeps_about_every_element_moves_with_each_push() {
    let db = odm::testing::database("subset_also").await;
    odm::SchemaSync::new(db.client())
        .database(db.name())
        .model::<Book>()
        .model::<BookReview>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync both models");
    let (books, reviews) = (Collection::<Book>::new(&db), Collection::<BookReview>::new(&db));
    let id = ObjectId::new();
    let empty =
        Book { id, reviews: vec![], review_count: 0, star_total: 0, best: None, voters: vec![], voter_count: 0 };
    books.insert_one(&empty).await.unwrap();
    let f = Book::fields();

    // Twelve pushes onto an array of three, four at a time: the count, the sum and the best follow every one.
    let pushes = (0..12).map(|i| {
        let (books, reviews) = (books.clone(), reviews.clone());
        tokio::spawn(async move {
            let f = Book::fields();
            let review = ReviewText { author: format!("r{i:02}"), stars: 1 + i % 5 };
            let kept = Update::new()
                .inc(f.review_count(), 1)
                .inc(f.star_total(), i64::from(review.stars))
                .max(f.best(), review.stars);
            PushKeeping::new(&books, &reviews, id, review).also(kept).await
        })
    });
    for push in futures_util::future::join_all(pushes).await {
        push.expect("task").expect("push");
    }
    let book = books.find_one(f.id().eq(id)).await.unwrap().expect("the book");
    let all = overflow_of::<Book, _>(&reviews, id).await.unwrap();
    assert_eq!((book.reviews.len(), all.len()), (3, 12), "three embedded, twelve kept");
    assert_eq!(book.review_count, 12, "{book:?}");
    assert_eq!(book.star_total, all.iter().map(|r| i64::from(r.stars)).sum::<i64>(), "{book:?}");
    assert_eq!(book.star_total, (0..12).map(|i| i64::from(1 + i % 5)).sum::<i64>());
    assert_eq!(book.best, Some(5));

    // An update writing the array, or a guarded one, is refused before anything is written.
    let refused = [
        (Update::new().set(f.reviews(), vec![]), "conflict"),
        (Update::new().add_to_set(f.voters(), "ann".to_owned()), "guarded"),
    ];
    for (update, what) in refused {
        let review = ReviewText { author: "late".into(), stars: 1 };
        let err = PushKeeping::new(&books, &reviews, id, review).also(update).await.expect_err(what);
        assert!(matches!(err, Error::InvalidOperation { .. }), "{what}: {err}");
        assert_eq!(err.model(), Some("Book"), "{err}");
    }
    let guarded = Update::<Book>::new().add_to_set(f.voters(), "ann".to_owned());
    let review = ReviewText { author: "late".into(), stars: 1 };
    let err = PushKeeping::new(&books, &reviews, id, review).also(guarded).await.unwrap_err();
    assert!(err.to_string().contains("`PushKeeping`'s `also` is guarded"), "{err}");
    assert_eq!(overflow_of::<Book, _>(&reviews, id).await.unwrap().len(), 12, "nothing was written");
    assert_eq!(books.find_one(f.id().eq(id)).await.unwrap().expect("the book"), book);
}
