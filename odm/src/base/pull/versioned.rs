//! Version 2 beside the shape as found: the rule-following model (`Model`, `version = 2`, `older(…V1)`), the shapes
//! as found renamed `…V1` (the older version it reads), and the step between them: `Upgrade` for the model, `From`
//! for each embedded struct. What is mechanical is written (short keys, dates and numbers parsed from text, `null`s
//! left out, counters computed from their arrays); a path of several types is a `compile_error!` in the step saying
//! what a person must decide.

use super::layout::{push_wrapped, Shown, ShownField, WIDTH};
use super::names::unique;
use super::plan::{quoted, Change, Struct, Ty};
use std::collections::HashSet;
use std::fmt::Write;

/// The longest key a rule-following struct stores (rule `key-short`).
const KEY_SHORT: usize = 16;
/// rustfmt's `struct_lit_width`: a struct literal whose fields take more than this goes one field per line.
const STRUCT_LIT_WIDTH: usize = 18;
/// rustfmt's `chain_width`: a method chain longer than this goes one call per line.
const CHAIN_WIDTH: usize = 60;

/// Version 2 and version 1 of each struct, in the order planned.
pub(super) fn structs(planned: &[Struct], namespace: &str) -> (Vec<Shown>, Vec<Shown>) {
    let v2 = planned.iter().map(|s| version_2(s, namespace)).collect();
    let v1 = planned.iter().map(|s| version_1(s, namespace)).collect();
    (v2, v1)
}

/// The key version 2 stores a field under: the key as found, or a short one for a key over the rule's limit.
fn short_keys(s: &Struct) -> Vec<String> {
    let mut taken: HashSet<String> = s.fields.iter().map(|f| f.key.clone()).collect();
    s.fields
        .iter()
        .map(|f| {
            if f.key == "_id" || f.key.len() <= KEY_SHORT {
                return f.key.clone();
            }
            let initials: String = f
                .key
                .char_indices()
                .filter(|&(i, c)| {
                    c.is_ascii_alphanumeric()
                        && (i == 0 || c.is_ascii_uppercase() || !f.key.as_bytes()[i - 1].is_ascii_alphanumeric())
                })
                .map(|(_, c)| c.to_ascii_lowercase())
                .take(KEY_SHORT - 2)
                .collect();
            let base = if initials.len() >= 2 { initials } else { f.key.chars().take(3).collect() };
            let key =
                (1..).map(|n| if n == 1 { base.clone() } else { format!("{base}{n}") }).find(|k| !taken.contains(k));
            let key = key.expect("an unbounded range");
            taken.insert(key.clone());
            key
        })
        .collect()
}

/// A counter version 2 adds beside a bounded array that has none.
struct NewCounter {
    array: String,
    ident: String,
    key: String,
}

