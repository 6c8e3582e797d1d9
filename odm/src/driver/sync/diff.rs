//! Comparing a model with what the database has: the plan's actions for one collection and its indexes.

use crate::base::index::IndexSpec;
use crate::base::model::older::version_of_validator;
use crate::base::plan::ownership::{Ownership, Records};
use crate::base::plan::{Action, AdoptIndexes, Namespace, StaleHandling};
use crate::base::sync::spec::ModelSpec;
use bson::{doc, Bson, Document};

fn level_of(options: &Document) -> &str {
    options.get_str("validationLevel").unwrap_or("strict")
}

fn action_of(options: &Document) -> &str {
    options.get_str("validationAction").unwrap_or("error")
}

/// Compares a collection's options with its model. `older_remain`: the collection holds documents of versions older
/// than the model's current one, so a versioned model's validator must still accept them. Returns `false` when a
/// newer version of the model synced the collection: that is reported, and nothing else about it is compared.
pub(super) fn diff_collection(
    m: &ModelSpec,
    ns: &Namespace,
    options: &Document,
    older_remain: bool,
    actions: &mut Vec<Action>,
) -> bool {
    let live_validator = options.get_document("validator").ok();
    if let (Some(spec), Some(live)) = (m.version, live_validator.and_then(version_of_validator)) {
        if live > spec.current {
            actions.push(Action::CollectionAhead { ns: ns.clone(), live, model: spec.current });
            return false;
        }
    }
    let validator = match &m.rollout_validator {
        Some(rollout) if older_remain => rollout,
        _ => &m.validator,
    };
    let same_validator = live_validator.is_some_and(|v| crate::base::index::same_document(v, validator));
    // A time-series collection takes no validator (see `ModelSpec::create_command`): nothing to compare.
    if m.timeseries.is_none()
        && (!same_validator || level_of(options) != m.level.as_str() || action_of(options) != m.action.as_str())
    {
        actions.push(Action::UpdateValidator {
            ns: ns.clone(),
            live: live_validator.cloned(),
            live_level: level_of(options).to_owned(),
            live_action: action_of(options).to_owned(),
            command: doc! {
                "collMod": &m.collection,
                "validator": validator.clone(),
                "validationLevel": m.level.as_str(),
                "validationAction": m.action.as_str(),
            },
        });
    }
    let int = |k: &str| {
        options.get(k).and_then(|v| match v {
            Bson::Int32(n) => Some(i64::from(*n)),
            Bson::Int64(n) => Some(*n),
            Bson::Double(n) => Some(*n as i64),
            _ => None,
        })
    };
    let live =
        options.get_bool("capped").unwrap_or(false).then(|| (int("size").unwrap_or(0), int("max").filter(|m| *m > 0)));
    let desired = m.capped.map(|c| (c.size as i64, c.max.map(|m| m as i64)));
    let same = match (live, desired) {
        (None, None) => true,
        // The server rounds capped sizes up (to a multiple of 256 bytes); a live size at least as large is fine.
        (Some((ls, lm)), Some((ds, dm))) => ls >= ds && ls - ds < 4096 && lm == dm,
        _ => false,
    };
    if !same {
        actions.push(Action::CappedMismatch { ns: ns.clone(), live, desired });
    }
    super::timeseries::diff_timeseries(m, ns, options, actions);
    true
}

/// What decides which live indexes are odm's: the records of the collection's indexes ([`ownership`]) and whether
/// the sync adopts the odm-named ones without a record.
#[derive(Default)]
pub(super) struct Owners {
    /// The records of the live indexes whose ownership the diff needs ([`ownership_questions`]).
    pub(super) records: Records,
    /// Whether odm-named indexes without a matching record are adopted.
    pub(super) adopt: AdoptIndexes,
}

impl Owners {
    /// True when odm owns `live` (recorded as it is), or adopts it in this sync.
    fn owns(&self, live: &IndexSpec) -> bool {
        self.records.owns(live) == Ownership::Owned || self.adopts(live)
    }

    /// True when this sync adopts `live`: asked to, named like odm's, and without a record matching it.
    fn adopts(&self, live: &IndexSpec) -> bool {
        self.adopt == AdoptIndexes::OdmNamed && live.is_odm_named() && self.records.owns(live) != Ownership::Owned
    }

    /// Why `live` is not odm's, for a conflict's reason.
    fn why_not(&self, live: &IndexSpec) -> &'static str {
        match self.records.owns(live) {
            Ownership::RecordedOtherwise => "recreated with other keys since odm recorded it",
            _ => "odm has no record of creating it; if odm did, before it kept records, adopt it: `apply --adopt-indexes`",
        }
    }
}

