//! Stages refused before sending carry their index and a typed cause.

use super::*;

/// A count kept in `_id`, which `$count` cannot write.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct CountedById {
    #[serde(rename = "_id")]
    n: i64,
}

/// The cause of a pipeline refused before sending: the stage (from 1) and why.
#[track_caller]
fn refused_stage<D: aggregate::Shape>(pipeline: &Pipeline<D>) -> (usize, Invalid) {
    match pipeline.stages() {
        Err(odm::Error::InvalidOperation { model: "Order", cause: Invalid::Stage { index, cause } }) => (index, *cause),
        other => panic!("expected a refused stage, got {other:?}"),
    }
}

#[test]
fn refused_stages_carry_their_index_and_a_typed_cause() {
    let (f, per, listed, count, report) = (
        Order::fields(),
        aggregate::fields::<PerCustomer>(),
        aggregate::fields::<Listed>(),
        aggregate::fields::<Count>(),
        aggregate::fields::<Report>(),
    );
    let (at, cause) = refused_stage(&Pipeline::<Order>::new().filter(f.status().eq("paid")).limit(0));
    assert!(at == 2 && matches!(cause, Invalid::Limit { n: 0 }), "{at}: {cause:?}");
    let (at, cause) = refused_stage(&Pipeline::<Order>::new().skip(u64::MAX));
    assert!(at == 1 && matches!(cause, Invalid::Skip { n: u64::MAX }), "{at}: {cause:?}");
    match refused_stage(&Pipeline::<Order>::new().set(f.items().each().quantity(), 1)) {
        (1, Invalid::Positional { path, clause: Clause::Stage }) => {
            assert_eq!((path.stored(), path.rust()), ("it.$[].q", Some("Order.items[].quantity")))
        }
        other => panic!("{other:?}"),
    }
    // A stage into a type it leaves partly unset names each field left out.
    match refused_stage(&Pipeline::<Order>::new().project(|p| p.field(listed.status(), f.status()))) {
        (1, Invalid::Unset { stage: "$project", into: "Listed", fields }) => {
            let fields: Vec<_> = fields.iter().map(|p| (p.stored(), p.rust())).collect();
            assert_eq!(fields, [("v", Some("Listed.value"))]);
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(
        &Pipeline::<Order>::new().group(|g| g.sum(per.total(), f.amount()).sum(per.total(), f.amount())),
    ) {
        (1, Invalid::Repeated { path, clause: Clause::Group }) => {
            assert_eq!(path.rust(), Some("PerCustomer.total"))
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(&Pipeline::<Order>::new().group(|g| g.first(per.customer(), f.customer()))) {
        (1, Invalid::AccumulatorTarget { path }) => assert_eq!(path.stored(), "_id"),
        other => panic!("{other:?}"),
    }
    // A group key into a nested field, a count into `_id`: named by the output type's paths.
    let line = aggregate::fields::<OrderLine>();
    match refused_stage(&Pipeline::<Order>::new().group(|g| g.key(line.line().sku(), f.status()))) {
        (1, Invalid::GroupKeyTarget { path }) => {
            assert_eq!((path.stored(), path.rust()), ("ln.sk", Some("OrderLine.line.sku")))
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(&Pipeline::<Order>::new().count(aggregate::fields::<CountedById>().n())) {
        (1, Invalid::CountTarget { path }) => assert_eq!((path.stored(), path.rust()), ("_id", Some("CountedById.n"))),
        other => panic!("{other:?}"),
    }
    // A key part given twice, or into the field an accumulator fills, would leave one of them unsent.
    let by_status = aggregate::fields::<StatusRevenue>();
    let twice =
        Pipeline::<Order>::new().group(|g| g.key(by_status.status(), f.status()).key(by_status.status(), f.status()));
    let shared =
        Pipeline::<Order>::new().group(|g| g.sum(by_status.revenue(), f.amount()).key(by_status.revenue(), f.amount()));
    for refused in [twice, shared] {
        match refused_stage(&refused) {
            (1, Invalid::Repeated { path, clause: Clause::Group }) => {
                assert!(matches!(path.rust(), Some("StatusRevenue.status" | "StatusRevenue.revenue")), "{path:?}")
            }
            other => panic!("{other:?}"),
        }
    }
    let two_keys = Pipeline::<Order>::new().group(|g| g.key(per.customer(), f.customer()).key(per.total(), f.amount()));
    assert!(matches!(refused_stage(&two_keys), (1, Invalid::IdAmongKeys)));
    // A branch's own refusal, inside the stage of its `$facet`.
    let facet = Pipeline::<Order>::new()
        .facet(|b| b.branch(report.paid(), |p| p.filter(f.status().eq("paid")).limit(0).count(count.n())));
    match refused_stage(&facet) {
        (1, Invalid::Branch { branch, cause }) => {
            assert_eq!(branch, "pd");
            assert!(
                matches!(*cause, Invalid::Stage { index: 2, cause: ref c } if matches!(**c, Invalid::Limit { n: 0 }))
            );
        }
        other => panic!("{other:?}"),
    }
}
