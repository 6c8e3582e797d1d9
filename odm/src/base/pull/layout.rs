//! Writing Rust as rustfmt formats it (100 columns; an attribute that does not fit, one item per line; comments
//! broken between words), so a pulled file can be committed as written.

use super::plan::Planner;
use std::fmt::Write;

/// rustfmt's default line width.
pub(super) const WIDTH: usize = 100;
/// rustfmt's `attr_fn_like_width`: an attribute whose arguments take more goes one argument per line.
const ATTR_FN_LIKE_WIDTH: usize = 70;

pub(super) fn uses(out: &mut String, planner: &Planner<'_>) {
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

/// A struct as it is written: its name, comments and attributes, and its fields'.
pub(super) struct Shown {
    pub name: String,
    pub doc: Vec<String>,
    pub comments: Vec<String>,
    pub derive: &'static str,
    pub odm: Vec<String>,
    pub fields: Vec<ShownField>,
}

/// A field as it is written.
pub(super) struct ShownField {
    pub ident: String,
    pub ty: String,
    pub comments: Vec<String>,
    pub serde: Vec<String>,
    pub odm: Vec<String>,
}

pub(super) fn write_struct(out: &mut String, s: &Shown) {
    for line in &s.doc {
        push_wrapped(out, "/// ", line);
    }
    for comment in &s.comments {
        push_wrapped(out, "// ", comment);
    }
    let _ = writeln!(out, "#[derive({}, Serialize, Deserialize, Debug, Clone, PartialEq)]", s.derive);
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
        let line = format!("    pub {}: {},", field.ident, field.ty);
        if line.len() <= WIDTH {
            let _ = writeln!(out, "{line}");
        } else {
            let _ = writeln!(out, "    pub {}:\n        {},", field.ident, field.ty);
        }
    }
    out.push_str("}\n");
}

/// `#[name(a, b)]` on one line when it fits, else one item per line as rustfmt writes it.
pub(super) fn push_attribute(out: &mut String, indent: &str, name: &str, items: &[String]) {
    let args = items.join(", ");
    let line = format!("{indent}#[{name}({args})]");
    if line.len() <= WIDTH && args.len() <= ATTR_FN_LIKE_WIDTH {
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
pub(super) fn push_wrapped(out: &mut String, prefix: &str, text: &str) {
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
