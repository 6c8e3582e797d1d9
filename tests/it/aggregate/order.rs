//! `$count` and `$facet`; the order stages run in (matches first where the pipeline allows, shown by explain); whole documents through a sort flagged until projected.

use super::*;

#[tokio::test]
async fn count_and_facet() {
    let (_db, orders) = seeded("agg_facet").await;
    let (f, count) = (Order::fields(), aggregate::fields::<Count>());
    let counted = orders.aggregate().filter(f.status().eq("paid")).count(count.n()).await.unwrap();
    assert_eq!(counted, [Count { n: 3 }]);

    let (out, listed) = (aggregate::fields::<Report>(), aggregate::fields::<Listed>());
    let report = orders
        .aggregate()
        .facet(|b| {
            b.branch(out.paid(), |p| p.filter(f.status().eq("paid")).count(count.n())).branch(out.top(), |p| {
                p.sort(f.amount().desc()).limit(2).project(|p| {
                    p.field(listed.id(), f.id()).field(listed.status(), f.status()).field(listed.value(), f.amount())
                })
            })
        })
        .await
        .unwrap();
    assert_eq!(report.len(), 1);
    assert_eq!(report[0].paid, [Count { n: 3 }]);
    assert_eq!(report[0].top.iter().map(|l| l.value).collect::<Vec<_>>(), [500, 70]);
}

#[tokio::test]
async fn matches_run_first_where_the_pipeline_allows_and_explain_shows_it() {
    let (_db, orders) = seeded("agg_order").await;
    let (f, out) = (Order::fields(), aggregate::fields::<Listed>());
    let pipeline = orders
        .aggregate()
        .sort(f.amount().desc())
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        // Reads `st`, which the projection keeps as it is: it can run first.
        .filter(out.status().eq("paid"))
        // Reads `v`, which the projection computes: it stays after it.
        .filter(out.value().gt(20));
    let stages = pipeline.stages().unwrap();
    assert_eq!(
        stages,
        [
            doc! { "$match": { "st": "paid" } },
            doc! { "$sort": { "am": -1 } },
            // The sort reads `am`, which the projection does not keep: it stays before it.
            doc! { "$project": { "_id": 1, "st": 1, "v": "$am" } },
            doc! { "$match": { "v": { "$gt": 20_i64 } } },
        ]
    );
    let explain = orders
        .aggregate()
        .filter(f.status().eq("paid"))
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        .explain()
        .await
        .unwrap();
    assert!(explain.scans_collection(), "{explain}");
    let rows = pipeline.await.unwrap();
    assert_eq!(rows.iter().map(|r| r.value).collect::<Vec<_>>(), [70, 30]);
}

#[tokio::test]
async fn whole_documents_through_a_sort_are_flagged_until_projected_first() {
    let (_db, orders) = seeded("agg_lint").await;
    let (f, out) = (Order::fields(), aggregate::fields::<StatusRevenue>());
    let late = orders
        .aggregate()
        .sort(f.amount().desc())
        .limit(2)
        .group(|g| g.key(out.status(), f.status()).sum(out.revenue(), f.amount()));
    let flags = late.lint();
    assert_eq!(flags.len(), 1, "{flags:?} {:?}", late.stages());
    assert!(
        flags[0].contains("stage 1 (`$sort`) carries whole `Order` documents") && flags[0].contains("project early")
    );
    // It still runs (the warning goes to `tracing`, target `odm::aggregate`).
    assert_eq!(late.await.unwrap().len(), 2);

    let early = orders
        .aggregate()
        .project(|p| p.field(out.status(), f.status()).field(out.revenue(), f.amount()))
        .sort(out.revenue().desc())
        .limit(2);
    assert!(early.lint().is_empty());
}
