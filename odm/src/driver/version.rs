//! Typed filters of a versioned model while documents of older versions may remain.
//!
//! A filter on a key the current shape has but an older one lacks, or stores differently, cannot match the older
//! documents a typed read would return as current values: with `{n: "Ada Lovelace"}` read as `last: "Lovelace"`, a
//! filter on `last` would find 0 until the migration has run, then 1, and nothing would tell the two apart. So such
//! a filter is refused before it is sent, with [`Error::FilterNotMigrated`], while documents of older versions may
//! remain; it is sent as it is once none can:
//!
//! - when the collection's validator is the current version's alone (or a later one's), enforced (not `warn`, not
//!   `off`): sync installs it only once no older document is left, and it refuses any new one. Seen once, it is
//!   remembered for the process;
//! - otherwise (the validator still accepts older versions, or the collection has none), when no document of another
//!   version is found (one `find_one` on the version key, per operation; an index on the version key keeps it
//!   cheap).
//!
//! A filter that pins the version key to the current version (`f.v().eq(Version)`, beside the other conditions)
//! states that only current documents are meant, and is always sent as it is. Filters on keys every version stores
//! alike (`_id`, say) are never checked.

use crate::base::error::filter_error::FilterNotMigratedError;
use crate::base::error::{Error, Result};
use crate::base::filter::Filter;
use crate::base::meta::rust_name;
use crate::base::model::model_name;
use crate::base::model::{Model, VersionSpec};
use crate::driver::collection::Collection;
use bson::{doc, Bson, Document};
use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

/// A top-level stored key of the current shape that older shapes lack or store differently, with those versions.
type Differing = Vec<(String, Vec<u32>)>;

/// The keys of `M` that some older shape lacks or stores differently (by their schemas), computed once per model.
fn differing<M: Model>() -> &'static Differing {
    static CACHE: OnceLock<Mutex<HashMap<TypeId, &'static Differing>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&TypeId::of::<M>()) {
        return found;
    }
    let key = M::VERSION.map_or("", |spec| spec.key);
    let current = M::bson_schema().get_document("properties").cloned().unwrap_or_default();
    let older: Vec<(u32, Document)> = M::OLDER
        .iter()
        .map(|shape| (shape.version, (shape.schema)().get_document("properties").cloned().unwrap_or_default()))
        .collect();
    let mut out = Differing::new();
    for (k, schema) in current.iter().filter(|(k, _)| k.as_str() != key) {
        let versions: Vec<u32> = older.iter().filter(|(_, p)| p.get(k) != Some(schema)).map(|(v, _)| *v).collect();
        if !versions.is_empty() {
            out.push((k.clone(), versions));
        }
    }
    let leaked: &'static Differing = Box::leak(Box::new(out));
    cache.lock().unwrap_or_else(|e| e.into_inner()).insert(TypeId::of::<M>(), leaked);
    leaked
}

/// The top-level stored keys a filter document names: field conditions, inside `$and`/`$or`/`$nor`, and field
/// references of `$expr`.
fn named_keys(filter: &Document, out: &mut HashSet<String>) {
    for (k, v) in filter {
        match (k.as_str(), v) {
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                clauses.iter().filter_map(Bson::as_document).for_each(|c| named_keys(c, out));
            }
            ("$expr", v) => expr_keys(v, out),
            (k, _) if k.starts_with('$') => {}
            (k, _) => {
                out.insert(k.split('.').next().unwrap_or(k).to_owned());
            }
        }
    }
}

/// The field references (`"$l"`, `"$a.b"`) of an aggregation expression.
fn expr_keys(v: &Bson, out: &mut HashSet<String>) {
    match v {
        Bson::String(s) if s.starts_with('$') && !s.starts_with("$$") => {
            out.insert(s[1..].split('.').next().unwrap_or_default().to_owned());
        }
        Bson::Array(items) => items.iter().for_each(|i| expr_keys(i, out)),
        Bson::Document(d) => d.values().for_each(|v| expr_keys(v, out)),
        _ => {}
    }
}

/// True when the filter requires the version key to be the current version (at its top level or in a top-level
/// `$and`): it matches current documents only, as it says.
fn pins_current(filter: &Document, spec: VersionSpec) -> bool {
    let current = i64::from(spec.current);
    let is_current = |v: &Bson| {
        matches!(v, Bson::Int32(n) if i64::from(*n) == current) || matches!(v, Bson::Int64(n) if *n == current)
    };
    filter.iter().any(|(k, v)| match (k.as_str(), v) {
        ("$and", Bson::Array(clauses)) => clauses.iter().filter_map(Bson::as_document).any(|c| pins_current(c, spec)),
        (k, v) if k == spec.key => is_current(v) || v.as_document().and_then(|d| d.get("$eq")).is_some_and(is_current),
        _ => false,
    })
}

/// The collections whose validator was seen to be the current version's alone (or a later one's), by namespace and
/// version: no document of an older version can be written there any more.
fn tightened() -> &'static Mutex<HashSet<(String, u32)>> {
    static TIGHTENED: OnceLock<Mutex<HashSet<(String, u32)>>> = OnceLock::new();
    TIGHTENED.get_or_init(Default::default)
}

