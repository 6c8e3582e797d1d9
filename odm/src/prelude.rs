//! The names nearly every program uses, for one glob import: `use odm::prelude::*;`.
//!
//! A model's derives and the trait they implement (`Model`, `Embedded`, `BsonSchema`), views of it (`View`), the typed collection and what its calls take
//! (`Collection`, `Filter`, `Update`, `Sort`, `Projection`), bringing a database in line at startup (`SchemaSync`,
//! `SyncMode`), versioned models (`Version`, `Upgrade`), the case-normalized string (`Lowercase`) and sessions
//! (`Session`); `Collection`, `SchemaSync` and `Session` with the `driver` feature (a default one). Everything
//! else stays in its module (`odm::Error`, `odm::transaction`, `odm::aggregate`, …).
//!
//! Nothing here has the name of an item of the std prelude (`Result`, `Sync`, `Option`, …), nor of what a program
//! usually imports beside it from `serde` (`Serialize`, `Deserialize`) or the driver (`Client`, `Database`): glob
//! imports lose to explicit ones, and the std prelude would lose to this glob, so a clash would change what a name
//! means without a word. A pass case imports it beside those and uses each of them.
//!
//! ```
//! use odm::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "crm_note")]
//! struct Note {
//!     #[serde(rename = "_id")]
//!     id: odm::bson::oid::ObjectId,
//!     #[serde(rename = "t")]
//!     text: String,
//! }
//!
//! let f = Note::fields();
//! let filter: Filter<Note> = f.text().eq("hello");
//! let update: Update<Note> = Update::new().set(f.text(), "hi".to_owned());
//! # let _ = (filter, update);
//! ```

#[cfg(feature = "derive")]
pub use crate::Embedded;
pub use crate::{BsonSchema, Filter, Lowercase, Model, Projection, Sort, SyncMode, Update, Upgrade, Version, View};
#[cfg(feature = "driver")]
pub use crate::{Collection, SchemaSync, Session};
