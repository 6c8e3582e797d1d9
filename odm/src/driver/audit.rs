//! Auditing a live database against odm's rules: an introspection (`crate::driver::introspect`), then, for each
//! collection, every rule its name, its options, its indexes or its stored documents break, by the rule ids the
//! derive's errors use. Users read the docs at `odm::audit` (src/audit.rs).

use crate::base::error::Result;
use crate::base::introspect::{type_alias, validator_max_items as max_items, PathShape, Seen, Shape, NEAR_LIMIT};
use crate::driver::introspect::{survey_options, Introspect, Read, Surveyed};
use crate::driver::observe::{Op, Returned};
use bson::spec::ElementType;
use bson::{doc, Bson, Document};
use futures_util::future::BoxFuture;
use futures_util::TryStreamExt;
use mongodb::Database;
use std::fmt;
use std::future::IntoFuture;

/// The longest stored key rule `key-short` lets a model keep without saying so.
const KEY_SHORT: usize = 16;

/// An audit of a live database against odm's rules, awaited for an [`AuditReport`]. It reads: the collections'
/// options and indexes, their documents (every one, or a `$sample`, as [`Introspect`] reads them), and, where a
/// collection has a validator, the documents it refuses (`$nor: [validator]`, counted by the server over the whole
/// collection). It writes nothing.
///
/// ```no_run
/// # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
/// let report = odm::audit::Audit::new(&client.database("shop")).await?;
/// print!("{report}");
/// if !report.is_clean() {
///     std::process::exit(7);
/// }
/// # Ok(()) }
/// ```
#[must_use = "an audit does nothing until it is awaited"]
pub struct Audit<'a> {
    introspect: Introspect<'a>,
    db: Database,
}

impl<'a> Audit<'a> {
    /// An audit of every collection of `db` (not its views, nor `system.` collections, nor odm's own records).
    pub fn new(db: &Database) -> Self {
        Audit { introspect: Introspect::new(db), db: db.clone() }
    }

    survey_options!();

    async fn run(self) -> Result<AuditReport> {
        let found = self.introspect.await?;
        let mut collections = Vec::with_capacity(found.collections.len());
        for surveyed in &found.collections {
            let refused = match &surveyed.live.options.validator {
                Some(validator) => Some(refused(&self.db, &surveyed.live.name, validator).await?),
                None => None,
            };
            collections.push(Audited {
                name: surveyed.live.name.clone(),
                read: surveyed.read,
                documents: surveyed.shape.documents,
                findings: findings(&found.database, surveyed, refused),
            });
        }
        Ok(AuditReport { database: found.database, collections, missing: found.missing })
    }
}

impl<'a> IntoFuture for Audit<'a> {
    type Output = Result<AuditReport>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}

/// The documents of `name` its validator refuses: how many, and the first `_id`s.
async fn refused(db: &Database, name: &str, validator: &Document) -> Result<(u64, Vec<Bson>)> {
    let coll = db.collection::<Document>(name);
    let filter = doc! { "$nor": [validator.clone()] };
    let count = Op::on(&coll, "count").run(coll.count_documents(filter.clone())).await?;
    if count == 0 {
        return Ok((0, Vec::new()));
    }
    let op = Op::on(&coll, "find");
    let found = coll.find(filter).projection(doc! { "_id": 1 }).limit(3);
    let docs: Vec<Document> = op.run(async { found.await?.try_collect().await }).await?;
    op.finish(&Returned(docs.len() as u64));
    Ok((count, docs.into_iter().filter_map(|mut d| d.remove("_id")).collect()))
}

/// What an [`Audit`] found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AuditReport {
    /// The database audited.
    pub database: String,
    /// Each collection audited, in name order, with its findings.
    pub collections: Vec<Audited>,
    /// Collections asked for by name that the database does not hold.
    pub missing: Vec<String>,
}

/// One collection's findings.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Audited {
    /// The collection.
    pub name: String,
    /// Whether every document was read or a sample: counts of findings about documents are of those read.
    pub read: Read,
    /// Documents read.
    pub documents: u64,
    /// What breaks a rule, in the order of the rules page.
    pub findings: Vec<Finding>,
}

/// One rule broken by a collection: its name, an option, an index, or the documents at one path.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule's id, as the derive's errors and the rules page (`odm::rules`) name it.
    pub rule: &'static str,
    /// The stored path the finding is about, if it is about one.
    pub path: Option<String>,
    /// How many documents (or values at the path) break it; 1 for a finding about the collection itself.
    pub count: u64,
    /// The `_id`s of the first documents that break it.
    pub ids: Vec<Bson>,
    /// What is wrong and what to do, in words.
    pub message: String,
}

