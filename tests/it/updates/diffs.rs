//! Diff updates: only the changes are written; run-time keys are checked at any depth; paths of fields named like conversions.

use super::*;

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
    assert!(built.guard().is_none() && built.array_filters().is_empty());
    let r = coll.update_changes(f.id().eq(old.id), &old, &new).await.unwrap().expect("something changed");
    assert_eq!((r.matched, r.modified), (1, 1));
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
