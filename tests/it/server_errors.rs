//! Errors odm does not map to a variant of its own, against a real server: they read as the server's code, code name
//! and message, never as the bytes of its reply, and the driver's error stays reachable for programs.

use crate::support;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Error, Filter, Model, Update};
use std::error::Error as _;
use support::models::shop::{order, Order};

/// What a person sees of `e`, by `Display` and by `Debug` (what `main` returning `Box<dyn Error>` prints), must hold
/// the server's code and words and none of its reply's bytes.
fn assert_readable(e: &Error, code: i32, words: &str) {
    for shown in [e.to_string(), format!("{e:?}")] {
        assert!(shown.contains(&format!("code {code}")) && shown.contains(words), "{shown}");
        assert!(!shown.contains("RawDocumentBuf") && !shown.contains("data: \""), "{shown}");
        // No run of hex digits as long as a reply's length prefix and first element.
        let hex_run = shown.split(|c: char| !c.is_ascii_hexdigit()).map(str::len).max().unwrap_or(0);
        assert!(hex_run < 32, "{shown}");
    }
    assert_eq!(e.code(), Some(code));
    // The driver's error is there to match on, but not in the chain of sources a reporter prints (its text
    // carries the reply's bytes).
    assert!(matches!(e, Error::Driver(_)), "{e}");
    let mut source = e.source();
    while let Some(cause) = source {
        assert!(!cause.to_string().contains("RawDocumentBuf"), "a cause shows the reply: {cause}");
        source = cause.source();
    }
}

#[tokio::test]
async fn a_refused_command_shows_the_servers_code_and_message_not_its_reply() {
    let (_db, orders) = support::setup::seeded("server_errors_cmd", [order(1)]).await;

    let refused = orders.find(Filter::everything()).hint("idx_missing").await.expect_err("no such index");
    assert!(matches!(refused, Error::Driver(_)), "{refused}");
    // The server's words for a hint naming no index (BadValue, "… hint provided does not correspond to an existing
    // index"); its code, whichever the server sends.
    let code = refused.code().expect("a server error has a code");
    assert_readable(&refused, code, "hint");
    // The same through a stream of results.
    let streamed = match orders.find(Filter::everything()).hint("idx_missing").stream().await {
        Ok(stream) => stream.try_collect::<Vec<_>>().await.expect_err("no such index"),
        Err(e) => e,
    };
    assert_readable(&streamed, code, "hint");
}

#[tokio::test]
async fn a_refused_write_shows_the_servers_code_and_message() {
    let db = odm::testing::database("server_errors_write").await;
    db.create_collection(Order::COLLECTION).await.unwrap();
    let orders = Collection::<Order>::new(&db);
    // Another program stored a string where the model has a number: `$inc` on it is refused (TypeMismatch).
    let id = ObjectId::new();
    db.collection::<Document>(Order::COLLECTION).insert_one(doc! { "_id": id, "t": "one" }).await.unwrap();
    let f = Order::fields();
    let refused = orders.update_one(f.id().eq(id), Update::new().inc(f.total(), 1)).await.expect_err("not a number");
    assert_readable(&refused, 14, "$inc");

    // A duplicate `_id` in a batch: the driver's insert_many error.
    let again = Order { id, ..order(2) };
    let duplicate = orders.insert_many([&again]).await.expect_err("the _id is taken");
    assert_readable(&duplicate, 11000, "duplicate key");
}