impl AuditReport {
    /// True when no collection breaks any rule and every collection asked for exists.
    pub fn is_clean(&self) -> bool {
        self.missing.is_empty() && self.collections.iter().all(|c| c.findings.is_empty())
    }

    /// Every finding with the collection it is about.
    pub fn findings(&self) -> impl Iterator<Item = (&str, &Finding)> {
        self.collections.iter().flat_map(|c| c.findings.iter().map(move |f| (c.name.as_str(), f)))
    }

    /// The report as JSON: `{"database", "missing", "collections": [{"name", "read", "documents", "findings":
    /// [{"rule", "path", "count", "ids", "message"}]}]}`, `_id`s as relaxed Extended JSON.
    pub fn to_json(&self) -> String {
        let collections: Vec<Bson> = self
            .collections
            .iter()
            .map(|c| {
                let read = match c.read {
                    Read::Every => Bson::from("every"),
                    Read::Sample(n) => Bson::Document(doc! { "sample": n as i64 }),
                };
                let findings: Vec<Bson> = c
                    .findings
                    .iter()
                    .map(|f| {
                        Bson::Document(doc! {
                            "rule": f.rule,
                            "path": f.path.clone().map_or(Bson::Null, Bson::from),
                            "count": f.count as i64,
                            "ids": f.ids.clone(),
                            "message": f.message.clone(),
                        })
                    })
                    .collect();
                Bson::Document(doc! { "name": c.name.clone(), "read": read, "documents": c.documents as i64, "findings": findings })
            })
            .collect();
        let report =
            doc! { "database": self.database.clone(), "missing": self.missing.clone(), "collections": collections };
        Bson::Document(report).into_relaxed_extjson().to_string()
    }
}

impl fmt::Display for AuditReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.collections {
            let read = match c.read {
                Read::Every => format!("every document ({})", c.documents),
                Read::Sample(_) => format!("a sample of {} documents", c.documents),
            };
            writeln!(f, "{}.{}: {} finding(s), {read} read", self.database, c.name, c.findings.len())?;
            for finding in &c.findings {
                let at = finding.path.as_deref().map(|p| format!(" `{p}`")).unwrap_or_default();
                write!(f, "  [{}]{at} ×{}: {}", finding.rule, finding.count, finding.message)?;
                if !finding.ids.is_empty() {
                    let ids: Vec<String> =
                        finding.ids.iter().map(|id| id.clone().into_relaxed_extjson().to_string()).collect();
                    write!(f, " (_id {})", ids.join(", "))?;
                }
                writeln!(f)?;
            }
        }
        for name in &self.missing {
            writeln!(f, "{}.{name}: not in the database", self.database)?;
        }
        Ok(())
    }
}

/// The findings of one surveyed collection; `refused` is what its validator refuses, when it has one.
fn findings(database: &str, surveyed: &Surveyed, refused: Option<(u64, Vec<Bson>)>) -> Vec<Finding> {
    let mut out = Vec::new();
    let name = surveyed.live.name.as_str();
    names(database, name, &mut out);
    for path in &surveyed.shape.paths {
        keys(path, &mut out);
        types(path, &mut out);
    }
    arrays(surveyed, &mut out);
    counters(&surveyed.shape, &mut out);
    ids(&surveyed.shape, &mut out);
    size(&surveyed.shape, &mut out);
    indexes(surveyed, &mut out);
    validator(refused, &mut out);
    retention(surveyed, &mut out);
    out
}

fn about(rule: &'static str, message: String) -> Finding {
    Finding { rule, path: None, count: 1, ids: Vec::new(), message }
}

fn at(rule: &'static str, path: &PathShape, seen: &Seen, message: String) -> Finding {
    Finding { rule, path: Some(path.path.clone()), count: seen.count, ids: seen.ids.clone(), message }
}

/// `name-case`, `name-system`, `name-length`, `name-module`.
fn names(database: &str, name: &str, out: &mut Vec<Finding>) {
    for (what, n) in [("database", database), ("collection", name)] {
        if !is_snake(n) {
            out.push(about(
                "name-case",
                format!(
                    "{what} name `{n}` is not lowercase letters, digits and `_`: rename it `{}` (rule `name-case`)",
                    snake(n)
                ),
            ));
        }
    }
    // As the derive reads the rule: `system` as the name's first part (`system_users`), not any name starting with
    // those letters (`systemlog` is a name like another).
    if name.split('_').next() == Some("system") {
        out.push(about(
            "name-system",
            format!("collection name `{name}` starts with `system`, the prefix of the server's own collections: rename it (rule `name-system`)"),
        ));
    }
    let namespace = database.len() + 1 + name.len();
    if database.len() > 63 || namespace > 64 {
        out.push(about(
            "name-length",
            format!("namespace `{database}.{name}` is {namespace} bytes; the limit is 64 with the database (63 for the database alone): shorten it (rule `name-length`)"),
        ));
    }
    for prefix in ["base_", "log_"] {
        if name.strip_prefix(prefix).is_some_and(|rest| !rest.contains('_')) {
            out.push(about(
                "name-module",
                format!("collection `{name}` starts with `{prefix}` but names no module: rename it `{prefix}<module>_<table>` (rule `name-module`)"),
            ));
        }
    }
}

