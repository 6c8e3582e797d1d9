//! Comparing a model's time-series settings with a live collection's: what `collMod` can change, and what only a
//! new collection can.

use crate::base::plan::{Action, Namespace};
use crate::base::sync::spec::ModelSpec;
use crate::base::timeseries::Granularity;
use bson::{doc, Bson, Document};

/// Adds the actions that bring the live `options.timeseries` and `expireAfterSeconds` in line with model `m`: a
/// coarser granularity and a changed expiry in place (each alone in its `collMod`, as the server asks); anything
/// else (a plain collection where a time series is declared or the reverse, another time or meta field, a finer
/// granularity) is reported for a person to migrate.
pub(super) fn diff_timeseries(m: &ModelSpec, ns: &Namespace, options: &Document, actions: &mut Vec<Action>) {
    let live = options.get_document("timeseries").ok();
    let mismatch = |actions: &mut Vec<Action>| {
        actions.push(Action::TimeseriesMismatch {
            ns: ns.clone(),
            live: live.cloned(),
            desired: m.timeseries.map(|t| t.to_document()),
        })
    };
    let (live, desired) = match (live, &m.timeseries) {
        (None, None) => return,
        (Some(live), Some(desired)) => (live, desired),
        _ => return mismatch(actions),
    };
    if live.get_str("timeField").ok() != Some(desired.time) || live.get_str("metaField").ok() != desired.meta {
        return mismatch(actions);
    }
    // An undeclared granularity leaves the live one as it is; the server's default is `seconds`.
    let live_granularity =
        live.get_str("granularity").ok().and_then(Granularity::parse).unwrap_or(Granularity::Seconds);
    match desired.granularity {
        Some(g) if g > live_granularity => actions.push(Action::ModifyTimeseries {
            ns: ns.clone(),
            command: doc! { "collMod": &ns.collection, "timeseries": { "granularity": g.as_str() } },
        }),
        Some(g) if g < live_granularity => return mismatch(actions),
        _ => {}
    }
    let live_expiry = expiry(options);
    let desired_expiry = desired.expire_after.map(|s| s as i64);
    if live_expiry != desired_expiry {
        let to = desired_expiry.map_or_else(|| Bson::from("off"), Bson::Int64);
        actions.push(Action::ModifyTimeseries {
            ns: ns.clone(),
            command: doc! { "collMod": &ns.collection, "expireAfterSeconds": to },
        });
    }
}

/// The live `expireAfterSeconds`, whatever number type the server keeps it in.
fn expiry(options: &Document) -> Option<i64> {
    match options.get("expireAfterSeconds") {
        Some(Bson::Int32(n)) => Some(i64::from(*n)),
        Some(Bson::Int64(n)) => Some(*n),
        Some(Bson::Double(n)) => Some(*n as i64),
        _ => None,
    }
}

/// True when the live `options` show what `command` (a `collMod` of [`diff_timeseries`]) asked for.
pub(super) fn applied(command: &Document, options: &Document) -> bool {
    if let Ok(ts) = command.get_document("timeseries") {
        let live = options.get_document("timeseries").ok().and_then(|t| t.get_str("granularity").ok());
        return live == ts.get_str("granularity").ok();
    }
    match command.get("expireAfterSeconds") {
        Some(Bson::Int64(n)) => expiry(options) == Some(*n),
        _ => expiry(options).is_none(),
    }
}
