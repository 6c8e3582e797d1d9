//! Typed filters against the server: comparisons, nested paths, combinations, array and map conditions, and values that look like operators staying data.

use super::*;

#[tokio::test]
async fn comparison_operators_select_exactly_the_expected_documents() {
    let (_db, coll) = seeded("filter_cmp").await;
    let f = Product::fields();

    assert_eq!(names(&coll, Filter::everything()).await, ["$gt", "apple", "banana", "carrot"]);
    assert_eq!(names(&coll, f.name().eq("apple")).await, ["apple"]);
    assert_eq!(names(&coll, f.category().ne("fruit")).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().is_in(["veg", "odd"])).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().not_in(["fruit"])).await, ["$gt", "carrot"]);
    assert_eq!(names(&coll, f.category().is_in(Vec::<String>::new())).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.stock().gt(5)).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.stock().gte(5)).await, ["$gt", "apple", "carrot"]);
    assert_eq!(names(&coll, f.stock().lt(5)).await, ["banana"]);
    assert_eq!(names(&coll, f.stock().lte(5)).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.stock().between(5, 10)).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.price().between(0.5, 1.5)).await, ["apple", "banana", "carrot"]);
    assert_eq!(names(&coll, f.sold().gt(50_i64)).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.id().eq(ObjectId::new())).await, Vec::<String>::new());
    // An optional field compares with the inner type.
    assert_eq!(names(&coll, f.discount().eq(10)).await, ["banana"]);
    assert_eq!(names(&coll, f.note().is_in(["fresh".to_owned(), "bio".to_owned()])).await, ["apple", "carrot"]);

    // The filter documents carry stored keys.
    assert_eq!(f.stock().between(5, 10).into_document().unwrap(), doc! { "st": { "$gte": 5, "$lte": 10 } });
    assert_eq!(f.category().not_in(["fruit"]).into_document().unwrap(), doc! { "c": { "$nin": ["fruit"] } });
}

#[tokio::test]
async fn nested_paths_and_embedded_documents() {
    let (_db, coll) = seeded("filter_nested").await;
    let f = Product::fields();

    assert_eq!(f.address().city().key(), "ad.c");
    assert_eq!(names(&coll, f.address().city().eq("Paris")).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.address().zip().gte("70000")).await, ["apple", "carrot"]);
    // A whole embedded document: `$eq`, matching the exact stored document.
    assert_eq!(
        f.address().eq(address("Paris", "75001")).into_document().unwrap(),
        doc! { "ad": { "$eq": { "c": "Paris", "z": "75001" } } }
    );
    assert_eq!(names(&coll, f.address().eq(address("Paris", "75001"))).await, ["apple"]);
    assert_eq!(names(&coll, f.address().eq(address("Paris", "00000"))).await, Vec::<String>::new());
    // By index inside an array.
    assert_eq!(f.lines().at(1).price().key(), "ln.1.p");
    assert_eq!(names(&coll, f.lines().at(1).price().gt(100)).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().at(0).eq(7)).await, ["$gt"]);
}

#[tokio::test]
async fn and_or_nor_combinations() {
    let (_db, coll) = seeded("filter_logic").await;
    let f = Product::fields();

    // Disjoint fields: one document.
    let both = f.category().eq("fruit").and(f.stock().gt(0));
    assert_eq!(both.clone().into_document().unwrap(), doc! { "c": "fruit", "st": { "$gt": 0 } });
    assert_eq!(names(&coll, both).await, ["apple"]);
    // The same field twice with different operators: one condition (a half-open range bounds one index scan).
    let range = f.stock().gt(0).and(f.stock().lt(20));
    assert_eq!(range.to_document(), doc! { "st": { "$gt": 0, "$lt": 20 } });
    // The same operator twice: `$and`, both conditions hold.
    let twice = f.stock().gt(0).and(f.stock().gt(5));
    assert!(twice.to_document().contains_key("$and"), "{twice:?}");
    assert_eq!(names(&coll, range).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.name().eq("apple").or(f.stock().eq(25))).await, ["apple", "carrot"]);
    assert_eq!(
        names(&coll, Filter::any_of([f.name().eq("banana"), f.category().eq("odd"), f.stock().gt(100)])).await,
        ["$gt", "banana"]
    );
    assert_eq!(
        names(&coll, Filter::all_of([f.category().eq("fruit"), f.sold().gte(100_i64), f.price().lt(1.0)])).await,
        ["banana"]
    );
    assert_eq!(names(&coll, Filter::none_of([f.category().eq("fruit"), f.stock().gt(20)])).await, ["$gt"]);
    // Empty combinations: no alternatives match nothing, no exclusions and no conjuncts match everything.
    assert_eq!(names(&coll, Filter::any_of([])).await, Vec::<String>::new());
    assert_eq!(coll.count(Filter::none_of([])).await.unwrap(), 4);
    assert_eq!(coll.count(Filter::all_of([])).await.unwrap(), 4);
    // Nested combinations.
    let nested = Filter::any_of([
        f.category().eq("veg"),
        Filter::all_of([f.category().eq("fruit"), Filter::none_of([f.address().city().eq("Paris")])]),
    ]);
    assert_eq!(names(&coll, nested).await, ["banana", "carrot"]);
    // `or` of two `and`s on one field each.
    let either = f.stock().gt(20).and(f.stock().lt(30)).or(f.stock().gt(-1).and(f.stock().lt(1)));
    assert_eq!(names(&coll, either).await, ["banana", "carrot"]);
}

