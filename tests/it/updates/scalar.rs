//! Scalar update operators: $inc and $mul keep the stored numeric type, $min/$max/$currentDate, $set/$unset and optional fields.

use super::*;

#[tokio::test]
async fn inc_and_mul_keep_the_stored_numeric_type() {
    let p = apple();
    let (db, coll) = products("upd_inc", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    let u = Update::new().inc(f.stock(), 3).inc(f.sold(), 5_i64).inc(f.price(), 0.25).inc(f.lines().at(1).qty(), 4);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$inc": { "st": 3, "sd": 5_i64, "pr": 0.25, "ln.1.q": 4 } });
    let r = coll.update_one(by_id(), u).await.unwrap();
    assert_eq!((r.matched, r.modified), (1, 1));
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
    assert_eq!(r.modified, 1);
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
    assert_eq!((r.matched, r.modified), (1, 0));
    coll.update_one(by_id(), Update::new().min(f.stock(), 4).min(f.price(), 2.0)).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!((got.stock, got.price), (4, 1.5));
    // `$max` raises only.
    let r = coll.update_one(by_id(), Update::new().max(f.sold(), 50_i64)).await.unwrap();
    assert_eq!(r.modified, 0);
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
    assert_eq!(r.modified, 1);
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
