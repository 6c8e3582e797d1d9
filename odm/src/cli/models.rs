//! The models an admin manages, each with its sync spec, its check and migration jobs and how it joins a dump or a
//! restore (monomorphized when the model is added, so the subcommands pick models by name at run time), and how
//! `--model` and `--db` select them.

use super::args::{CheckArgs, MigrateArgs};
use super::failure::Failure;
use super::progress::Display;
use crate::backup::{Dump, Restore};
use crate::base::error::Result;
use crate::base::migrate::MigrationReport;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::plan::Namespace;
use crate::base::sync::ModelSpec;
use crate::driver::check::SchemaReport;
use crate::driver::collection::{drop_expired, expired, instances, Collection, Dropped};
use futures_util::future::BoxFuture;
use mongodb::Database;
use std::future::IntoFuture;

/// A model's schema check, over each of its collections in `db`.
type CheckFn = fn(Database, CheckArgs, Display) -> BoxFuture<'static, Result<Vec<(Namespace, SchemaReport)>>>;

/// A versioned model's migration, over each of its collections in `db`.
type MigrateFn = fn(Database, MigrateArgs, Display) -> BoxFuture<'static, Result<Vec<(Namespace, MigrationReport)>>>;

/// A model's retention by period: the names of its collections whose periods have expired, dropped unless the
/// second argument (a dry run) is true, and what is named like an expired period but is not a collection (left
/// alone).
type ExpireFn = fn(Database, bool) -> BoxFuture<'static, Result<Dropped>>;

/// One model the admin manages.
#[derive(Clone)]
pub(super) struct Entry {
    /// The Rust type name, as `--model` takes it (`Order`).
    pub name: &'static str,
    /// What sync knows of it.
    pub spec: ModelSpec,
    /// Its schema check.
    pub check: CheckFn,
    /// Its migration, for a versioned model.
    pub migrate: Option<MigrateFn>,
    /// Its retention, for a model with one collection per period and `keep_periods`.
    pub expire: Option<ExpireFn>,
    /// Adds it, as it is in the given database, to a dump ([`Dump::model_in`]).
    pub dump: for<'c> fn(Dump<'c>, &str) -> Dump<'c>,
    /// Adds it, as dumped from the given database, to a restore ([`Restore::model_in`]).
    pub restore: for<'c> fn(Restore<'c>, &str) -> Restore<'c>,
}

impl Entry {
    /// The entry of model `M`.
    pub(super) fn of<M: Model>() -> Entry {
        Entry {
            name: model_name::<M>(),
            spec: ModelSpec::of::<M>(),
            check: check_model::<M>,
            migrate: M::VERSION.map(|_| migrate_model::<M> as MigrateFn),
            expire: M::TEMPLATE
                .filter(|t| t.keep_periods.is_some() && t.placeholder.is_period())
                .map(|_| expire_model::<M> as ExpireFn),
            dump: |dump, db| dump.model_in::<M>(db),
            restore: |restore, db| restore.model_in::<M>(db),
        }
    }

    /// The database this run uses for the model: `--db`, else the one the model names.
    pub(super) fn database(&self, db: Option<&str>) -> std::result::Result<String, Failure> {
        db.or(self.spec.db)
            .map(str::to_owned)
            .ok_or_else(|| Failure::Message(format!("model `{}` names no database: pass `--db <name>`", self.name)))
    }

    /// The databases a subcommand that reads a whole database works on: `--db`'s, or each selected model's once,
    /// in the models' order.
    pub(super) fn databases(entries: &[&Entry], db: Option<&str>) -> std::result::Result<Vec<String>, Failure> {
        if let Some(db) = db {
            return Ok(vec![db.to_owned()]);
        }
        let mut names: Vec<String> = Vec::new();
        for entry in entries {
            let name = entry.database(None)?;
            if !names.contains(&name) {
                names.push(name);
            }
        }
        Ok(names)
    }

