//! The source text of a pulled module, formatted as rustfmt formats it (100 columns, attributes wrapped one item
//! per line when they do not fit), so the file can be committed as written.

use super::layout::{push_wrapped, uses, write_struct, Shown, ShownField};
use super::names::{module_ident, thousands, type_ident};
use super::plan::{quoted, Change, Planner, Struct, Ty};
use super::report::{PulledModel, Unpullable};
use super::{tree, versioned};
use crate::base::introspect::Shape;
use crate::base::model::Capped;
use bson::Document;

/// What `ModelWriter` was given.
pub(super) struct Input<'a> {
    pub collection: &'a str,
    pub shape: &'a Shape,
    pub database: Option<&'a str>,
    pub validator: Option<&'a Document>,
    pub capped: Option<Capped>,
    pub sampled: bool,
    pub versioned: bool,
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
    let model =
        planner.object(&roots, type_ident(writer.collection, true), "", doc, true).map_err(|why| Unpullable {
            collection: writer.collection.to_owned(),
            reason: format!("its documents hold {why}; rename the key in the data first"),
        })?;
    planner.collection(writer.collection, name_breaks(writer.collection), writer.capped.as_ref());

    let mut out = String::new();
    if writer.versioned {
        if planner.structs[0].fields.iter().any(|f| f.key == "_v") {
            let reason = "its documents hold a key `_v` already, the key of a versioned model's version".to_owned();
            return Err(Unpullable { collection: writer.collection.to_owned(), reason });
        }
        versioned::header(&mut out, &namespace, &read);
        out.push('\n');
        // Version 2 names the types its parsed and chosen fields take.
        for f in planner.structs.iter().flat_map(|s| &s.fields) {
            if let Change::FromText { to: Ty::Scalar(name), .. } | Change::Decide { main: Some(Ty::Scalar(name)), .. } =
                &f.change
            {
                if matches!(*name, "DateTime" | "ObjectId" | "Decimal128") {
                    planner.uses.insert(name);
                }
            }
        }
        uses(&mut out, &planner);
        let (v2, v1) = versioned::structs(&planner.structs, &namespace);
        for s in v2.iter().chain(&v1) {
            out.push('\n');
            write_struct(&mut out, s);
        }
        versioned::steps(&mut out, &planner.structs);
        return Ok(finish(writer, model, out, planner));
    }
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
        write_struct(&mut out, &as_found(s));
    }
    Ok(finish(writer, model, out, planner))
}

fn finish(writer: &Input<'_>, model: String, source: String, planner: Planner<'_>) -> PulledModel {
    let embedded = planner.structs.iter().filter(|s| !s.model).map(|s| s.name.clone()).collect();
    PulledModel {
        collection: writer.collection.to_owned(),
        module: module_ident(writer.collection),
        model,
        documents: writer.shape.documents,
        embedded,
        source,
        notes: planner.notes,
    }
}

/// A planned struct as found.
fn as_found(s: &Struct) -> Shown {
    Shown {
        name: s.name.clone(),
        doc: s.doc.clone(),
        comments: s.comments.clone(),
        derive: if s.model { "Model" } else { "Embedded" },
        odm: s.odm.clone(),
        fields: s
            .fields
            .iter()
            .map(|f| ShownField {
                ident: f.ident.clone(),
                ty: f.ty.render(""),
                comments: f.comments.clone(),
                serde: f.serde.clone(),
                odm: f.odm.clone(),
            })
            .collect(),
    }
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
