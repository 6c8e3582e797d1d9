//! The `$expr` counter checks of a validator, written and read back in one place: [`counter_check`] and
//! [`all_elements`] write them, [`counter_pairs`] reads the pair a check compares so that a refused write can name
//! it. Knows no stored type, so errors can read checks without importing the schema.

use bson::{doc, Bson};

/// `size(array) == counter`, tolerant of absence (both count as 0) and of wrong types (left to `$jsonSchema`);
/// rule [`counter-in-step`](crate::rules#counter-in-step).
pub fn counter_check(array: &str, counter: &str) -> Bson {
    Bson::from(doc! {
        "$eq": [
            { "$cond": [{ "$isArray": [array] }, { "$size": array }, 0] },
            { "$ifNull": [counter, 0] },
        ]
    })
}

/// `$allElementsTrue` over an array, with `$map` binding each element to `var`; a non-array value yields `true`
/// (its type is the `$jsonSchema`'s business, and `$map` over a non-array would abort the validation).
pub(crate) fn all_elements(value: &str, var: &str, check: Bson) -> Bson {
    Bson::from(doc! {
        "$allElementsTrue": [{
            "$map": {
                "input": { "$cond": [{ "$isArray": [value] }, value, []] },
                "as": var,
                "in": check,
            }
        }]
    })
}

/// `check` for the documents of one variant of a polymorphic model: true for a document whose discriminator
/// (`tag`, an aggregation expression like `"$t"`) is not `value`.
pub(crate) fn for_variant(tag: &str, value: &str, check: Bson) -> Bson {
    Bson::from(doc! { "$or": [{ "$ne": [tag, value] }, check] })
}

/// The `(array, counter)` pairs a counter check compares, as stored paths from the document root with `$[]` for
/// every element of an enclosing array (`("d.$[].m", "d.$[].mc")`): the reading of what [`counter_check`] and
/// `all_elements` write, so that a failed check can be named. A check of today's validators holds one pair; an
/// `$and` of several (validators written by earlier versions) yields them all.
pub(crate) fn counter_pairs(check: &Bson) -> Vec<(String, String)> {
    let mut out = Vec::new();
    read_pairs(check, &mut Vec::new(), &mut out);
    out
}

/// `bindings` holds the `$map` variables in scope, each with the stored path of the elements it stands for.
fn read_pairs(check: &Bson, bindings: &mut Vec<(String, String)>, out: &mut Vec<(String, String)>) {
    let Some(d) = check.as_document() else { return };
    let resolve = |expr: &str, bindings: &[(String, String)]| -> Option<String> {
        match expr.strip_prefix("$$") {
            Some(var_path) => {
                let (var, rest) = var_path.split_once('.').map_or((var_path, None), |(v, r)| (v, Some(r)));
                let (_, base) = bindings.iter().rev().find(|(v, _)| v == var)?;
                Some(rest.map_or_else(|| base.clone(), |rest| format!("{base}.{rest}")))
            }
            None => expr.strip_prefix('$').map(str::to_owned),
        }
    };
    // The second argument of `$cond` (`{$size: array}`, or the array itself as `$map`'s input).
    let cond_arg = |v: Option<&Bson>| v?.as_document()?.get_array("$cond").ok()?.get(1).cloned();
    if let Ok(all) = d.get_array("$and").or_else(|_| d.get_array("$or")) {
        // `$or` guards a variant's check by its discriminator (`for_variant`): the `$ne` half holds no pair.
        all.iter().for_each(|c| read_pairs(c, bindings, out));
    } else if let Ok([size, count]) = d.get_array("$eq").map(Vec::as_slice) {
        let array = cond_arg(Some(size)).and_then(|s| s.as_document()?.get_str("$size").ok().map(str::to_owned));
        let counter = count.as_document().and_then(|c| c.get_array("$ifNull").ok()?.first()?.as_str());
        if let (Some(array), Some(counter)) = (array, counter) {
            if let (Some(a), Some(c)) = (resolve(&array, bindings), resolve(counter, bindings)) {
                out.push((a, c));
            }
        }
    } else if let Some(map) =
        d.get_array("$allElementsTrue").ok().and_then(|a| a.first()?.as_document()?.get_document("$map").ok())
    {
        let input = cond_arg(map.get("input"));
        let elements = input.as_ref().and_then(|i| resolve(i.as_str()?, bindings));
        if let (Some(elements), Ok(var), Some(inner)) = (elements, map.get_str("as"), map.get("in")) {
            bindings.push((var.to_owned(), format!("{elements}.$[]")));
            read_pairs(inner, bindings, out);
            bindings.pop();
        }
    }
}
