//! Attributes on a field (of a struct or of a struct variant).

use super::common::{duplicate, skip_rest, Sp};
use super::values::*;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self};
use crate::internals::symbol::{Symbol, *};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::LitStr;

/// Attributes on a field (of a struct or of a struct variant).
pub struct Field {
    // odm
    pub max_items: Option<Sp<usize>>,
    pub min_items: Option<Sp<usize>>,
    pub unbounded: Option<Sp<()>>,
    pub counter: Option<Sp<String>>,
    /// `sum`, `min` or `max = "array.field"`: the field holds that aggregate of an array of the same struct, each
    /// declared one kept (a field declaring two is refused by `computed-field`).
    pub computed: Vec<(Symbol, Sp<String>)>,
    pub nullable: Option<Sp<()>>,
    pub mixed: Option<Sp<()>>,
    pub not_a_date: Option<Sp<()>>,
    pub bson_type: Option<Sp<String>>,
    pub custom_id: Option<Sp<()>>,
    /// `#[odm(not_id)]`: a model's field named or stored as `id` that is deliberately not its `_id` (rule `id-field`).
    pub not_id: Option<Sp<()>>,
    pub max_len: Option<Sp<usize>>,
    pub min_len: Option<Sp<usize>>,
    /// Pushes keep only the last `max_items` elements (`$slice`), instead of being refused past the bound.
    pub keep_last: Option<Sp<()>>,
    /// `#[odm(unique_items)]`: the array is a set (`uniqueItems`); typed updates add to it with `add_to_set` only,
    /// and a counted set takes `pull` of one value.
    pub unique_items: Option<Sp<()>>,
    /// `#[odm(revision)]`: the model's revision, guarded and bumped by odm's writes (optimistic concurrency).
    pub revision: Option<Sp<()>>,
    /// `#[odm(overflow(model = "…", owner = "…"))]`: the subset pattern, where elements a `keep_last` push cuts
    /// live on in another model's collection.
    pub overflow: Option<super::copies::CopiesAttr>,
    // serde
    pub rename: Option<Sp<String>>,
    pub skip_serializing: Option<Sp<()>>,
    pub skip_serializing_if: Option<Sp<String>>,
    /// `with` / `serialize_with` / `serde_as(as = ..)`: the converter decides the stored type.
    pub converter: Option<Sp<String>>,
    /// The function serde serializes the field with, when a converter is declared (`m::serialize`, `f`).
    pub serialize_fn: Option<String>,
    /// An unknown `#[odm(...)]` key was reported: perhaps a misspelt opt-in (`unbound`, `nulable`), so the rules
    /// that such an attribute would satisfy stay quiet for this field instead of piling on follow-on errors.
    pub unknown_odm: bool,
}

