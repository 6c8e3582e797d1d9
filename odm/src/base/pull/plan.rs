//! What each stored path becomes in Rust: the decisions of a pull, made from what the survey counted (types,
//! presence, `null`s, lengths, maps, counters) and the live validator's bounds, each rule the data breaks turned into
//! the opt-out that rule allows and a comment giving the numbers. Rendering the decisions as text is `emit`.

use super::names::{field_ident, looks_like_date, thousands, type_ident, unique, TAKEN_TYPES};
use super::report::Note;
use super::tree::Node;
use crate::base::introspect::{type_alias, validator_max_items, CounterPair, Seen, Shape};
use crate::base::model::Capped;
use bson::spec::ElementType;
use bson::Document;
use std::collections::{BTreeSet, HashSet};

/// The longest stored key the rules take without `max_key_len` (rule `key-short`).
const KEY_SHORT: usize = 16;

/// One struct to write.
pub(super) struct Struct {
    pub name: String,
    /// The stored path of the documents it reads (`location.address`; empty for the model).
    pub path: String,
    pub doc: Vec<String>,
    /// Rule notes, written as `//` comments above the attributes.
    pub comments: Vec<String>,
    /// The items of the type's `#[odm(...)]`.
    pub odm: Vec<String>,
    pub model: bool,
    pub fields: Vec<Field>,
}

/// One field to write.
pub(super) struct Field {
    pub ident: String,
    pub key: String,
    pub ty: Ty,
    pub comments: Vec<String>,
    pub serde: Vec<String>,
    pub odm: Vec<String>,
    /// What the rule-following version does with it.
    pub change: Change,
}

/// A field's Rust type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
    /// A std or `bson` type, as written (`i32`, `String`, `DateTime`).
    Scalar(&'static str),
    /// A struct written beside the model.
    Named(String),
    Vec(Box<Ty>),
    /// `IndexMap<String, _>`.
    Map(Box<Ty>),
    Option(Box<Ty>),
    /// `Bson`, declared `mixed`.
    Bson,
    /// `Document`: a map whose values are of several types.
    Document,
}

impl Ty {
    /// The type as written, each struct's name followed by `suffix` (`V1` for the shapes as found).
    pub fn render(&self, suffix: &str) -> String {
        match self {
            Ty::Scalar(s) => (*s).to_owned(),
            Ty::Named(n) => format!("{n}{suffix}"),
            Ty::Vec(t) => format!("Vec<{}>", t.render(suffix)),
            Ty::Map(t) => format!("IndexMap<String, {}>", t.render(suffix)),
            Ty::Option(t) => format!("Option<{}>", t.render(suffix)),
            Ty::Bson => "Bson".to_owned(),
            Ty::Document => "Document".to_owned(),
        }
    }

    /// Whether a struct written beside the model is in it (its value converts with `into`).
    pub fn holds_struct(&self) -> bool {
        match self {
            Ty::Named(_) => true,
            Ty::Vec(t) | Ty::Map(t) | Ty::Option(t) => t.holds_struct(),
            _ => false,
        }
    }
}

/// What the rule-following version (version 2) does with a field as found.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Change {
    /// Kept as it is (its structs converted).
    Keep,
    /// Text that every value read parses as `to`: version 1 reads it with `helper`, version 2 stores the value.
    FromText { to: Ty, helper: &'static str, what: &'static str },
    /// Several types: a person chooses the type (`main`, the most common, is a guess) and how each value becomes it.
    Decide { why: String, main: Option<Ty> },
    /// A counter out of step with `array`: version 2 declares it and computes it from the array.
    Recount { array: String },
}

/// Every decision of one collection's pull.
pub(super) struct Planner<'a> {
    pub structs: Vec<Struct>,
    pub uses: BTreeSet<&'static str>,
    pub notes: Vec<Note>,
    type_names: HashSet<String>,
    validator: Option<&'a Document>,
    counters: &'a [CounterPair],
    sampled: bool,
}

/// Why a path gets no Rust type of its own (it is read as `Bson`, declared `mixed`).
type Mixed = String;

