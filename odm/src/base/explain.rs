//! `Explain`: the summary of a server's `explain` reply (the winning plan's stages, its index, keys and documents
//! examined, an in-memory sort), read from the reply alone. Sending `explain` is the builders' `.explain()` in
//! `crate::driver::collection`. Users read the docs at `odm::explain` (src/explain.rs).

use bson::{Bson, Document};
use std::fmt;

/// A summary of a server's `explain` reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Explain {
    /// The winning plan's stages, outermost first (`["FETCH", "IXSCAN"]`); on a router, every shard's in turn.
    pub stages: Vec<String>,
    /// The index the plan scans, when it scans one.
    pub index: Option<String>,
    /// Index keys examined (`executionStats.totalKeysExamined`), when reported.
    pub keys_examined: Option<u64>,
    /// Documents examined (`executionStats.totalDocsExamined`), when reported.
    pub docs_examined: Option<u64>,
    /// Documents returned (`executionStats.nReturned`), when reported.
    pub returned: Option<u64>,
    /// For an aggregation: the stages the server runs after reading the documents (`["$group", "$sort"]`), in
    /// order; empty for other commands, and when the whole pipeline runs inside the query.
    pub pipeline: Vec<String>,
    /// The whole reply.
    pub raw: Document,
}

/// Stages that read an index (an `_id` lookup included).
const INDEX_STAGES: &[&str] = &["IXSCAN", "EXPRESS_IXSCAN", "IDHACK", "EXPRESS_IDHACK", "COUNT_SCAN", "DISTINCT_SCAN"];

impl Explain {
    /// Sums up an `explain` reply.
    pub fn from_reply(raw: Document) -> Explain {
        let mut stages = Vec::new();
        let mut index = None;
        if let Ok(planner) = raw.get_document("queryPlanner") {
            if let Ok(plan) = planner.get_document("winningPlan") {
                walk(plan, &mut stages, &mut index);
            }
        }
        // An aggregation reports its query under the first stage (`$cursor`), then the stages after it.
        let mut pipeline = Vec::new();
        let mut cursor = None;
        if let Ok(agg) = raw.get_array("stages") {
            for stage in agg.iter().filter_map(Bson::as_document) {
                match stage.keys().next().map(String::as_str) {
                    Some("$cursor") => cursor = stage.get_document("$cursor").ok(),
                    Some(name) => pipeline.push(name.to_owned()),
                    None => {}
                }
            }
        }
        if stages.is_empty() {
            if let Some(plan) =
                cursor.and_then(|c| c.get_document("queryPlanner").ok()?.get_document("winningPlan").ok())
            {
                walk(plan, &mut stages, &mut index);
            }
        }
        let stats = raw.get_document("executionStats").ok().or_else(|| cursor?.get_document("executionStats").ok());
        let number = |key: &str| {
            stats.and_then(|s| match s.get(key) {
                Some(Bson::Int32(n)) => u64::try_from(*n).ok(),
                Some(Bson::Int64(n)) => u64::try_from(*n).ok(),
                Some(Bson::Double(n)) if *n >= 0.0 => Some(*n as u64),
                _ => None,
            })
        };
        Explain {
            stages,
            index,
            keys_examined: number("totalKeysExamined"),
            docs_examined: number("totalDocsExamined"),
            returned: number("nReturned"),
            pipeline,
            raw,
        }
    }

    /// True when the plan reads an index rather than the whole collection.
    pub fn uses_index(&self) -> bool {
        self.stages.iter().any(|s| INDEX_STAGES.contains(&s.as_str()))
    }

    /// True when the plan scans the whole collection.
    pub fn scans_collection(&self) -> bool {
        self.stages.iter().any(|s| s == "COLLSCAN")
    }

    /// True when the plan sorts in memory (a blocking `SORT` stage) instead of reading an index in order.
    pub fn sorts_in_memory(&self) -> bool {
        self.stages.iter().any(|s| s == "SORT" || s == "SORT_KEY_GENERATOR")
    }
}

impl fmt::Display for Explain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            if self.stages.is_empty() { "(no plan reported)".to_owned() } else { self.stages.join(" <- ") }
        )?;
        if let Some(index) = &self.index {
            write!(f, " using {index}")?;
        }
        let show = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), |n| n.to_string());
        write!(
            f,
            "; keys examined {}, documents examined {}, returned {}",
            show(self.keys_examined),
            show(self.docs_examined),
            show(self.returned)
        )
    }
}

/// Collects the stages of one plan node and its inputs, outermost first.
fn walk(node: &Document, stages: &mut Vec<String>, index: &mut Option<String>) {
    // Slot-based plans nest the plan under `queryPlan`; a router lists each shard's plan under `shards`.
    if let Ok(plan) = node.get_document("queryPlan") {
        return walk(plan, stages, index);
    }
    if let Ok(stage) = node.get_str("stage") {
        stages.push(stage.to_owned());
    }
    if let Ok(shards) = node.get_array("shards") {
        for shard in shards.iter().filter_map(Bson::as_document) {
            if let Ok(plan) = shard.get_document("winningPlan") {
                walk(plan, stages, index);
            }
        }
    }
    if index.is_none() {
        if let Ok(name) = node.get_str("indexName") {
            *index = Some(name.to_owned());
        }
    }
    if let Ok(input) = node.get_document("inputStage") {
        walk(input, stages, index);
    }
    if let Ok(inputs) = node.get_array("inputStages") {
        for input in inputs.iter().filter_map(Bson::as_document) {
            walk(input, stages, index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Explain;
    use bson::doc;

    #[test]
    fn classic_slot_based_and_router_plans_read_alike() {
        let classic = doc! {
            "queryPlanner": { "winningPlan": { "stage": "SORT", "inputStage": {
                "stage": "FETCH", "inputStage": { "stage": "IXSCAN", "indexName": "idx_a" } } } },
            "executionStats": { "nReturned": 2, "totalKeysExamined": 3_i64, "totalDocsExamined": 2 },
        };
        let e = Explain::from_reply(classic);
        assert_eq!(e.stages, ["SORT", "FETCH", "IXSCAN"]);
        assert_eq!(e.index.as_deref(), Some("idx_a"));
        assert!(e.uses_index() && e.sorts_in_memory() && !e.scans_collection());
        assert_eq!((e.keys_examined, e.docs_examined, e.returned), (Some(3), Some(2), Some(2)));

        let sbe =
            doc! { "queryPlanner": { "winningPlan": { "queryPlan": { "stage": "COLLSCAN" }, "slotBasedPlan": {} } } };
        let e = Explain::from_reply(sbe);
        assert_eq!(e.stages, ["COLLSCAN"]);
        assert!(e.scans_collection() && !e.uses_index());

        let router = doc! { "queryPlanner": { "winningPlan": { "stage": "SINGLE_SHARD", "shards": [
            { "shardName": "s0", "winningPlan": { "stage": "FETCH", "inputStage": { "stage": "IXSCAN", "indexName": "idx_b" } } },
        ] } } };
        let e = Explain::from_reply(router);
        assert_eq!(e.stages, ["SINGLE_SHARD", "FETCH", "IXSCAN"]);
        assert_eq!(e.index.as_deref(), Some("idx_b"));
    }
}