const ODM_FIELD: &[Symbol] = &[
    MAX_ITEMS,
    MIN_ITEMS,
    UNBOUNDED,
    COUNTER,
    SUM,
    MIN,
    MAX,
    NULLABLE,
    MIXED,
    NOT_A_DATE,
    BSON_TYPE,
    CUSTOM_ID,
    NOT_ID,
    MAX_LEN,
    MIN_LEN,
    KEEP_LAST,
    UNIQUE_ITEMS,
    REVISION,
    OVERFLOW,
];

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        // Each attribute's name read once: comparing a path with a name is a round trip to the compiler, and the
        // parsers below would each compare every attribute of every field.
        let (mut odm_attrs, mut serde_attrs, mut serde_as_attrs) = (Vec::new(), Vec::new(), Vec::new());
        for attr in attrs {
            let name = Name::of(attr.path());
            if name == ODM {
                odm_attrs.push(attr);
            } else if name == SERDE {
                serde_attrs.push(attr);
            } else if name == SERDE_AS {
                serde_as_attrs.push(attr);
            }
        }
        let mut max_items = Attr::none(cx, MAX_ITEMS);
        let mut min_items = Attr::none(cx, MIN_ITEMS);
        let mut unbounded = Attr::none(cx, UNBOUNDED);
        let mut counter = Attr::none(cx, COUNTER);
        let mut computed = Vec::new();
        let mut nullable = Attr::none(cx, NULLABLE);
        let mut mixed = Attr::none(cx, MIXED);
        let mut not_a_date = Attr::none(cx, NOT_A_DATE);
        let mut bson_type = Attr::none(cx, BSON_TYPE);
        let mut custom_id = Attr::none(cx, CUSTOM_ID);
        let mut not_id = Attr::none(cx, NOT_ID);
        let mut max_len = Attr::none(cx, MAX_LEN);
        let mut min_len = Attr::none(cx, MIN_LEN);
        let mut keep_last = Attr::none(cx, KEEP_LAST);
        let mut unique_items = Attr::none(cx, UNIQUE_ITEMS);
        let mut revision = Attr::none(cx, REVISION);
        let mut overflow: Option<super::copies::CopiesAttr> = None;
        let mut unknown_odm = false;
        each_nested(cx, odm_attrs, ODM, |meta| {
            let (p, k) = (&meta.path, Name::of(&meta.path));
            let flag = |a: &mut Attr<'_, ()>| a.set(p, ());
            if k == MAX_ITEMS {
                if let Some((n, l)) = lit_usize(cx, MAX_ITEMS, meta) {
                    max_items.set_at(p, &l, n);
                }
            } else if k == MIN_ITEMS {
                if let Some((n, l)) = lit_usize(cx, MIN_ITEMS, meta) {
                    min_items.set_at(p, &l, n);
                }
            } else if k == MAX_LEN {
                if let Some((n, l)) = lit_usize(cx, MAX_LEN, meta) {
                    max_len.set_at(p, &l, n);
                }
            } else if k == MIN_LEN {
                if let Some((n, l)) = lit_usize(cx, MIN_LEN, meta) {
                    min_len.set_at(p, &l, n);
                }
            } else if k == COUNTER {
                if let Some(l) = lit_str(cx, COUNTER, meta) {
                    counter.set_at(p, &l, l.value());
                }
            } else if let Some(aggregate) = [SUM, MIN, MAX].into_iter().find(|s| k == *s) {
                if let Some(l) = lit_str(cx, aggregate, meta) {
                    computed.push((aggregate, Sp { value: l.value(), tokens: l.into_token_stream() }));
                }
            } else if k == BSON_TYPE {
                if let Some(l) = lit_str(cx, BSON_TYPE, meta) {
                    bson_type.set_at(p, &l, l.value());
                }
            } else if k == UNBOUNDED {
                flag(&mut unbounded);
            } else if k == NULLABLE {
                flag(&mut nullable);
            } else if k == MIXED {
                flag(&mut mixed);
            } else if k == NOT_A_DATE {
                flag(&mut not_a_date);
            } else if k == CUSTOM_ID {
                flag(&mut custom_id);
            } else if k == NOT_ID {
                flag(&mut not_id);
            } else if k == KEEP_LAST {
                flag(&mut keep_last);
            } else if k == UNIQUE_ITEMS {
                flag(&mut unique_items);
            } else if k == REVISION {
                flag(&mut revision);
            } else if k == OVERFLOW {
                match &overflow {
                    Some(first) => duplicate(cx, "odm attribute", OVERFLOW.as_str(), &first.tokens, p),
                    None => overflow = Some(super::copies::parse_overflow(cx, meta)),
                }
            } else {
                unknown_odm = true;
                unknown(cx, meta, "odm field", ODM_FIELD);
            }
        });

        let mut rename = Attr::serde(cx, RENAME);
        let mut skip_serializing = Attr::serde(cx, SKIP_SERIALIZING);
        let mut skip_serializing_if = Attr::serde(cx, SKIP_SERIALIZING_IF);
        let mut converter = Attr::serde(cx, WITH);
        let mut serialize_fn = None;
        let mut rest = Vec::with_capacity(attrs.len());
        // Plain `rename` and `skip_serializing_if` strings off the tokens; anything else through syn.
        for attr in serde_attrs {
            let plain = str_entries(attr)
                .filter(|entries| entries.iter().all(|(k, ..)| k == RENAME || k == SKIP_SERIALIZING_IF));
            match plain {
                Some(entries) => {
                    for (k, l, value) in entries {
                        if k == RENAME {
                            rename.set(&l, value);
                        } else {
                            skip_serializing_if.set(&l, value);
                        }
                    }
                }
                None => rest.push(attr),
            }
        }
        each_nested(cx, rest, SERDE, |meta| {
            let (p, k) = (&meta.path, Name::of(&meta.path));
            if k == RENAME {
                if let Some(l) = ser_name(cx, meta) {
                    rename.set(&l, l.value());
                }
            } else if k == SKIP || k == SKIP_SERIALIZING {
                skip_serializing.set(p, ());
            } else if k == SKIP_SERIALIZING_IF {
                if let Some(l) = serde_lit_str(cx, meta) {
                    skip_serializing_if.set(&l, l.value());
                }
            } else if k == WITH || k == SERIALIZE_WITH {
                if let Some(l) = serde_lit_str(cx, meta) {
                    serialize_fn = Some(if k == WITH { format!("{}::serialize", l.value()) } else { l.value() });
                    converter.set(&l, l.value());
                }
            } else if k == FLATTEN {
                refuse_serde(
                    cx,
                    meta, rules::SERDE_UNSUPPORTED,
                    "flattened fields hide their keys from the derive, so key rules and the validator cannot see them; \
                     embed the struct as a field instead",
                );
            } else if k == GETTER {
                refuse_serde(cx, meta, rules::SERDE_UNSUPPORTED, "remote derives are not stored models");
            } else if [ALIAS, DEFAULT, SKIP_DESERIALIZING, DESERIALIZE_WITH, BORROW, BOUND].iter().any(|w| k == *w) {
                // Reading-side only: the stored document is unchanged.
                skip_rest(meta);
            } else {
                unknown_serde(cx, meta, "field");
            }
        });
        // `#[serde_with::serde_as]` rewrites `#[serde_as(as = "T")]` into `#[serde(with = "::serde_with::As::<T>")]`
        // and keeps the original (with `as` made raw: `r#as`). The original is what the user wrote, so rules name it
        // and point at it. serde_with reports its own malformed attributes.
        let mut serde_as = None;
        each_nested(cx, serde_as_attrs, SERDE_AS, |meta| {
            let key = meta.path.get_ident().map(|i| i.unraw().to_string());
            if key.as_deref().is_some_and(|k| k == AS || k == SERIALIZE_AS) {
                match meta.value().and_then(|v| v.parse::<LitStr>()) {
                    Ok(l) => serde_as = Some(l),
                    Err(_) => skip_rest(meta),
                }
            } else {
                skip_rest(meta);
            }
        });
        let converter = match serde_as {
            Some(l) => Some(Sp { value: l.value(), tokens: l.into_token_stream() }),
            None => converter.get(),
        };

        Field {
            max_items: max_items.get(),
            min_items: min_items.get(),
            unbounded: unbounded.get(),
            counter: counter.get(),
            computed,
            nullable: nullable.get(),
            mixed: mixed.get(),
            not_a_date: not_a_date.get(),
            bson_type: bson_type.get(),
            custom_id: custom_id.get(),
            not_id: not_id.get(),
            max_len: max_len.get(),
            min_len: min_len.get(),
            keep_last: keep_last.get(),
            unique_items: unique_items.get(),
            revision: revision.get(),
            overflow,
            rename: rename.get(),
            skip_serializing: skip_serializing.get(),
            skip_serializing_if: skip_serializing_if.get(),
            converter,
            serialize_fn,
            unknown_odm,
        }
    }
}
