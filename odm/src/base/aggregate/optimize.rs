//! The stage-order optimizer: moves `$match` and `$project` stages as early as the pipeline allows, on the raw
//! stage documents (see the module docs' "Stage order").

use crate::base::filter::overlaps;
use bson::{Bson, Document};

/// The one operator of a stage document (`"$match"`).
pub(super) fn name(stage: &Document) -> &str {
    stage.keys().next().map_or("", String::as_str)
}

/// The keys a `$match` condition reads, or `None` when it cannot move (`$expr`, `$where`, `$text`, …).
fn read_keys<'d>(cond: &'d Document, out: &mut Vec<&'d str>) -> bool {
    for (k, v) in cond {
        match (k.as_str(), v) {
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                for c in clauses {
                    match c {
                        Bson::Document(c) if read_keys(c, out) => {}
                        _ => return false,
                    }
                }
            }
            (k, _) if k.starts_with('$') => return false,
            (k, _) => out.push(k),
        }
    }
    true
}

/// True when `before` leaves every field at `keys` as it was (so a `$match` reading them may run before it).
fn passes(before: &Document, keys: &[&str]) -> bool {
    let body = before.iter().next().map(|(_, v)| v);
    match (name(before), body) {
        ("$sort", _) => true,
        ("$set" | "$addFields", Some(Bson::Document(set))) => !set.keys().any(|s| keys.iter().any(|k| overlaps(s, k))),
        ("$unset", Some(Bson::String(u))) => !keys.iter().any(|k| overlaps(u, k)),
        ("$unset", Some(Bson::Array(us))) => {
            !us.iter().filter_map(Bson::as_str).any(|u| keys.iter().any(|k| overlaps(u, k)))
        }
        ("$unwind", Some(Bson::String(path))) => {
            let path = path.trim_start_matches('$');
            !keys.iter().any(|k| overlaps(path, k))
        }
        ("$lookup", Some(Bson::Document(l))) => {
            l.get_str("as").is_ok_and(|into| !keys.iter().any(|k| overlaps(into, k)))
        }
        ("$project", Some(Bson::Document(p))) => keys.iter().all(|k| kept(p, k)),
        _ => false,
    }
}

fn is_one(v: &Bson) -> Option<bool> {
    match v {
        Bson::Int32(1) | Bson::Int64(1) | Bson::Boolean(true) => Some(true),
        Bson::Int32(0) | Bson::Int64(0) | Bson::Boolean(false) => Some(false),
        Bson::Double(d) => Some(*d != 0.0),
        _ => None,
    }
}

/// True when the projection `p` keeps the field at `key` unchanged.
fn kept(p: &Document, key: &str) -> bool {
    let exclusion = p.iter().all(|(_, v)| is_one(v) == Some(false));
    if exclusion {
        return !p.keys().any(|pk| overlaps(pk, key));
    }
    let mut included = key == "_id" && !p.contains_key("_id");
    for (pk, v) in p {
        if !overlaps(pk, key) {
            continue;
        }
        match is_one(v) {
            Some(true) if pk.len() <= key.len() => included = true,
            _ => return false,
        }
    }
    included
}

/// Moves `$match` and `$project` stages as early as allowed (see the module docs).
pub(super) fn reorder(stages: &mut [Document]) {
    for i in 1..stages.len() {
        match name(&stages[i]) {
            "$match" => {
                if !matches!(
                    name(&stages[i - 1]),
                    "$sort" | "$set" | "$addFields" | "$unset" | "$unwind" | "$lookup" | "$project"
                ) {
                    continue;
                }
                let mut keys = Vec::new();
                let movable = match stages[i].get("$match") {
                    Some(Bson::Document(cond)) => read_keys(cond, &mut keys),
                    _ => false,
                };
                if !movable {
                    continue;
                }
                let keys: Vec<String> = keys.into_iter().map(str::to_owned).collect();
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                let mut at = i;
                while at > 0 && passes(&stages[at - 1], &keys) {
                    stages.swap(at - 1, at);
                    at -= 1;
                }
            }
            "$project" => {
                let mut at = i;
                while at > 0 && name(&stages[at - 1]) == "$sort" {
                    let (Ok(sort), Ok(project)) =
                        (stages[at - 1].get_document("$sort"), stages[at].get_document("$project"))
                    else {
                        break;
                    };
                    if !sort.keys().all(|k| kept(project, k)) {
                        break;
                    }
                    stages.swap(at - 1, at);
                    at -= 1;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{kept, reorder};
    use bson::doc;

    #[test]
    fn matches_move_before_stages_that_leave_their_fields_alone() {
        let mut stages = vec![
            doc! { "$sort": { "a": 1 } },
            doc! { "$set": { "x": 1 } },
            doc! { "$unwind": "$arr" },
            doc! { "$match": { "a": 1, "$or": [{ "b": 2 }, { "c.d": 3 }] } },
        ];
        reorder(&mut stages);
        assert_eq!(stages[0], doc! { "$match": { "a": 1, "$or": [{ "b": 2 }, { "c.d": 3 }] } });

        let mut blocked = vec![doc! { "$set": { "c": 1 } }, doc! { "$match": { "c.d": 1 } }];
        reorder(&mut blocked);
        assert_eq!(blocked[0], doc! { "$set": { "c": 1 } });

        let mut expr = vec![doc! { "$sort": { "a": 1 } }, doc! { "$match": { "$expr": { "$gt": ["$a", 1] } } }];
        reorder(&mut expr);
        assert_eq!(expr[0], doc! { "$sort": { "a": 1 } });

        let mut limited = vec![doc! { "$limit": 5 }, doc! { "$match": { "a": 1 } }];
        reorder(&mut limited);
        assert_eq!(limited[0], doc! { "$limit": 5 });
    }

    #[test]
    fn projections_keep_or_change_fields() {
        let p = doc! { "a": 1, "b": "$c", "_id": 0 };
        assert!(kept(&p, "a") && kept(&p, "a.x"));
        assert!(!kept(&p, "b") && !kept(&p, "_id") && !kept(&p, "z"));
        assert!(kept(&doc! { "a": 1 }, "_id"));
        assert!(kept(&doc! { "z": 0 }, "a") && !kept(&doc! { "z": 0 }, "z.y"));
        let mut stages = vec![doc! { "$sort": { "a": -1 } }, doc! { "$project": { "a": 1 } }];
        reorder(&mut stages);
        assert_eq!(stages[0], doc! { "$project": { "a": 1 } });
    }
}
