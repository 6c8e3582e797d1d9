//! The `$expr` checks of a validator keeping a field in step with an array (a counter, a computed field):
//! `CounterCheck` is one check with the pair it compares, written by `counter_check` and wrapped by `all_elements`
//! and `for_variant` with its pair carried along; the validator's description (`crate::base::validator`) and a refused
//! write's translation read the pair from it. `counter_pairs` reads the pairs back from the BSON only for validators
//! odm did not just make (one found on a server, written by an earlier version). Knows no stored type, so errors can
//! read checks without importing the schema. `aggregate` is what a computed field holds, below the field tables.

pub(crate) mod aggregate;

use self::aggregate::{self as computed, Aggregate};
use bson::{doc, Bson};

/// One `$expr` check of a validator keeping a counted array's length and its counter equal (rule
/// [`counter-in-step`](crate::rules#counter-in-step)), with the pair it compares.
///
/// The paths are aggregation expressions while the check is built (`"$it"`, `"$$e0.l"` inside an array's
/// elements); [`CounterCheck::array`] and [`CounterCheck::counter`] name them as stored paths once the check is
/// rooted at the document (`"d.$[].l"`).
#[derive(Debug, Clone, PartialEq)]
pub struct CounterCheck {
    /// The stored path of the array (the paths of the summed fields, joined by `, `), `$`-prefixed where a `$map`
    /// variable starts it (`$e0.m` inside the elements bound to `e0`, until [`CounterCheck::over_elements`]).
    array: String,
    /// The stored path of the counter or computed field, written as `array` is.
    counter: String,
    /// For a computed field's check (rule [`computed-in-step`](crate::rules#computed-in-step)): what it holds.
    aggregate: Option<Aggregate>,
    expr: Bson,
}

impl CounterCheck {
    /// The check comparing the array at the aggregation expression `array` with the counter at `counter`.
    pub fn new(array: &str, counter: &str) -> Self {
        let expr = counter_check(array, counter);
        CounterCheck { array: stored(array).to_owned(), counter: stored(counter).to_owned(), aggregate: None, expr }
    }

    /// The check keeping the computed field at `target` equal to the `aggregate` of the array at `array`, of its
    /// elements' field `of` (stored key) or of the elements themselves (rule
    /// [`computed-in-step`](crate::rules#computed-in-step)).
    pub fn computed(aggregate: Aggregate, array: &str, of: Option<&str>, target: &str) -> Self {
        let expr = computed::check(aggregate, array, of, target);
        let (array, counter) = (stored(array).to_owned(), stored(target).to_owned());
        CounterCheck { array, counter, aggregate: Some(aggregate), expr }
    }

    /// The check keeping the field at `target` equal to the sum of the fields at `inputs` (aggregation expressions,
    /// `"$sb"`); its array, as [`CounterCheck::array`] names it, lists the inputs (`"sb, sh"`).
    pub fn sum_of_fields(inputs: &[String], target: &str) -> Self {
        let expr = computed::sum_of_fields(inputs, target);
        let array = inputs.iter().map(|i| stored(i)).collect::<Vec<_>>().join(", ");
        CounterCheck { array, counter: stored(target).to_owned(), aggregate: Some(Aggregate::Sum), expr }
    }

    /// For a computed field's check, what the field holds; `None` for a counter's.
    pub fn aggregate(&self) -> Option<Aggregate> {
        self.aggregate
    }

    /// The stored path of the counted array, `$[]` for every element of an enclosing array (`"d.$[].m"`).
    pub fn array(&self) -> &str {
        &self.array
    }

    /// The stored path of the counter, or of the computed field (`"d.$[].mc"`).
    pub fn counter(&self) -> &str {
        &self.counter
    }

    /// The aggregation expression a validator holds under `$expr`.
    pub fn expr(&self) -> &Bson {
        &self.expr
    }

    /// The expression, moved out.
    pub fn into_expr(self) -> Bson {
        self.expr
    }

    /// The same check over every element of the array at `value`, whose elements the check named `$$var`.
    pub(crate) fn over_elements(self, value: &str, var: &str) -> Self {
        let (own, value_path) = (format!("${var}"), stored(value));
        let rebase = |paths: String| {
            let each = paths.split(", ").map(|path| match path.strip_prefix(&own) {
                Some(rest) => format!("{value_path}.$[]{rest}"),
                None => path.to_owned(),
            });
            each.collect::<Vec<_>>().join(", ")
        };
        CounterCheck {
            expr: all_elements(value, var, self.expr),
            array: rebase(self.array),
            counter: rebase(self.counter),
            aggregate: self.aggregate,
        }
    }

    /// The same check, holding only for documents whose discriminator `tag` (`"$t"`) is `value`.
    pub(crate) fn for_variant(self, tag: &str, value: &str) -> Self {
        CounterCheck { expr: for_variant(tag, value, self.expr), ..self }
    }
}

/// A path as the check names it, without the `$` of an aggregation expression.
fn stored(path: &str) -> &str {
    path.strip_prefix('$').unwrap_or(path)
}

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
fn all_elements(value: &str, var: &str, check: Bson) -> Bson {
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
fn for_variant(tag: &str, value: &str, check: Bson) -> Bson {
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
