//! The schema checker: which stored documents the model's current validator would refuse, and why, found by the
//! server without changing anything.
//!
//! Documents written before a validator existed, written around odm with validation bypassed, or kept through a
//! `moderate` rollout may not match the model. [`Collection::check_schema`] finds them with `$nor: [validator]`
//! and explains each one by the part of the validator it breaks: a missing field, a field of the wrong type or out
//! of its bounds, keys the model does not declare, or a counter out of step with its array — each named by its
//! Rust path (`Order.items[].price`), counted, with sample `_id`s. The collection is read in batches of `_id`s
//! (never loaded whole), and a progress callback sees every batch.
//!
//! ```no_run
//! # async fn run(orders: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
//! let report = orders
//!     .check_schema()
//!     .on_progress(|p| eprintln!("{}/{} checked, {} failing, eta {:?}", p.done, p.total, p.failing, p.eta()))
//!     .run()
//!     .await?;
//! for finding in &report.findings {
//!     println!("{finding}");
//! }
//! # Ok(())
//! # }
//! ```

use crate::collection::Collection;
use crate::error::{model_name, Result};
use crate::meta::{named, rust_name};
use crate::model::Model;
use crate::progress;
use crate::schema::counter_pairs;
use crate::session::Session;
use bson::{doc, Bson, Document, RawDocumentBuf};
use futures_util::{StreamExt, TryStreamExt};
use std::fmt;
use std::time::{Duration, Instant};

/// Which part of the validator a document breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// A field the model always writes is absent (rule [`type-option-absent`](crate::rules#type-option-absent)).
    Missing,
    /// A field holds another BSON type (or shape: enum values, nested documents in arrays and maps; rule
    /// [`type-one-bson-type`](crate::rules#type-one-bson-type)).
    Invalid,
    /// A field has the right type but breaks its bounds: array items (rule
    /// [`array-bound`](crate::rules#array-bound)) or string length ([`string-length`](crate::rules#string-length)).
    Bounds,
    /// A closed document holds keys the model does not declare (rule [`closed-open`](crate::rules#closed-open)).
    Unexpected,
    /// An array counter differs from the array's length (rule [`counter-in-step`](crate::rules#counter-in-step)).
    Counter,
    /// The document fails the validator, but no single part explains it: a validator changed on the server (rule
    /// [`model-validation`](crate::rules#model-validation)).
    Other,
    /// The document is at an older version the model still reads (see [`crate::version`]): not corrupt, awaiting
    /// migration (rule [`version-field`](crate::rules#version-field)). Such documents are counted apart, in
    /// [`SchemaReport::older`], and not explained part by part.
    OlderVersion,
}

impl Check {
    /// The id of the rule the failure breaks, as [`crate::rules`] lists them.
    pub fn rule(self) -> &'static str {
        match self {
            Check::Missing => "type-option-absent",
            Check::Invalid => "type-one-bson-type",
            Check::Bounds => "array-bound", // or `string-length`: see `Finding::rule`
            Check::Unexpected => "closed-open",
            Check::Counter => "counter-in-step",
            Check::Other => "model-validation",
            Check::OlderVersion => "version-field",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Check::Missing => "is missing",
            Check::Invalid => "does not hold the type the model stores",
            Check::Bounds => "is out of its bounds",
            Check::Unexpected => "holds keys the model does not declare",
            Check::Counter => "differs from the length of",
            Check::Other => "fails the validator",
            Check::OlderVersion => "is at an older version the model reads",
        }
    }
}

/// Documents failing one part of the validator at one field.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Which part fails.
    pub check: Check,
    /// The field's Rust path under the model's name (`Order.items[].price`), or the stored path when the model does
    /// not know it; empty for the document itself.
    pub path: String,
    /// The stored path (`it.p`).
    pub stored_path: String,
    /// For a counter, the Rust path of the array it counts.
    pub array: Option<String>,
    /// For [`Check::OlderVersion`], the stored version (`None`: no version key, read as the oldest).
    pub version: Option<i64>,
    /// The id of the rule the documents break ([`crate::rules`]).
    pub rule: &'static str,
    /// How many documents fail it.
    pub count: u64,
    /// The `_id`s of the first failing documents (at most [`SchemaCheck::samples`]).
    pub sample_ids: Vec<Bson>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RULE: &str = "rule";
        if self.check == Check::OlderVersion {
            let at = match self.version {
                Some(v) => format!("at version {v}"),
                None => "without a version key (read as the oldest version)".to_owned(),
            };
            write!(f, "{} document(s) {at}: an older version the model reads; migrate them", self.count)?;
            write!(f, " ({RULE} `{}`)", self.rule)?;
            return self.samples(f);
        }
        let field = if self.stored_path.is_empty() {
            "the document".to_owned()
        } else {
            let rust = (self.path != self.stored_path).then_some(self.path.as_str());
            named(rust, &self.stored_path)
        };
        write!(f, "{} document(s): {field} {}", self.count, self.check.what())?;
        if let Some(array) = &self.array {
            write!(f, " `{array}`")?;
        }
        // Spelt apart so that only the rules page lists rule ids literally; the ids come from `Check::rule`.
        write!(f, " ({RULE} `{}`)", self.rule)?;
        self.samples(f)
    }
}