#[tokio::test]
async fn array_conditions() {
    let (_db, coll) = seeded("filter_array").await;
    let f = Product::fields();

    assert_eq!(names(&coll, f.tags().contains("sweet")).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.tags().contains_all(["red", "sweet"])).await, ["apple"]);
    assert_eq!(names(&coll, f.tags().contains_all(["sweet", "yellow"])).await, ["banana"]);
    assert_eq!(names(&coll, f.tags().len_is(0)).await, ["carrot"]);
    assert_eq!(names(&coll, f.tags().len_is(2)).await, ["apple", "banana"]);
    assert_eq!(names(&coll, f.scores().len_is(3)).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().contains(7)).await, ["$gt"]);
    // A whole element document.
    assert_eq!(names(&coll, f.lines().contains(line("c", 20, 5))).await, ["banana"]);
    assert_eq!(names(&coll, f.lines().contains(line("c", 20, 6))).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.lines().contains_all([line("a", 50, 1), line("b", 150, 2)])).await, ["apple"]);

    // `$elemMatch` on sub-documents: both conditions on the same element. The hostile product has one line over
    // 100 and another with more than 5, but no single line with both.
    let both = f.lines().any(|e| e.price().gt(100).and(e.qty().gt(5)));
    assert_eq!(
        both.clone().into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "p": { "$gt": 100_i64 }, "q": { "$gt": 5 } } } }
    );
    assert_eq!(names(&coll, both).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.lines().any(|e| e.price().gt(100).and(e.qty().eq(2)))).await, ["apple"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.price().gt(100))).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.sku().is_in(["c", "e"]))).await, ["$gt", "banana"]);

    // `$elemMatch` on scalars: the condition is on the element itself.
    let mid = f.scores().any(|e| e.between(4, 6));
    assert_eq!(mid.clone().into_document().unwrap(), doc! { "sc": { "$elemMatch": { "$gte": 4, "$lte": 6 } } });
    assert_eq!(names(&coll, mid).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(8))).await, ["apple"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.eq(3))).await, ["banana"]);
    // Two conditions on the element itself: one element must satisfy both (4 < x < 6 holds only for 5; without
    // `$elemMatch`, banana's 2 and 3 or the hostile 7 could satisfy one each).
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(2).and(e.lt(4)))).await, ["banana"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.gt(3).and(e.lt(5)))).await, Vec::<String>::new());
    let three = f.scores().any(|e| e.gt(1).and(e.lt(9)).and(e.ne(5)));
    assert_eq!(
        three.clone().into_document().unwrap(),
        doc! { "sc": { "$elemMatch": { "$gt": 1, "$lt": 9, "$ne": 5 } } }
    );
    assert_eq!(names(&coll, three).await, ["$gt", "banana"]);
    // Alternatives on the element itself: `is_in`, or one `any` per alternative.
    assert_eq!(names(&coll, f.scores().any(|e| e.is_in([3, 7]))).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.scores().any(|e| e.lt(2)).or(f.scores().any(|e| e.gt(8)))).await, ["apple"]);
    // What `$elemMatch` cannot say about the element itself is refused before sending (it would look for a field
    // named "" and match nothing).
    assert_refused(coll.find(f.scores().any(|e| e.eq(3).or(e.eq(7)))).await, "element itself");
    assert_refused(coll.find(f.scores().any(|e| Filter::none_of([e.eq(3)]))).await, "element itself");
    assert_refused(coll.find(f.scores().any(|e| e.gt(1).and(e.gt(2)))).await, "twice");
    // Alternatives on fields of document elements are sent as MongoDB takes them (`$elemMatch` with `$or` inside).
    // The test server (SecantusDB) refuses a `$elemMatch` whose first key is `$or` ("unknown operator"), so only the
    // document is checked here.
    let either = f.lines().any(|e| e.sku().eq("a").or(e.qty().gt(8)));
    assert_eq!(
        either.into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "$or": [{ "s": "a" }, { "q": { "$gt": 8 } }] } } }
    );
    // Two operators on one field of the element are one condition inside `$elemMatch`, as `between` says it.
    let same_field = f.lines().any(|e| e.price().gt(10).and(e.price().lt(30)));
    assert_eq!(
        same_field.clone().into_document().unwrap(),
        doc! { "ln": { "$elemMatch": { "p": { "$gt": 10_i64, "$lt": 30_i64 } } } }
    );
    assert_eq!(names(&coll, same_field).await, ["banana"]);
    assert_eq!(names(&coll, f.lines().any(|e| e.price().between(10, 30))).await, ["banana"]);

    // A filter on a positional path would name a field `$[]`, `$` or `$[id]` and silently match nothing: refused.
    assert_refused(coll.find(f.lines().each().sku().eq("a")).await, "positional");
    assert_refused(coll.count(f.lines().matched().price().gt(1)).await, "positional");
    assert_refused(coll.find(f.lines().filtered("x", |e| e.sku().eq("a")).sku().eq("a")).await, "positional");
    assert_refused(coll.find(f.scores().each().exists(true)).await, "positional");
}

