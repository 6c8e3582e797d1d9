//! Database, collection, module and key names (the `name-*` and `key-*` rules).

use crate::internals::ast::{Container, Derive};
use crate::internals::attr::common::Sp;
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::Resolved;
use crate::internals::rules::{self, Rule};
use crate::internals::symbol::{Symbol, COLLECTION, DATABASE, MODULE};
use proc_macro2::TokenStream;

/// Longest database name in bytes (the server rejects 64 and more).
pub const MAX_DB_LEN: usize = 63;
/// Longest `<db>.<collection>` in bytes (stricter than the server's 255, so names stay readable in every tool).
pub const MAX_NS_LEN: usize = 64;
/// The collections odm keeps in each database it syncs (the runtime's `METADATA_COLLECTIONS`; a test in `tests/ui.rs`
/// compares the two lists).
pub const ODM_OWN: [&str; 2] = ["odm_index", "odm_sync_lock"];
/// Longest namespace the server itself takes, in bytes: the bound on a name kept with `existing_name`.
const MAX_SERVER_NS_LEN: usize = 255;

/// The charset rule shared by database, collection, module and index names. On a breach the message suggests a
/// name: `fix` gets the name in snake_case and returns what to suggest, a name every other rule accepts too (or
/// `None`), so the hint is never a name the derive would refuse in turn. A snake_case name passes this rule, so a
/// `fix` that checks its candidate by calling back here does not recurse further.
pub fn charset_error(what: &str, name: &str, fix: &dyn Fn(String) -> Option<String>) -> Option<String> {
    if name.is_empty() {
        return Some(format!("{what} name is empty"));
    }
    let hint = || snake_case(name).and_then(fix).map_or_else(String::new, |s| format!(": use `{s}`"));
    if let Some(bad) = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')) {
        return Some(format!(
            "{what} name `{name}` contains `{bad}`; {what} names are lowercase letters, digits and `_` only{}",
            hint()
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(format!("{what} name `{name}` must start with a lowercase letter{}", hint()));
    }
    None
}

/// `name` in snake_case: `OrderHeader`, `orderHeader`, `order-header` and `order.header` give `order_header`, and
/// `HTTPLog` gives `http_log` (a capital starts a word after a lowercase letter or digit, or before a lowercase
/// letter). ASCII punctuation and spaces separate words; `None` when a character has no such spelling or the
/// result does not start with a letter, since then only the user can choose the name.
pub fn snake_case(name: &str) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            let prev = if i > 0 { chars[i - 1] } else { ' ' };
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            let starts_word = c.is_ascii_uppercase()
                && (prev.is_ascii_lowercase() || prev.is_ascii_digit() || (prev.is_ascii_uppercase() && next_lower));
            if starts_word && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_punctuation() || c.is_whitespace() {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
        } else {
            return None;
        }
    }
    let out = out.trim_end_matches('_');
    out.starts_with(|c: char| c.is_ascii_lowercase()).then(|| out.to_owned())
}

/// The problem with a database name, if any, and the rule it breaks.
fn db_problem(db: &str) -> Option<(Rule, String)> {
    if let Some(msg) = charset_error(DATABASE.as_str(), db, &|s| db_problem(&s).is_none().then_some(s)) {
        return Some((rules::NAME_CASE, msg));
    }
    (db.len() > MAX_DB_LEN).then(|| {
        (
            rules::NAME_LENGTH,
            format!("database name `{db}` is {} bytes; the limit is {MAX_DB_LEN}: shorten it", db.len()),
        )
    })
}

/// The module a collection declares (`#[odm(module = "..")]`), as far as its naming conventions go.
#[derive(Clone, Copy)]
enum Module<'a> {
    None,
    Valid(&'a str),
    /// Reported on its own: no convention is checked against it.
    Invalid,
}

