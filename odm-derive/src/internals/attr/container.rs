//! Attributes on the struct or enum: `#[odm(...)]` settings of the collection, and the serde ones that change the
//! stored keys of every field.

use super::common::{skip_rest, Sp};
use super::values::*;
use super::{common::duplicate, concern, index, query};
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self};
use crate::internals::symbol::{Symbol, *};
use proc_macro2::TokenStream;
use quote::ToTokens;

/// Attributes on the struct or enum.
pub struct Container {
    // odm
    pub collection: Option<Sp<String>>,
    pub db: Option<Sp<String>>,
    pub module: Option<Sp<String>>,
    /// `#[odm(existing_name)]`: the collection's name is the one it already has, kept outside the naming rules.
    pub existing_name: Option<Sp<()>>,
    pub max_key_len: Option<Sp<usize>>,
    pub closed: Option<Sp<()>>,
    /// `#[odm(open)]`: this type stays open even inside a closed document.
    pub open: Option<Sp<()>>,
    pub validation_level: Option<Sp<String>>,
    pub validation_action: Option<Sp<String>>,
    pub read_concern: Option<Sp<String>>,
    pub read_preference: Option<Sp<String>>,
    pub write_concern: Option<concern::WriteConcernAttr>,
    pub crate_path: Option<syn::Path>,
    // serde
    /// The container's serialized name: what serde writes as a struct's `tag` value.
    pub rename: Option<Sp<String>>,
    pub rename_all: Option<Sp<RenameRule>>,
    pub rename_all_fields: Option<Sp<RenameRule>>,
    pub tag: Option<Sp<String>>,
    pub content: Option<Sp<String>>,
    pub transparent: Option<Sp<()>>,
    /// `#[serde(untagged)]` was given (and refused); the enum rules skip their follow-on "needs a tag" errors.
    pub untagged: bool,
    /// `#[odm(index(...))]`, in declaration order.
    pub indexes: Vec<index::IndexAttr>,
    /// `#[odm(capped(...))]`.
    pub capped: Option<index::CappedAttr>,
    /// `#[odm(max_indexes = N)]`: the ceiling on declared indexes (default 3).
    pub max_indexes: Option<Sp<usize>>,
    /// `#[odm(keep_periods = N)]`: how many periods of a per-period collection a retention keeps.
    pub keep_periods: Option<Sp<usize>>,
    /// `#[odm(copies(model = "…", by = "…"))]`: an extended reference.
    pub copies: Option<super::copies::CopiesAttr>,
    /// `#[odm(query(...))]`: declared access patterns.
    pub queries: Vec<query::QueryAttr>,
    /// `#[odm(shard_key = "region, customer")]`: the shard key's fields, in order.
    pub shard_key: Option<Sp<String>>,
    /// `#[odm(scatter = "warn")]`: what single-document operations that would reach every shard do.
    pub scatter: Option<Sp<String>>,
    /// `#[odm(size_budget = "warn")]`: a model whose worst-case document is over 16 MiB is reported by sync instead
    /// of refused (`"refuse"`, the default).
    pub size_budget: Option<Sp<String>>,
    /// `#[odm(version = N)]`: the model's schema version.
    pub version: Option<Sp<usize>>,
    /// `#[odm(older(V1, V2))]`: the types of the older versions it reads, oldest first.
    pub older: Option<Sp<Vec<syn::Type>>>,
    /// `#[odm(bucket(key = "…", items = "…"))]`: a bucket of readings.
    pub bucket: Option<super::series::BucketAttr>,
    /// `#[odm(timeseries(time = "…", …))]`: a time-series collection.
    pub timeseries: Option<super::series::TimeseriesAttr>,
}

/// The types of `older(V1, V2, …)`.
fn older_types(meta: &syn::meta::ParseNestedMeta) -> syn::Result<Vec<syn::Type>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let types = syn::punctuated::Punctuated::<syn::Type, syn::Token![,]>::parse_terminated(&content)?;
    Ok(types.into_iter().collect())
}