#[tokio::test]
async fn exists_and_map_entries() {
    let (_db, coll) = seeded("filter_exists").await;
    let f = Product::fields();

    assert_eq!(names(&coll, f.note().exists(true)).await, ["apple", "carrot"]);
    assert_eq!(names(&coll, f.note().exists(false)).await, ["$gt", "banana"]);
    assert_eq!(names(&coll, f.discount().exists(false)).await, ["$gt", "apple", "carrot"]);

    assert_eq!(f.attrs().entry("w").key(), "at.w");
    assert_eq!(names(&coll, f.attrs().entry("w").eq(3)).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.attrs().entry("w").gt(5)).await, ["banana"]);
    assert_eq!(names(&coll, f.attrs().entry("h").exists(true)).await, ["banana"]);
    assert_eq!(names(&coll, f.attrs().entry("w").exists(false)).await, ["carrot"]);
    // A whole map compares as a document, its keys as data.
    assert_eq!(names(&coll, f.attrs().eq(attrs(&[("w", 3)]))).await, ["$gt", "apple"]);
    assert_eq!(names(&coll, f.attrs().eq(HashMap::new())).await, ["carrot"]);
}

#[tokio::test]
async fn values_that_look_like_operators_stay_data() {
    let (_db, coll) = seeded("filter_hostile").await;
    let f = Product::fields();

    // A string that is an operator name matches the document holding exactly that string.
    assert_eq!(f.name().eq("$gt").into_document().unwrap(), doc! { "n": "$gt" });
    assert_eq!(names(&coll, f.name().eq("$gt")).await, ["$gt"]);
    assert_eq!(names(&coll, f.name().is_in(["$gt", "$exists"])).await, ["$gt"]);
    // A string that spells an operator document is a string: it matches nothing here...
    assert_eq!(names(&coll, f.name().eq("{\"$ne\": null}")).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.note().eq("{\"$ne\": null}".to_owned())).await, Vec::<String>::new());
    // ...and exactly the element holding it, where there is one.
    assert_eq!(names(&coll, f.tags().contains("{\"$ne\": null}")).await, ["$gt"]);
    // An embedded document whose strings look like operators.
    assert_eq!(names(&coll, f.address().eq(address("$ne", "{\"$gt\": \"\"}"))).await, Vec::<String>::new());
    assert_eq!(names(&coll, f.address().city().eq("{\"$ne\": null}")).await, Vec::<String>::new());

    // A map key that is an operator cannot be sent: refused before sending, whether in a value or a path.
    let evil = attrs(&[("$where", 1)]);
    assert_refused(coll.find(f.attrs().eq(evil.clone())).await, "$where");
    assert_refused(coll.count(f.attrs().ne(evil.clone())).await, "$where");
    assert_refused(coll.find(f.attrs().is_in([evil])).await, "$where");
    assert_refused(coll.find(f.attrs().entry("$where").eq(1)).await, "$where");
    assert_refused(coll.find(f.attrs().entry("a.b").exists(true)).await, "a.b");
    assert_refused(coll.find(f.attrs().entry("").exists(true)).await, "empty");
    assert_refused(coll.find_one(f.attrs().entry("$gt").gt(1)).await, "$gt");
    // A refused condition poisons the whole filter.
    assert_refused(coll.find(f.name().eq("apple").and(f.attrs().entry("$x").eq(1))).await, "$x");
    assert_refused(coll.find(f.name().eq("apple").or(f.attrs().entry("$x").eq(1))).await, "$x");
    assert_refused(coll.delete_many(Filter::none_of([f.attrs().entry("$x").eq(1)])).await, "$x");
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 4, "nothing was deleted");
}
