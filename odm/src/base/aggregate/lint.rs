//! The linter: which stages carry whole documents further than the pipeline needs (see the module docs'
//! "Carrying whole documents").

use super::optimize::name;
use bson::Document;

/// The stages that narrow documents to the fields the rest needs.
fn narrows(stage: &Document) -> bool {
    matches!(name(stage), "$project" | "$group" | "$count" | "$facet" | "$replaceRoot" | "$replaceWith")
}

/// The carrying-whole-documents check (see the module docs).
pub(crate) fn lint(stages: &[Document], origin: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(last_narrowing) = stages.iter().rposition(narrows) else { return out };
    for (i, s) in stages.iter().enumerate().take(last_narrowing) {
        if narrows(s) {
            break;
        }
        let op = name(s);
        let later = name(&stages[last_narrowing]);
        if matches!(op, "$sort" | "$unwind" | "$lookup") {
            out.push(format!(
                "stage {} (`{op}`) carries whole `{origin}` documents, though stage {} (`{later}`) keeps only some \
                 fields: project early (`.project(…)` the fields the rest needs, before it)",
                i + 1,
                last_narrowing + 1
            ));
        }
        if op == "$lookup" && s.get_document("$lookup").is_ok_and(|l| !l.contains_key("pipeline")) {
            let from = s.get_document("$lookup").ok().and_then(|l| l.get_str("from").ok()).unwrap_or("?");
            out.push(format!(
                "stage {} (`$lookup` from `{from}`) joins whole documents, though stage {} (`{later}`) keeps only \
                 some fields: look up into an element type with the fields needed",
                i + 1,
                last_narrowing + 1
            ));
        }
    }
    out
}
#[cfg(test)]
mod tests {
    use super::lint;
    use bson::doc;

    #[test]
    fn whole_documents_before_narrowing_are_flagged() {
        let flagged = lint(&[doc! { "$sort": { "a": 1 } }, doc! { "$group": { "_id": "$a" } }], "Order");
        assert_eq!(flagged.len(), 1, "{flagged:?}");
        assert!(flagged[0].contains("stage 1 (`$sort`) carries whole `Order` documents"), "{flagged:?}");
        assert!(lint(&[doc! { "$project": { "a": 1 } }, doc! { "$sort": { "a": 1 } }], "Order").is_empty());
        // Nothing narrows: the whole documents are the result.
        assert!(lint(&[doc! { "$sort": { "a": 1 } }], "Order").is_empty());
    }
}
