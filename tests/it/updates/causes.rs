//! Refusals carry a typed cause (`odm::error::Invalid`) naming the rule and both paths, stored and Rust.

use super::*;

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