impl Finding {
    fn samples(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.sample_ids.is_empty() {
            let ids: Vec<String> = self.sample_ids.iter().map(ToString::to_string).collect();
            write!(f, "; e.g. _id {}", ids.join(", "))?;
        }
        Ok(())
    }
}

/// What [`SchemaCheck::run`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaReport {
    /// The model's Rust type name.
    pub model: &'static str,
    /// Documents read.
    pub checked: u64,
    /// Documents the validator refuses, apart from those at an older version the model reads.
    pub failing: u64,
    /// Documents at an older version the model still reads: not corrupt, but not yet migrated.
    pub older: u64,
    /// Why, by part of the validator and field, most frequent first. A document breaking two parts counts in both.
    pub findings: Vec<Finding>,
}

impl SchemaReport {
    /// True when every document matches the validator: none failing, none at an older version.
    pub fn is_clean(&self) -> bool {
        self.failing == 0 && self.older == 0
    }
}

impl fmt::Display for SchemaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} of {} document(s) fail the validator", self.model, self.failing, self.checked)?;
        if self.older > 0 {
            write!(f, "; {} are at older versions the model reads (migrate them)", self.older)?;
        }
        for finding in &self.findings {
            write!(f, "\n  {finding}")?;
        }
        Ok(())
    }
}

/// How far a check has come, given to [`SchemaCheck::on_progress`] after every batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Documents checked so far.
    pub done: u64,
    /// Documents in the collection when the check started (an estimate: writes go on meanwhile).
    pub total: u64,
    /// Failing documents found so far.
    pub failing: u64,
    /// Time since the check started.
    pub elapsed: Duration,
}

impl Progress {
    /// Documents checked per second so far.
    pub fn rate(&self) -> f64 {
        progress::rate(self.done, self.elapsed)
    }

    /// The time left at the rate so far (`None` before the rate is known).
    pub fn eta(&self) -> Option<Duration> {
        progress::eta(self.done, self.total, self.elapsed)
    }

    /// The fraction done, from 0 to 1 (1 when there is nothing to do), for a progress bar.
    pub fn fraction(&self) -> f64 {
        progress::fraction(self.done, self.total)
    }
}

/// A pending schema check of a collection (see the [module documentation](self)).
#[must_use = "a `SchemaCheck` does nothing until `run`"]
pub struct SchemaCheck<'a, M: Model> {
    coll: &'a Collection<M>,
    batch: usize,
    samples: usize,
    progress: Option<ProgressFn<'a>>,
}

/// The callback of [`SchemaCheck::on_progress`].
type ProgressFn<'a> = Box<dyn FnMut(&Progress) + Send + 'a>;

impl<M: Model> Collection<M> {
    /// Finds the stored documents the model's validator would refuse (see [`crate::check`]).
    pub fn check_schema(&self) -> SchemaCheck<'_, M> {
        SchemaCheck { coll: self, batch: 1000, samples: 5, progress: None }
    }
}

impl<'a, M: Model> SchemaCheck<'a, M> {
    /// Documents read per batch (default 1000).
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Sample `_id`s kept per finding (default 5).
    pub fn samples(mut self, n: usize) -> Self {
        self.samples = n;
        self
    }

