//! The bulk write builder ([`Bulk`]): operations checked as they are added, grouped into commands within the
//! server's limits, sent, and their replies read per operation.

use crate::base::codec::encode;
use crate::base::error::{BulkError, BulkFailure, BulkResult};
use crate::base::error::{Error, Result, MAX_STATEMENT_SIZE};
use crate::base::filter::Filter;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::update::Update;
use crate::driver::collection::Collection;
use crate::driver::collection::{check_statement, document_len, IfNone, Reach};
use crate::driver::error::{reply_int, write_error};
use crate::driver::observe::{raw_value, Op as Traced};
use crate::driver::to_driver::write_concern_document;
use bson::raw::{cstr, CStr};
use bson::{Bson, Document, RawArrayBuf, RawDocumentBuf};
use mongodb::action::Action;
use std::borrow::{Borrow, Cow};

/// The most statements one write command carries (the server's `maxWriteBatchSize`).
pub(crate) const MAX_BATCH: usize = 100_000;
/// Room for the command around its statements within one BSON document.
pub(crate) const COMMAND_ROOM: usize = 1024;

/// The command an operation travels in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Insert,
    Update,
    Delete,
}

impl Kind {
    fn command(self) -> (&'static CStr, &'static CStr) {
        match self {
            Kind::Insert => (cstr!("insert"), cstr!("documents")),
            Kind::Update => (cstr!("update"), cstr!("updates")),
            Kind::Delete => (cstr!("delete"), cstr!("deletes")),
        }
    }
}

/// One operation, encoded.
struct Op {
    kind: Kind,
    name: &'static str,
    statement: RawDocumentBuf,
}

/// A bulk write being built: add operations, then await it.
#[must_use = "a bulk write does nothing until it is awaited"]
pub struct Bulk<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    ops: Vec<Op>,
    ordered: bool,
    /// The first operation that could not be built, with its index: reported before anything is sent.
    invalid: Option<(usize, &'static str, Error)>,
    /// The filters of deletes and replacements while the model reads older versions, checked before anything is
    /// sent for fields older versions lack (see [`crate::version`]).
    filters: Vec<Filter<M>>,
}

impl<M: Model> Collection<M> {
    /// A bulk write on this collection (see [`crate::bulk`]); it runs in the collection's session, if any.
    pub fn bulk(&self) -> Bulk<'_, M> {
        Bulk { coll: Cow::Borrowed(self), ops: Vec::new(), ordered: true, invalid: None, filters: Vec::new() }
    }
}

