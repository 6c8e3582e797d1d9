//! What a subcommand prints: its human text and its JSON document, built from odm's reports, and the one place
//! that writes them (text unless `--json`, nothing but errors under `--quiet`).

use crate::backup::{DumpReport, RestoreReport};
use crate::base::connection::ConnectionWarning;
use crate::base::migrate::MigrationReport;
use crate::base::plan::{Namespace, Plan};
use crate::base::sync::{Outcome, SyncReport};
use crate::driver::check::SchemaReport;
use bson::Bson;
use serde_json::{json, Map, Value};
use std::io::Write;

/// What a subcommand found: its exit code, its report as text and as JSON.
pub(super) struct Done {
    /// The exit code ([`super::exit`]).
    pub code: u8,
    /// The report for a person (may be empty).
    pub text: String,
    /// The report for a program: the fields of the JSON document beside `command` and `exitCode`.
    pub json: Map<String, Value>,
}

/// How this run prints.
#[derive(Clone, Copy, Debug)]
pub(super) struct Printer {
    /// One JSON document on standard output instead of text.
    pub json: bool,
    /// No report text.
    pub quiet: bool,
}

impl Printer {
    /// Prints `done`, the report of `command`.
    pub(super) fn report(&self, command: &str, done: Done) {
        if self.json {
            let mut doc = Map::new();
            doc.insert("command".into(), command.into());
            doc.insert("exitCode".into(), done.code.into());
            doc.extend(done.json);
            stdout(&format!("{}\n", Value::Object(doc)));
        } else if !self.quiet && !done.text.is_empty() {
            stdout(&with_newline(done.text));
        }
    }

    /// Prints an error of `command` with exit code `code`: odm's readable message on standard error, and under
    /// `--json` also the JSON document on standard output (a program reading it always gets one).
    pub(super) fn error(&self, command: &str, code: u8, message: &str) {
        self.error_with(command, code, message, Map::new());
    }

    /// [`Printer::error`] with `fields` beside the message in the JSON document (what a dump found absent).
    pub(super) fn error_with(&self, command: &str, code: u8, message: &str, fields: Map<String, Value>) {
        eprintln!("error: {message}");
        if self.json {
            let mut doc = Map::new();
            doc.insert("command".into(), command.into());
            doc.insert("exitCode".into(), code.into());
            doc.insert("error".into(), message.into());
            doc.extend(fields);
            stdout(&format!("{}\n", Value::Object(doc)));
        }
    }

    /// The JSON document of an error of `command` with exit code `code`, on standard output.
    pub(super) fn json_error(&self, command: &str, code: u8, message: &str) {
        stdout(&format!("{}\n", json!({ "command": command, "exitCode": code, "error": message })));
    }
}

/// Writes `text` to standard output. A reader that went away (`admin plan | head -1`) is not an error of the
/// subcommand, whose exit code still tells its outcome; `print!` would panic instead.
pub(super) fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// `text` ending with exactly one line break.
fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A plan as JSON fields: whether the database is in line, and the actions (see [`Plan::to_json`]).
pub(super) fn plan(plan: &Plan) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("inSync".into(), plan.is_in_sync().into());
    out.insert("actions".into(), plan.to_json());
    out
}

/// A sync report as JSON fields: the plan's actions, each with its outcome, and the document size budgets.
pub(super) fn sync_report(report: &SyncReport) -> Map<String, Value> {
    let mut actions = match report.plan.to_json() {
        Value::Array(actions) => actions,
        other => vec![other],
    };
    for (action, outcome) in actions.iter_mut().zip(&report.outcomes) {
        if let Value::Object(action) = action {
            action.insert("outcome".into(), self::outcome(outcome));
        }
    }
    let budgets: Vec<Value> = report
        .budgets
        .iter()
        .map(|(ns, budget)| json!({ "db": ns.db, "collection": ns.collection, "budget": budget.to_string() }))
        .collect();
    let mut out = Map::new();
    out.insert("inSync".into(), report.is_in_sync().into());
    out.insert("actions".into(), actions.into());
    out.insert("budgets".into(), budgets.into());
    out.insert("connection".into(), connection(&report.connection));
    out
}

/// The connection checklist's warnings of a sync ([`crate::connection`]), as JSON strings.
pub(super) fn connection(warnings: &[ConnectionWarning]) -> Value {
    rows(warnings, |w| w.to_string().into())
}

