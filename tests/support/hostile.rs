//! Hostile documents: valid documents mutated so they break exactly one rule of the model's validator — a wrong
//! type in a field, a missing required field, `null` where absence is expected, an extra key in a closed document,
//! an array over its bound, a counter out of step. They are derived from the generated schema itself, so every
//! property of every model is covered without a hand-written list.

use odm::bson::{oid::ObjectId, Bson, Document};

/// One step of a stored path.
#[derive(Clone, Debug, PartialEq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A stored path (`it.0.p`).
pub type Path = Vec<Seg>;

pub fn dotted(path: &[Seg]) -> String {
    path.iter()
        .map(|s| match s {
            Seg::Key(k) => k.clone(),
            Seg::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// What a hostile document breaks.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    WrongType,
    MissingRequired,
    NullWhereAbsent,
    ExtraKey,
    OverBound,
    CounterOutOfStep,
    /// A value held twice by an array declared a set (`uniqueItems`), within its bound.
    Duplicate,
    /// A map key MongoDB cannot address (`a.b`, `$where`), with a valid value.
    BadMapKey,
}

/// A hostile document with what it breaks and where.
#[derive(Clone, Debug)]
pub struct Hostile {
    pub rule: Rule,
    pub path: String,
    pub what: String,
    pub doc: Document,
}

fn get_mut<'a>(doc: &'a mut Bson, path: &[Seg]) -> Option<&'a mut Bson> {
    let mut cur = doc;
    for seg in path {
        cur = match (seg, cur) {
            (Seg::Key(k), Bson::Document(d)) => d.get_mut(k)?,
            (Seg::Index(i), Bson::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn get<'a>(doc: &'a Bson, path: &[Seg]) -> Option<&'a Bson> {
    let mut cur = doc;
    for seg in path {
        cur = match (seg, cur) {
            (Seg::Key(k), Bson::Document(d)) => d.get(k)?,
            (Seg::Index(i), Bson::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Applies `f` to the value at `path` in a copy of `root`, with a fresh `_id` unless `_id` itself is the target.
fn mutate(root: &Document, path: &[Seg], f: impl FnOnce(&mut Bson)) -> Option<Document> {
    let mut b = Bson::Document(root.clone());
    f(get_mut(&mut b, path)?);
    let Bson::Document(mut d) = b else { unreachable!() };
    if path.first() != Some(&Seg::Key("_id".into())) {
        d.insert("_id", ObjectId::new());
    }
    Some(d)
}

fn types_of(schema: &Document) -> Vec<String> {
    match schema.get("bsonType") {
        Some(Bson::String(s)) => vec![s.clone()],
        Some(Bson::Array(a)) => a.iter().filter_map(|b| b.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    }
}

/// Values of types the schema does not allow, including the numeric near-misses (int vs long vs double).
fn wrong_values(schema: &Document) -> Vec<(String, Bson)> {
    let types = types_of(schema);
    if types.is_empty() {
        if schema.contains_key("enum") {
            return vec![
                ("a value outside the enum".into(), Bson::String("not-a-variant".into())),
                ("an int".into(), Bson::Int32(1)),
            ];
        }
        return Vec::new();
    }
    let has = |t: &str| types.iter().any(|x| x == t);
    let mut out = Vec::new();
    if !has("string") {
        out.push(("a string".to_owned(), Bson::String("x".into())));
    } else {
        out.push(("an int".to_owned(), Bson::Int32(7)));
    }
    if has("int") && !has("long") {
        out.push(("a long".into(), Bson::Int64(7)));
    }
    if has("long") && !has("int") {
        out.push(("an int".into(), Bson::Int32(7)));
    }
    if has("double") {
        out.push(("an int".into(), Bson::Int32(7)));
    }
    if has("int") || has("long") {
        out.push(("a double".into(), Bson::Double(7.0)));
    }
    if has("date") {
        out.push(("a string date".into(), Bson::String("2024-04-25".into())));
    }
    if has("decimal") {
        out.push(("a double".into(), Bson::Double(1.5)));
    }
    if has("object") || has("array") {
        out.push(("a bool".into(), Bson::Boolean(true)));
    }
    out.dedup_by(|a, b| a.1 == b.1);
    out
}

/// All hostile variants of the valid document `root` under the model's validator.
pub fn hostile_documents(validator: &Document, root: &Document) -> Vec<Hostile> {
    let schema = validator.get_document("$jsonSchema").expect("$jsonSchema");
    let mut out = Vec::new();
    walk_object(schema, root, &Bson::Document(root.clone()), &mut Vec::new(), &mut out);
    // One `$expr`, or (several counted arrays) one `{$expr}` clause per array under `$and`.
    let clauses = validator.get_array("$and").into_iter().flatten().filter_map(|c| c.as_document()?.get("$expr"));
    for expr in validator.get("$expr").into_iter().chain(clauses) {
        for (array, counter) in counter_pairs(expr, &Vec::new()) {
            counter_mutations(root, &array, &counter, &mut out);
        }
    }
    out
}

fn walk_object(schema: &Document, root: &Document, value: &Bson, path: &mut Path, out: &mut Vec<Hostile>) {
    let Bson::Document(doc) = value else { return };
    let required: Vec<&str> =
        schema.get_array("required").map(|a| a.iter().filter_map(Bson::as_str).collect()).unwrap_or_default();
    if let Ok(props) = schema.get_document("properties") {
        for (key, prop) in props {
            let Bson::Document(prop) = prop else { continue };
            path.push(Seg::Key(key.clone()));
            if doc.contains_key(key) {
                walk_value(prop, root, value, path, out);
                if !required.contains(&key.as_str()) && !types_of(prop).iter().any(|t| t == "null") && key != "_id" {
                    if let Some(d) = mutate(root, path, |v| *v = Bson::Null) {
                        out.push(Hostile {
                            rule: Rule::NullWhereAbsent,
                            path: dotted(path),
                            what: "null instead of absent".into(),
                            doc: d,
                        });
                    }
                }
            }
            path.pop();
        }
    }
    for key in &required {
        if *key == "_id" || !doc.contains_key(*key) {
            continue;
        }
        let parent = path.clone();
        if let Some(d) = mutate(root, &parent, |v| {
            if let Bson::Document(d) = v {
                d.remove(*key);
            }
        }) {
            let mut p = parent.clone();
            p.push(Seg::Key((*key).to_owned()));
            out.push(Hostile {
                rule: Rule::MissingRequired,
                path: dotted(&p),
                what: "required key removed".into(),
                doc: d,
            });
        }
    }
    let map_values = schema.get_document("patternProperties").ok().and_then(|p| p.values().next()?.as_document());
    if schema.get_bool("additionalProperties").ok() == Some(false) && map_values.is_none() {
        if let Some(d) = mutate(root, path, |v| {
            if let Bson::Document(d) = v {
                d.insert("zzx", 1);
            }
        }) {
            let mut p = path.clone();
            p.push(Seg::Key("zzx".into()));
            out.push(Hostile {
                rule: Rule::ExtraKey,
                path: dotted(&p),
                what: "extra key in a closed document".into(),
                doc: d,
            });
        }
    }
    // Maps: dynamic keys share one value schema, and keys MongoDB cannot address are refused.
    if let Some(values) = map_values {
        if let Some((key, valid)) = doc.iter().next() {
            for bad in ["a.b", "$where"] {
                if let Some(d) = mutate(root, path, |v| {
                    if let Bson::Document(d) = v {
                        d.insert(bad, valid.clone());
                    }
                }) {
                    let mut p = path.clone();
                    p.push(Seg::Key(bad.into()));
                    out.push(Hostile {
                        rule: Rule::BadMapKey,
                        path: dotted(&p),
                        what: format!("map key `{bad}` with a valid value"),
                        doc: d,
                    });
                }
            }
            path.push(Seg::Key(key.clone()));
            walk_value(values, root, value, path, out);
            path.pop();
        }
    }
    // Tagged enums: the variant's own schema (found by the tag) describes the fields.
    for combinator in ["oneOf", "allOf"] {
        if let Ok(variants) = schema.get_array(combinator) {
            for v in variants.iter().filter_map(Bson::as_document) {
                if variant_matches(v, doc) {
                    walk_object(v, root, value, path, out);
                }
            }
        }
    }
}

fn variant_matches(variant: &Document, doc: &Document) -> bool {
    let Ok(props) = variant.get_document("properties") else { return false };
    props.iter().all(|(k, s)| match s.as_document().and_then(|s| s.get_array("enum").ok()) {
        Some(values) => doc.get(k).is_some_and(|v| values.contains(v)),
        None => true,
    })
}

fn walk_value(schema: &Document, root: &Document, parent: &Bson, path: &mut Path, out: &mut Vec<Hostile>) {
    let root_bson = Bson::Document(root.clone());
    let Some(value) = get(&root_bson, path).cloned() else { return };
    let _ = parent;
    for (what, wrong) in wrong_values(schema) {
        if let Some(d) = mutate(root, path, |v| *v = wrong) {
            out.push(Hostile {
                rule: Rule::WrongType,
                path: dotted(path),
                what: format!("{what} where the schema says {schema}"),
                doc: d,
            });
        }
    }
    match &value {
        Bson::Document(_) => walk_object(schema, root, &value, path, out),
        Bson::Array(items) => {
            if let (Ok(max), Some(first)) = (schema.get_i64("maxItems"), items.first()) {
                let first = first.clone();
                if let Some(d) = mutate(root, path, |v| {
                    if let Bson::Array(a) = v {
                        while a.len() as i64 <= max {
                            a.push(first.clone());
                        }
                    }
                }) {
                    out.push(Hostile {
                        rule: Rule::OverBound,
                        path: dotted(path),
                        what: format!("{} items, over maxItems {max}", max + 1),
                        doc: d,
                    });
                }
            }
            let room = schema.get_i64("maxItems").map_or(true, |max| (items.len() as i64) < max);
            if let (Ok(true), Some(first), true) = (schema.get_bool("uniqueItems"), items.first(), room) {
                let first = first.clone();
                let twice = mutate(root, path, |v| {
                    if let Bson::Array(a) = v {
                        a.push(first.clone());
                    }
                });
                if let Some(d) = twice {
                    let what = format!("the first of {} items again, in a set", items.len());
                    out.push(Hostile { rule: Rule::Duplicate, path: dotted(path), what, doc: d });
                }
            }
            if let (Ok(item_schema), false) = (schema.get_document("items"), items.is_empty()) {
                path.push(Seg::Index(0));
                walk_value(item_schema, root, &value, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Reads `(array path, counter path)` pairs back from the generated `$expr`, following `$map` into the first
/// element of arrays.
fn counter_pairs(expr: &Bson, base: &Path) -> Vec<(Path, Path)> {
    let mut out = Vec::new();
    let Some(d) = expr.as_document() else { return out };
    if let Ok(all) = d.get_array("$and") {
        for e in all {
            out.extend(counter_pairs(e, base));
        }
    }
    if let Ok(eq) = d.get_array("$eq") {
        let array = eq[0]
            .as_document()
            .and_then(|c| c.get_array("$cond").ok())
            .and_then(|c| c[1].as_document())
            .and_then(|s| s.get_str("$size").ok());
        let counter = eq[1].as_document().and_then(|c| c.get_array("$ifNull").ok()).and_then(|c| c[0].as_str());
        if let (Some(a), Some(c)) = (array, counter) {
            out.push((resolve(a, base), resolve(c, base)));
        }
    }
    if let Ok(all) = d.get_array("$allElementsTrue") {
        if let Some(map) = all[0].as_document().and_then(|m| m.get_document("$map").ok()) {
            let input =
                map.get_document("input").ok().and_then(|c| c.get_array("$cond").ok()).and_then(|c| c[1].as_str());
            if let Some(input) = input {
                let mut inner = resolve(input, base);
                inner.push(Seg::Index(0));
                out.extend(counter_pairs(map.get("in").expect("in"), &inner));
            }
        }
    }
    out
}

/// `"$a.b"` → `[a, b]`; `"$$e0.v"` → `base + [v]`.
fn resolve(expr: &str, base: &Path) -> Path {
    if let Some(rest) = expr.strip_prefix("$$") {
        let mut p = base.clone();
        p.extend(rest.split('.').skip(1).map(|s| Seg::Key(s.to_owned())));
        p
    } else {
        expr.trim_start_matches('$').split('.').map(|s| Seg::Key(s.to_owned())).collect()
    }
}

fn counter_mutations(root: &Document, array: &Path, counter: &Path, out: &mut Vec<Hostile>) {
    let root_bson = Bson::Document(root.clone());
    if get(&root_bson, counter).is_none() {
        return;
    }
    if let Some(d) = mutate(root, counter, |v| {
        let next = match &*v {
            Bson::Int32(n) => Bson::Int32(n.wrapping_add(1)),
            Bson::Int64(n) => Bson::Int64(n.wrapping_add(1)),
            other => other.clone(),
        };
        *v = next;
    }) {
        out.push(Hostile {
            rule: Rule::CounterOutOfStep,
            path: dotted(counter),
            what: format!("counter one more than the size of {}", dotted(array)),
            doc: d,
        });
    }
}
