//! [`Propagate`]: sets every copy of one source document to the source's values, the write that keeps extended
//! references in step when the source changes through odm.

use super::keys::{by_key, copied_pairs, set_copies};
use crate::base::error::{Error, Result};
use crate::base::model::Model;
use crate::base::path::AsPath;
use crate::base::reference::traits::{Copies, HoldsReferences};
use crate::driver::collection::Collection;
use crate::driver::observe::Op;
use bson::{doc, Bson};
use mongodb::action::Action;
use std::marker::PhantomData;

/// Sets every copy of `source` held at one path of model `H` (a field of type `R`, `Option<R>` or `Vec<R>`, where
/// `R` copies the source model's fields) to the source's values, in one `update_many`; an array's copies through
/// `arrayFilters`. Resolves to the number of holder documents changed.
///
/// Opt-in and atomic with the source's own write when run in the same transaction: bind both collections to the
/// transaction's session, so the copies change with the source or not at all.
///
/// ```no_run
/// # use odm::{bson::oid::ObjectId, Model, Embedded};
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "hr_employee")]
/// # struct Employee { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "n")] name: String }
/// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
/// # #[odm(copies(model = "Employee", by = "id"))]
/// # struct EmployeeRef { #[serde(rename = "i")] id: ObjectId, #[serde(rename = "n")] name: String }
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "hr_team")]
/// # struct Team { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "l")] lead: EmployeeRef }
/// # async fn run(employees: odm::Collection<Employee>, teams: odm::Collection<Team>, ada: Employee)
/// # -> odm::error::Result<()> {
/// use odm::reference::Propagate;
/// employees.replace_one(Employee::fields().id().eq(ada.id), &ada).await?;
/// let teams_changed = Propagate::new(&teams, Team::fields().lead(), &ada).await?;
/// # Ok(()) }
/// ```
#[must_use = "a propagation does nothing until it is awaited"]
pub struct Propagate<'a, H: Model, V: HoldsReferences> {
    holders: &'a Collection<H>,
    key: String,
    source: Result<bson::Document>,
    _value: PhantomData<fn() -> V>,
}

impl<'a, H: Model, V: HoldsReferences> Propagate<'a, H, V> {
    /// The copies of `source` at `path` in `holders`.
    pub fn new<P: AsPath<H, Value = V>>(
        holders: &'a Collection<H>,
        path: P,
        source: &<V::Copy as Copies>::Source,
    ) -> Self {
        let source = bson::serialize_to_document(source).map_err(Error::serialize::<<V::Copy as Copies>::Source>);
        Propagate { holders, key: path.as_path().key().to_owned(), source, _value: PhantomData }
    }

    async fn run(self) -> Result<u64> {
        let source = self.source?;
        let id = source.get("_id").cloned().unwrap_or(Bson::Null);
        let (by, pairs, key) = (by_key::<V::Copy>(), copied_pairs::<V::Copy>(), &self.key);
        let filter = doc! { format!("{key}.{by}"): id.clone() };
        let (prefix, filters) = match V::MANY {
            true => (format!("{key}.$[e]"), Some(vec![doc! { format!("e.{by}"): id }])),
            false => (key.clone(), None),
        };
        let update = set_copies(&prefix, pairs.iter(), &source);
        if update.is_empty() {
            return Ok(0);
        }
        let holders = self.holders.raw().clone_with_type::<bson::Document>();
        let op = Op::on(&holders, "update")
            .values(|| bson::doc! { "q": &filter, "u": &update, "arrayFilters": &filters, "multi": true });
        let result = op
            .run(
                holders
                    .update_many(filter, update)
                    .array_filters(filters.unwrap_or_default())
                    .optional(self.holders.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
            .map_err(Error::from_write::<H>)?;
        Ok(result.modified_count)
    }
}

impl<'a, H: Model, V: HoldsReferences + 'a> std::future::IntoFuture for Propagate<'a, H, V> {
    type Output = Result<u64>;
    type IntoFuture = futures_util::future::BoxFuture<'a, Result<u64>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
