//! The source text of a pulled module, formatted as rustfmt formats it (100 columns, attributes wrapped one item
//! per line when they do not fit), so the file can be committed as written.

use super::names::{module_ident, thousands, type_ident};
use super::plan::{quoted, Planner, Struct};
use super::report::{PulledModel, Unpullable};
use super::tree;
use crate::base::introspect::Shape;
use crate::base::model::Capped;
use bson::Document;
use std::fmt::Write;

/// rustfmt's default line width.
const WIDTH: usize = 100;

/// What `ModelWriter` was given.
pub(super) struct Input<'a> {
    pub collection: &'a str,
    pub shape: &'a Shape,
    pub database: Option<&'a str>,
    pub validator: Option<&'a Document>,
    pub capped: Option<Capped>,
    pub sampled: bool,
}

pub(super) fn module(writer: &Input<'_>) -> Result<PulledModel, Unpullable> {
    let shape = writer.shape;
    let roots = tree::build(shape);
    let mut planner = Planner::new(shape, writer.validator, writer.sampled);
    let namespace = match writer.database {
        Some(db) => format!("{db}.{}", writer.collection),
        None => writer.collection.to_owned(),
    };
    let read = if writer.sampled {
        format!("a sample of {} documents", thousands(shape.documents))
    } else {
        format!("{} documents (every one)", thousands(shape.documents))
    };
    let doc = vec![format!("A document of `{namespace}` as found.")];
    let model = planner
        .object(&roots, type_ident(writer.collection, true), doc, true)
        .map_err(|reason| Unpullable { collection: writer.collection.to_owned(), reason })?;
    planner.collection(writer.collection, name_breaks(writer.collection), writer.capped.as_ref());

    let mut out = String::new();
    let header = format!(
        "`{namespace}` as found: pulled by odm from {read}. Each type reads the documents as they are stored; \
         where the data breaks one of odm's rules, the field says which, with the numbers, and carries the opt-out \
         the rule allows."
    );
    push_wrapped(&mut out, "//! ", &header);
    out.push('\n');
    uses(&mut out, &planner);
    for s in &planner.structs {
        out.push('\n');
        write_struct(&mut out, s);
    }
    let embedded = planner.structs.iter().filter(|s| !s.model).map(|s| s.name.clone()).collect();
    Ok(PulledModel {
        collection: writer.collection.to_owned(),
        module: module_ident(writer.collection),
        model,
        documents: shape.documents,
        embedded,
        source: out,
        notes: planner.notes,
    })
}

fn uses(out: &mut String, planner: &Planner<'_>) {
    // rustfmt's order inside braces: lowercase paths first, then the rest, each alphabetically.
    let mut bson: Vec<&str> = Vec::new();
    if planner.uses.contains("ObjectId") {
        bson.push("oid::ObjectId");
    }
    for name in ["Binary", "Bson", "DateTime", "Decimal128", "Document", "Timestamp"] {
        if planner.uses.contains(name) {
            bson.push(name);
        }
    }
    match bson.as_slice() {
        [] => {}
        [one] => {
            let _ = writeln!(out, "use odm::bson::{one};");
        }
        many => {
            let _ = writeln!(out, "use odm::bson::{{{}}};", many.join(", "));
        }
    }
    if planner.uses.contains("IndexMap") {
        out.push_str("use odm::indexmap::IndexMap;\n");
    }
    out.push_str("use odm::prelude::*;\nuse serde::{Deserialize, Serialize};\n");
}

fn write_struct(out: &mut String, s: &Struct) {
    for line in &s.doc {
        push_wrapped(out, "/// ", line);
    }
    for comment in &s.comments {
        push_wrapped(out, "// ", comment);
    }
    let derive = if s.model { "Model" } else { "Embedded" };
    let _ = writeln!(out, "#[derive({derive}, Serialize, Deserialize, Debug, Clone, PartialEq)]");
    if !s.odm.is_empty() {
        push_attribute(out, "", "odm", &s.odm);
    }
    if s.fields.is_empty() {
        let _ = writeln!(out, "pub struct {} {{}}", s.name);
        return;
    }
    let _ = writeln!(out, "pub struct {} {{", s.name);
    for (i, field) in s.fields.iter().enumerate() {
        if i > 0 && !field.comments.is_empty() {
            out.push('\n');
        }
        for comment in &field.comments {
            push_wrapped(out, "    // ", comment);
        }
        if !field.serde.is_empty() {
            push_attribute(out, "    ", "serde", &field.serde);
        }
        if !field.odm.is_empty() {
            push_attribute(out, "    ", "odm", &field.odm);
        }
        let _ = writeln!(out, "    pub {}: {},", field.ident, field.ty);
    }
    out.push_str("}\n");
}

/// `#[name(a, b)]` on one line when it fits, else one item per line as rustfmt writes it.
fn push_attribute(out: &mut String, indent: &str, name: &str, items: &[String]) {
    let line = format!("{indent}#[{name}({})]", items.join(", "));
    if line.len() <= WIDTH {
        out.push_str(&line);
        out.push('\n');
        return;
    }
    let _ = writeln!(out, "{indent}#[{name}(");
    for (i, item) in items.iter().enumerate() {
        let comma = if i + 1 < items.len() { "," } else { "" };
        let _ = writeln!(out, "{indent}    {item}{comma}");
    }
    let _ = writeln!(out, "{indent})]");
}

/// `text` as comment lines of at most [`WIDTH`] columns, broken between words.
fn push_wrapped(out: &mut String, prefix: &str, text: &str) {
    let mut line = String::from(prefix);
    for word in text.split_whitespace() {
        if line.len() > prefix.len() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(prefix);
        }
        if line.len() > prefix.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The naming rule a collection's name breaks, as the derive checks it for a model without `db` or `module`, with
/// what it says: such a model keeps the name with `existing_name`.
fn name_breaks(name: &str) -> Option<(&'static str, String)> {
    let charset = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_');
    if !charset {
        return Some((
            "name-case",
            format!(
                "the collection's name {} is not lowercase letters, digits and `_` starting with a letter",
                quoted(name)
            ),
        ));
    }
    if name.split('_').next() == Some("system") {
        return Some(("name-system", format!("the collection's name {} starts with `system`", quoted(name))));
    }
    if name.len() > 64 {
        return Some((
            "name-length",
            format!("the collection's name {} is {} bytes, over 64", quoted(name), name.len()),
        ));
    }
    for kind in ["base", "log"] {
        if let Some(rest) = name.strip_prefix(kind).and_then(|r| r.strip_prefix('_')) {
            let parts: Vec<&str> = rest.split('_').collect();
            if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
                return Some((
                    "name-module",
                    format!(
                        "the collection's name {} starts with `{kind}_` but is not `{kind}_<module>_<table>`",
                        quoted(name)
                    ),
                ));
            }
        }
    }
    if name.contains("__") || name.ends_with('_') {
        return Some((
            "name-case",
            format!("the collection's name {} has an empty part between underscores", quoted(name)),
        ));
    }
    None
}
