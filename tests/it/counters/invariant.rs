//! The invariant is the server's: raw writes out of step are refused, and a counter out of step is named by its pair and level.

use super::*;

// 10. The invariant is the server's: raw writes that skip the counter are refused.

#[tokio::test]
async fn raw_writes_out_of_step_are_refused() {
    let (db, coll) = support::setup::created::<Review>("cnt_raw").await;
    let f = Review::fields();
    let r = review(&[ObjectId::new()], &["x"]);
    coll.insert_one(&r).await.expect("insert");
    let raw = db.collection::<Document>("shop_review");
    let v = ObjectId::new();

    let out_of_step = [
        doc! { "$push": { "vi": v } },
        doc! { "$addToSet": { "vi": v } },
        doc! { "$inc": { "hv": 1 } },
        doc! { "$pop": { "vi": 1 } },
        doc! { "$pull": { "fl": "x" } },
        doc! { "$push": { "vi": v }, "$inc": { "hv": 2 } },
        doc! { "$set": { "fc": 0_i64 } },
    ];
    for update in out_of_step {
        let err = raw.update_one(doc! { "_id": r.id }, update.clone()).await.expect_err("out of step");
        let err = odm::Error::from_write::<Review>(err);
        assert_eq!(err.code(), Some(121), "{update}: {err}");
        let odm::Error::Validation(v) = &err else { panic!("{update}: expected a validation error, got {err:?}") };
        assert!(v.failures.iter().any(|f| f.rule == "$expr"), "{update}: {err}");
    }
    // Also through the typed collection's own driver handle.
    let err = coll.raw().update_one(doc! { "_id": r.id }, doc! { "$push": { "fl": "y" } }).await.expect_err("raw");
    assert_eq!(odm::Error::from_write::<Review>(err).code(), Some(121));
    assert_eq!(read(&coll, f.id().eq(r.id)).await, r, "nothing changed");

    // The same raw write with the counter in step is accepted: the check refuses drift, not pushes.
    raw.update_one(doc! { "_id": r.id }, doc! { "$push": { "vi": v }, "$inc": { "hv": 1 } }).await.expect("in step");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids.len(), 2);
    assert_in_step(&stored);
}

// 11. A counter out of step is named: which pair, at which level.

/// A department: its members counted beside them.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Dept {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "m")]
    #[odm(max_items = 50, counter = "member_count")]
    members: Vec<String>,
    #[serde(rename = "mc")]
    member_count: i32,
}

/// Counted arrays at two levels: offices at the top, members inside every department.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "org_company")]
struct Company {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "d")]
    #[odm(max_items = 20)]
    depts: Vec<Dept>,
    #[serde(rename = "o")]
    #[odm(max_items = 10, counter = "office_count")]
    offices: Vec<String>,
    #[serde(rename = "oc")]
    office_count: i32,
}

fn dept(name: &str, members: &[&str]) -> Dept {
    Dept {
        name: name.to_owned(),
        members: members.iter().map(|s| (*s).to_owned()).collect(),
        member_count: members.len() as i32,
    }
}

/// The one failure of a validation error, checked to be the counter `path` (stored `stored`) out of step.
fn counter_failure(err: &odm::Error, path: &str, stored: &str) -> String {
    let odm::Error::Validation(v) = err else { panic!("expected a validation error, got {err:?}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    let failure = &v.failures[0];
    assert_eq!((failure.rule.as_str(), failure.path.as_str(), failure.stored_path.as_str()), ("$expr", path, stored));
    assert_eq!(failure.rule_id(), "counter-in-step");
    err.to_string()
}

#[tokio::test]
async fn a_nested_counter_out_of_step_is_named() {
    let (db, coll) = support::setup::created::<Company>("cnt_named").await;
    let f = Company::fields();
    let nested = "Company: document failed validation: Company.depts[].member_count: $expr (expected the length of \
                  Company.depts[].members, found a different value)";

    // An insert: the second department counts three members but lists two.
    let mut company = Company {
        id: ObjectId::new(),
        depts: vec![dept("ops", &["ann"]), dept("dev", &["bo", "cy"])],
        offices: vec!["rome".into()],
        office_count: 1,
    };
    company.depts[1].member_count = 3;
    let err = coll.insert_one(&company).await.expect_err("nested counter out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);
    company.depts[1].member_count = 2;
    coll.insert_one(&company).await.expect("in step");

    // A typed update (a diff that changes only the counter).
    let mut wrong = company.clone();
    wrong.depts[0].member_count = 5;
    assert_eq!(Update::diff(&company, &wrong).build().unwrap().update, doc! { "$set": { "d.0.mc": 5 } });
    let err = coll.update_changes(f.id().eq(company.id), &company, &wrong).await.expect_err("out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);
    // The same through findAndModify, whose report comes back as a command error.
    let err = coll
        .find_one_and_update(f.id().eq(company.id), Update::diff(&company, &wrong))
        .after()
        .await
        .expect_err("out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);

    // A raw write that skips the counter, read through the model.
    let raw = db.collection::<Document>("org_company");
    let err = raw.update_one(doc! { "_id": company.id }, doc! { "$push": { "d.1.m": "di" } }).await.expect_err("raw");
    let err = odm::Error::from_write::<Company>(err);
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);

    // The top-level pair is named as such.
    let err = raw.update_one(doc! { "_id": company.id }, doc! { "$inc": { "oc": 1 } }).await.expect_err("raw");
    assert_eq!(
        counter_failure(&odm::Error::from_write::<Company>(err), "Company.office_count", "oc"),
        "Company: document failed validation: Company.office_count: $expr (expected the length of Company.offices, \
         found a different value)"
    );
    assert_eq!(read(&coll, f.id().eq(company.id)).await, company, "nothing changed");
}

#[tokio::test]
async fn a_validator_checking_every_pair_at_once_names_them_all() {
    // Collections created by earlier versions check every pair in one `$expr`: the server cannot say which failed.
    let db = odm::testing::database("cnt_named_old").await;
    let exprs: Vec<_> = Company::counters().into_iter().map(|c| c.into_expr()).collect();
    let validator = doc! { "$jsonSchema": Company::bson_schema(), "$expr": { "$and": exprs } };
    db.run_command(doc! { "create": "org_company", "validator": validator }).await.expect("create");
    let company = Company { id: ObjectId::new(), depts: vec![dept("ops", &[])], offices: vec![], office_count: 1 };
    let err = Collection::<Company>::new(&db).insert_one(&company).await.expect_err("out of step");
    assert_eq!(
        err.to_string(),
        "Company: document failed validation: (document): $expr (expected Company.depts[].member_count == the length \
         of Company.depts[].members, Company.office_count == the length of Company.offices, found a counter out of \
         step)"
    );
}
