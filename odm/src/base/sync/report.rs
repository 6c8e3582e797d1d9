//! The result of a sync: the plan and what happened to each action, as a report that makes pending drift visible.

use crate::base::connection::ConnectionWarning;
use crate::base::error::{Error, Result};
use crate::base::plan::{Action, Namespace, Plan};
use crate::base::size::Budget;
use std::fmt;

/// What a sync did with one action.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Carried out.
    Done,
    /// Already done by a concurrent sync.
    AlreadyDone,
    /// Validator applied as `moderate`/`warn`; this many documents fail it, so it was not made stricter.
    Staged {
        /// Documents that fail the new validator.
        failing: u64,
    },
    /// A direct rollout ([`ValidatorRollout::Direct`](super::ValidatorRollout::Direct)) found this many stored
    /// documents failing the new validator, so it did not apply it: the collection keeps its validator (drift).
    NotTightened {
        /// Documents that fail the new validator.
        failing: u64,
    },
    /// Applied as asked ([`ValidatorRollout::DirectAnyway`](super::ValidatorRollout::DirectAnyway)) over this many
    /// stored documents that fail it: they are left as they are, and an update of one that does not fix it is
    /// refused.
    TightenedOver {
        /// Documents that fail the new validator, left in the collection.
        failing: u64,
    },
    /// Not carried out: the mode does not allow it, or a person must decide.
    Pending,
    /// The server refused it (e.g. index conflicts 85/86); the message says why.
    Refused(String),
}

/// The result of a sync: the plan and what happened to each action.
///
/// A sync in [`SyncMode::CreateMissing`](super::SyncMode::CreateMissing) (the default) succeeds while validators or indexes still differ from the
/// models: it logs each such item as a `tracing` warning (target `odm::sync`) and lists it in the report. Call
/// [`SyncReport::require_in_sync`] to make pending drift an error instead:
///
/// ```no_run
/// # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
/// # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(db = "shop", collection = "order_header")]
/// # struct Order { #[serde(rename = "n")] name: String }
/// odm::SchemaSync::new(&client).model::<Order>().await?.require_in_sync()?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a sync can succeed while the database still differs from the models: read `remaining()` or call \
              `require_in_sync()`"]
pub struct SyncReport {
    /// What differed.
    pub plan: Plan,
    /// The outcome of each action of the plan, in order.
    pub outcomes: Vec<Outcome>,
    /// Each synced model's collection with the most bytes one of its documents can take ([`crate::size`]), in
    /// model order: a budget over 16 MiB (a model that says `#[odm(size_budget = "warn")]`) or an unbounded one is
    /// shown here, since the compiler cannot warn.
    pub budgets: Vec<(Namespace, Budget)>,
    /// The connection checklist ([`crate::connection`]): settings of the connection that contradict what the
    /// synced models need, checked by every sync, in every mode. Not drift: a sync with warnings here is in sync.
    pub connection: Vec<ConnectionWarning>,
}

impl SyncReport {
    /// Actions that still differ after this sync (pending, staged or refused).
    pub fn remaining(&self) -> impl Iterator<Item = (&Action, &Outcome)> {
        self.plan.actions.iter().zip(&self.outcomes).filter(|(a, o)| {
            a.is_drift() && !matches!(o, Outcome::Done | Outcome::AlreadyDone | Outcome::TightenedOver { .. })
        })
    }

    /// True when nothing differs any more.
    pub fn is_in_sync(&self) -> bool {
        self.remaining().next().is_none()
    }

    /// `Ok` when nothing differs any more; otherwise [`Error::Drift`] with the plan of what still differs.
    pub fn require_in_sync(&self) -> Result<()> {
        if self.is_in_sync() {
            return Ok(());
        }
        let actions: Vec<Action> = self.remaining().map(|(a, _)| a.clone()).collect();
        let preconditions = self
            .plan
            .preconditions
            .iter()
            .filter(|p| actions.iter().any(|a| a.namespace() == &p.ns))
            .cloned()
            .collect();
        Err(Error::Drift(Box::new(Plan { actions, preconditions })))
    }
}

impl fmt::Display for SyncReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.plan.actions.is_empty() {
            writeln!(f, "in sync: nothing to do")?;
        } else {
            match self.remaining().count() {
                0 => writeln!(f, "in sync after this run:")?,
                n => writeln!(f, "STILL DIFFERS: {n} item(s) below are not in line with the models:")?,
            }
        }
        for (action, outcome) in self.plan.actions.iter().zip(&self.outcomes) {
            let o = match outcome {
                Outcome::Done => "done".to_owned(),
                Outcome::AlreadyDone => "already done (concurrent sync)".to_owned(),
                Outcome::Staged { failing } => {
                    format!("staged as moderate/warn: {failing} existing documents fail the new validator")
                }
                Outcome::NotTightened { failing } => format!(
                    "NOT APPLIED: {failing} stored document(s) fail the new validator (direct rollout); fix or \
                     migrate them, roll out staged, or tighten anyway (`--tighten-anyway`, \
                     `ValidatorRollout::DirectAnyway`)"
                ),
                Outcome::TightenedOver { failing } => format!(
                    "applied over {failing} stored document(s) that fail it (tighten anyway): they stay as they are, \
                     and an update of one that does not fix it is refused"
                ),
                Outcome::Pending => "pending".to_owned(),
                Outcome::Refused(m) => format!("refused: {m}"),
            };
            writeln!(f, "- {action} [{o}]")?;
            crate::base::plan::validator_diff::write_changes(f, &action.validator_changes())?;
        }
        if !self.connection.is_empty() {
            writeln!(f, "connection:")?;
        }
        for warning in &self.connection {
            writeln!(f, "- {warning}")?;
        }
        if !self.budgets.is_empty() {
            writeln!(f, "document size budgets:")?;
        }
        for (ns, budget) in &self.budgets {
            writeln!(f, "- {}", budget_line(ns, budget))?;
        }
        Ok(())
    }
}

/// One model's line in the report: `shop.order_header: at most 8.3 KiB (8,397 bytes) per document`.
pub(crate) fn budget_line(ns: &Namespace, budget: &Budget) -> String {
    match budget {
        Budget::AtMost(_) if budget.exceeds_document_limit() => format!(
            "{ns}: {budget} per document, OVER the 16 MiB MongoDB stores in one document (`size_budget = \"warn\"`): \
             a write of a document that large fails"
        ),
        Budget::AtMost(_) => format!("{ns}: {budget} per document"),
        Budget::Unbounded(_) => format!("{ns}: {budget}"),
    }
}
