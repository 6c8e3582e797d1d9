//! Rule 1: database, collection and key names (seed 001 §1–2, §3(1); reference/mongodb.md §1).

use super::ast::{Container, Derive};
use super::ctxt::Ctxt;
use proc_macro2::TokenStream;

/// Longest database name in bytes (the server rejects 64 and more).
pub const MAX_DB_LEN: usize = 63;
/// Longest `<db>.<collection>` in bytes, per the seed's naming rule (stricter than the server's 255).
pub const MAX_NS_LEN: usize = 64;

fn charset_error(what: &str, name: &str) -> Option<String> {
    if name.is_empty() {
        return Some(format!("{what} name is empty"));
    }
    if let Some(bad) = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')) {
        let hint =
            if bad.is_ascii_uppercase() { format!(": use `{}`", name.to_ascii_lowercase()) } else { String::new() };
        return Some(format!(
            "{what} name `{name}` contains `{bad}`; {what} names are lowercase letters, digits and `_` only (seed 001 §1–2){hint}"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(format!("{what} name `{name}` must start with a lowercase letter"));
    }
    None
}

pub fn check_container_names(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    // A bad database name is reported once, not again as part of a too-long namespace.
    let mut db_ok = true;
    if let Some(db) = &a.db {
        if let Some(msg) = charset_error("database", &db.value) {
            cx.error_spanned_by(db, msg);
            db_ok = false;
        } else if db.value.len() > MAX_DB_LEN {
            cx.error_spanned_by(
                db,
                format!(
                    "database name `{}` is {} bytes; the limit is {MAX_DB_LEN}: shorten it",
                    db.value,
                    db.value.len()
                ),
            );
            db_ok = false;
        }
    }
    let Some(coll) = &a.collection else {
        if cont.derive == Derive::Model {
            cx.error_spanned_by(
                cont.ident,
                "a model needs its collection name: add `#[odm(collection = \"module_table\")]` (lowercase, `_` only)",
            );
        }
        return;
    };
    let name = &coll.value;
    if let Some(msg) = charset_error("collection", name) {
        cx.error_spanned_by(coll, msg);
        return;
    }
    if name.split('_').next() == Some("system") {
        cx.error_spanned_by(
            coll,
            format!(
                "collection name `{name}` starts with `system`, the prefix of the server's own `system.*` collections \
                 (seed 001 §2); choose another name"
            ),
        );
    }
    let ns_len = a.db.as_ref().map_or(0, |d| d.value.len() + 1) + name.len();
    if ns_len > MAX_NS_LEN && db_ok {
        let ns = a.db.as_ref().map_or_else(|| name.clone(), |d| format!("{}.{}", d.value, name));
        cx.error_spanned_by(
            coll,
            format!(
                "namespace `{ns}` is {ns_len} bytes; the limit is {MAX_NS_LEN} including the `db.` prefix \
                 (seed 001 §2(3)): shorten the collection name"
            ),
        );
    }
    // Module conventions (seed 001 §2(4)): <module>_<table>, base_<module>_<table>, log_<module>_<table>.
    if let Some(module) = &a.module {
        if let Some(msg) = charset_error("module", &module.value) {
            cx.error_spanned_by(module, msg);
            return;
        }
        let m = &module.value;
        let ok = [format!("{m}_"), format!("base_{m}_"), format!("log_{m}_")]
            .iter()
            .any(|prefix| name.starts_with(prefix.as_str()) && name.len() > prefix.len());
        if !ok {
            cx.error_spanned_by(
                coll,
                format!(
                    "collection `{name}` does not follow the module convention: expected `{m}_<table>` (data), \
                     `base_{m}_<table>` (code table) or `log_{m}_<table>` (log table)"
                ),
            );
        }
    } else {
        for kind in ["base", "log"] {
            if let Some(rest) = name.strip_prefix(kind).and_then(|r| r.strip_prefix('_')) {
                let parts: Vec<&str> = rest.split('_').collect();
                if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
                    cx.error_spanned_by(
                        coll,
                        format!("collection `{name}` starts with `{kind}_` but is not `{kind}_<module>_<table>` (seed 001 §2(4))"),
                    );
                }
            }
        }
    }
    if name.contains("__") || name.ends_with('_') {
        cx.error_spanned_by(coll, format!("collection name `{name}` has an empty part between underscores"));
    }
}

/// Field keys: no leading `$`, no `.`, no NUL, not empty, and within the short-key limit.
/// Checks a stored key; `attr` is the serde attribute that sets it (`rename`, `tag`, `content`), for the fix.
pub fn check_key(cx: &Ctxt, key: &str, tokens: &TokenStream, attr: &str, limit: usize, custom_limit: bool) {
    if key.is_empty() {
        cx.error_spanned_by(tokens, "stored key is empty; MongoDB cannot query an empty field name");
        return;
    }
    if key.starts_with('$') {
        cx.error_spanned_by(
            tokens,
            format!(
                "stored key `{key}` starts with `$`, which MongoDB reserves for operators (seed 001 §3(1)); rename it"
            ),
        );
    }
    if key.contains('.') {
        cx.error_spanned_by(
            tokens,
            format!(
                "stored key `{key}` contains `.`, which MongoDB reads as a path separator (seed 001 §3(1)); rename it"
            ),
        );
    }
    if key.contains('\0') {
        cx.error_spanned_by(tokens, "stored key contains a NUL character, which BSON keys cannot hold");
    }
    if key != "_id" && key.len() > limit {
        let how = if custom_limit { "" } else { ", or raise the limit with `#[odm(max_key_len = N)]` on the type" };
        cx.error_spanned_by(
            tokens,
            format!(
                "stored key `{key}` is {} bytes, over the short-key limit of {limit} (seed 001 §3(3): every document \
                 stores its keys); declare a short key with `#[serde({attr} = \"{}\")]`{how}",
                key.len(),
                suggest_short(key, limit)
            ),
        );
    }
}

/// A suggestion for a short key: the initials of the words.
fn suggest_short(key: &str, limit: usize) -> String {
    let initials: String = key.split(['_', '-']).filter_map(|w| w.chars().next()).collect();
    let short: String = if initials.len() >= 2 { initials.to_ascii_lowercase() } else { key.chars().take(3).collect() };
    short.chars().take(limit.max(1)).collect()
}