/// The naming rules a collection name breaks, given its database (when valid) and module, with their messages.
fn collection_problems(name: &str, db: Option<&str>, module: Module) -> Vec<(Rule, String)> {
    // `OrderHeader` in module `shop` is `shop_order_header`.
    let fix = |s: String| {
        let prefixed = match module {
            Module::Valid(m) if !s.starts_with(&format!("{m}_")) => Some(format!("{m}_{s}")),
            _ => None,
        };
        [Some(s), prefixed].into_iter().flatten().find(|c| collection_problems(c, db, module).is_empty())
    };
    if let Some(msg) = charset_error(COLLECTION.as_str(), name, &fix) {
        return vec![(rules::NAME_CASE, msg)];
    }
    let mut out = Vec::new();
    if ODM_OWN.contains(&name) {
        out.push((
            rules::NAME_SYSTEM,
            format!(
                "collection name `{name}` is one of odm's own collections (which indexes a sync created, the sync's \
                 lease), kept in every database odm syncs; choose another name"
            ),
        ));
    }
    if name.split('_').next() == Some("system") {
        out.push((
            rules::NAME_SYSTEM,
            format!(
                "collection name `{name}` starts with `system`, the prefix of the server's own `system.*` \
                 collections; choose another name"
            ),
        ));
    }
    let ns_len = db.map_or(0, |d| d.len() + 1) + name.len();
    if ns_len > MAX_NS_LEN {
        let ns = db.map_or_else(|| name.to_owned(), |d| format!("{d}.{name}"));
        out.push((
            rules::NAME_LENGTH,
            format!(
                "namespace `{ns}` is {ns_len} bytes; the limit is {MAX_NS_LEN} including the `db.` prefix: shorten \
                 the collection name"
            ),
        ));
    }
    match module {
        // Module conventions: <module>_<table>, base_<module>_<table> (code tables), log_<module>_<table> (logs).
        Module::Valid(m) => {
            let ok = [format!("{m}_"), format!("base_{m}_"), format!("log_{m}_")]
                .iter()
                .any(|prefix| name.starts_with(prefix.as_str()) && name.len() > prefix.len());
            if !ok {
                out.push((
                    rules::NAME_MODULE,
                    format!(
                        "collection `{name}` does not follow the module convention: expected `{m}_<table>` (data), \
                         `base_{m}_<table>` (code table) or `log_{m}_<table>` (log table)"
                    ),
                ));
            }
        }
        Module::None => {
            for kind in ["base", "log"] {
                if let Some(rest) = name.strip_prefix(kind).and_then(|r| r.strip_prefix('_')) {
                    let parts: Vec<&str> = rest.split('_').collect();
                    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
                        out.push((
                            rules::NAME_MODULE,
                            format!("collection `{name}` starts with `{kind}_` but is not `{kind}_<module>_<table>`"),
                        ));
                    }
                }
            }
        }
        Module::Invalid => return out,
    }
    if name.contains("__") || name.ends_with('_') {
        out.push((rules::NAME_CASE, format!("collection name `{name}` has an empty part between underscores")));
    }
    out
}

