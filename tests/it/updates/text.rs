//! Case-normalized text everywhere, and pushes past a bound refused by the validator naming the Rust field.

use super::*;

#[tokio::test]
async fn lowercase_fields_are_normalized_everywhere() {
    let (db, accounts) = support::setup::created::<Account>("lowercase").await;
    let f = Account::fields();

    let ann = Account { id: ObjectId::new(), email: "Ann@Example.COM".into() };
    accounts.insert_one(&ann).await.unwrap();
    assert_eq!(support::raw::stored(&db, "user_account", ann.id).await.get_str("e").unwrap(), "ann@example.com");
    assert_eq!(f.email().eq("ANN@example.com").into_document().unwrap(), doc! { "e": "ann@example.com" });
    assert_eq!(accounts.find_one(f.email().eq("ANN@example.com")).await.unwrap(), Some(ann.clone()));
    assert_eq!(accounts.count(f.email().is_in(["ANN@EXAMPLE.COM", "bob@x"])).await.unwrap(), 1);
    // Updates are normalized too.
    accounts.update_one(f.id().eq(ann.id), Update::new().set(f.email(), "Ann.B@Example.com")).await.unwrap();
    assert_eq!(support::raw::stored(&db, "user_account", ann.id).await.get_str("e").unwrap(), "ann.b@example.com");
    assert_eq!(accounts.count(f.email().eq("ANN.B@EXAMPLE.COM")).await.unwrap(), 1);

    // Around the ODM, an uppercase value is refused by the validator (`pattern`).
    let schema = Account::validator();
    assert!(format!("{schema}").contains("^[^A-Z]*$"), "{schema}");
    let err = db
        .collection::<Document>("user_account")
        .insert_one(doc! { "_id": ObjectId::new(), "e": "Bob@Example.com" })
        .await
        .expect_err("the validator's `pattern` refuses uppercase");
    let err = Error::from_write::<Account>(err);
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.first().map(|f| f.path.as_str()), Some("Account.email"), "{err}");
    assert_eq!(v.failures.first().map(|f| f.rule.as_str()), Some("pattern"), "{err}");
    assert_eq!(accounts.count(Filter::everything()).await.unwrap(), 1);
}

#[tokio::test]
async fn push_past_max_items_is_a_validation_error_naming_the_field() {
    let mut p = apple();
    p.tags = strings(&["1", "2", "3", "4"]);
    let (db, coll) = products("max_items", std::slice::from_ref(&p)).await;
    let f = Product::fields();

    coll.update_one(f.id().eq(p.id), Update::new().push(f.tags(), "5")).await.unwrap();
    let before = raw_product(&db, p.id).await;
    let err = coll.update_one(f.id().eq(p.id), Update::new().push(f.tags(), "6")).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    assert_eq!(v.failures[0].path, "Product.tags");
    assert_eq!(v.failures[0].stored_path, "tg");
    assert_eq!(v.failures[0].rule, "maxItems");
    assert_eq!(v.failures[0].expected.as_deref(), Some("5"));
    assert!(err.to_string().contains("Product.tags"), "{err}");
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was written");
    // The same through find_one_and_update and update_many.
    let err = coll
        .find_one_and_update(f.id().eq(p.id), Update::new().push_each(f.tags(), ["6", "7"]))
        .after()
        .await
        .unwrap_err();
    // `findAndModify` reports the failure as a command error; its `errInfo` is read from the raw reply.
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    assert_eq!(v.failures[0].path, "Product.tags", "{err}");
    let err = coll.update_many(Filter::everything(), Update::new().add_to_set(f.tags(), "new")).await.unwrap_err();
    assert!(matches!(&err, Error::Validation(v) if v.failures[0].path == "Product.tags"), "{err}");
    // Another bounded array: named as well.
    let err =
        coll.update_one(f.id().eq(p.id), Update::new().push_each(f.scores(), [1, 2, 3, 4, 5, 6])).await.unwrap_err();
    assert!(matches!(&err, Error::Validation(v) if v.failures[0].path == "Product.scores"), "{err}");
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was written");
}