impl<M: Model> Collection<M> {
    /// Refuses `filter` when it names a key older versions lack or store differently while documents of older
    /// versions may remain (see the [module documentation](self)).
    pub(crate) async fn check_older_shapes(&self, filter: &Filter<M>) -> Result<()> {
        self.check_older_shapes_of(std::slice::from_ref(filter)).await
    }

    /// [`Self::check_older_shapes`] for several filters (a bulk write's), with at most one lookup for them all.
    pub(crate) async fn check_older_shapes_of(&self, filters: &[Filter<M>]) -> Result<()> {
        let Some(spec) = Self::migrating() else { return Ok(()) };
        let differing = differing::<M>();
        if differing.is_empty() {
            return Ok(());
        }
        let mut hits: Vec<&(String, Vec<u32>)> = Vec::new();
        for filter in filters {
            let doc = Self::filter_doc(filter.clone())?;
            if pins_current(&doc, spec) {
                continue;
            }
            let mut named = HashSet::new();
            named_keys(&doc, &mut named);
            for hit in differing.iter().filter(|(k, _)| named.contains(k)) {
                if !hits.contains(&hit) {
                    hits.push(hit);
                }
            }
        }
        if hits.is_empty() {
            return Ok(());
        }
        let ns = self.raw().namespace().to_string();
        if tightened().lock().unwrap_or_else(|e| e.into_inner()).contains(&(ns.clone(), spec.current)) {
            return Ok(());
        }
        if self.validator_is_tight(spec).await? {
            tightened().lock().unwrap_or_else(|e| e.into_inner()).insert((ns, spec.current));
            return Ok(());
        }
        let Some(older) = self.older_matching(Some(&Document::new()), crate::driver::collection::Tally::AnyOne).await?
        else {
            return Ok(());
        };
        let meta = M::type_meta();
        let fields = hits
            .into_iter()
            .map(|(k, versions)| {
                let path = rust_name(meta, k).unwrap_or_else(|| format!("{}.{k}", model_name::<M>()));
                (path, k.clone(), versions.clone())
            })
            .collect();
        Err(Error::FilterNotMigrated(Box::new(FilterNotMigratedError {
            model: model_name::<M>(),
            fields,
            id: older.id,
            version: older.version,
            current: spec.current,
            key: spec.key,
        })))
    }

    /// True when the collection's validator is odm's validator of the current version alone, or of a later one, and
    /// it refuses what fails it (not `validationAction: "warn"`, not `validationLevel: "off"`): sync installs it only
    /// once no older document remains, and it refuses new ones. Read outside any session (`listCollections` is not
    /// allowed in a transaction; the validator is not transactional data).
    async fn validator_is_tight(&self, spec: VersionSpec) -> Result<bool> {
        use futures_util::TryStreamExt;
        let ns = self.raw().namespace();
        let db = self.raw().client().database(&ns.db);
        let listed: Vec<Document> = db
            .list_collections()
            .filter(doc! { "name": &ns.coll })
            .await?
            .with_type::<Document>()
            .try_collect()
            .await?;
        let Some(options) = listed.first().and_then(|c| c.get_document("options").ok()) else { return Ok(false) };
        let enforced = options.get_str("validationAction").map_or(true, |a| a != "warn")
            && options.get_str("validationLevel").map_or(true, |l| l != "off");
        let validator = options.get_document("validator").ok();
        Ok(enforced && validator.and_then(tight_version).is_some_and(|v| v >= spec.current))
    }
}

/// The version of an odm validator that accepts that version alone (its `title` is exactly `"version N"`), `None`
/// for a validator that also accepts older versions ([`crate::version::accepting_older`]) or that odm did not version. Asked
/// only of a collection's validator as the server holds it.
fn tight_version(validator: &Document) -> Option<u32> {
    let version = crate::base::model::older::version_of_validator(validator)?;
    let title = validator.get_document("$jsonSchema").ok()?.get_str("title").ok()?;
    (title == crate::base::model::older::title(version)).then_some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_keys_are_top_level_stored_keys_at_any_depth_of_logic() {
        let filter = doc! {
            "a.b": 1,
            "$or": [{ "c": { "$gt": 1 } }, { "$and": [{ "d": 1 }] }],
            "$expr": { "$eq": ["$e.f", "$$ROOT"] },
            "$text": { "$search": "x" },
        };
        let mut out = HashSet::new();
        named_keys(&filter, &mut out);
        let mut out: Vec<String> = out.into_iter().collect();
        out.sort();
        assert_eq!(out, ["a", "c", "d", "e"]);
    }

    #[test]
    fn a_filter_pins_the_current_version_only_by_equality_on_the_key() {
        let spec = VersionSpec { key: "_v", current: 3, oldest: 1 };
        assert!(pins_current(&doc! { "l": "x", "_v": 3 }, spec));
        assert!(pins_current(&doc! { "$and": [{ "l": "x" }, { "_v": { "$eq": 3_i64 } }] }, spec));
        assert!(!pins_current(&doc! { "l": "x", "_v": 2 }, spec));
        assert!(!pins_current(&doc! { "$or": [{ "l": "x" }, { "_v": 3 }] }, spec));
        assert!(!pins_current(&doc! { "l": "x", "_v": { "$gte": 3 } }, spec));
    }
}