    /// Called after every batch, for a progress bar.
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Reads the collection and reports what fails. Nothing is written.
    pub async fn run(mut self) -> Result<SchemaReport> {
        let started = Instant::now();
        let raw = self.coll.raw();
        let session = self.coll.session().cloned();
        let validator = M::validator();
        let parts = parts(&validator);
        // The estimate reads metadata, which no session orders (it cannot run in one).
        let total = raw.estimated_document_count().await?;
        let mut report =
            SchemaReport { model: model_name::<M>(), checked: 0, failing: 0, older: 0, findings: Vec::new() };
        let rust = |stored: &str| rust_name(M::type_meta(), stored, false).unwrap_or_else(|| stored.to_owned());
        let mut findings: Vec<Finding> = parts
            .iter()
            .map(|p| Finding {
                check: p.check,
                path: rust(&p.stored),
                stored_path: p.stored.clone(),
                array: p.array.as_deref().map(rust),
                version: None,
                rule: p.rule,
                count: 0,
                sample_ids: Vec::new(),
            })
            .collect();
        let mut other = Finding {
            check: Check::Other,
            path: String::new(),
            stored_path: String::new(),
            array: None,
            version: None,
            rule: Check::Other.rule(),
            count: 0,
            sample_ids: vec![],
        };

        let mut older: Vec<Finding> = Vec::new();
        // One cursor over every `_id`, in order: batches never skip a document whose `_id` has another BSON type.
        let every = raw.find(doc! {}).sort(doc! { "_id": 1 }).projection(doc! { "_id": 1 });
        let mut ids = match &session {
            Some(s) => {
                let cursor = every.session(&mut *s.lock().await).await?;
                crate::session::rows(cursor, s.clone())
            }
            None => every.await?.map_err(crate::error::Error::from).boxed(),
        };
        let mut batch: Vec<Bson> = Vec::with_capacity(self.batch);
        loop {
            let next = ids.try_next().await?;
            if let Some(d) = &next {
                if let Some(id) = d.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()) {
                    batch.push(id);
                }
            }
            if batch.len() < self.batch && next.is_some() {
                continue;
            }
            if !batch.is_empty() {
                report.checked += batch.len() as u64;
                let mut failing =
                    ids_matching(raw, session.as_ref(), &batch, doc! { "$nor": [validator.clone()] }).await?;
                // Documents at an older version the model reads are not corrupt: counted apart, by version.
                if let (Some(spec), false) = (M::VERSION, failing.is_empty()) {
                    for v in (spec.oldest..spec.current).map(Some).chain([None]) {
                        let filter = match v {
                            Some(v) => doc! { spec.key: i64::from(v) },
                            None => doc! { spec.key: { "$exists": false } },
                        };
                        let at = ids_matching(raw, session.as_ref(), &failing, filter).await?;
                        if at.is_empty() {
                            continue;
                        }
                        failing.retain(|id| !at.contains(id));
                        report.older += at.len() as u64;
                        let version = v.map(i64::from);
                        let i = match older.iter().position(|f| f.version == version) {
                            Some(i) => i,
                            None => {
                                older.push(Finding {
                                    check: Check::OlderVersion,
                                    path: rust(spec.key),
                                    stored_path: spec.key.to_owned(),
                                    array: None,
                                    version,
                                    rule: Check::OlderVersion.rule(),
                                    count: 0,
                                    sample_ids: Vec::new(),
                                });
                                older.len() - 1
                            }
                        };
                        record(&mut older[i], at, self.samples);
                    }
                }
                report.failing += failing.len() as u64;
                let mut explained = vec![false; failing.len()];
                let mut broken_by: Vec<Vec<Bson>> = Vec::with_capacity(parts.len());
                for (part, finding) in parts.iter().zip(&mut findings) {
                    let mut broken = if failing.is_empty() {
                        Vec::new()
                    } else {
                        ids_matching(raw, session.as_ref(), &failing, doc! { "$nor": [part.filter.clone()] }).await?
                    };
                    // Bounds are reported only for values of the right type (the type part comes first).
                    if let Some(type_part) = part.unless {
                        broken.retain(|id| !broken_by[type_part].contains(id));
                    }
                    for id in &broken {
                        if let Some(i) = failing.iter().position(|f| f == id) {
                            explained[i] = true;
                        }
                    }
                    record(finding, broken.clone(), self.samples);
                    broken_by.push(broken);
                }
                let unexplained: Vec<Bson> =
                    failing.iter().zip(&explained).filter(|(_, e)| !**e).map(|(id, _)| id.clone()).collect();
                record(&mut other, unexplained, self.samples);
                batch.clear();
                if let Some(progress) = &mut self.progress {
                    progress(&Progress {
                        done: report.checked,
                        total: total.max(report.checked),
                        failing: report.failing,
                        elapsed: started.elapsed(),
                    });
                }
            }
            if next.is_none() {
                break;
            }
        }
        findings.push(other);
        findings.extend(older);
        findings.retain(|f| f.count > 0);
        findings.sort_by_key(|f| std::cmp::Reverse(f.count));
        report.findings = findings;
        Ok(report)
    }
}

