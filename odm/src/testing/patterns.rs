//! Checking declared access patterns against the server: each `#[odm(query(…))]` of a model is run through
//! `explain`, and should be served by an index scan without an in-memory sort.

use super::server_info::ServerInfo;
use crate::error::{Error, Result};
use crate::explain::Explain;
use crate::kind::BsonKind;
use crate::meta::TypeMeta;
use crate::model::{Model, QuerySpec};
use bson::{doc, oid::ObjectId, Bson, DateTime, Decimal128, Document};
use mongodb::Database;
use std::fmt;

/// One declared access pattern as the server plans it.
#[derive(Clone, Debug)]
pub struct PatternCheck {
    /// The pattern, as declared.
    pub pattern: QuerySpec,
    /// The filter it was explained with: equality and range conditions on its fields, with placeholder values of
    /// each field's type (a plan depends on the shape of a query, not on its values).
    pub filter: Document,
    /// The sort it was explained with.
    pub sort: Document,
    /// What the server planned.
    pub explain: Explain,
}

impl PatternCheck {
    /// True when an index serves the pattern: the plan scans an index, not the collection, and sorts nothing in
    /// memory.
    pub fn is_served(&self) -> bool {
        self.explain.uses_index() && !self.explain.scans_collection() && !self.explain.sorts_in_memory()
    }
}

impl fmt::Display for PatternCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.is_served() {
            "served by an index scan"
        } else if !self.explain.uses_index() || self.explain.scans_collection() {
            "NOT SERVED: the plan scans the collection"
        } else {
            "NOT SERVED: the plan sorts in memory"
        };
        write!(f, "{}: {verdict} ({}); filter {}, sort {}", self.pattern, self.explain, self.filter, self.sort)
    }
}

/// Explains every declared access pattern of `M` on its collection in `db` (which should exist, with its indexes:
/// sync first), in declaration order.
///
/// ```no_run
/// # async fn demo<M: odm::Model>(db: &odm::mongodb::Database) -> odm::error::Result<()> {
/// for check in odm::testing::access_patterns::<M>(db).await? {
///     assert!(check.is_served(), "{check}");
/// }
/// # Ok(()) }
/// ```
pub async fn access_patterns<M: Model>(db: &Database) -> Result<Vec<PatternCheck>> {
    let meta = M::type_meta().ok_or(Error::NoFieldTable { model: M::COLLECTION })?;
    let mut out = Vec::with_capacity(M::QUERIES.len());
    for pattern in M::QUERIES {
        out.push(explain_pattern(db, M::COLLECTION, meta, *pattern, Part::Whole).await?);
    }
    Ok(out)
}

/// Which part of a pattern to explain.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Equality, sort and range, as declared.
    Whole,
    /// Its equality fields alone.
    Equality,
}

async fn explain_pattern(
    db: &Database,
    collection: &str,
    meta: &'static TypeMeta,
    pattern: QuerySpec,
    part: Part,
) -> Result<PatternCheck> {
    let (mut filter, mut sort) = (Document::new(), Document::new());
    for path in entries(pattern.eq) {
        let (stored, kind) = resolve(meta, path)?;
        filter.insert(stored, placeholder(kind));
    }
    if part == Part::Whole {
        for entry in entries(pattern.sort) {
            let (path, direction) = match entry.strip_prefix('-') {
                Some(path) => (path, -1),
                None => (entry, 1),
            };
            sort.insert(resolve(meta, path)?.0, direction);
        }
        for path in entries(pattern.range) {
            let (stored, kind) = resolve(meta, path)?;
            filter.insert(stored, doc! { "$gte": placeholder(kind) });
        }
    }
    let mut find = doc! { "find": collection, "filter": filter.clone() };
    if !sort.is_empty() {
        find.insert("sort", sort.clone());
    }
    let reply = db.run_command(doc! { "explain": find, "verbosity": "executionStats" }).await?;
    Ok(PatternCheck { pattern, filter, sort, explain: Explain::from_reply(reply) })
}