    /// The collection as the model names it (a template such as `log_app_event_{yyyymm}` for one named at run time).
    pub(super) fn collection(&self) -> &str {
        &self.spec.collection
    }

    /// The model's current version, for a versioned model.
    pub(super) fn version(&self) -> Option<u32> {
        self.spec.version.map(|v| v.current)
    }
}

/// The entries `--model` names, in registration order (all of them when it names none). An unknown name is a usage
/// error listing the known ones.
pub(super) fn select<'e>(all: &'e [Entry], names: &[String]) -> std::result::Result<Vec<&'e Entry>, Failure> {
    if let Some(unknown) = names.iter().find(|n| !all.iter().any(|e| e.name == n.as_str())) {
        let known: Vec<&str> = all.iter().map(|e| e.name).collect();
        return Err(Failure::Usage(format!(
            "no model named `{unknown}`: this program manages {}",
            if known.is_empty() { "no model".to_owned() } else { known.join(", ") }
        )));
    }
    Ok(all.iter().filter(|e| names.is_empty() || names.iter().any(|n| n == e.name)).collect())
}

/// `M`'s collections in `db`: its one collection, or each live instance of a model named at run time.
async fn collections<M: Model>(db: &Database) -> Result<Vec<Collection<M>>> {
    if M::TEMPLATE.is_none() {
        return Ok(vec![Collection::named(db, M::COLLECTION)]);
    }
    Ok(instances::<M>(db).await?.into_iter().map(|i| Collection::named(db, &i.name)).collect())
}

/// The namespace of `coll`.
fn namespace<M: Model>(db: &Database, coll: &Collection<M>) -> Namespace {
    Namespace { db: db.name().to_owned(), collection: coll.name().to_owned() }
}

/// Checks each of `M`'s collections in `db`, with progress.
fn check_model<M: Model>(
    db: Database,
    args: CheckArgs,
    display: Display,
) -> BoxFuture<'static, Result<Vec<(Namespace, SchemaReport)>>> {
    Box::pin(async move {
        let mut out = Vec::new();
        for coll in collections::<M>(&db).await? {
            let ns = namespace(&db, &coll);
            let check = coll.check_schema().batch_size(args.batch_size).samples(args.samples);
            let report =
                display.track(format!("check {ns}"), |t| check.on_progress(move |p| t.update(p)).into_future()).await;
            out.push((ns, report?));
        }
        Ok(out)
    })
}

/// Drops (or, in a dry run, lists) the collections of `M` in `db` whose periods its retention has expired.
fn expire_model<M: Model>(db: Database, dry_run: bool) -> BoxFuture<'static, Result<Dropped>> {
    Box::pin(async move {
        let now = bson::DateTime::now();
        if dry_run {
            let expired = expired::<M>(&db, now).await?;
            Ok(Dropped { dropped: expired.collections.into_iter().map(|i| i.name).collect(), skipped: expired.skipped })
        } else {
            drop_expired::<M>(&db, now).await
        }
    })
}

/// Migrates each of `M`'s collections in `db`, with progress.
fn migrate_model<M: Model>(
    db: Database,
    args: MigrateArgs,
    display: Display,
) -> BoxFuture<'static, Result<Vec<(Namespace, MigrationReport)>>> {
    Box::pin(async move {
        let mut out = Vec::new();
        for coll in collections::<M>(&db).await? {
            let ns = namespace(&db, &coll);
            let mut migration = coll.migrate().batch_size(args.batch_size).guard(args.guard.into());
            if let Some(rate) = args.docs_per_second {
                migration = migration.throttle(crate::base::migrate::Throttle::DocsPerSecond(rate));
            }
            if let Some(ms) = args.pause_ms {
                migration =
                    migration.throttle(crate::base::migrate::Throttle::Pause(std::time::Duration::from_millis(ms)));
            }
            let report = display
                .track(format!("migrate {ns}"), |t| migration.on_progress(move |p| t.update(p)).into_future())
                .await;
            out.push((ns, report?));
        }
        Ok(out)
    })
}