impl<'a> Planner<'a> {
    pub fn new(shape: &'a Shape, validator: Option<&'a Document>, sampled: bool) -> Self {
        let mut uses = BTreeSet::new();
        uses.insert("serde");
        uses.insert("prelude");
        Planner {
            structs: Vec::new(),
            uses,
            notes: Vec::new(),
            type_names: TAKEN_TYPES.iter().map(|s| (*s).to_owned()).collect(),
            validator: validator.and_then(|v| v.get_document("$jsonSchema").ok()),
            counters: &shape.counters,
            sampled,
        }
    }

    /// The struct reading the documents at `node`'s level (`fields`); its name is reserved before the fields are
    /// planned, so the types below take other names. Fails when a key cannot be a field (rules `key-*`).
    pub fn object(
        &mut self,
        fields: &[Node<'_>],
        name: String,
        path: &str,
        doc: Vec<String>,
        model: bool,
    ) -> Result<String, Mixed> {
        if let Some(why) = fields.iter().find_map(|f| bad_key(&f.shape.key)) {
            return Err(why);
        }
        let name = unique(name, &|n| self.type_names.contains(n), "");
        self.type_names.insert(name.clone());
        let at = self.structs.len();
        self.structs.push(Struct {
            name: name.clone(),
            path: path.to_owned(),
            doc,
            comments: Vec::new(),
            odm: Vec::new(),
            model,
            fields: Vec::new(),
        });
        let mut idents: HashSet<String> = HashSet::new();
        if model {
            idents.insert("id".to_owned());
        }
        let mut planned = Vec::new();
        for node in fields {
            let mut field = self.field(node, &name, model);
            if !(model && node.shape.key == "_id") {
                field.ident = unique(field.ident, &|n| idents.contains(n), "_");
                idents.insert(field.ident.clone());
            }
            if field.ident != field.key {
                field.serde.insert(0, format!("rename = {}", quoted(&field.key)));
            }
            planned.push(field);
        }
        self.count_in_step(fields, &mut planned);
        let mut comments = Vec::new();
        let mut odm = Vec::new();
        let long: Vec<&Node<'_>> =
            fields.iter().filter(|f| f.shape.key != "_id" && f.shape.key.len() > KEY_SHORT).collect();
        if let Some(longest) = long.iter().map(|f| f.shape.key.len()).max() {
            let listed: Vec<String> =
                long.iter().map(|f| format!("{} is {} bytes", quoted(&f.shape.key), f.shape.key.len())).collect();
            let text = format!(
                "key-short: {}, over the {KEY_SHORT} the rule allows; every document stores its keys, so the \
                 rule-following version stores short ones",
                listed.join(", ")
            );
            self.note("key-short", &long[0].shape.path, &text);
            comments.push(text);
            odm.push(format!("max_key_len = {longest}"));
        }
        let entry = &mut self.structs[at];
        entry.fields = planned;
        entry.comments.extend(comments);
        entry.odm.extend(odm);
        Ok(name)
    }

    /// The model's collection attributes, first in its `#[odm(...)]`.
    pub fn collection(
        &mut self,
        collection: &str,
        name_breaks: Option<(&'static str, String)>,
        capped: Option<&Capped>,
    ) {
        let model = self.structs.iter_mut().find(|s| s.model).expect("the model is planned first");
        model.odm.insert(0, format!("collection = {}", quoted(collection)));
        if let Some(capped) = capped {
            let max = capped.max.map_or_else(String::new, |m| format!(", max = {m}"));
            model.odm.push(format!("capped(size = {}{max})", capped.size));
        }
        if let Some((rule, why)) = name_breaks {
            model.odm.insert(1, "existing_name".to_owned());
            let text = format!("{why}; the collection keeps the name it has (`existing_name`)");
            model.comments.insert(0, format!("{rule}: {text}"));
            self.notes.insert(0, Note { rule, path: String::new(), message: text });
        }
    }

    fn field(&mut self, node: &Node<'_>, owner: &str, model: bool) -> Field {
        let shape = node.shape;
        let key = shape.key.clone();
        let is_id = model && key == "_id";
        let mut field = Field {
            ident: if is_id { "id".to_owned() } else { field_ident(&key) },
            key: key.clone(),
            ty: Ty::Bson,
            comments: Vec::new(),
            serde: Vec::new(),
            odm: Vec::new(),
            change: Change::Keep,
        };
        if model && key == "id" {
            field.ident = "id_field".to_owned();
            field.odm.push("not_id".to_owned());
            self.comment(
                &mut field,
                "id-field",
                &shape.path,
                "the documents keep a second id under \"id\", beside their `_id`".to_owned(),
            );
        }
        let nulls = shape.types.iter().find(|t| t.kind == ElementType::Null).map_or(0, |t| t.count);
        let absent = shape.of.saturating_sub(shape.present);
        let hint = format!("{owner} {key}");
        let value = self.value_type(node, &key, false, false, &hint);
        let mut ty = match value {
            Ok(ty) => ty,
            Err(why) => {
                self.uses.insert("Bson");
                field.odm.push("mixed".to_owned());
                self.comment(&mut field, "type-one-bson-type", &shape.path, why.clone());
                field.change = Change::Decide { why, main: main_scalar(&shape.types) };
                Ty::Bson
            }
        };
        if is_id {
            if ty != Ty::Scalar("ObjectId") {
                field.odm.push("custom_id".to_owned());
                let kinds = kinds_list(&shape.types);
                self.comment(&mut field, "id-objectid", &shape.path, format!("the `_id`s are {kinds}, not ObjectIds"));
            }
        } else if matches!(ty, Ty::Vec(_)) {
            self.bound(node, &mut field);
        } else if ty == Ty::Scalar("String") {
            self.strings(node, &mut field);
        }
        let mixed = ty == Ty::Bson;
        let both = |n: u64, of: u64| format!("{} of {}", thousands(n), thousands(of));
        match (absent, nulls) {
            (0, 0) => {}
            // `Bson` holds `null` itself.
            (0, _) if mixed => {}
            (_, 0) => {
                ty = Ty::Option(Box::new(ty));
                field.serde.push("skip_serializing_if = \"Option::is_none\"".to_owned());
            }
            (0, n) => {
                ty = Ty::Option(Box::new(ty));
                field.odm.push("nullable".to_owned());
                let text = format!("`null` in {}: read as `None`, written as `null` (`nullable`)", both(n, shape.of));
                self.comment(&mut field, "type-option-absent", &shape.path, text);
            }
            (a, n) => {
                let kept_absent = a >= n;
                ty = Ty::Option(Box::new(ty));
                if kept_absent {
                    field.serde.push("skip_serializing_if = \"Option::is_none\"".to_owned());
                }
                if !mixed {
                    field.odm.push("nullable".to_owned());
                }
                let written = if kept_absent { "left out, as most are" } else { "written as `null`, as most are" };
                let text = format!(
                    "absent from {} and `null` in {}: both read as `None`, {written}",
                    both(a, shape.of),
                    thousands(n)
                );
                self.comment(&mut field, "type-option-absent", &shape.path, text);
            }
        }
        field.ty = ty;
        field
    }

    /// The Rust type that reads every value stored at `node`, or why none does. `null` is a value here when
    /// `null_is_value` (array elements, map values); a field's `null`s are its `Option`'s.
    fn value_type(
        &mut self,
        node: &Node<'_>,
        name: &str,
        singular: bool,
        null_is_value: bool,
        hint: &str,
    ) -> Result<Ty, Mixed> {
        let kinds: Vec<&Seen> =
            node.shape.types.iter().filter(|t| null_is_value || t.kind != ElementType::Null).collect();
        let one = match kinds.as_slice() {
            [] if node.shape.types.is_empty() => return Err("no value seen".to_owned()),
            [] => return Err("only `null` seen".to_owned()),
            [one] => one.kind,
            _ => return Err(format!("holds {}", kinds_list(&node.shape.types))),
        };
        let scalar = |s: &'static str| Ok(Ty::Scalar(s));
        match one {
            ElementType::Double => scalar("f64"),
            ElementType::String => scalar("String"),
            ElementType::Int32 => scalar("i32"),
            ElementType::Int64 => scalar("i64"),
            ElementType::Boolean => scalar("bool"),
            ElementType::DateTime => self.used("DateTime"),
            ElementType::ObjectId => self.used("ObjectId"),
            ElementType::Decimal128 => self.used("Decimal128"),
            ElementType::Binary => self.used("Binary"),
            ElementType::Timestamp => self.used("Timestamp"),
            ElementType::Array => match node.element.as_deref() {
                Some(element) if !element.shape.types.is_empty() => {
                    let inner = self.value_type(element, name, true, true, hint).map_err(|why| {
                        match why.strip_prefix("holds ") {
                            Some(kinds) => format!("an array whose elements hold {kinds}"),
                            None => format!("an array whose elements are {why}"),
                        }
                    })?;
                    Ok(Ty::Vec(Box::new(inner)))
                }
                _ => Err("only empty arrays seen, so nothing says what their elements are".to_owned()),
            },
            ElementType::EmbeddedDocument => match node.entries.as_deref() {
                Some(entries) => {
                    let value_name = format!("{} entry", singular_of(name));
                    match self.value_type(entries, &value_name, false, true, hint) {
                        Ok(inner) => {
                            self.uses.insert("IndexMap");
                            Ok(Ty::Map(Box::new(inner)))
                        }
                        Err(_) => {
                            self.uses.insert("Document");
                            Ok(Ty::Document)
                        }
                    }
                }
                None => {
                    let type_name = type_ident(name, singular);
                    let type_name =
                        if self.type_names.contains(&type_name) { type_ident(hint, singular) } else { type_name };
                    let doc = vec![format!("`{}` as stored.", node.shape.path)];
                    self.object(&node.fields, type_name, &node.shape.path, doc, false)
                        .map(Ty::Named)
                        .map_err(|why| format!("documents holding {why}"))
                }
            },
            other => Err(format!("holds {} values, which odm reads as `Bson`", type_alias(other))),
        }
    }

    fn used(&mut self, name: &'static str) -> Result<Ty, Mixed> {
        self.uses.insert(name);
        Ok(Ty::Scalar(name))
    }

    /// `max_items` from the validator's `maxItems`, or the longest array read.
    fn bound(&mut self, node: &Node<'_>, field: &mut Field) {
        let shape = node.shape;
        let Some(lengths) = &shape.arrays else { return };
        let declared =
            self.validator.and_then(|v| validator_max_items(v, &shape.path)).and_then(|n| u64::try_from(n).ok());
        let read = if self.sampled { "sampled" } else { "read" };
        let (bound, why) = match declared {
            Some(n) if n >= lengths.max => (
                n,
                format!(
                    "the live validator's `maxItems` ({}); the longest of the {} arrays {read} holds {}",
                    thousands(n),
                    thousands(lengths.count),
                    thousands(lengths.max)
                ),
            ),
            _ => (
                lengths.max,
                format!(
                    "the longest of the {} arrays {read} holds {} (95 % at most {}); raise the bound if they grow",
                    thousands(lengths.count),
                    thousands(lengths.max),
                    thousands(lengths.p95)
                ),
            ),
        };
        field.odm.push(format!("max_items = {bound}"));
        self.comment(field, "array-bound", &shape.path, why);
    }

    /// Dates and numbers written as text, and string fields named like dates.
    fn strings(&mut self, node: &Node<'_>, field: &mut Field) {
        let shape = node.shape;
        let strings = shape.types.iter().find(|t| t.kind == ElementType::String).map_or(0, |t| t.count);
        let count = |seen: &Option<Seen>| seen.as_ref().map_or(0, |s| s.count);
        let (dates, numbers, integers) =
            (count(&shape.dates_as_strings), count(&shape.numbers_as_strings), count(&shape.integers_as_strings));
        let all = |n: u64| if n == strings { "every one read" } else { "not all: a person decides" };
        if dates > 0 {
            let text = format!(
                "{} of {} values are dates written as text ({})",
                thousands(dates),
                thousands(strings),
                all(dates)
            );
            self.comment(field, "date-string", &shape.path, text);
        }
        if numbers == strings {
            let text = format!(
                "{} of {} values are numbers written as text ({})",
                thousands(numbers),
                thousands(strings),
                all(numbers)
            );
            self.comment(field, "type-number-string", &shape.path, text);
        }
        if dates == strings {
            field.change =
                Change::FromText { to: Ty::Scalar("DateTime"), helper: "odm::pull::date_from_text", what: "dates" };
        } else if numbers == strings {
            let to = Ty::Scalar(if integers == strings { "i64" } else { "f64" });
            field.change = Change::FromText { to, helper: "odm::pull::number_from_text", what: "numbers" };
        }
        if looks_like_date(&field.ident, &field.key) {
            field.odm.push("not_a_date".to_owned());
            if dates == 0 {
                let text = "named like a date, but no value read is one".to_owned();
                self.comment(field, "date-string", &shape.path, text);
            }
        }
    }

    /// `counter = "…"` on an array whose counter held its length in every document read (both always present).
    fn count_in_step(&mut self, nodes: &[Node<'_>], fields: &mut [Field]) {
        for pair in self.counters {
            let (Some(a), Some(c)) = (
                nodes.iter().position(|n| n.shape.path == pair.array),
                nodes.iter().position(|n| n.shape.path == pair.counter),
            ) else {
                continue;
            };
            let plain = |i: usize| nodes[i].shape.present == nodes[i].shape.of;
            let integer = matches!(fields[c].ty, Ty::Scalar("i32" | "i64"));
            if !plain(a) || !plain(c) || !integer {
                continue;
            }
            if pair.disagree.is_some() {
                fields[c].change = Change::Recount { array: fields[a].ident.clone() };
                continue;
            }
            if pair.agree == 0 {
                continue;
            }
            let name = fields[c].ident.clone();
            fields[a].odm.push(format!("counter = {}", quoted(&name)));
            let text = format!(
                "{} held this array's length in all {} documents read",
                quoted(&nodes[c].shape.key),
                thousands(pair.agree)
            );
            self.comment(&mut fields[a], "counter-in-step", &pair.array, text);
        }
    }

    fn comment(&mut self, field: &mut Field, rule: &'static str, path: &str, text: String) {
        field.comments.push(format!("{rule}: {text}"));
        self.notes.push(Note { rule, path: path.to_owned(), message: text });
    }

    fn note(&mut self, rule: &'static str, path: &str, text: &str) {
        self.notes.push(Note { rule, path: path.to_owned(), message: text.to_owned() });
    }
}

/// Why a key cannot be a field's stored key, if it cannot.
fn bad_key(key: &str) -> Option<String> {
    if key.is_empty() {
        Some("an empty key (rule `key-empty`)".to_owned())
    } else if key.starts_with('$') {
        Some(format!("key {} starts with `$` (rule `key-dollar`)", quoted(key)))
    } else if key.contains('.') {
        Some(format!("key {} holds `.` (rule `key-dot`)", quoted(key)))
    } else if key.contains('\0') {
        Some("a key holding NUL (rule `key-nul`)".to_owned())
    } else {
        None
    }
}

/// `int ×1,200, string ×3`.
fn kinds_list(types: &[Seen]) -> String {
    let list: Vec<String> = types.iter().map(|t| format!("{} ×{}", type_alias(t.kind), thousands(t.count))).collect();
    list.join(", ")
}

/// The Rust type of the most common stored type, when it is one a field can have.
fn main_scalar(types: &[Seen]) -> Option<Ty> {
    let main = types.iter().find(|t| t.kind != ElementType::Null)?;
    Some(Ty::Scalar(match main.kind {
        ElementType::Double => "f64",
        ElementType::String => "String",
        ElementType::Int32 => "i32",
        ElementType::Int64 => "i64",
        ElementType::Boolean => "bool",
        ElementType::DateTime => "DateTime",
        ElementType::ObjectId => "ObjectId",
        ElementType::Decimal128 => "Decimal128",
        _ => return None,
    }))
}

/// A Rust string literal.
pub(super) fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// The last word of `name` in the singular, for the values of a map (`daily` gives `daily`, `scores` `score`).
fn singular_of(name: &str) -> String {
    type_ident(name, true)
}