/// The names of the live indexes whose ownership decides what the diff does: every live index but those exactly as
/// a model declares them (same name, same keys and options), whose owner changes nothing, so a steady-state sync
/// reads no record. When adopting, every odm-named index too.
pub(super) fn ownership_questions<'a>(
    desired: &[IndexSpec],
    live: &'a [IndexSpec],
    adopt: AdoptIndexes,
) -> Vec<&'a str> {
    let settled = |l: &IndexSpec| {
        desired.iter().any(|d| d.name == l.name && d.same_structure(l) && d.in_place_changes(l).is_empty())
    };
    live.iter()
        .filter(|l| !settled(l) || (adopt == AdoptIndexes::OdmNamed && l.is_odm_named()))
        .map(|l| l.name.as_str())
        .collect()
}

/// Matches declared indexes to live ones: by name first, then by structure. Only indexes odm owns
/// ([`Owners::owns`]) are changed, rebuilt, hidden or dropped; the others are conflicts, or reported as not odm's
/// when they are named like odm's.
pub(super) fn diff_indexes(
    ns: &Namespace,
    desired: &[IndexSpec],
    live: &[IndexSpec],
    owners: &Owners,
    stale: StaleHandling,
    actions: &mut Vec<Action>,
) {
    for l in live.iter().filter(|l| owners.adopts(l)) {
        actions.push(Action::AdoptIndex { ns: ns.clone(), live: l.clone() });
    }
    let conflict = |l: &IndexSpec, d: &IndexSpec, reason: String| Action::IndexConflict {
        ns: ns.clone(),
        live: l.clone(),
        desired: d.clone(),
        reason: format!("{reason} (not odm's: {})", owners.why_not(l)),
    };
    let mut used = vec![false; live.len()];
    for d in desired {
        if let Some(i) = live.iter().position(|l| l.name == d.name) {
            used[i] = true;
            let l = &live[i];
            if d.same_structure(l) {
                let changes = d.in_place_changes(l);
                if !changes.is_empty() && !owners.owns(l) {
                    let reason = format!("the index `{}` has the declared keys but other options", l.name);
                    actions.push(conflict(l, d, reason));
                    continue;
                }
                for change in changes {
                    actions.push(Action::ModifyIndex { ns: ns.clone(), name: d.name.clone(), change });
                }
            } else if owners.owns(l) {
                actions.push(Action::RebuildIndex { ns: ns.clone(), live: l.clone(), desired: d.clone() });
            } else {
                let reason = format!("an index odm does not own is named `{}` with another definition", d.name);
                actions.push(conflict(l, d, reason));
            }
        } else if let Some(i) = live.iter().enumerate().position(|(i, l)| !used[i] && d.same_structure(l)) {
            used[i] = true;
            let l = &live[i];
            if owners.owns(l) {
                // Renamed in the model: the server refuses a second index with the same keys, so rebuild.
                actions.push(Action::RebuildIndex { ns: ns.clone(), live: l.clone(), desired: d.clone() });
            } else {
                let reason = format!("the index `{}` already has these keys and options", l.name);
                actions.push(conflict(l, d, reason));
            }
        } else {
            actions.push(Action::CreateIndex { ns: ns.clone(), spec: d.clone() });
        }
    }
    for (l, _) in live.iter().zip(&used).filter(|(_, used)| !**used) {
        if owners.owns(l) {
            actions.push(Action::StaleIndex { ns: ns.clone(), live: l.clone(), handling: stale });
        } else if l.is_odm_named() || owners.records.get(&l.name).is_some() {
            let recorded = owners.records.get(&l.name).cloned();
            actions.push(Action::UnownedIndex { ns: ns.clone(), live: l.clone(), recorded });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::plan::ownership;

    fn ns() -> Namespace {
        Namespace { db: "d".into(), collection: "c".into() }
    }

    #[test]
    fn index_diff_matches_by_name_then_structure_and_leaves_foreign_indexes_alone() {
        let mut ttl = IndexSpec::new("idx_at", doc! { "at": 1 });
        ttl.expire_after_seconds = Some(60);
        let desired = vec![
            IndexSpec::new("idx_a", doc! { "a": 1 }),
            ttl.clone(),
            IndexSpec::new("idx_b_c", doc! { "b": 1, "c": -1 }),
            IndexSpec::new("idx_e", doc! { "e": 1 }),
            IndexSpec::new("idx_f", doc! { "f": 1 }),
        ];
        let mut live_ttl = ttl.clone();
        live_ttl.expire_after_seconds = Some(30);
        let live = vec![
            IndexSpec::new("idx_a", doc! { "a": 1 }),
            live_ttl.clone(),
            IndexSpec::new("idx_b_c", doc! { "c": -1, "b": 1 }), // owned, other keys: rebuild
            IndexSpec::new("e_1", doc! { "e": 1 }),              // foreign with our keys: conflict
            IndexSpec::new("idx_old", doc! { "z": 1 }),          // owned, undeclared: stale
            IndexSpec::new("manual", doc! { "y": 1 }),           // foreign: untouched, unreported
            IndexSpec::new("idx_au", doc! { "au": 1 }),          // named like odm's, no record: not odm's
        ];
        let recorded = |l: &IndexSpec| doc! { "_id": ownership::record_id("c", &l.name), "index": l.to_document() };
        let documents: Vec<Document> = [&live_ttl, &live[2], &live[4]].into_iter().map(recorded).collect();
        let owners = Owners { records: Records::of("c", &documents), adopt: AdoptIndexes::Never };
        let questions = ownership_questions(&desired, &live, AdoptIndexes::Never);
        assert_eq!(questions, ["idx_at", "idx_b_c", "e_1", "idx_old", "manual", "idx_au"]);
        let mut actions = Vec::new();
        diff_indexes(&ns(), &desired, &live, &owners, StaleHandling::Keep, &mut actions);
        let kinds: Vec<&str> = actions.iter().map(Action::kind).collect();
        assert_eq!(
            kinds,
            ["modifyIndex", "rebuildIndex", "indexConflict", "createIndex", "staleIndex", "unownedIndex"]
        );
        assert!(actions.iter().all(|a| a.to_string().contains("d.c")));
        assert!(!actions.iter().any(|a| a.to_string().contains("manual")));

        // Without records, nothing is odm's: no change, rebuild or stale index, whatever the names.
        let mut actions = Vec::new();
        diff_indexes(&ns(), &desired, &live, &Owners::default(), StaleHandling::Drop, &mut actions);
        let kinds: Vec<&str> = actions.iter().map(Action::kind).collect();
        assert_eq!(
            kinds,
            ["indexConflict", "indexConflict", "indexConflict", "createIndex", "unownedIndex", "unownedIndex"]
        );
        // Adopting records every odm-named one first, then treats it as odm's.
        let adopting = Owners { adopt: AdoptIndexes::OdmNamed, ..Owners::default() };
        let mut actions = Vec::new();
        diff_indexes(&ns(), &desired, &live, &adopting, StaleHandling::Drop, &mut actions);
        let kinds: Vec<&str> = actions.iter().map(Action::kind).collect();
        assert_eq!(&kinds[..5], ["adoptIndex"; 5]);
        assert_eq!(
            &kinds[5..],
            ["modifyIndex", "rebuildIndex", "indexConflict", "createIndex", "staleIndex", "staleIndex"]
        );
    }
}

/// What sync knows of sharding: whether the server is a cluster, and the live keys of its sharded collections.
#[derive(Default)]
pub(super) struct Sharding {
    /// True on a sharded cluster (or when planning as for one).
    pub(super) cluster: bool,
    /// The live shard key of each sharded namespace among the models' (`<db>.<collection>`).
    pub(super) live: std::collections::HashMap<String, Document>,
}

/// The sharding action for a model that declares a shard key (none when its collection is sharded by that key).
pub(super) fn diff_sharding(
    m: &ModelSpec,
    ns: &Namespace,
    sharding: &Sharding,
    new_collection: bool,
) -> Option<Action> {
    let desired = m.shard_key?.to_document();
    if !sharding.cluster {
        return Some(Action::NotACluster { ns: ns.clone(), key: desired });
    }
    match sharding.live.get(&ns.to_string()) {
        None => Some(Action::ShardCollection { ns: ns.clone(), key: desired, new_collection }),
        Some(live) if same_key(live, &desired) => None,
        Some(live) => Some(Action::ShardKeyMismatch { ns: ns.clone(), live: live.clone(), desired }),
    }
}

/// Shard keys are ordered: same fields in the same order, each ranged (any number 1) or `"hashed"` alike.
fn same_key(live: &Document, desired: &Document) -> bool {
    let kind = |v: &Bson| match v {
        Bson::String(s) => Some(s.clone()),
        Bson::Int32(1) | Bson::Int64(1) => Some("1".to_owned()),
        Bson::Double(d) if *d == 1.0 => Some("1".to_owned()),
        _ => None,
    };
    live.len() == desired.len()
        && live.iter().zip(desired).all(|((lk, lv), (dk, dv))| lk == dk && kind(lv).is_some() && kind(lv) == kind(dv))
}