fn is_snake(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        && !name.contains("__")
        && !name.ends_with('_')
}

/// `OrderHeader`, `order-header`, `order header` as `order_header`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// `key-short`, `key-dot`, `key-dollar`, `key-empty`, for the key a path ends with.
fn keys(path: &PathShape, out: &mut Vec<Finding>) {
    let key = path.key.as_str();
    if key == "[]" || key == "{}" || key == "_id" {
        return;
    }
    let present = Seen {
        kind: ElementType::String,
        count: path.present,
        ids: path.types.iter().flat_map(|t| t.ids.clone()).take(3).collect(),
    };
    let mut found = |rule: &'static str, message: String| out.push(at(rule, path, &present, message));
    if key.is_empty() {
        found(
            "key-empty",
            "an empty key: no query path or index can name it; rename it in the data (rule `key-empty`)".to_owned(),
        );
    } else if key.starts_with('$') {
        found("key-dollar", format!("key `{key}` starts with `$`, which queries and updates read as an operator: rename it in the data (rule `key-dollar`)"));
    } else if key.contains('.') {
        found(
            "key-dot",
            format!("key `{key}` holds `.`, which paths read as nesting: rename it in the data (rule `key-dot`)"),
        );
    } else if key.len() > KEY_SHORT {
        found(
            "key-short",
            format!("key `{key}` is {} bytes, over {KEY_SHORT}, and every document stores it: store it under a short key (`#[serde(rename = \"…\")]` in the model, and a migration renaming it in the data) (rule `key-short`)", key.len()),
        );
    }
}

/// `type-one-bson-type`, `type-option-absent`, `date-string`, `type-number-string`.
fn types(path: &PathShape, out: &mut Vec<Finding>) {
    let stored: Vec<&Seen> = path.types.iter().filter(|t| t.kind != ElementType::Null).collect();
    if stored.len() > 1 {
        let list: Vec<String> = stored.iter().map(|t| format!("{} ×{}", type_alias(t.kind), t.count)).collect();
        let minority: u64 = stored[1..].iter().map(|t| t.count).sum();
        let ids = stored[1..].iter().flat_map(|t| t.ids.clone()).take(3).collect();
        out.push(Finding {
            rule: "type-one-bson-type",
            path: Some(path.path.clone()),
            count: minority,
            ids,
            message: format!("holds {} BSON types ({}): queries, sorts and indexes see each type apart; choose one and migrate the others to it, or declare the field `#[odm(mixed)]` (rule `type-one-bson-type`)", stored.len(), list.join(", ")),
        });
    }
    if let Some(null) = path.types.iter().find(|t| t.kind == ElementType::Null) {
        out.push(at("type-option-absent", path, null, "stores `null`: odm writes an absent key for `None`; unset the nulls, or declare the field `#[odm(nullable)]` (rule `type-option-absent`)".to_owned()));
    }
    if let Some(dates) = &path.dates_as_strings {
        out.push(at("date-string", path, dates, "dates stored as strings: they compare as text, not as dates; store `odm::bson::DateTime` values, parsed by a migration (rule `date-string`)".to_owned()));
    }
    // A path where only some strings are numbers holds codes (zip codes, some with a leading zero): text on purpose.
    let strings = path.types.iter().find(|t| t.kind == ElementType::String).map_or(0, |t| t.count);
    if let Some(numbers) = path.numbers_as_strings.as_ref().filter(|n| n.count == strings) {
        out.push(at("type-number-string", path, numbers, "numbers stored as strings: they compare and sort as text (`\"9\" > \"10\"`); store numbers, parsed by a migration (rule `type-number-string`)".to_owned()));
    }
}

