//! Attribute parsing: `#[odm(...)]` (our own) and a read-only view of `#[serde(...)]` (mirrored so the stored keys
//! and presence rules match what serde writes).
//!
//! Like serde's `attr.rs`, nothing here returns `Result`: malformed, duplicate or unknown attributes are reported to
//! the [`Ctxt`] and skipped, so every problem of a type is shown in one build.

pub mod common;
pub mod concern;
pub mod index;
pub mod query;

pub use common::{closest, did_you_mean, Sp};

use common::duplicate;

use super::case::RenameRule;
use super::ctxt::Ctxt;
use super::rules::{self, Rule};
use super::symbol::{self, Symbol, *};
use common::skip_rest;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::{LitInt, LitStr, Token};

/// An attribute that may be set at most once.
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: Symbol,
    /// A mirrored serde attribute: serde itself reports duplicates, so odm stays silent.
    serde: bool,
    value: Option<Sp<T>>,
    /// Where the first copy was set (its name), for a duplicate's second error.
    first_key: TokenStream,
}

impl<'c, T> Attr<'c, T> {
    /// An `#[odm(...)]` attribute.
    fn none(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr { cx, name, serde: false, value: None, first_key: TokenStream::new() }
    }

    /// A `#[serde(...)]` attribute odm reads.
    fn serde(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr { cx, name, serde: true, value: None, first_key: TokenStream::new() }
    }

    /// Sets the value; `obj` is what later rules point at.
    fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        let tokens = obj.into_token_stream();
        self.set_at(tokens.clone(), tokens, value);
    }

    /// Sets the value; a duplicate is reported at `key` (the attribute's name), `obj` is what later rules point at.
    fn set_at<K: ToTokens, A: ToTokens>(&mut self, key: K, obj: A, value: T) {
        if self.value.is_none() {
            self.value = Some(Sp { value, tokens: obj.into_token_stream() });
            self.first_key = key.into_token_stream();
        } else if self.serde {
            self.cx.serde_rejects();
        } else {
            duplicate(self.cx, "odm attribute", self.name.as_str(), &self.first_key, key);
        }
    }

    fn get(self) -> Option<Sp<T>> {
        self.value
    }
}

/// `validation_level = "…"` / `validation_action = "…"`: one of `allowed`, or an error listing them.
fn validation_choice(cx: &Ctxt, meta: &ParseNestedMeta, attr: Symbol, allowed: &[&str]) -> Option<(LitStr, String)> {
    let l = lit_str(cx, attr, meta)?;
    let v = l.value();
    if allowed.contains(&v.as_str()) {
        return Some((l, v));
    }
    let quoted: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
    let (last, rest) = quoted.split_last().expect("choices");
    cx.error_spanned_by(
        &l,
        rules::MODEL_VALIDATION,
        format!("unknown {} `{v}`: expected {} or {last}", attr.as_str().replace('_', " "), rest.join(", ")),
    );
    None
}

fn lit_str(cx: &Ctxt, attr: Symbol, meta: &ParseNestedMeta) -> Option<LitStr> {
    let parsed = meta.value().and_then(|v| v.parse::<LitStr>());
    match parsed {
        Ok(lit) => Some(lit),
        Err(_) => {
            cx.error_spanned_by(
                &meta.path,
                rules::ATTR_SYNTAX,
                format!("expected `{attr}` to be a string: `{attr} = \"...\"`"),
            );
            skip_rest(meta);
            None
        }
    }
}

fn lit_usize(cx: &Ctxt, attr: Symbol, meta: &ParseNestedMeta) -> Option<(usize, LitInt)> {
    let parsed = meta.value().and_then(|v| v.parse::<LitInt>());
    match parsed.as_ref().map(|lit| (lit.base10_parse::<usize>(), lit)) {
        Ok((Ok(n), lit)) => Some((n, lit.clone())),
        _ => {
            cx.error_spanned_by(
                &meta.path,
                rules::ATTR_SYNTAX,
                format!("expected `{attr}` to be a non-negative integer: `{attr} = 30`"),
            );
            skip_rest(meta);
            None
        }
    }
}