pub fn check_container_names(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    let a = &cont.attrs;
    // A bad database name is reported once, not again as part of a too-long namespace.
    let mut db = None;
    if let Some(d) = &a.db {
        match db_problem(&d.value) {
            Some((rule, msg)) => cx.error_spanned_by(d, rule, msg),
            None => db = Some(d.value.as_str()),
        }
    }
    let module = match &a.module {
        None => Module::None,
        Some(m) => match charset_error(MODULE.as_str(), &m.value, &Some) {
            Some(msg) => {
                cx.error_spanned_by(m, rules::NAME_CASE, msg);
                Module::Invalid
            }
            None => Module::Valid(&m.value),
        },
    };
    let Some(coll) = &a.collection else {
        if cont.derive == Derive::Model {
            cx.error_spanned_by(
                cont.ident,
                rules::NAME_COLLECTION,
                "a model needs its collection name: add `#[odm(collection = \"module_table\")]` (lowercase, `_` only)",
            );
        }
        return;
    };
    // A template is checked as the name of one of its instances (`log_app_event_202612`), and named as written.
    let template = match &resolved.template {
        Ok(t) => t.as_ref(),
        Err(msg) => {
            cx.error_spanned_by(coll, rules::NAME_TEMPLATE, msg);
            return;
        }
    };
    let name = template.map_or(coll.value.as_str(), |t| t.sample.as_str());
    if let Some(existing) = &a.existing_name {
        check_existing_name(cx, coll, existing, name, db, module, template.is_some());
        return;
    }
    for (rule, msg) in collection_problems(name, db, module) {
        let msg = match template {
            Some(t) => in_template_terms(&msg, name, t),
            None => msg,
        };
        cx.error_spanned_by(coll, rule, msg);
    }
    if let Some(keep) = &a.keep_periods {
        if !template.is_some_and(|t| t.is_period()) {
            cx.error_spanned_by(
                keep,
                rules::NAME_TEMPLATE,
                "`keep_periods` drops whole expired periods of a collection per period: name the collection with a \
                 period placeholder (`{yyyy}`, `{yyyymm}` or `{yyyymmdd}`), e.g. `log_app_event_{yyyymm}`",
            );
        } else if keep.value > u32::MAX as usize {
            cx.error_spanned_by(keep, rules::NAME_TEMPLATE, "`keep_periods` is at most 4294967295");
        } else if keep.value == 0 {
            cx.error_spanned_by(
                keep,
                rules::NAME_TEMPLATE,
                "`keep_periods = 0` would drop the current period too: keep at least 1",
            );
        }
    }
}

/// `#[odm(existing_name)]`: a collection that already exists keeps its name, whatever rules the name breaks, as long
/// as the server can hold it; the attribute must excuse something, so it is never left on a name that needs none.
fn check_existing_name(
    cx: &Ctxt,
    coll: &Sp<String>,
    existing: &Sp<()>,
    name: &str,
    db: Option<&str>,
    module: Module,
    template: bool,
) {
    if template {
        cx.error_spanned_by(
            existing,
            rules::NAME_TEMPLATE,
            "`existing_name` keeps the name of one collection that already exists; a collection named at run time \
             (a template) makes new ones: remove `existing_name` and follow the naming rules",
        );
        return;
    }
    let server_refuses = if name.is_empty() {
        Some("is empty".to_owned())
    } else if let Some(bad) = name.chars().find(|c| matches!(c, '$' | '\0')) {
        Some(format!("contains `{}`", bad.escape_default()))
    } else if name.starts_with("system.") {
        Some("starts with `system.`, which the server keeps for its own collections".to_owned())
    } else if db.map_or(0, |d| d.len() + 1) + name.len() > MAX_SERVER_NS_LEN {
        Some(format!("makes a namespace over the server's {MAX_SERVER_NS_LEN} bytes"))
    } else {
        None
    };
    if ODM_OWN.contains(&name) {
        // What the rules say of it, which no exemption lifts: the collection is odm's, not a model's.
        for (rule, msg) in collection_problems(name, db, module).into_iter().filter(|(r, _)| *r == rules::NAME_SYSTEM) {
            cx.error_spanned_by(coll, rule, msg);
        }
    } else if let Some(why) = server_refuses {
        cx.error_spanned_by(
            coll,
            rules::NAME_CASE,
            format!(
                "collection name `{name}` {why}: no server holds such a collection, so it cannot be an existing name"
            ),
        );
    } else if collection_problems(name, db, module).is_empty() {
        cx.error_spanned_by(
            existing,
            rules::NAME_CASE,
            format!(
                "collection name `{name}` follows the naming rules: `existing_name`, which exempts a collection that \
                 already exists under another name, excuses nothing here; remove it"
            ),
        );
    }
}

