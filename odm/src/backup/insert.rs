//! A restore's inserts: documents grouped into ordered `insert` commands within the server's limits (100,000
//! statements, one BSON document's worth of bytes, as [`crate::bulk`] groups them), and the first refusal named by
//! the collection and the document's `_id`.

use super::select::ModelRef;
use crate::base::error::{BackupError, Result, ValidationError, MAX_STATEMENT_SIZE};
use crate::driver::bulk::{COMMAND_ROOM, MAX_BATCH};
use crate::driver::error::reply_int;
use crate::driver::observe::Op;
use bson::raw::cstr;
use bson::{Bson, RawArrayBuf, RawDocumentBuf};
use mongodb::Database;

/// Documents gathered for one `insert` command.
pub(crate) struct Inserts<'a> {
    db: &'a Database,
    /// The collection errors name: the restore's target.
    collection: &'a str,
    /// The collection the documents go to: the target's temporary collection.
    into: &'a str,
    model: Option<ModelRef>,
    bypass_validation: bool,
    limit: usize,
    pending: Vec<RawDocumentBuf>,
    pending_bytes: usize,
    /// Documents inserted so far.
    pub(crate) inserted: u64,
}

impl<'a> Inserts<'a> {
    /// Inserts into `into` of `db` (the temporary collection of the target `collection`, which errors name), at
    /// most `limit` documents per command.
    pub(crate) fn new(
        db: &'a Database,
        collection: &'a str,
        into: &'a str,
        model: Option<ModelRef>,
        bypass_validation: bool,
        limit: usize,
    ) -> Self {
        Inserts {
            db,
            collection,
            into,
            model,
            bypass_validation,
            limit: limit.clamp(1, MAX_BATCH),
            pending: Vec::new(),
            pending_bytes: 0,
            inserted: 0,
        }
    }

    /// True when `doc` does not fit in the command being gathered: it is to be sent first.
    pub(crate) fn is_full_for(&self, doc: &RawDocumentBuf) -> bool {
        !self.pending.is_empty()
            && (self.pending.len() >= self.limit
                || self.pending_bytes + statement_size(doc) > MAX_STATEMENT_SIZE - COMMAND_ROOM)
    }

    /// Adds a document to the command being gathered.
    pub(crate) fn push(&mut self, doc: RawDocumentBuf) {
        self.pending_bytes += statement_size(&doc);
        self.pending.push(doc);
    }

    /// Sends the gathered documents as one ordered `insert`: how many were inserted. Fails at the first the server
    /// refuses, naming it.
    pub(crate) async fn send(&mut self) -> Result<u64> {
        if self.pending.is_empty() {
            return Ok(0);
        }
        let mut documents = RawArrayBuf::new();
        for doc in &self.pending {
            documents.push(doc.clone());
        }
        let mut command = RawDocumentBuf::new();
        command.append(cstr!("insert"), self.into);
        command.append(cstr!("documents"), documents);
        command.append(cstr!("ordered"), true);
        if self.bypass_validation {
            command.append(cstr!("bypassDocumentValidation"), true);
        }
        let op = Op::on_db(self.db, self.into, "insert");
        let reply = op.run(self.db.run_raw_command(command)).await?;
        op.write_counts(&reply);
        let n = reply_int(&reply, "n").and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        if let Some(Bson::Document(first)) = reply.get_array("writeErrors").ok().and_then(|e| e.first()) {
            let index = reply_int(first, "index").and_then(|i| usize::try_from(i).ok()).unwrap_or(0);
            let id = self
                .pending
                .get(index)
                .and_then(|d| d.get("_id").ok().flatten())
                .and_then(|id| Bson::try_from(id).ok())
                .unwrap_or(Bson::Null);
            let code = reply_int(first, "code").unwrap_or(0) as i32;
            let validation = (code == 121).then(|| {
                let info = first.get_document("errInfo").ok().cloned();
                let model = self.model.map_or("", |m| m.name);
                Box::new(ValidationError::parse(model, self.model.and_then(|m| m.meta), info))
            });
            return Err(BackupError::Refused {
                namespace: self.namespace(),
                id,
                restored: self.inserted + n,
                code,
                message: first.get_str("errmsg").unwrap_or_default().to_owned(),
                validation,
            }
            .into());
        }
        if let Ok(concern) = reply.get_document("writeConcernError") {
            let message = concern.get_str("errmsg").unwrap_or_default().to_owned();
            return Err(BackupError::Unconfirmed { namespace: self.namespace(), message }.into());
        }
        self.inserted += n;
        self.pending.clear();
        self.pending_bytes = 0;
        Ok(n)
    }
}

impl Inserts<'_> {
    /// `<db>.<collection>`, as errors name it.
    fn namespace(&self) -> String {
        format!("{}.{}", self.db.name(), self.collection)
    }
}

/// A document's share of an `insert` command: its bytes and its array entry's key and type byte.
fn statement_size(doc: &RawDocumentBuf) -> usize {
    doc.as_bytes().len() + 16
}