impl<'a, M: Model> Bulk<'a, M> {
    /// Runs this bulk write in `session` (a transaction's, or one whose reads follow its writes). It wins over the
    /// session of a collection bound with [`Collection::with_session`].
    pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
        self.coll = Cow::Owned(self.coll.with_session(session));
        self
    }

    /// Tries every operation even after one fails; the server may apply them in any order.
    pub fn unordered(mut self) -> Self {
        self.ordered = false;
        self
    }

    /// The number of operations added.
    pub fn len(&self) -> usize {
        self.ops.len() + usize::from(self.invalid.is_some() && self.ops.is_empty())
    }

    /// True when no operation was added.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty() && self.invalid.is_none()
    }

    fn push(mut self, kind: Kind, name: &'static str, statement: Result<RawDocumentBuf>) -> Self {
        let index = self.ops.len();
        match statement {
            Ok(statement) => self.ops.push(Op { kind, name, statement }),
            Err(e) => {
                if self.invalid.is_none() {
                    self.invalid = Some((index, name, e));
                }
                // Keep indexes aligned with the caller's order.
                self.ops.push(Op { kind, name, statement: RawDocumentBuf::new() });
            }
        }
        self
    }

    /// Keeps `filter` for the check made before anything is sent, while the model reads older versions.
    fn remember(mut self, filter: &Filter<M>) -> Self {
        if Collection::<M>::migrating().is_some() {
            self.filters.push(filter.clone());
        }
        self
    }

    /// Inserts `value` (encoded and size-checked as [`Collection::insert_one`] does).
    pub fn insert(self, value: impl Borrow<M>) -> Self {
        let encoded = encode(value.borrow());
        self.push(Kind::Insert, "insert", encoded)
    }

    /// Inserts every value, in order.
    pub fn insert_all<I>(self, values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Borrow<M>,
    {
        values.into_iter().fold(self, Bulk::insert)
    }

    /// Updates the first document matching `filter` (as [`Collection::update_one`]).
    pub fn update_one(self, filter: Filter<M>, update: Update<M>) -> Self {
        let statement = update_statement::<M>(filter, update, (Reach::First, IfNone::Nothing), "update_one");
        self.push(Kind::Update, "update_one", statement)
    }

    /// Updates every document matching `filter` (as [`Collection::update_many`]).
    pub fn update_many(self, filter: Filter<M>, update: Update<M>) -> Self {
        let statement = update_statement::<M>(filter, update, (Reach::Every, IfNone::Nothing), "update_many");
        self.push(Kind::Update, "update_many", statement)
    }

    /// Updates the first document matching `filter`, or inserts one (as [`Collection::update_one`] with
    /// [`upsert`](crate::collection::UpdateOne::upsert)).
    pub fn upsert_one(self, filter: Filter<M>, update: Update<M>) -> Self {
        let statement = update_statement::<M>(filter, update, (Reach::First, IfNone::Insert), "upsert_one");
        self.push(Kind::Update, "upsert_one", statement)
    }

    /// Replaces the first document matching `filter` with `value` (unguarded: a model with a revision guards
    /// replacements through [`Collection::replace_one`]).
    pub fn replace_one(self, filter: Filter<M>, value: impl Borrow<M>) -> Self {
        let this = self.remember(&filter);
        let statement = (|| {
            let filter = Collection::<M>::filter_doc(filter)?;
            Collection::<M>::one_shard(&filter, "replace_one")?;
            let value = encode(value.borrow())?;
            check_statement::<M>([document_len(&filter), value.as_bytes().len()])?;
            let mut s = raw::<M>(&bson::doc! { "q": filter })?;
            s.append(cstr!("u"), value);
            Ok(s)
        })();
        this.push(Kind::Update, "replace_one", statement)
    }

    /// Deletes the first document matching `filter`.
    pub fn delete_one(self, filter: Filter<M>) -> Self {
        let this = self.remember(&filter);
        let statement = delete_statement::<M>(filter, 1, "delete_one");
        this.push(Kind::Delete, "delete_one", statement)
    }

    /// Deletes every document matching `filter`.
    pub fn delete_many(self, filter: Filter<M>) -> Self {
        let this = self.remember(&filter);
        let statement = delete_statement::<M>(filter, 0, "delete_many");
        this.push(Kind::Delete, "delete_many", statement)
    }

    async fn write(self) -> Result<BulkResult> {
        if let Some((index, operation, error)) = self.invalid {
            let failures = vec![BulkFailure { index, operation, error }];
            let not_attempted = self.ops.len() - 1;
            let model = model_name::<M>();
            return Err(Error::Bulk(Box::new(BulkError {
                model,
                done: BulkResult::default(),
                failures,
                not_attempted,
                write_concern: None,
            })));
        }
        if Collection::<M>::migrating().is_some() && self.ops.iter().any(|o| o.kind == Kind::Update) {
            // Typed updates apply to current documents only; older ones would be skipped silently in a bulk.
            return Err(Collection::<M>::invalid(crate::base::error::Invalid::BulkUpdateNotMigrated));
        }
        // A delete or replacement naming a field older versions lack would skip their documents silently.
        self.coll.check_older_shapes_of(&self.filters).await?;
        let total = self.ops.len();
        let mut done = BulkResult::default();
        let mut failures = Vec::new();
        let mut write_concern = None;
        for batch in batches(&self.ops, self.ordered) {
            let reply = self.send(&batch).await?;
            let stop = read_reply::<M>(&reply, &batch, &self.ops, &mut done, &mut failures, &mut write_concern);
            if stop && self.ordered {
                break;
            }
        }
        if failures.is_empty() && write_concern.is_none() {
            return Ok(done);
        }
        failures.sort_by_key(|f| f.index);
        // Ordered, nothing after the first failure ran (in its command or later ones).
        let not_attempted = match failures.first() {
            Some(first) if self.ordered => total - first.index - 1,
            _ => 0,
        };
        Err(Error::Bulk(Box::new(BulkError { model: model_name::<M>(), done, failures, not_attempted, write_concern })))
    }

    /// Sends one batch (indexes into `ops`) as one command.
    async fn send(&self, batch: &[usize]) -> Result<Document> {
        let (command, field) = self.ops[batch[0]].kind.command();
        let mut statements = RawArrayBuf::new();
        for &i in batch {
            statements.push(self.ops[i].statement.clone());
        }
        let raw_coll = self.coll.raw();
        let mut cmd = RawDocumentBuf::new();
        cmd.append(command, raw_coll.name());
        cmd.append(field, statements);
        cmd.append(cstr!("ordered"), self.ordered);
        let in_transaction = self.coll.session().is_some_and(|s| s.in_transaction());
        if let (Some(wc), false) = (write_concern_document::<M>()?, in_transaction) {
            cmd.append(cstr!("writeConcern"), wc);
        }
        let db = raw_coll.client().database(&raw_coll.namespace().db);
        let traced = Traced::on(raw_coll, command.as_str()).sent_raw(&cmd).values(|| raw_value(&cmd));
        let reply = traced
            .run(db.run_raw_command(cmd).optional(self.coll.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Collection::<M>::map_err)?;
        traced.write_counts(&reply);
        Ok(reply)
    }
}

fn raw<M: Model>(doc: &Document) -> Result<RawDocumentBuf> {
    RawDocumentBuf::try_from(doc).map_err(Error::serialize::<M>)
}

/// An update statement built as the single-document call builds it.
fn update_statement<M: Model>(
    filter: Filter<M>,
    update: Update<M>,
    (reach, if_none): (Reach, IfNone),
    operation: &'static str,
) -> Result<RawDocumentBuf> {
    let (multi, upsert) = (reach.multi(), if_none.upsert());
    let (filter, mut built, _) = Collection::<M>::prepare(filter, update, if_none)?;
    if !multi {
        Collection::<M>::one_shard(&filter, operation)?;
    }
    Collection::<M>::bump_revision(&mut built.update);
    check_statement::<M>([&filter, &built.update].into_iter().chain(built.array_filters()).map(document_len))?;
    let (update, array_filters) = built.into_statement();
    let mut statement = bson::doc! { "q": filter, "u": update, "multi": multi, "upsert": upsert };
    if !array_filters.is_empty() {
        statement.insert("arrayFilters", array_filters);
    }
    raw::<M>(&statement)
}

fn delete_statement<M: Model>(filter: Filter<M>, limit: i32, operation: &'static str) -> Result<RawDocumentBuf> {
    let filter = Collection::<M>::filter_doc(filter)?;
    if limit == 1 {
        Collection::<M>::one_shard(&filter, operation)?;
    }
    raw::<M>(&bson::doc! { "q": filter, "limit": limit })
}

/// The operations grouped into commands: one kind per command, at most [`MAX_BATCH`] statements and one BSON
/// document's worth of bytes each. Ordered, consecutive runs of one kind; unordered, every operation of a kind.
fn batches(ops: &[Op], ordered: bool) -> Vec<Vec<usize>> {
    let order: Vec<usize> = if ordered {
        (0..ops.len()).collect()
    } else {
        let mut order: Vec<usize> = (0..ops.len()).collect();
        order.sort_by_key(|&i| ops[i].kind as u8);
        order
    };
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut bytes = 0;
    for i in order {
        let size = ops[i].statement.as_bytes().len() + 16;
        let fits = out.last().is_some_and(|b| {
            ops[b[0]].kind == ops[i].kind && b.len() < MAX_BATCH && bytes + size <= MAX_STATEMENT_SIZE - COMMAND_ROOM
        });
        if fits {
            bytes += size;
            out.last_mut().expect("a batch").push(i);
        } else {
            bytes = size;
            out.push(vec![i]);
        }
    }
    out
}

/// Adds a command's reply to the result; true when an operation failed.
fn read_reply<M: Model>(
    reply: &Document,
    batch: &[usize],
    ops: &[Op],
    done: &mut BulkResult,
    failures: &mut Vec<BulkFailure>,
    write_concern: &mut Option<String>,
) -> bool {
    let number = |d: &Document, key: &str| reply_int(d, key).and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
    let n = number(reply, "n");
    let upserted: Vec<(usize, Bson)> = reply
        .get_array("upserted")
        .map(|a| {
            a.iter()
                .filter_map(Bson::as_document)
                .filter_map(|u| Some((batch.get(number(u, "index") as usize).copied()?, u.get("_id")?.clone())))
                .collect()
        })
        .unwrap_or_default();
    match ops[batch[0]].kind {
        Kind::Insert => done.inserted += n,
        Kind::Delete => done.deleted += n,
        Kind::Update => {
            done.matched += n - upserted.len() as u64;
            done.modified += number(reply, "nModified");
        }
    }
    done.upserted.extend(upserted);
    if let Ok(wc) = reply.get_document("writeConcernError") {
        *write_concern =
            Some(format!("{} ({})", wc.get_str("errmsg").unwrap_or("write concern not satisfied"), number(wc, "code")));
    }
    let errors = reply.get_array("writeErrors").map(|a| a.to_vec()).unwrap_or_default();
    for e in errors.iter().filter_map(Bson::as_document) {
        let Some(&index) = batch.get(number(e, "index") as usize) else { continue };
        failures.push(BulkFailure { index, operation: ops[index].name, error: write_error::<M>(e) });
    }
    !errors.is_empty()
}

/// Sends the operations. `Ok` when every one applied; otherwise [`Error::Bulk`] with each failure and what was
/// applied. An operation that could not be built fails the whole write before anything is sent.
impl<'a, M: Model> std::future::IntoFuture for Bulk<'a, M> {
    type Output = Result<BulkResult>;
    type IntoFuture = futures_util::future::BoxFuture<'a, Result<BulkResult>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.write())
    }
}

#[cfg(test)]
mod tests {
    use super::{batches, Kind, Op, MAX_BATCH};
    use bson::RawDocumentBuf;

    fn op(kind: Kind) -> Op {
        Op { kind, name: "op", statement: RawDocumentBuf::new() }
    }

    #[test]
    fn commands_hold_one_kind_and_at_most_the_server_s_batch() {
        let ops: Vec<Op> = (0..MAX_BATCH + 1).map(|_| op(Kind::Insert)).collect();
        let sizes: Vec<usize> = batches(&ops, true).iter().map(Vec::len).collect();
        assert_eq!(sizes, [MAX_BATCH, 1]);

        let mixed = vec![op(Kind::Insert), op(Kind::Delete), op(Kind::Insert), op(Kind::Update), op(Kind::Insert)];
        assert_eq!(batches(&mixed, true), [vec![0], vec![1], vec![2], vec![3], vec![4]], "ordered: runs in order");
        assert_eq!(batches(&mixed, false), [vec![0, 2, 4], vec![3], vec![1]], "unordered: one command per kind");
    }
}
