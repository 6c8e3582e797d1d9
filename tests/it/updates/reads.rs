//! Sorts, limits, skips, streams and projections into smaller structs.

use super::*;

#[tokio::test]
async fn sort_limit_skip_and_stream() {
    let (_db, coll) = seeded("sort").await;
    let f = Product::fields();
    let all = |v: Vec<Product>| v.into_iter().map(|p| p.name).collect::<Vec<_>>();

    let by_stock = coll.find(Filter::everything()).sort(f.stock().desc()).await.unwrap();
    assert_eq!(all(by_stock), ["carrot", "apple", "$gt", "banana"]);
    let page = coll.find(Filter::everything()).sort(f.stock().desc()).skip(1).limit(2).await.unwrap();
    assert_eq!(all(page), ["apple", "$gt"]);
    let last = coll.find(Filter::everything()).sort(f.stock().desc()).skip(3).limit(2).await.unwrap();
    assert_eq!(all(last), ["banana"]);
    let past = coll.find(Filter::everything()).sort(f.stock().desc()).skip(4).await.unwrap();
    assert!(past.is_empty());
    let two = coll.find(f.category().eq("fruit")).sort(f.price().asc()).limit(1).await.unwrap();
    assert_eq!(all(two), ["banana"]);

    // Ties broken by the next key.
    let by_category = coll.find(Filter::everything()).sort(f.category().asc().then(f.price().desc())).await.unwrap();
    assert_eq!(all(by_category), ["apple", "banana", "$gt", "carrot"]);
    let by_city = coll.find(Filter::everything()).sort(f.address().city().asc().then(f.name().desc())).await.unwrap();
    assert_eq!(all(by_city), ["banana", "$gt", "carrot", "apple"]);

    // Streaming gives the same order.
    let streamed: Vec<Product> =
        coll.find(f.stock().gt(0)).sort(f.sold().asc()).stream().await.unwrap().try_collect().await.unwrap();
    assert_eq!(all(streamed), ["$gt", "carrot", "apple"]);

    // Sorts the server would misread are refused before sending.
    assert_refused(coll.find(Filter::everything()).sort(f.lines().each().price().asc()).await, "positional");
    assert_refused(coll.find(Filter::everything()).sort(f.stock().asc().then(f.stock().desc())).await, "twice");
}

#[tokio::test]
async fn projection_into_smaller_structs() {
    let (_db, coll) = seeded("projection").await;
    let f = Product::fields();

    let p = Projection::only().field(f.name()).field(f.stock()).without_id();
    assert_eq!(p.clone().into_document().unwrap(), doc! { "n": 1, "st": 1, "_id": 0 });
    let slim: Vec<NameStock> = coll.find(f.stock().gt(0)).sort(f.stock().asc()).project(p.clone()).await.unwrap();
    assert_eq!(
        slim,
        [
            NameStock { name: "$gt".into(), stock: 5 },
            NameStock { name: "apple".into(), stock: 10 },
            NameStock { name: "carrot".into(), stock: 25 },
        ]
    );
    // The server sent only those keys.
    let docs: Vec<Document> = coll.find(f.name().eq("apple")).project(p).await.unwrap();
    assert_eq!(docs, [doc! { "n": "apple", "st": 10 }]);

    // A nested field: the sub-document keeps only that key; `_id` comes by default.
    let a = apple();
    let id = coll.find_one(f.name().eq("apple")).await.unwrap().unwrap().id;
    let cities: Vec<CityOnly> =
        coll.find(f.id().eq(id)).project(Projection::only().field(f.address().city())).await.unwrap();
    assert_eq!(cities, [CityOnly { id, address: City { city: a.address.city.clone() } }]);

    // Exclusion.
    let rest: Vec<Document> = coll
        .find(f.name().eq("apple"))
        .project(Projection::except().field(f.lines()).field(f.attrs()).field(f.address()))
        .await
        .unwrap();
    assert_eq!(rest.len(), 1);
    let keys: Vec<&str> = rest[0].keys().map(String::as_str).collect();
    assert_eq!(keys, ["_id", "n", "c", "st", "sd", "pr", "tg", "sc", "nt", "up"]);

    // Positional and overlapping projections are refused before sending.
    let positional = Projection::only().field(f.lines().matched().price());
    assert_refused(coll.find(f.lines().any(|e| e.price().gt(0))).project::<Document>(positional).await, "positional");
    let each = Projection::only().field(f.lines().each().sku());
    assert_refused(coll.find(Filter::everything()).project::<Document>(each).await, "positional");
    let filtered = Projection::only().field(f.lines().filtered("big", |e| e.price().gt(100)).sku());
    assert_refused(coll.find(Filter::everything()).project::<Document>(filtered).await, "positional");
    let overlap = Projection::only().field(f.address()).field(f.address().city());
    assert_refused(coll.find(Filter::everything()).project::<Document>(overlap).await, "overlaps");
}