/// A message about a template's sample instance (`Shop_order_a`), in the template's terms: the name as written
/// with the instance it was checked as, and a suggested name (`shop_order_a`) as a template again
/// (`shop_order_{name}`).
fn in_template_terms(msg: &str, sample: &str, t: &crate::internals::resolve::template::Template) -> String {
    let tail = format!("{}{}", &t.sample[t.prefix.len()..t.sample.len() - t.suffix.len()], t.suffix);
    let parts: Vec<String> = msg
        .split('`')
        .enumerate()
        .map(|(i, part)| match part.strip_suffix(&tail) {
            // Inside backticks, a name: the sample itself, or a suggestion ending as the sample does.
            Some(head) if i % 2 == 1 => {
                let template = format!("{head}{}{}", t.placeholder, t.suffix);
                if part == sample {
                    format!("{template}` (as `{sample}")
                } else {
                    template
                }
            }
            _ => part.to_owned(),
        })
        .collect();
    parts.join("`").replace(&format!("(as `{sample}`"), &format!("(as `{sample}`)"))
}

/// Field keys: no leading `$`, no `.`, no NUL, not empty, and within the short-key limit.
/// Checks a stored key; `attr` is the serde attribute that sets it (`rename`, `tag`, `content`), for the fix.
pub fn check_key(cx: &Ctxt, key: &str, tokens: &TokenStream, attr: Symbol, limit: usize, custom_limit: bool) {
    if key.is_empty() {
        cx.error_spanned_by(tokens, rules::KEY_EMPTY, "stored key is empty; MongoDB cannot query an empty field name");
        return;
    }
    if key.starts_with('$') {
        cx.error_spanned_by(
            tokens,
            rules::KEY_DOLLAR,
            format!("stored key `{key}` starts with `$`, which MongoDB reserves for operators; rename it"),
        );
    }
    if key.contains('.') {
        cx.error_spanned_by(
            tokens,
            rules::KEY_DOT,
            format!("stored key `{key}` contains `.`, which MongoDB reads as a path separator; rename it"),
        );
    }
    if key.contains('\0') {
        cx.error_spanned_by(tokens, rules::KEY_NUL, "stored key contains a NUL character, which BSON keys cannot hold");
    }
    if key != "_id" && key.len() > limit {
        let how = if custom_limit { "" } else { ", or raise the limit with `#[odm(max_key_len = N)]` on the type" };
        cx.error_spanned_by(
            tokens,
            rules::KEY_SHORT,
            format!(
                "stored key `{key}` is {} bytes, over the short-key limit of {limit} (every document stores its \
                 keys); declare a short key with `#[serde({attr} = \"{}\")]`{how}",
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

#[cfg(test)]
mod tests {
    use super::{collection_problems, db_problem, snake_case, Module};

    #[test]
    fn snake_case_splits_words() {
        for (name, snake) in [
            ("OrderHeader", "order_header"),
            ("orderHeader", "order_header"),
            ("order_Header", "order_header"),
            ("HTTPLog", "http_log"),
            ("myHTTPServer", "my_http_server"),
            ("Order2Header", "order2_header"),
            ("Order-Header", "order_header"),
            ("order.header", "order_header"),
            ("order header", "order_header"),
            ("Order__Header_", "order_header"),
            ("_Orders", "orders"),
            ("Shop", "shop"),
        ] {
            assert_eq!(snake_case(name).as_deref(), Some(snake), "{name}");
        }
    }

    #[test]
    fn snake_case_gives_up_when_only_the_user_can_choose() {
        assert_eq!(snake_case("Commandé"), None);
        assert_eq!(snake_case("2FA"), None);
        assert_eq!(snake_case("--"), None);
    }

    #[test]
    fn the_suggestion_passes_every_rule() {
        let problems = |name| collection_problems(name, None, Module::None);
        assert!(problems("OrderHeader")[0].1.ends_with(": use `order_header`"));
        // `system_log` is refused in turn, so nothing is suggested.
        assert!(problems("SystemLog")[0].1.ends_with("only"));
        let in_shop = collection_problems("OrderHeader", None, Module::Valid("shop"));
        assert!(in_shop[0].1.ends_with(": use `shop_order_header`"), "{in_shop:?}");
        let long_db = "d".repeat(50);
        let with_db = collection_problems("OrderHeaderLines", Some(&long_db), Module::None);
        assert!(with_db[0].1.ends_with("only"), "namespace too long: {with_db:?}");
        assert!(db_problem("ShopDb").unwrap().1.ends_with(": use `shop_db`"));
    }
}
