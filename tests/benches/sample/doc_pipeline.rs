//! The aggregate bench's joined pipeline written with `doc!` alone: paid orders of at least `min` (`$match`, two
//! conditions), revenue and order count per customer (`$group`), the customer's name joined (`$lookup` narrowed to the
//! name), one row per customer (`$unwind`), and the report's fields (`$project`). Shared by the aggregate bench and
//! the statement baseline built outside the workspace (`baseline-statements`), so both build the same stages from the
//! same source.

use crate::bson::{doc, Document};

/// The five stages, by hand.
pub fn doc_pipeline(min: i64) -> Vec<Document> {
    vec![
        doc! { "$match": { "st": "paid", "tot": { "$gte": min } } },
        doc! { "$group": { "_id": "$cu", "rv": { "$sum": "$tot" }, "n": { "$sum": 1 } } },
        doc! { "$lookup": {
            "from": "crm_customer", "localField": "_id", "foreignField": "_id",
            "pipeline": [{ "$project": { "nm": 1, "_id": 0 } }], "as": "c",
        } },
        doc! { "$unwind": "$c" },
        doc! { "$project": { "rv": 1, "n": 1, "nm": "$c.nm", "_id": 0 } },
    ]
}
