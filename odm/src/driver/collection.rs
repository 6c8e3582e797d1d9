//! The typed `Collection` handle (`handle`) and a builder per operation: inserts, reads and `Find`, updates, deletes,
//! find-and-modify, `explain`, `create` (`ddl`) and the instances of run-time-named collections (`instances`).
//! Users read the docs at `odm::collection` (src/collection.rs).

/// `.session(…)` of a builder whose handle is `self.coll` (a `Cow` of the [`Collection`]), or the field named.
macro_rules! session_setter {
    () => {
        session_setter!(coll);
    };
    ($($field:tt).+) => {
        /// Runs this one operation in `session` (a transaction's, or one whose reads follow its writes). It wins
        /// over the session of a collection bound with [`Collection::with_session`](crate::Collection::with_session).
        pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
            self.$($field).+ = std::borrow::Cow::Owned(self.$($field).+.with_session(session));
            self
        }
    };
}

/// `.hint(…)` of a builder with a `hint: Option<String>`, or of the field named.
macro_rules! hint_setter {
    () => {
        hint_setter!(hint);
    };
    ($($field:tt).+) => {
        /// Uses the index named `index` (see [`crate::explain`]); the server refuses the operation when there is
        /// no index of that name.
        pub fn hint(mut self, index: impl Into<String>) -> Self {
            self.$($field).+ = Some(index.into());
            self
        }
    };
}

/// Awaiting a builder: `$body` run on the builder (`$b`), boxed (a named future type per builder would add nothing).
macro_rules! into_future {
    ([$($g:tt)*] $ty:ty => $out:ty, |$b:ident| $body:expr) => {
        impl<'a, M: crate::base::model::Model, $($g)*> std::future::IntoFuture for $ty {
            type Output = crate::base::error::Result<$out>;
            type IntoFuture = futures_util::future::BoxFuture<'a, Self::Output>;
            fn into_future(self) -> Self::IntoFuture {
                let $b = self;
                Box::pin(async move { $body })
            }
        }
    };
}

mod ddl;
mod deletes;
mod explain;
mod find;
mod find_and_modify;
mod handle;
mod inserts;
mod instances;
mod prep;
mod read;
mod results;
mod set_pull;
mod updates;
mod wire;
mod write;

pub use ddl::{create_collection, create_command};
pub use deletes::{DeleteMany, DeleteOne};
pub use find::{Decoded, Find};
pub use find_and_modify::{FindOneAndDelete, FindOneAndUpdate};
pub use handle::Collection;
pub use inserts::{InsertMany, InsertOne};
pub use instances::{drop_expired, expired, instances, Dropped, Instances, NotACollection};
pub(crate) use instances::{instance_name, listed as instances_listed};
pub(crate) use prep::Tally;
pub use read::{Count, FindOne};
pub use results::{Deleted, Inserted, InsertedMany, Updated};
pub use updates::{ReplaceOne, UpdateChanges, UpdateMany, UpdateOne};
pub(crate) use wire::{check_statement, document_len, IfNone, Reach};
