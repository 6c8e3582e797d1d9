//! Which collections a dump or a restore concerns: chosen by model (every live instance of a model named by a
//! template) or by name, each in its model's database or the builder's.

use crate::base::error::{Error, Result};
use crate::base::meta::TypeMeta;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::template::NameTemplate;

/// The model a collection belongs to, for naming fields in errors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModelRef {
    /// The model's Rust type name.
    pub(crate) name: &'static str,
    /// Its field table, when derived.
    pub(crate) meta: Option<&'static TypeMeta>,
}

/// One collection, or every instance of a template, asked for.
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    db: Option<String>,
    name: Name,
    pub(crate) model: Option<ModelRef>,
}

#[derive(Clone, Debug)]
enum Name {
    Exact(String),
    Template(NameTemplate),
    /// Every collection of the database but the server's own (`system.*`).
    All,
}

impl Choice {
    /// Model `M`'s collection, or every live instance when a template names it.
    pub(crate) fn model<M: Model>() -> Choice {
        let name = match M::TEMPLATE {
            Some(template) => Name::Template(template),
            None => Name::Exact(M::COLLECTION.to_owned()),
        };
        let model = ModelRef { name: model_name::<M>(), meta: M::type_meta() };
        Choice { db: M::DATABASE.map(str::to_owned), name, model: Some(model) }
    }

    /// Model `M`'s collection (or every live instance) in database `db` instead of the one `M` names.
    pub(crate) fn model_in<M: Model>(db: impl Into<String>) -> Choice {
        Choice { db: Some(db.into()), ..Choice::model::<M>() }
    }

    /// The collection `name` of database `db`.
    pub(crate) fn named(db: impl Into<String>, name: impl Into<String>) -> Choice {
        Choice { db: Some(db.into()), name: Name::Exact(name.into()), model: None }
    }

    /// Every collection of database `db` (but `system.*`).
    pub(crate) fn everything(db: impl Into<String>) -> Choice {
        Choice { db: Some(db.into()), name: Name::All, model: None }
    }

    /// True when the choice is every collection of a database, not one asked for by name or model.
    pub(crate) fn is_everything(&self) -> bool {
        matches!(self.name, Name::All)
    }

    /// The database: the model's (or the one given with the collection), else `default`.
    pub(crate) fn db(&self, default: Option<&str>) -> Result<String> {
        match (&self.db, default) {
            (Some(db), _) => Ok(db.clone()),
            (None, Some(db)) => Ok(db.to_owned()),
            (None, None) => Err(Error::NoDatabase { model: self.model.map_or("", |m| m.name) }),
        }
    }

    /// The one collection name asked for, unless a template names many.
    pub(crate) fn exact(&self) -> Option<&str> {
        match &self.name {
            Name::Exact(name) => Some(name),
            Name::Template(_) | Name::All => None,
        }
    }

    /// The name asked for as a report shows it: the collection's name, or the template naming its instances
    /// (`log_app_event_{yyyymm}`).
    pub(crate) fn shown(&self) -> String {
        match &self.name {
            Name::Exact(name) => name.clone(),
            Name::Template(template) => template.to_string(),
            Name::All => "*".to_owned(),
        }
    }

    /// True when the collection `name` is (one of) those asked for.
    pub(crate) fn matches(&self, name: &str) -> bool {
        match &self.name {
            Name::Exact(exact) => exact == name,
            Name::Template(template) => template.parse(name).is_some(),
            Name::All => !name.starts_with("system."),
        }
    }
}
