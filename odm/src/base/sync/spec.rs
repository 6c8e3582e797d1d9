//! What sync knows about one model: its collection, validator, options and declared indexes.

use crate::base::index::IndexSpec;
use crate::base::model::{
    Capped, Model, ReadConcernLevel, ReadPreferenceMode, ShardKey, ValidationAction, ValidationLevel, VersionSpec,
    WriteConcernSpec,
};
use crate::base::size::Budget;
use crate::base::template::NameTemplate;
use crate::base::timeseries::TimeSeries;
use bson::{doc, Document};

/// What sync knows about one model.
#[derive(Clone, Debug)]
pub struct ModelSpec {
    /// The Rust type's full path (`shop::Order`).
    pub type_name: &'static str,
    /// The model's database, if it names one.
    pub db: Option<&'static str>,
    /// The collection (for a model named by a template, the template as written until the sync names an instance:
    /// see [`ModelSpec::template`]).
    pub collection: String,
    /// For a collection named at run time: its template. A sync of a spec whose `collection` is the template as
    /// written brings every live instance in line; [`ModelSpec::instance`] names one (which a sync then creates when
    /// missing).
    pub template: Option<NameTemplate>,
    /// The validator (for a versioned model, of the current version alone).
    pub validator: Document,
    /// For a versioned model: the version key and the versions it reads.
    pub version: Option<VersionSpec>,
    /// For a versioned model that reads older versions: the validator installed while documents of older versions
    /// remain ([`crate::version::accepting_older`]).
    pub rollout_validator: Option<Document>,
    /// The Rust types of the older versions the model reads (full paths): a model of one of these types on the same
    /// collection is an earlier version of this one, not a second model.
    pub older_types: Vec<&'static str>,
    /// `validationLevel`.
    pub level: ValidationLevel,
    /// `validationAction`.
    pub action: ValidationAction,
    /// Capped settings.
    pub capped: Option<Capped>,
    /// Time-series settings.
    pub timeseries: Option<TimeSeries>,
    /// Declared indexes.
    pub indexes: Vec<IndexSpec>,
    /// The declared shard key.
    pub shard_key: Option<ShardKey>,
    /// The most bytes one of its documents can take ([`Model::size_budget`]), which the sync report lists.
    pub size: Budget,
    /// The declared read concern, which the connection checklist weighs ([`crate::connection`]).
    pub read_concern: Option<ReadConcernLevel>,
    /// The declared read preference, which the connection's must not contradict ([`crate::connection`]).
    pub read_preference: Option<ReadPreferenceMode>,
    /// The declared write concern, which the connection checklist weighs ([`crate::connection`]).
    pub write_concern: Option<WriteConcernSpec>,
}

impl ModelSpec {
    /// The spec of model `M`.
    pub fn of<M: Model>() -> Self {
        ModelSpec {
            type_name: std::any::type_name::<M>(),
            db: M::DATABASE,
            collection: M::COLLECTION.to_owned(),
            template: M::TEMPLATE,
            validator: M::validator(),
            version: M::VERSION,
            rollout_validator: crate::base::version::accepting_older::<M>(),
            older_types: M::OLDER.iter().map(|o| (o.type_name)()).collect(),
            level: M::VALIDATION_LEVEL,
            action: M::VALIDATION_ACTION,
            capped: M::CAPPED,
            timeseries: M::TIMESERIES,
            indexes: M::indexes(),
            shard_key: M::SHARD_KEY,
            size: M::size_budget(),
            read_concern: M::READ_CONCERN,
            read_preference: M::READ_PREFERENCE,
            write_concern: M::WRITE_CONCERN,
        }
    }

    /// The spec of the instance of this templated model named `name` (a live collection the template recognises,
    /// or one [`NameTemplate::name_of`] gave).
    pub fn instance(&self, name: String) -> ModelSpec {
        ModelSpec { collection: name, ..self.clone() }
    }

    /// True when `other` is an earlier version of this model (this one lists its type in `older(…)`).
    pub fn supersedes(&self, other: &ModelSpec) -> bool {
        self.older_types.contains(&other.type_name)
    }

    /// The `create` command for this model's collection. A time-series collection is created without a validator:
    /// MongoDB refuses one on it (it validates its internal buckets itself).
    pub fn create_command(&self) -> Document {
        let mut c = doc! { "create": &self.collection };
        if self.timeseries.is_none() {
            c.insert("validator", self.validator.clone());
            c.insert("validationLevel", self.level.as_str());
            c.insert("validationAction", self.action.as_str());
        }
        if let Some(capped) = self.capped {
            c.insert("capped", true);
            c.insert("size", capped.size as i64);
            if let Some(max) = capped.max {
                c.insert("max", max as i64);
            }
        }
        if let Some(ts) = &self.timeseries {
            c.insert("timeseries", ts.to_document());
            if let Some(secs) = ts.expire_after {
                c.insert("expireAfterSeconds", secs as i64);
            }
        }
        c
    }
}