/// The counters version 2 adds: one beside each bounded array of the struct that is always stored (not an
/// `Option`) and has no counter yet, named `<array>_count` in Rust and stored as `<key>_count`, or `n_<key>` where
/// that is over the short-key limit.
fn new_counters(s: &Struct, keys: &[String]) -> Vec<NewCounter> {
    let mut idents: HashSet<String> = s.fields.iter().map(|f| f.ident.clone()).collect();
    let mut taken: HashSet<String> = keys.iter().cloned().collect();
    let recounted: Vec<&str> = s
        .fields
        .iter()
        .filter_map(|f| match &f.change {
            Change::Recount { array } => Some(array.as_str()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (f, key) in s.fields.iter().zip(keys) {
        let bounded = f.odm.iter().any(|a| a.starts_with("max_items"));
        let counted = f.odm.iter().any(|a| a.starts_with("counter")) || recounted.contains(&f.ident.as_str());
        if !matches!(f.ty, Ty::Vec(_)) || !bounded || counted {
            continue;
        }
        let ident = unique(format!("{}_count", f.ident), &|n| idents.contains(n), "");
        let wanted = [format!("{key}_count"), format!("n_{key}")].into_iter().find(|k| k.len() <= KEY_SHORT);
        let key = wanted.unwrap_or_else(|| format!("n_{}", &key[..KEY_SHORT.min(key.len()) - 2]));
        let key = unique(key, &|k| taken.contains(k), "");
        idents.insert(ident.clone());
        taken.insert(key.clone());
        out.push(NewCounter { array: f.ident.clone(), ident, key });
    }
    out
}

fn version_2(s: &Struct, namespace: &str) -> Shown {
    let keys = short_keys(s);
    let added = new_counters(s, &keys);
    let counted: Vec<(String, String)> = s
        .fields
        .iter()
        .filter_map(|f| match &f.change {
            Change::Recount { array } => Some((array.clone(), f.ident.clone())),
            _ => None,
        })
        .collect();
    let mut fields = Vec::new();
    for (f, key) in s.fields.iter().zip(&keys) {
        let mut comments = Vec::new();
        let mut serde = Vec::new();
        let mut odm: Vec<String> =
            f.odm.iter().filter(|a| !matches!(a.as_str(), "nullable" | "not_a_date")).cloned().collect();
        let mut ty = f.ty.clone();
        if key != &f.key {
            comments.push(format!(
                "key-short: stored as {} (version 1: {}, {} bytes)",
                quoted(key),
                quoted(&f.key),
                f.key.len()
            ));
        }
        match &f.change {
            Change::Keep | Change::Recount { .. } => {}
            Change::FromText { to, what, .. } => {
                comments.push(format!(
                    "{}: stored as {} (version 1 stored them as text)",
                    if *what == "dates" { "date-string" } else { "type-number-string" },
                    what
                ));
                ty = replace_inner(&ty, to.clone());
            }
            Change::Decide { main, .. } => {
                if let Some(main) = main {
                    ty = replace_inner(&ty, main.clone());
                    odm.retain(|a| a != "mixed");
                    comments.push(format!(
                        "type-one-bson-type: `{}` is a guess (the most common type found); the step from version 1 \
                         says what to decide",
                        main.render("")
                    ));
                }
            }
        }
        if let Some((_, counter)) = counted.iter().find(|(array, _)| array == &f.ident) {
            odm.push(format!("counter = {}", quoted(counter)));
            comments
                .push(format!("counter-in-step: `{counter}` is kept in step, computed from this array by the step"));
        }
        let new_counter = added.iter().find(|c| c.array == f.ident);
        if let Some(c) = new_counter {
            odm.push(format!("counter = {}", quoted(&c.ident)));
            comments.push(format!("counter-field: `{}` counts this array, from the step on", c.ident));
        }
        if f.odm.iter().any(|a| a == "nullable") {
            comments.push("type-option-absent: `None` is left out; version 1's `null`s become absent".to_owned());
        }
        if key != &f.ident {
            serde.push(format!("rename = {}", quoted(key)));
        }
        if matches!(ty, Ty::Option(_)) {
            serde.push("skip_serializing_if = \"Option::is_none\"".to_owned());
        }
        if ty == Ty::Scalar("String") && f.odm.iter().any(|a| a == "not_a_date") {
            odm.push("not_a_date".to_owned());
        }
        fields.push(ShownField { ident: f.ident.clone(), ty: ty.render(""), comments, serde, odm });
        if let Some(c) = new_counter {
            let serde = if c.key == c.ident { Vec::new() } else { vec![format!("rename = {}", quoted(&c.key))] };
            fields.push(ShownField {
                ident: c.ident.clone(),
                ty: "i32".to_owned(),
                comments: Vec::new(),
                serde,
                odm: Vec::new(),
            });
        }
        if s.model && f.key == "_id" {
            fields.push(ShownField {
                ident: "v".to_owned(),
                ty: "Version<2>".to_owned(),
                comments: Vec::new(),
                serde: vec!["rename = \"_v\"".to_owned()],
                odm: Vec::new(),
            });
        }
    }
    let mut odm: Vec<String> = s.odm.iter().filter(|a| !a.starts_with("max_key_len")).cloned().collect();
    if s.model {
        odm.push("version = 2".to_owned());
        odm.push(format!("older({}V1)", s.name));
    }
    let comments = s.comments.iter().filter(|c| !c.starts_with("key-short")).cloned().collect();
    let doc = if s.model {
        vec![format!("A document of `{namespace}`, version 2: odm's rules followed where the data allowed.")]
    } else {
        vec![format!("`{}`, version 2.", s.path)]
    };
    Shown { name: s.name.clone(), doc, comments, derive: if s.model { "Model" } else { "Embedded" }, odm, fields }
}

/// `ty` with its innermost value type replaced (`Option<String>` becomes `Option<DateTime>`).
fn replace_inner(ty: &Ty, to: Ty) -> Ty {
    match ty {
        Ty::Option(t) => Ty::Option(Box::new(replace_inner(t, to))),
        _ => to,
    }
}

fn version_1(s: &Struct, namespace: &str) -> Shown {
    let fields = s
        .fields
        .iter()
        .map(|f| {
            let mut serde = f.serde.clone();
            let mut odm: Vec<String> = f.odm.iter().filter(|a| a.as_str() != "not_id").cloned().collect();
            let mut ty = f.ty.clone();
            if let Change::FromText { to, helper, .. } = &f.change {
                ty = replace_inner(&ty, to.clone());
                odm.retain(|a| a != "not_a_date");
                odm.push("bson_type = \"string\"".to_owned());
                if matches!(ty, Ty::Option(_)) {
                    // Absent is `None` too: `default`, since a field read with a helper is otherwise required.
                    serde.push("default".to_owned());
                    serde.push(format!(
                        "deserialize_with = \"odm::pull::optional_{}\"",
                        helper.trim_start_matches("odm::pull::")
                    ));
                } else {
                    serde.push(format!("deserialize_with = {}", quoted(helper)));
                }
            }
            ShownField { ident: f.ident.clone(), ty: ty.render("V1"), comments: f.comments.clone(), serde, odm }
        })
        .collect();
    let odm = s.odm.iter().filter(|a| a.starts_with("max_key_len")).cloned().collect();
    let doc = if s.model {
        vec![format!("Version 1 of [`{}`]: a document of `{namespace}` as found.", s.name)]
    } else {
        vec![format!("Version 1 of [`{}`]: {}", s.name, s.doc.first().map_or("", String::as_str))]
    };
    Shown { name: format!("{}V1", s.name), doc, comments: s.comments.clone(), derive: "Embedded", odm, fields }
}

/// The step from version 1 to 2: `Upgrade` for the model, `From` for each embedded struct.
pub(super) fn steps(out: &mut String, planned: &[Struct]) {
    for s in planned {
        out.push('\n');
        let source = if s.model { "self" } else { "v1" };
        let added = new_counters(s, &short_keys(s));
        let mut lets = Vec::new();
        let mut inits = Vec::new();
        for f in &s.fields {
            let from = format!("{source}.{}", f.ident);
            match &f.change {
                Change::Decide { why, .. } => {
                    let message = format!(
                        "`{}`: {why} (rule `type-one-bson-type`): choose its type in version 2 and write here how \
                         each stored value becomes it",
                        f.key
                    );
                    inits.push((f.ident.clone(), format!("compile_error!({})", quoted(&message))));
                }
                Change::Recount { array } => {
                    let cast = if f.ty == Ty::Scalar("i64") { "i64" } else { "i32" };
                    lets.push(format!("let {} = {source}.{array}.len() as {cast};", f.ident));
                    inits.push((f.ident.clone(), f.ident.clone()));
                }
                _ => inits.push((f.ident.clone(), convert(&from, &f.ty))),
            }
            if let Some(c) = added.iter().find(|c| c.array == f.ident) {
                lets.push(format!("let {} = {source}.{}.len() as i32;", c.ident, c.array));
                inits.push((c.ident.clone(), c.ident.clone()));
            }
            if s.model && f.key == "_id" {
                inits.push(("v".to_owned(), "Version".to_owned()));
            }
        }
        if s.model {
            let _ = writeln!(out, "impl Upgrade for {}V1 {{", s.name);
            let _ = writeln!(out, "    type Next = {};\n", s.name);
            let _ = writeln!(out, "    fn upgrade(self) -> {} {{", s.name);
        } else {
            let _ = writeln!(out, "impl From<{}V1> for {} {{", s.name, s.name);
            let source = if s.fields.is_empty() { "_" } else { "v1" };
            let _ = writeln!(out, "    fn from({source}: {}V1) -> Self {{", s.name);
        }
        for line in &lets {
            let _ = writeln!(out, "        {line}");
        }
        literal(out, &s.name, &inits, 8);
        out.push_str("    }\n}\n");
    }
}

/// A struct literal as rustfmt writes it: on one line when its fields are short, else one field per line.
fn literal(out: &mut String, name: &str, inits: &[(String, String)], indent: usize) {
    let pad = " ".repeat(indent);
    let field =
        |(ident, value): &(String, String)| if ident == value { ident.clone() } else { format!("{ident}: {value}") };
    let body: Vec<String> = inits.iter().map(field).collect();
    let one_line = format!("{pad}{name} {{ {} }}", body.join(", "));
    if inits.is_empty() {
        let _ = writeln!(out, "{pad}{name} {{}}");
    } else if body.join(", ").len() <= STRUCT_LIT_WIDTH && one_line.len() <= WIDTH {
        let _ = writeln!(out, "{one_line}");
    } else {
        let _ = writeln!(out, "{pad}{name} {{");
        for (ident, value) in inits {
            let inner = format!("{pad}    ");
            let shorthand = ident == value;
            let line = if shorthand { format!("{inner}{ident},") } else { format!("{inner}{ident}: {value},") };
            if line.len() <= WIDTH || shorthand {
                let _ = writeln!(out, "{line}");
            } else if let Some(message) = value.strip_prefix("compile_error!(").and_then(|v| v.strip_suffix(')')) {
                let _ = writeln!(out, "{inner}{ident}: compile_error!(\n{inner}    {message}\n{inner}),");
            } else {
                let _ = writeln!(out, "{line}");
            }
        }
        let _ = writeln!(out, "{pad}}}");
    }
}

/// The expression converting `from` (of version 1's type) to version 2's: structs through `into`, inside
/// `Option`s, arrays and maps; anything else moves.
fn convert(from: &str, ty: &Ty) -> String {
    if !ty.holds_struct() {
        return from.to_owned();
    }
    let parts = chain(from, ty);
    let joined = parts.concat();
    if joined.len() <= CHAIN_WIDTH {
        return joined;
    }
    // rustfmt's vertical chain: the root, then each step on a line of its own.
    parts.join("\n                ")
}

/// The chain converting `from`: its root (`self`, `v1`), the field, and the calls.
fn chain(from: &str, ty: &Ty) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut dots = from.split('.');
    parts.push(dots.next().unwrap_or_default().to_owned());
    parts.extend(dots.map(|d| format!(".{d}")));
    match ty {
        Ty::Named(_) => parts.push(".into()".to_owned()),
        Ty::Option(t) => parts.push(format!(".map({})", function(t))),
        Ty::Vec(t) => {
            parts.push(".into_iter()".to_owned());
            parts.push(format!(".map({})", function(t)));
            parts.push(".collect()".to_owned());
        }
        Ty::Map(t) => {
            parts.push(".into_iter()".to_owned());
            parts.push(format!(".map(|(k, v)| (k, {}))", convert("v", t)));
            parts.push(".collect()".to_owned());
        }
        _ => {}
    }
    parts
}

/// A function converting one value of `ty`: `Into::into` for a struct, else a closure.
fn function(ty: &Ty) -> String {
    match ty {
        Ty::Named(_) => "Into::into".to_owned(),
        _ => format!("|v| {}", convert("v", ty)),
    }
}

/// The module's header.
pub(super) fn header(out: &mut String, namespace: &str, read: &str) {
    let text = format!(
        "`{namespace}`: version 2 of its model follows odm's rules where the data allows; version 1 is the shape \
         as found (pulled by odm from {read}), read from documents not migrated yet, and the step between them is \
         below. Where a person must decide (a path of several types), the step does not compile until they have."
    );
    push_wrapped(out, "//! ", &text);
}
