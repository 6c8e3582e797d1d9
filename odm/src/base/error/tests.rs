//! The typed causes of errors that a test against a server cannot bring about (a server always stores `_id`, and
//! sends an insert's document): their fields, text and model, as a program reads them.

use super::{Error, Feature, Invalid, Waited};
use std::time::Duration;

#[test]
fn each_error_names_its_model_or_none() {
    let missing = Error::MissingId { model: "Order" };
    assert_eq!(
        (missing.model(), missing.to_string().as_str()),
        (Some("Order"), "Order: a stored document without `_id`")
    );
    let change = Error::ChangeWithoutDocument { model: "Order", operation: "insert".into() };
    assert_eq!(change.model(), Some("Order"));
    assert_eq!(change.to_string(), "Order: a change stream `insert` event came without its document");
    let table = Error::NoFieldTable { model: "orders" };
    assert!(matches!(table, Error::NoFieldTable { model: "orders" }) && table.to_string().contains("no field table"));
    let unsupported = Error::Unsupported { feature: Feature::Transactions, said: "IllegalOperation".into() };
    assert_eq!(unsupported.model(), None);
    assert!(unsupported.to_string().ends_with(": IllegalOperation"), "{unsupported}");
}

#[test]
fn an_index_build_that_never_appeared_is_a_timeout_with_its_bound() {
    let waited = Waited::IndexBuild { namespace: "shop.order".into(), index: "st_1".into() };
    let e = Error::Timeout { waited, limit: Duration::from_secs(30) };
    let Error::Timeout { waited: Waited::IndexBuild { namespace, index }, limit } = &e else { unreachable!() };
    assert_eq!((namespace.as_str(), index.as_str(), limit.as_secs()), ("shop.order", "st_1", 30));
    assert_eq!(e.to_string(), "shop.order: index st_1 was being built by another sync but never appeared (waited 30s)");
    assert_eq!(e.model(), None);
}

#[test]
fn a_value_that_does_not_encode_names_its_path_and_keeps_the_serializer_error() {
    let cause = crate::base::path::types::encode_value(crate::base::path::EncoderInput::Owned(u64::MAX), "it.0.q")
        .expect_err("u64 beyond i64");
    let Invalid::Unencodable { path, source } = &cause else { panic!("{cause:?}") };
    assert_eq!((path.stored(), path.rust()), ("it.0.q", None));
    assert!(std::error::Error::source(&cause).is_some(), "{source}");
    let e = Error::InvalidOperation { model: "Order", cause };
    assert_eq!(e.model(), Some("Order"));
    assert!(e.to_string().starts_with("Order: `it.0.q`: cannot serialize the value: "), "{e}");
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn causes_stay_small() {
    // Errors travel inside every builder's `Result`: a cause larger than this would slow the success path.
    assert!(std::mem::size_of::<Invalid>() <= 96, "{}", std::mem::size_of::<Invalid>());
    assert!(std::mem::size_of::<Error>() <= 120, "{}", std::mem::size_of::<Error>());
}
