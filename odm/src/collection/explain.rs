//! Explaining operations without running them: the server's plan for a count or an update.

use super::handle::Collection;
use crate::error::Result;
use crate::explain::Explain;
use crate::filter::Filter;
use crate::model::Model;
use crate::update::Update;
use bson::Document;
use mongodb::action::Action;

impl<M: Model> Collection<M> {
    /// What the server plans for counting the documents matching `filter` (see [`crate::explain`]).
    pub async fn explain_count(&self, filter: Filter<M>) -> Result<Explain> {
        self.explain(bson::doc! { "count": self.raw.name(), "query": Self::filter_doc(filter)? }).await
    }

    /// What the server plans for [`update_one`](Self::update_one) of `update` on the first document matching
    /// `filter`, without writing anything (see [`crate::explain`]).
    pub async fn explain_update_one(&self, filter: Filter<M>, update: Update<M>) -> Result<Explain> {
        self.explain_update_statement(filter, update, false).await
    }

    /// What the server plans for [`update_many`](Self::update_many) of `update` on every document matching
    /// `filter`, without writing anything (see [`crate::explain`]).
    pub async fn explain_update_many(&self, filter: Filter<M>, update: Update<M>) -> Result<Explain> {
        self.explain_update_statement(filter, update, true).await
    }

    /// What the server plans for `update` on the documents matching `filter` (all of them when `many`).
    #[deprecated(
        since = "0.1.0",
        note = "use `explain_update_one` or `explain_update_many`: a bare `bool` does not say which at the call site"
    )]
    pub async fn explain_update(&self, filter: Filter<M>, update: Update<M>, many: bool) -> Result<Explain> {
        self.explain_update_statement(filter, update, many).await
    }

    async fn explain_update_statement(&self, filter: Filter<M>, update: Update<M>, many: bool) -> Result<Explain> {
        let (filter, built, _) = Self::prepare(filter, update, false)?;
        let mut statement = bson::doc! { "q": filter, "u": built.update, "multi": many };
        if !built.array_filters.is_empty() {
            statement.insert("arrayFilters", built.array_filters);
        }
        self.explain(bson::doc! { "update": self.raw.name(), "updates": [statement] }).await
    }

    /// Runs `explain` of `command` with execution statistics, in the collection's session if it has one.
    pub(crate) async fn explain(&self, command: Document) -> Result<Explain> {
        let db = self.raw.client().database(&self.raw.namespace().db);
        let op = self.op("explain").values(|| command.clone());
        let reply = op
            .run(
                db.run_command(bson::doc! { "explain": command, "verbosity": "executionStats" })
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
            .map_err(Self::map_err)?;
        Ok(Explain::from_reply(reply))
    }
}
