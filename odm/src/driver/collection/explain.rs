//! Explaining operations without running them: the one `explain` command the builders' `.explain()` send.

use super::handle::Collection;
use crate::base::error::Result;
use crate::base::explain::Explain;
use crate::base::model::Model;
use bson::Document;
use mongodb::action::Action;

impl<M: Model> Collection<M> {
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