fn record(finding: &mut Finding, ids: Vec<Bson>, samples: usize) {
    finding.count += ids.len() as u64;
    let room = samples.saturating_sub(finding.sample_ids.len());
    finding.sample_ids.extend(ids.into_iter().take(room));
}

/// The `_id`s among `ids` whose documents match `filter` (read in `session`, when the collection has one).
async fn ids_matching(
    raw: &mongodb::Collection<RawDocumentBuf>,
    session: Option<&Session>,
    ids: &[Bson],
    filter: Document,
) -> Result<Vec<Bson>> {
    let find = raw.find(doc! { "$and": [{ "_id": { "$in": ids } }, filter] }).projection(doc! { "_id": 1 });
    let found: Vec<RawDocumentBuf> = match session {
        Some(s) => {
            // The cursor is opened with the session locked, then read batch by batch, each locking it again.
            let cursor = find.session(&mut *s.lock().await).await?;
            crate::session::rows(cursor, s.clone()).try_collect().await?
        }
        None => find.await?.try_collect().await?,
    };
    Ok(found.iter().filter_map(|d| Bson::try_from(d.get("_id").ok().flatten()?).ok()).collect())
}

/// One part of a validator, as a query filter that a document satisfies when it keeps that part.
#[derive(Debug, PartialEq)]
struct Part {
    check: Check,
    rule: &'static str,
    stored: String,
    /// For a counter: the stored path of its array.
    array: Option<String>,
    filter: Document,
    /// For bounds: the index of the type part of the same field; documents failing that are not counted again.
    unless: Option<usize>,
}

impl Part {
    fn new(check: Check, stored: String, filter: Document) -> Part {
        Part { check, rule: check.rule(), stored, array: None, filter, unless: None }
    }
}

/// The integer keywords that bound a value of the right type, and the rule each belongs to.
const BOUNDS: &[(&str, &str)] = &[
    ("maxItems", "array-bound"),
    ("minItems", "array-bound"),
    ("maxLength", "string-length"),
    ("minLength", "string-length"),
];

/// The parts of a model's validator (`{$jsonSchema: …}` plus its counter `$expr` checks): each required key, each
/// property (nested documents part by part, anything else whole), each closed level, each counter.
fn parts(validator: &Document) -> Vec<Part> {
    let mut out = Vec::new();
    if let Ok(schema) = validator.get_document("$jsonSchema") {
        object_parts(schema, &[], &mut out);
        branch_parts(schema, &mut out);
    }
    let mut exprs: Vec<&Bson> = validator.get("$expr").into_iter().collect();
    if let Ok(clauses) = validator.get_array("$and") {
        exprs.extend(clauses.iter().filter_map(|c| c.as_document()?.get("$expr")));
    }
    for expr in exprs {
        let (array, counter) = counter_pairs(expr).into_iter().next().unwrap_or_default();
        let mut part = Part::new(Check::Counter, counter, doc! { "$expr": expr.clone() });
        part.array = Some(array);
        out.push(part);
    }
    out
}

/// The parts of the object schema at stored path `at` (each nested schema applies only when its parents exist).
fn object_parts(schema: &Document, at: &[&str], out: &mut Vec<Part>) {
    let join = |key: &str| at.iter().copied().chain([key]).collect::<Vec<_>>().join(".");
    if let Ok(required) = schema.get_array("required") {
        for key in required.iter().filter_map(Bson::as_str) {
            let filter = nested(at, doc! { "required": [key] });
            out.push(Part::new(Check::Missing, join(key), filter));
        }
    }
    let properties = schema.get_document("properties").ok();
    for (key, sub) in properties.into_iter().flatten() {
        let Some(sub) = sub.as_document() else { continue };
        let plain_object = sub.get_str("bsonType").ok() == Some("object") && sub.contains_key("properties");
        if plain_object {
            let filter = nested(at, doc! { "properties": { key: { "bsonType": "object" } } });
            out.push(Part::new(Check::Invalid, join(key), filter));
            let mut inner: Vec<&str> = at.to_vec();
            inner.push(key);
            object_parts(sub, &inner, out);
            continue;
        }
        let bounds: Vec<&(&str, &str)> = BOUNDS.iter().filter(|(k, _)| sub.contains_key(*k)).collect();
        match (sub.get("bsonType"), bounds.first()) {
            (Some(ty), Some((_, rule))) => {
                // The type alone first, then the bounds of values of that type.
                let type_only = nested(at, doc! { "properties": { key: { "bsonType": ty.clone() } } });
                out.push(Part::new(Check::Invalid, join(key), type_only));
                let mut part =
                    Part::new(Check::Bounds, join(key), nested(at, doc! { "properties": { key: sub.clone() } }));
                part.rule = rule;
                part.unless = Some(out.len() - 1);
                out.push(part);
            }
            _ => {
                out.push(Part::new(Check::Invalid, join(key), nested(at, doc! { "properties": { key: sub.clone() } })))
            }
        }
    }
    if schema.get_bool("additionalProperties").ok() == Some(false) {
        let known: Document =
            properties.into_iter().flatten().map(|(k, _)| (k.clone(), Bson::Document(doc! {}))).collect();
        let filter = nested(at, doc! { "properties": known, "additionalProperties": false });
        out.push(Part::new(Check::Unexpected, at.join("."), filter));
    }
}