/// Explains every declared access pattern of `M` (as [`access_patterns`] does) and panics when any is not served by
/// an index scan without an in-memory sort, listing every pattern with its plan, served or not.
///
/// What a plan can show depends on the server's planner, so this asks the server what it is ([`ServerInfo`]):
/// SecantusDB (the embedded test server) does not use an index once a range is present and sorts in memory what an
/// index already orders, so there a pattern with a sort or a range that its plan leaves unserved is held to what
/// that planner can show — its equality fields alone scan an index — and the message says so. Against mongod every
/// pattern is held to the whole rule.
///
/// ```no_run
/// # async fn demo<M: odm::Model>(db: &odm::mongodb::Database) {
/// odm::testing::assert_access_patterns::<M>(db).await;
/// # }
/// ```
///
/// # Panics
///
/// When a pattern is not served, or the server cannot explain one.
pub async fn assert_access_patterns<M: Model>(db: &Database) {
    let fail = |e: Error| -> ! { panic!("cannot explain the access patterns of `{}`: {e}", M::COLLECTION) };
    let checks = access_patterns::<M>(db).await.unwrap_or_else(|e| fail(e));
    if checks.iter().all(PatternCheck::is_served) {
        return;
    }
    let server = ServerInfo::of(db.client()).await.unwrap_or_else(|e| fail(e));
    let meta = M::type_meta().expect("access_patterns found the field table");
    let mut report = Vec::with_capacity(checks.len());
    let mut served = true;
    for check in checks {
        let partial = !check.pattern.sort.is_empty() || !check.pattern.range.is_empty();
        if check.is_served() || !(server.is_secantus() && partial) {
            served &= check.is_served();
            report.push(format!("  {check}"));
            continue;
        }
        let equality = explain_pattern(db, M::COLLECTION, meta, check.pattern, Part::Equality).await;
        let equality = equality.unwrap_or_else(|e| fail(e));
        let prefix_served = equality.explain.uses_index() && !equality.explain.scans_collection();
        served &= prefix_served;
        report.push(format!(
            "  {check}\n    ({server}: its planner does not use an index once a sort or range is present; the \
             equality fields alone {})",
            if prefix_served { "scan an index" } else { "do NOT scan an index" },
        ));
    }
    if !served {
        panic!("access patterns of `{}` not served by an index:\n{}", M::COLLECTION, report.join("\n"));
    }
    eprintln!("access patterns of `{}`, as far as this server's planner shows:\n{}", M::COLLECTION, report.join("\n"));
}

fn entries(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|e| !e.is_empty())
}

/// The stored path of a Rust path (`items.name` → `it.n`) and the kind of value it holds.
fn resolve(meta: &'static TypeMeta, path: &str) -> Result<(String, BsonKind)> {
    let mut stored = Vec::new();
    let mut current = Some(meta);
    let mut kind = BsonKind::Other;
    for segment in path.split('.') {
        let field = current
            .and_then(|m| m.fields.iter().find(|f| f.name == segment))
            .ok_or_else(|| Error::UnknownQueryPath { model: meta.name, path: path.to_owned() })?;
        stored.push(field.key);
        kind = match field.ty.kind {
            BsonKind::Array => field.ty.item.unwrap_or(BsonKind::Other),
            other => other,
        };
        current = (field.ty.meta)();
    }
    Ok((stored.join("."), kind))
}

/// A value of `kind`, for a query whose plan, not its result, is wanted.
fn placeholder(kind: BsonKind) -> Bson {
    match kind {
        BsonKind::Int => Bson::Int32(0),
        BsonKind::Long => Bson::Int64(0),
        BsonKind::Double => Bson::Double(0.0),
        BsonKind::Decimal => Bson::Decimal128(Decimal128::from_bytes([0; 16])),
        BsonKind::String => Bson::String(String::new()),
        BsonKind::Bool => Bson::Boolean(false),
        BsonKind::ObjectId => Bson::ObjectId(ObjectId::from_bytes([0; 12])),
        BsonKind::Date => Bson::DateTime(DateTime::from_millis(0)),
        _ => Bson::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;
    use crate::kind::BsonKind;
    use crate::meta::{FieldMeta, FieldType, TypeMeta};
    use crate::Error;

    const SCALAR: FieldType = FieldType::fixed(BsonKind::String);
    static ORDER: TypeMeta = TypeMeta::new("Order", &[FieldMeta::new("status", "st", &SCALAR)]);

    #[test]
    fn a_declared_query_naming_no_field_is_an_unknown_path() {
        assert_eq!(resolve(&ORDER, "status").expect("known").0, "st");
        let err = resolve(&ORDER, "status.nope").expect_err("unknown");
        assert!(matches!(&err, Error::UnknownQueryPath { model: "Order", path } if path == "status.nope"), "{err}");
        assert_eq!(err.model(), Some("Order"));
    }
}
