//! Auditing a database odm did not write against odm's rules: the report a DBA reads before deciding anything.
//!
//! [`Audit`] introspects each collection ([`crate::introspect`]: every document of a small collection, a `$sample`
//! of a large one) and reports every rule its name, options, indexes or stored documents break, by the rule ids the
//! derive's errors use, each finding with its count and the `_id`s of the first documents that show it: names that
//! are not snake_case ([`name-case`](crate::rules#name-case), [`name-system`](crate::rules#name-system),
//! [`name-length`](crate::rules#name-length), [`name-module`](crate::rules#name-module)); keys that are long or
//! carry `.` or `$` ([`key-short`](crate::rules#key-short), [`key-dot`](crate::rules#key-dot),
//! [`key-dollar`](crate::rules#key-dollar), [`key-empty`](crate::rules#key-empty)); a path with more than one BSON
//! type ([`type-one-bson-type`](crate::rules#type-one-bson-type)), `null`s
//! ([`type-option-absent`](crate::rules#type-option-absent)), dates or numbers stored as text
//! ([`date-string`](crate::rules#date-string), [`type-number-string`](crate::rules#type-number-string)); arrays
//! with no bound in the validator and no counter ([`array-bound`](crate::rules#array-bound)); a field named as an
//! array's count that disagrees with it ([`counter-in-step`](crate::rules#counter-in-step)); `_id`s that are not
//! ObjectIds ([`id-objectid`](crate::rules#id-objectid)); documents near 16 MiB
//! ([`model-size`](crate::rules#model-size)); indexes not named `idx_<fields>`
//! ([`index-name`](crate::rules#index-name)); a validator missing or refusing stored documents
//! ([`data-validator`](crate::rules#data-validator)); a `log_` collection that keeps growing
//! ([`capped-log`](crate::rules#capped-log)). It writes nothing.
//!
//! ```no_run
//! # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! let report = odm::audit::Audit::new(&client.database("shop")).sample(5_000).await?;
//! print!("{report}"); // or report.to_json()
//! for (collection, finding) in report.findings() {
//!     println!("{collection}: {} at {:?}, {} documents, e.g. {:?}", finding.rule, finding.path, finding.count, finding.ids);
//! }
//! # Ok(()) }
//! ```
//!
//! Counts of findings about documents are of the documents read (all of them, or the sample: [`Audited::read`]
//! says which); documents a validator refuses are counted over the whole collection.

pub use crate::driver::audit::{Audit, AuditReport, Audited, Finding};