/// `key = "..."` inside `#[serde(...)]`: a malformed value is serde's error to report, so odm stays silent.
fn serde_lit_str(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<LitStr> {
    match meta.value().and_then(|v| v.parse::<LitStr>()) {
        Ok(lit) => Some(lit),
        Err(_) => {
            cx.serde_rejects();
            skip_rest(meta);
            None
        }
    }
}

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: odm only needs the serialized name.
fn ser_name(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<LitStr> {
    if meta.input.peek(Token![=]) {
        return serde_lit_str(cx, meta);
    }
    let mut ser = None;
    let result = meta.parse_nested_meta(|inner| {
        if inner.path == SERIALIZE {
            ser = serde_lit_str(cx, &inner);
        } else {
            if inner.path != DESERIALIZE {
                cx.serde_rejects();
            }
            skip_rest(&inner);
        }
        Ok(())
    });
    if result.is_err() {
        cx.serde_rejects();
    }
    ser
}

/// `rename_all = "..."`; an unknown rule is serde's error to report.
fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<Sp<RenameRule>> {
    let lit = ser_name(cx, meta)?;
    match RenameRule::from_str(&lit.value()) {
        Some(rule) => Some(Sp { value: rule, tokens: lit.into_token_stream() }),
        None => {
            cx.serde_rejects();
            None
        }
    }
}

/// The literal and string of an attribute written exactly `#[…(key = "value")]`, read straight from its three
/// tokens. Most serde attributes on stored fields are a lone `rename`; syn's meta parser costs several times more for
/// them, for every field of every derived type. A plain string (no escapes, no raw string, no suffix) is read off its
/// text; anything else goes through syn's literal parser.
fn lone_str(attr: &syn::Attribute, key: Symbol) -> Option<(proc_macro2::Literal, String)> {
    use proc_macro2::TokenTree;
    let syn::Meta::List(list) = &attr.meta else { return None };
    let mut tokens = list.tokens.clone().into_iter();
    let (Some(TokenTree::Ident(k)), Some(TokenTree::Punct(eq)), Some(TokenTree::Literal(lit)), None) =
        (tokens.next(), tokens.next(), tokens.next(), tokens.next())
    else {
        return None;
    };
    if k != key || eq.as_char() != '=' {
        return None;
    }
    let text = lit.to_string();
    if let Some(plain) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if !plain.contains(['\\', '"']) {
            let value = plain.to_owned();
            return Some((lit, value));
        }
    }
    match syn::Lit::new(lit.clone()) {
        syn::Lit::Str(s) if s.suffix().is_empty() => Some((lit, s.value())),
        _ => None,
    }
}

/// Parses every `#[name(...)]` attribute in `attrs` with `f`, reporting parse errors and moving on.
fn each_nested<'a>(
    cx: &Ctxt,
    attrs: impl IntoIterator<Item = &'a syn::Attribute>,
    name: Symbol,
    mut f: impl FnMut(&ParseNestedMeta),
) {
    for attr in attrs.into_iter().filter(|a| a.path() == name) {
        if let syn::Meta::List(list) = &attr.meta {
            if list.tokens.is_empty() {
                continue;
            }
        }
        let result = attr.parse_nested_meta(|meta| {
            f(&meta);
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
}

fn unknown(cx: &Ctxt, meta: &ParseNestedMeta, what: &str, known: &[Symbol]) {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    let hint = did_you_mean(&name, symbol::names(known));
    let expected = symbol::quoted(known);
    cx.error_spanned_by(
        &meta.path,
        rules::ATTR_UNKNOWN,
        format!("unknown {what} attribute `{name}`{hint}: expected one of {expected}"),
    );
    skip_rest(meta);
}

/// A serde attribute odm does not know: its effect on the stored document is unknown, so it is refused.
fn unknown_serde(cx: &Ctxt, meta: &ParseNestedMeta, what: &str) {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(
        &meta.path,
        rules::SERDE_UNKNOWN,
        format!("unknown serde {what} attribute `{name}`: odm cannot tell what it does to the stored document"),
    );
    cx.serde_rejects();
    skip_rest(meta);
}

/// A serde attribute odm cannot mirror: refused rather than silently misread.
fn refuse_serde(cx: &Ctxt, meta: &ParseNestedMeta, rule: Rule, why: &str) {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(&meta.path, rule, format!("`#[serde({name})]` is not supported by odm: {why}"));
    skip_rest(meta);
}

/// Attributes on the struct or enum.
pub struct Container {
    // odm
    pub collection: Option<Sp<String>>,
    pub db: Option<Sp<String>>,
    pub module: Option<Sp<String>>,
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
    /// `#[odm(query(...))]`: declared access patterns.
    pub queries: Vec<query::QueryAttr>,
    /// `#[odm(shard_key = "region, customer")]`: the shard key's fields, in order.
    pub shard_key: Option<Sp<String>>,
    /// `#[odm(scatter = "warn")]`: what single-document operations that would reach every shard do.
    pub scatter: Option<Sp<String>>,
    /// `#[odm(version = N)]`: the model's schema version.
    pub version: Option<Sp<usize>>,
    /// `#[odm(older(V1, V2))]`: the types of the older versions it reads, oldest first.
    pub older: Option<Sp<Vec<syn::Type>>>,
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
    SHARD_KEY,
    SCATTER,
    VERSION,
    OLDER,
];

impl Container {
    pub fn from_ast(cx: &Ctxt, input: &syn::DeriveInput) -> Self {
        let mut collection = Attr::none(cx, COLLECTION);
        let mut db = Attr::none(cx, DB);
        let mut module = Attr::none(cx, MODULE);
        let mut max_key_len = Attr::none(cx, MAX_KEY_LEN);
        let mut closed = Attr::none(cx, CLOSED);
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
        let mut shard_key = Attr::none(cx, SHARD_KEY);
        let mut scatter = Attr::none(cx, SCATTER);
        let mut version = Attr::none(cx, VERSION);
        let mut older = Attr::none(cx, OLDER);
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
            shard_key: shard_key.get(),
            scatter: scatter.get(),
            version: version.get(),
            older: older.get(),
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

/// Attributes on a field (of a struct or of a struct variant).
pub struct Field {
    // odm
    pub max_items: Option<Sp<usize>>,
    pub min_items: Option<Sp<usize>>,
    pub unbounded: Option<Sp<()>>,
    pub counter: Option<Sp<String>>,
    pub nullable: Option<Sp<()>>,
    pub mixed: Option<Sp<()>>,
    pub not_a_date: Option<Sp<()>>,
    pub bson_type: Option<Sp<String>>,
    pub custom_id: Option<Sp<()>>,
    pub max_len: Option<Sp<usize>>,
    pub min_len: Option<Sp<usize>>,
    /// Pushes keep only the last `max_items` elements (`$slice`), instead of being refused past the bound.
    pub keep_last: Option<Sp<()>>,
    /// `#[odm(revision)]`: the model's revision, guarded and bumped by odm's writes (optimistic concurrency).
    pub revision: Option<Sp<()>>,
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
    MAX_ITEMS, MIN_ITEMS, UNBOUNDED, COUNTER, NULLABLE, MIXED, NOT_A_DATE, BSON_TYPE, CUSTOM_ID, MAX_LEN, MIN_LEN,
    KEEP_LAST, REVISION,
];

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut max_items = Attr::none(cx, MAX_ITEMS);
        let mut min_items = Attr::none(cx, MIN_ITEMS);
        let mut unbounded = Attr::none(cx, UNBOUNDED);
        let mut counter = Attr::none(cx, COUNTER);
        let mut nullable = Attr::none(cx, NULLABLE);
        let mut mixed = Attr::none(cx, MIXED);
        let mut not_a_date = Attr::none(cx, NOT_A_DATE);
        let mut bson_type = Attr::none(cx, BSON_TYPE);
        let mut custom_id = Attr::none(cx, CUSTOM_ID);
        let mut max_len = Attr::none(cx, MAX_LEN);
        let mut min_len = Attr::none(cx, MIN_LEN);
        let mut keep_last = Attr::none(cx, KEEP_LAST);
        let mut revision = Attr::none(cx, REVISION);
        let mut unknown_odm = false;
        each_nested(cx, attrs, ODM, |meta| {
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
            } else if k == KEEP_LAST {
                flag(&mut keep_last);
            } else if k == REVISION {
                flag(&mut revision);
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
        for attr in attrs {
            match (attr.path() == SERDE).then(|| lone_str(attr, RENAME)).flatten() {
                Some((l, value)) => rename.set(&l, value),
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
        each_nested(cx, attrs, SERDE_AS, |meta| {
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
            nullable: nullable.get(),
            mixed: mixed.get(),
            not_a_date: not_a_date.get(),
            bson_type: bson_type.get(),
            custom_id: custom_id.get(),
            max_len: max_len.get(),
            min_len: min_len.get(),
            keep_last: keep_last.get(),
            revision: revision.get(),
            rename: rename.get(),
            skip_serializing: skip_serializing.get(),
            skip_serializing_if: skip_serializing_if.get(),
            converter,
            serialize_fn,
            unknown_odm,
        }
    }
}

/// Attributes on an enum variant.
pub struct Variant {
    pub rename: Option<Sp<String>>,
    pub rename_all: Option<Sp<RenameRule>>,
    pub skip: bool,
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut rename = Attr::serde(cx, RENAME);
        let mut rename_all = Attr::serde(cx, RENAME_ALL);
        let mut skip = false;
        each_nested(cx, attrs, ODM, |meta| {
            cx.error_spanned_by(
                &meta.path,
                rules::ATTR_UNKNOWN,
                "odm has no attributes for enum variants: put `#[odm(...)]` on the enum or on a variant's fields",
            );
            skip_rest(meta);
        });
        each_nested(cx, attrs, SERDE, |meta| {
            let k = Name::of(&meta.path);
            if k == RENAME {
                if let Some(l) = ser_name(cx, meta) {
                    rename.set(&l, l.value());
                }
            } else if k == RENAME_ALL {
                if let Some(r) = rename_rule(cx, meta) {
                    rename_all.set(r.tokens, r.value);
                }
            } else if k == SKIP || k == SKIP_SERIALIZING {
                skip = true;
            } else if k == UNTAGGED {
                refuse_serde(
                    cx,
                    meta,
                    rules::ENUM_TAGGED,
                    "an untagged variant is written without its tag, so the validator cannot tell it apart",
                );
            } else if k == WITH || k == SERIALIZE_WITH {
                refuse_serde(cx, meta, rules::SERDE_UNSUPPORTED, "odm cannot see what this variant writes");
            } else if [ALIAS, OTHER, SKIP_DESERIALIZING, DESERIALIZE_WITH, BORROW, BOUND].iter().any(|w| k == *w) {
                skip_rest(meta);
            } else {
                unknown_serde(cx, meta, "variant");
            }
        });
        Variant { rename: rename.get(), rename_all: rename_all.get(), skip }
    }
}

/// Doc comments joined into one description (for the validator's `description`).
pub fn doc_comment(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if attr.path() != DOC {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
                lines.push(s.value().trim().to_owned());
            }
        }
    }
    let text = lines.join(" ").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(attr: syn::Attribute) -> Option<String> {
        lone_str(&attr, RENAME).map(|(_, v)| v)
    }

    #[test]
    fn a_lone_string_is_read_off_its_text_or_through_syn() {
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "lc")])).as_deref(), Some("lc"));
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "é")])).as_deref(), Some("é"));
        // Escapes and raw strings are unescaped by syn.
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "a\"b")])).as_deref(), Some("a\"b"));
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "a\x62")])).as_deref(), Some("ab"));
        assert_eq!(value(syn::parse_quote!(#[serde(rename = r"raw")])).as_deref(), Some("raw"));
        // Anything but a lone plain string goes to the full parser.
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "x"sfx)])), None);
        assert_eq!(value(syn::parse_quote!(#[serde(rename = b"x")])), None);
        assert_eq!(value(syn::parse_quote!(#[serde(rename = 1)])), None);
        assert_eq!(value(syn::parse_quote!(#[serde(alias = "x")])), None);
        assert_eq!(value(syn::parse_quote!(#[serde(rename = "x", alias = "y")])), None);
    }
}