/// `array-bound`: an array with no `maxItems` in the validator and no counter beside it.
fn arrays(surveyed: &Surveyed, out: &mut Vec<Finding>) {
    let schema = surveyed.live.options.validator.as_ref().and_then(|v| v.get_document("$jsonSchema").ok());
    for path in surveyed.shape.paths.iter().filter(|p| p.arrays.is_some()) {
        let bounded = schema.is_some_and(|s| max_items(s, &path.path).is_some());
        let counted = surveyed.shape.counters.iter().any(|c| c.array == path.path);
        if bounded || counted {
            continue;
        }
        let lengths = path.arrays.as_ref().expect("filtered");
        let arrays = path.types.iter().find(|t| t.kind == ElementType::Array);
        out.push(Finding {
            rule: "array-bound",
            path: Some(path.path.clone()),
            count: lengths.count,
            ids: arrays.map(|t| t.ids.clone()).unwrap_or_default(),
            message: format!("an array with no bound in sight (longest {}, 95 % at most {}): no `maxItems` in the validator and no counter beside it; declare `#[odm(max_items = N)]` (or `unbounded`), or move an ever-growing list to its own collection (rule `array-bound`)", lengths.max, lengths.p95),
        });
    }
}

/// `counter-in-step`: a field named as an array's count that does not hold its length.
fn counters(shape: &Shape, out: &mut Vec<Finding>) {
    for pair in &shape.counters {
        if let Some(disagree) = &pair.disagree {
            out.push(Finding {
                rule: "counter-in-step",
                path: Some(pair.counter.clone()),
                count: disagree.count,
                ids: disagree.ids.clone(),
                message: format!("named as the count of `{}` but not its length in {} of {} documents: recompute it from the array, then keep it in step (`#[odm(counter = \"…\")]`) (rule `counter-in-step`)", pair.array, disagree.count, disagree.count + pair.agree),
            });
        }
    }
}

/// `id-objectid`.
fn ids(shape: &Shape, out: &mut Vec<Finding>) {
    let Some(id) = shape.path("_id") else { return };
    let other: Vec<&Seen> = id.types.iter().filter(|t| t.kind != ElementType::ObjectId).collect();
    if other.is_empty() {
        return;
    }
    let list: Vec<String> = other.iter().map(|t| format!("{} ×{}", type_alias(t.kind), t.count)).collect();
    out.push(Finding {
        rule: "id-objectid",
        path: Some("_id".to_owned()),
        count: other.iter().map(|t| t.count).sum(),
        ids: other.iter().flat_map(|t| t.ids.clone()).take(3).collect(),
        message: format!("`_id` values that are not ObjectIds ({}): a model reads them with `#[odm(custom_id)]` on its `_id` field; new documents are best given ObjectIds (rule `id-objectid`)", list.join(", ")),
    });
}

/// `model-size`: documents near the 16 MiB limit.
fn size(shape: &Shape, out: &mut Vec<Finding>) {
    if let Some(near) = &shape.near_limit {
        let largest = shape.sizes.as_ref().map_or(0, |s| s.max);
        out.push(Finding {
            rule: "model-size",
            path: None,
            count: near.count,
            ids: near.ids.clone(),
            message: format!("documents of {} MiB or more (the largest {largest} bytes), near the 16 MiB a document may take: move what grows to its own collection (rule `model-size`)", NEAR_LIMIT >> 20),
        });
    }
}

/// `index-name`: indexes other than `_id_` not named `idx_<fields>`.
fn indexes(surveyed: &Surveyed, out: &mut Vec<Finding>) {
    for index in &surveyed.live.indexes {
        let name = index.name.as_str();
        if name != "_id_" && !name.starts_with("idx_") {
            out.push(about("index-name", format!("index `{name}` is not named `idx_<fields>`: declare it in the model with a name that says what it covers (rule `index-name`)")));
        }
    }
}

/// `data-validator`: no validator, or documents it refuses.
fn validator(refused: Option<(u64, Vec<Bson>)>, out: &mut Vec<Finding>) {
    match refused {
        None => out.push(about("data-validator", "no validator: the server takes any document; sync a model's validator (rule `data-validator`)".to_owned())),
        Some((0, _)) => {}
        Some((count, ids)) => out.push(Finding {
            rule: "data-validator",
            path: None,
            count,
            ids,
            message: format!("{count} stored document(s) the collection's own validator refuses (counted over the whole collection): fix them, or the validator (rule `data-validator`)"),
        }),
    }
}

/// `capped-log`: a `log_` collection that is not capped and has no TTL index.
fn retention(surveyed: &Surveyed, out: &mut Vec<Finding>) {
    let live = &surveyed.live;
    let kept = live.options.capped.is_some()
        || live.options.expire_after_seconds.is_some()
        || live.indexes.iter().any(|i| i.expire_after_seconds.is_some());
    if live.name.starts_with("log_") && !kept {
        out.push(about("capped-log", format!("log collection `{}` keeps growing: make it capped, give it a TTL index, or keep one collection per period (rule `capped-log`)", live.name)));
    }
}