const ODM_CONTAINER: &[Symbol] = &[
    COLLECTION,
    DB,
    MODULE,
    EXISTING_NAME,
    MAX_KEY_LEN,
    CLOSED,
    OPEN,
    VALIDATION_LEVEL,
    VALIDATION_ACTION,
    READ_CONCERN,
    WRITE_CONCERN,
    READ_PREFERENCE,
    CRATE,
    INDEX,
    QUERY,
    CAPPED,
    MAX_INDEXES,
    KEEP_PERIODS,
    COPIES,
    SHARD_KEY,
    SCATTER,
    SIZE_BUDGET,
    VERSION,
    OLDER,
    BUCKET,
    TIMESERIES,
];

impl Container {
    pub fn from_ast(cx: &Ctxt, input: &syn::DeriveInput) -> Self {
        let mut collection = Attr::none(cx, COLLECTION);
        let mut db = Attr::none(cx, DB);
        let mut module = Attr::none(cx, MODULE);
        let mut max_key_len = Attr::none(cx, MAX_KEY_LEN);
        let mut closed = Attr::none(cx, CLOSED);
        let mut existing_name = Attr::none(cx, EXISTING_NAME);
        let mut open = Attr::none(cx, OPEN);
        let mut level = Attr::none(cx, VALIDATION_LEVEL);
        let mut action = Attr::none(cx, VALIDATION_ACTION);
        let mut read_concern = Attr::none(cx, READ_CONCERN);
        let mut read_preference = Attr::none(cx, READ_PREFERENCE);
        let mut write_concern = None;
        let mut crate_path = Attr::none(cx, CRATE);
        let mut indexes = Vec::new();
        let mut queries = Vec::new();
        let mut capped = None;
        let mut capped_at: Option<TokenStream> = None;
        let mut write_concern_at: Option<TokenStream> = None;
        let mut max_indexes = Attr::none(cx, MAX_INDEXES);
        let mut keep_periods = Attr::none(cx, KEEP_PERIODS);
        let mut copies: Option<super::copies::CopiesAttr> = None;
        let mut shard_key = Attr::none(cx, SHARD_KEY);
        let mut scatter = Attr::none(cx, SCATTER);
        let mut size_budget = Attr::none(cx, SIZE_BUDGET);
        let mut version = Attr::none(cx, VERSION);
        let mut older = Attr::none(cx, OLDER);
        let mut bucket: Option<super::series::BucketAttr> = None;
        let mut timeseries: Option<super::series::TimeseriesAttr> = None;
        each_nested(cx, &input.attrs, ODM, |meta| {
            let (p, k) = (&meta.path, Name::of(&meta.path));
            if k == VERSION {
                if let Some((n, l)) = lit_usize(cx, VERSION, meta) {
                    version.set_at(p, &l, n);
                }
            } else if k == OLDER {
                match older_types(meta) {
                    Ok(types) => older.set(p, types),
                    Err(e) => cx.syn_error(e),
                }
            } else if k == BUCKET {
                if let Some(first) = &bucket {
                    duplicate(cx, "odm attribute", BUCKET.as_str(), &first.tokens, p);
                }
                bucket = Some(super::series::parse_bucket(cx, meta));
            } else if k == TIMESERIES {
                if let Some(first) = &timeseries {
                    duplicate(cx, "odm attribute", TIMESERIES.as_str(), &first.tokens, p);
                }
                timeseries = Some(super::series::parse_timeseries(cx, meta));
            } else if k == SHARD_KEY {
                if let Some(l) = lit_str(cx, SHARD_KEY, meta) {
                    shard_key.set_at(p, &l, l.value());
                }
            } else if k == SCATTER {
                if let Some(l) = lit_str(cx, SCATTER, meta) {
                    let v = l.value();
                    if ["refuse", "warn", "allow"].contains(&v.as_str()) {
                        scatter.set_at(p, &l, v);
                    } else {
                        cx.error_spanned_by(
                            &l,
                            rules::SHARD_SCATTER,
                            format!("unknown scatter policy `{v}`: expected `refuse` (the default), `warn` or `allow`"),
                        );
                    }
                }
            } else if k == SIZE_BUDGET {
                if let Some(l) = lit_str(cx, SIZE_BUDGET, meta) {
                    let v = l.value();
                    if ["refuse", "warn"].contains(&v.as_str()) {
                        size_budget.set_at(p, &l, v);
                    } else {
                        cx.error_spanned_by(
                            &l,
                            rules::MODEL_SIZE,
                            format!(
                                "unknown size budget policy `{v}`: expected `refuse` (the default: a model whose \
                                 worst-case document is over 16 MiB does not compile) or `warn` (sync reports it)"
                            ),
                        );
                    }
                }
            } else if k == QUERY {
                queries.push(query::parse_query(cx, meta));
            } else if k == INDEX {
                indexes.push(index::parse_index(cx, meta));
            } else if k == CAPPED {
                match &capped_at {
                    Some(first) => duplicate(cx, "odm attribute", CAPPED.as_str(), first, p),
                    None => capped_at = Some(p.to_token_stream()),
                }
                capped = Some(index::parse_capped(cx, meta));
            } else if k == MAX_INDEXES {
                if let Some((n, l)) = lit_usize(cx, MAX_INDEXES, meta) {
                    max_indexes.set_at(p, &l, n);
                }
            } else if k == COPIES {
                if let Some(first) = &copies {
                    duplicate(cx, "odm attribute", COPIES.as_str(), &first.tokens, p);
                }
                copies = Some(super::copies::parse_copies(cx, meta));
            } else if k == KEEP_PERIODS {
                if let Some((n, l)) = lit_usize(cx, KEEP_PERIODS, meta) {
                    keep_periods.set_at(p, &l, n);
                }
            } else if k == COLLECTION {
                if let Some(l) = lit_str(cx, COLLECTION, meta) {
                    collection.set_at(p, &l, l.value());
                }
            } else if k == DB || k == DATABASE {
                if let Some(l) = lit_str(cx, DB, meta) {
                    db.set_at(p, &l, l.value());
                }
            } else if k == MODULE {
                if let Some(l) = lit_str(cx, MODULE, meta) {
                    module.set_at(p, &l, l.value());
                }
            } else if k == MAX_KEY_LEN {
                if let Some((n, l)) = lit_usize(cx, MAX_KEY_LEN, meta) {
                    max_key_len.set_at(p, &l, n);
                }
            } else if k == CLOSED {
                closed.set(p, ());
            } else if k == EXISTING_NAME {
                existing_name.set(p, ());
            } else if k == OPEN {
                open.set(p, ());
            } else if k == VALIDATION_LEVEL {
                if let Some((l, v)) = validation_choice(cx, meta, VALIDATION_LEVEL, &["strict", "moderate", "off"]) {
                    level.set_at(p, &l, v);
                }
            } else if k == VALIDATION_ACTION {
                if let Some((l, v)) = validation_choice(cx, meta, VALIDATION_ACTION, &["error", "warn", "errorAndLog"])
                {
                    action.set_at(p, &l, v);
                }
            } else if k == READ_CONCERN {
                if let Some(v) = concern::parse_choice(cx, meta, READ_CONCERN, concern::READ_CONCERNS) {
                    read_concern.set_at(p, v.tokens, v.value);
                }
            } else if k == READ_PREFERENCE {
                if let Some(v) = concern::parse_choice(cx, meta, READ_PREFERENCE, concern::READ_PREFERENCES) {
                    read_preference.set_at(p, v.tokens, v.value);
                }
            } else if k == WRITE_CONCERN {
                match &write_concern_at {
                    Some(first) => duplicate(cx, "odm attribute", WRITE_CONCERN.as_str(), first, p),
                    None => write_concern_at = Some(p.to_token_stream()),
                }
                write_concern = Some(concern::parse_write_concern(cx, meta));
            } else if k == CRATE {
                if let Some(l) = lit_str(cx, CRATE, meta) {
                    match l.parse::<syn::Path>() {
                        Ok(path) => crate_path.set_at(p, &l, path),
                        Err(_) => cx.error_spanned_by(&l, rules::ATTR_SYNTAX, "expected a path: `crate = \"::odm\"`"),
                    }
                }
            } else {
                unknown(cx, meta, "odm container", ODM_CONTAINER);
            }
        });

        let mut rename = Attr::serde(cx, RENAME);
        let mut rename_all = Attr::serde(cx, RENAME_ALL);
        let mut rename_all_fields = Attr::serde(cx, RENAME_ALL_FIELDS);
        let mut tag = Attr::serde(cx, TAG);
        let mut content = Attr::serde(cx, CONTENT);
        let mut transparent = Attr::serde(cx, TRANSPARENT);
        let mut untagged = false;
        each_nested(cx, &input.attrs, SERDE, |meta| {
            let (p, k) = (&meta.path, Name::of(&meta.path));
            if k == RENAME {
                if let Some(l) = ser_name(cx, meta) {
                    rename.set(&l, l.value());
                }
            } else if k == RENAME_ALL {
                if let Some(r) = rename_rule(cx, meta) {
                    rename_all.set(r.tokens, r.value);
                }
            } else if k == RENAME_ALL_FIELDS {
                if let Some(r) = rename_rule(cx, meta) {
                    rename_all_fields.set(r.tokens, r.value);
                }
            } else if k == TAG {
                if let Some(l) = serde_lit_str(cx, meta) {
                    tag.set(&l, l.value());
                }
            } else if k == CONTENT {
                if let Some(l) = serde_lit_str(cx, meta) {
                    content.set(&l, l.value());
                }
            } else if k == TRANSPARENT {
                transparent.set(p, ());
            } else if k == UNTAGGED {
                untagged = true;
                refuse_serde(
                    cx,
                    meta,
                    rules::ENUM_TAGGED,
                    "an untagged enum stores several BSON shapes in one field; \
                     use `#[serde(tag = \"t\")]` so each variant is told apart by its tag",
                );
            } else if [INTO, REMOTE].iter().any(|w| k == *w) {
                refuse_serde(
                    cx,
                    meta,
                    rules::SERDE_UNSUPPORTED,
                    "serialization then writes the proxy type, whose shape odm cannot see, so it cannot generate a \
                     validator that matches it (`from`/`try_from` are fine: they change only deserialization)",
                );
            } else if k == FIELD_IDENTIFIER || k == VARIANT_IDENTIFIER {
                refuse_serde(cx, meta, rules::SERDE_UNSUPPORTED, "identifier enums are not stored values");
            } else if [DENY_UNKNOWN_FIELDS, DEFAULT, BOUND, CRATE, EXPECTING, FROM, TRY_FROM].iter().any(|w| k == *w) {
                // These change neither the stored keys nor what serialization writes (`from`/`try_from` only
                // change how a stored document is read: a migration on read).
                skip_rest(meta);
            } else {
                let name = p.to_token_stream().to_string().replace(' ', "");
                cx.error_spanned_by(
                    p, rules::SERDE_UNKNOWN,
                    format!("unknown serde container attribute `{name}`: odm cannot tell what it does to the stored document"),
                );
                cx.serde_rejects();
                skip_rest(meta);
            }
        });

        Container {
            collection: collection.get(),
            db: db.get(),
            module: module.get(),
            max_key_len: max_key_len.get(),
            closed: closed.get(),
            existing_name: existing_name.get(),
            open: open.get(),
            validation_level: level.get(),
            validation_action: action.get(),
            read_concern: read_concern.get(),
            read_preference: read_preference.get(),
            write_concern,
            crate_path: crate_path.get().map(|s| s.value),
            indexes,
            capped,
            max_indexes: max_indexes.get(),
            keep_periods: keep_periods.get(),
            copies,
            shard_key: shard_key.get(),
            scatter: scatter.get(),
            size_budget: size_budget.get(),
            version: version.get(),
            older: older.get(),
            bucket,
            timeseries,
            queries,
            rename: rename.get(),
            rename_all: rename_all.get(),
            rename_all_fields: rename_all_fields.get(),
            tag: tag.get(),
            content: content.get(),
            transparent: transparent.get(),
            untagged,
        }
    }
}