/// One action's outcome as JSON.
fn outcome(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Done => json!({ "state": "done" }),
        Outcome::AlreadyDone => json!({ "state": "alreadyDone" }),
        Outcome::Staged { failing } => json!({ "state": "staged", "failing": failing }),
        Outcome::NotTightened { failing } => json!({ "state": "notTightened", "failing": failing }),
        Outcome::TightenedOver { failing } => json!({ "state": "tightenedOver", "failing": failing }),
        Outcome::Pending => json!({ "state": "pending" }),
        Outcome::Refused(message) => json!({ "state": "refused", "message": message }),
    }
}

/// An `_id` as canonical Extended JSON (every BSON type kept).
fn id(id: &Bson) -> Value {
    id.clone().into_canonical_extjson()
}

/// One collection's schema check as JSON.
pub(super) fn schema_report(ns: &Namespace, report: &SchemaReport) -> Value {
    let findings: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            json!({
                "check": format!("{:?}", f.check),
                "path": f.path,
                "storedPath": f.stored_path,
                "rule": f.rule,
                "version": f.version,
                "reason": f.reason,
                "count": f.count,
                "sampleIds": f.sample_ids.iter().map(id).collect::<Vec<_>>(),
                "description": f.to_string(),
            })
        })
        .collect();
    json!({
        "model": report.model,
        "db": ns.db,
        "collection": ns.collection,
        "checked": report.checked,
        "failing": report.failing,
        "older": report.older,
        "findings": findings,
    })
}

/// One collection's migration as JSON.
pub(super) fn migration_report(ns: &Namespace, report: &MigrationReport) -> Value {
    let failed: Vec<Value> =
        report.failed.iter().map(|f| json!({ "id": id(&f.id), "error": f.error.to_string() })).collect();
    json!({
        "model": report.model,
        "db": ns.db,
        "collection": ns.collection,
        "version": report.version,
        "complete": report.is_complete(),
        "migrated": report.migrated,
        "retried": report.retried,
        "pending": report.pending,
        "failed": failed,
        "batches": report.batches,
        "elapsedMs": millis(report.elapsed),
    })
}

/// A duration in whole milliseconds, for JSON.
pub(super) fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A dump's report as JSON fields: each collection written, those absent, those left out for their type.
pub(super) fn dump_report(report: &DumpReport) -> Map<String, Value> {
    let collections = rows(&report.collections, |c| {
        json!({
            "db": c.db, "collection": c.collection, "documents": c.documents, "bytes": c.bytes,
            "file": c.file.display().to_string(), "fileBytes": c.file_bytes, "readMode": c.read_mode.as_str(),
        })
    });
    let skipped = rows(&report.skipped, |(ns, kind)| json!({ "namespace": ns, "type": kind }));
    let mut out = Map::new();
    out.insert("readMode".into(), report.read_mode.as_str().into());
    out.insert("collections".into(), collections);
    out.insert("absent".into(), report.absent.clone().into());
    out.insert("skipped".into(), skipped);
    out.insert("elapsedMs".into(), millis(report.elapsed).into());
    out
}

/// The fields an error adds to its JSON document: a dump that selected nothing names what was absent and what was
/// left out for its type, as its report would.
pub(super) fn error_fields(e: &crate::base::error::Error) -> Map<String, Value> {
    let mut out = Map::new();
    if let crate::base::error::Error::Backup(b) = e {
        if let crate::base::error::BackupError::NothingToDump { absent, skipped } = &**b {
            out.insert("collections".into(), Value::Array(Vec::new()));
            out.insert("absent".into(), absent.clone().into());
            out.insert("skipped".into(), rows(skipped, |(ns, kind)| json!({ "namespace": ns, "type": kind })));
        }
    }
    out
}

/// A restore's report as JSON fields: each collection restored, and the temporary collections of an interrupted
/// restore it removed or left.
pub(super) fn restore_report(report: &RestoreReport) -> Map<String, Value> {
    let collections = rows(&report.collections, |c| {
        json!({
            "db": c.db, "collection": c.collection, "documents": c.documents, "bytes": c.bytes,
            "indexes": c.indexes, "file": c.file.display().to_string(), "replaced": c.replaced,
            "metadata": c.metadata,
        })
    });
    let mut out = Map::new();
    out.insert("collections".into(), collections);
    out.insert("removed".into(), report.removed.clone().into());
    out.insert("leftovers".into(), report.leftovers.clone().into());
    out.insert("elapsedMs".into(), millis(report.elapsed).into());
    out
}

/// `items` as a JSON array, each rendered by `row`.
fn rows<T>(items: &[T], row: impl Fn(&T) -> Value) -> Value {
    Value::Array(items.iter().map(row).collect())
}