/// The parts of each branch of a `oneOf` tied to a discriminator (a polymorphic model's variants): each applies only
/// to the documents carrying the branch's tag value, so a document is explained by its own variant's shape.
fn branch_parts(schema: &Document, out: &mut Vec<Part>) {
    let Ok(branches) = schema.get_array("oneOf") else { return };
    for branch in branches.iter().filter_map(Bson::as_document) {
        let Some((tag, value)) = discriminator(branch) else { continue };
        let mut parts = Vec::new();
        object_parts(branch, &[], &mut parts);
        let offset = out.len();
        // The branch's own tag parts always hold where they apply; kept, so `unless` indexes stay right.
        for mut part in parts {
            part.filter = doc! { "$or": [{ tag.clone(): { "$ne": value.clone() } }, part.filter] };
            part.unless = part.unless.map(|i| i + offset);
            out.push(part);
        }
    }
}

/// The key and value a `oneOf` branch requires: a required property allowing exactly one value.
fn discriminator(branch: &Document) -> Option<(String, Bson)> {
    let required = branch.get_array("required").ok()?;
    let properties = branch.get_document("properties").ok()?;
    properties.iter().find_map(|(key, sub)| {
        let values = sub.as_document()?.get_array("enum").ok()?;
        let is_required = required.iter().any(|r| r.as_str() == Some(key));
        (is_required && values.len() == 1).then(|| (key.clone(), values[0].clone()))
    })
}

/// `{$jsonSchema: …}` applying `inner` to the document at `at`, and only where it exists.
fn nested(at: &[&str], inner: Document) -> Document {
    let schema = at.iter().rev().fold(inner, |inner, seg| doc! { "properties": { *seg: inner } });
    doc! { "$jsonSchema": schema }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_validator_splits_into_parts_by_field() {
        let validator = doc! {
            "$jsonSchema": {
                "bsonType": "object",
                "required": ["_id", "c"],
                "properties": {
                    "_id": { "bsonType": "objectId" },
                    "c": { "bsonType": "object", "required": ["n"], "properties": { "n": { "bsonType": "string" } },
                           "additionalProperties": false },
                    "it": { "bsonType": "array", "maxItems": 3_i64 },
                },
                "additionalProperties": false,
            },
            "$expr": crate::schema::build::counter_check("$it", "$ic"),
        };
        let parts = parts(&validator);
        let summary: Vec<(Check, &str)> = parts.iter().map(|p| (p.check, p.stored.as_str())).collect();
        assert_eq!(
            summary,
            [
                (Check::Missing, "_id"),
                (Check::Missing, "c"),
                (Check::Invalid, "_id"),
                (Check::Invalid, "c"),
                (Check::Missing, "c.n"),
                (Check::Invalid, "c.n"),
                (Check::Unexpected, "c"),
                (Check::Invalid, "it"),
                (Check::Bounds, "it"),
                (Check::Unexpected, ""),
                (Check::Counter, "ic"),
            ]
        );
        // A nested part applies only where its parent exists.
        assert_eq!(
            parts[4].filter,
            doc! { "$jsonSchema": { "properties": { "c": { "required": ["n"] } } } },
            "{:?}",
            parts[4]
        );
    }

    #[test]
    fn progress_knows_its_rate_and_what_is_left() {
        let p = Progress { done: 500, total: 2000, failing: 3, elapsed: Duration::from_secs(2) };
        assert_eq!(p.rate(), 250.0);
        assert_eq!(p.eta(), Some(Duration::from_secs(6)));
        assert_eq!(Progress { elapsed: Duration::ZERO, ..p }.eta(), None);
    }
}
