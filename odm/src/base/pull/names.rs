//! Rust names for stored names: fields from keys, types from keys and collections, modules from collections. Each
//! name is a plain identifier a person would write (`theaterId` is `theater_id`, `items[]` holds `Item`), never a
//! raw identifier, and a name taken twice in one scope gets a number.

/// Keywords a field cannot be named (strict and reserved, 2021 edition and later).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
    "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Type names a generated module already uses (its imports and the prelude's), which a struct must not shadow.
pub(super) const TAKEN_TYPES: &[&str] = &[
    "Binary",
    "Bson",
    "IndexMap",
    "DateTime",
    "Decimal128",
    "Deserialize",
    "Document",
    "Embedded",
    "Model",
    "ObjectId",
    "Serialize",
    "Timestamp",
    "Box",
    "Option",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Self",
];

/// The words of a stored name: split at `_`, `-`, `.`, spaces and other punctuation, and where a capital starts a
/// word (`theaterId`, `HTTPLog`); only ASCII letters and digits are kept.
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = if i > 0 { chars[i - 1] } else { ' ' };
        let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        let starts = c.is_ascii_uppercase()
            && (prev.is_ascii_lowercase() || prev.is_ascii_digit() || (prev.is_ascii_uppercase() && next_lower));
        if starts && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A field's name for a stored key: snake_case, with `type` as `kind`, another keyword followed by `_`, and a name
/// that would start with a digit (or has no ASCII letter) prefixed with `field_`.
pub(super) fn field_ident(key: &str) -> String {
    let snake = words(key).join("_");
    if snake == "type" {
        return "kind".to_owned();
    }
    if KEYWORDS.contains(&snake.as_str()) {
        return format!("{snake}_");
    }
    if snake.is_empty() || snake.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("field_{snake}").trim_end_matches('_').to_owned();
    }
    snake
}

/// A module's name for a collection (`UserEvents` is `user_events`, `log-archive.2019` is `log_archive_2019`).
pub(super) fn module_ident(collection: &str) -> String {
    let ident = field_ident(collection);
    if ident == "kind" {
        "type_".to_owned()
    } else {
        ident
    }
}

/// A type's name for a stored name: PascalCase of its words, singular when it names the elements of an array or a
/// collection of documents (`theaters` holds `Theater`, `items[]` are `Item`s).
pub(super) fn type_ident(name: &str, singular_form: bool) -> String {
    let mut words = words(name);
    if singular_form {
        if let Some(last) = words.last_mut() {
            *last = singular(last);
        }
    }
    let pascal: String = words
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |f| f.to_ascii_uppercase().to_string() + c.as_str())
        })
        .collect();
    if pascal.is_empty() || pascal.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Value{pascal}")
    } else {
        pascal
    }
}

/// An English plural's singular, for the common endings (`theaters`, `categories`, `addresses`, `boxes`); a word
/// that does not look plural is kept.
fn singular(word: &str) -> String {
    let keep = ["ss", "us", "is", "news", "series", "species", "data", "media"];
    if word.len() <= 3 || keep.iter().any(|k| word.ends_with(k)) {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "xes", "ches", "shes", "zes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_owned()
}

/// `name`, or `name` with the first number from 2 that `taken` does not hold yet.
pub(super) fn unique(name: String, taken: &dyn Fn(&str) -> bool, separator: &str) -> String {
    if !taken(&name) {
        return name;
    }
    (2..).map(|n| format!("{name}{separator}{n}")).find(|c| !taken(c)).expect("an unbounded range")
}

/// Whether the derive takes a string field of this name (Rust or stored) for a date (`date-string`): the same
/// names as its check.
pub(super) fn looks_like_date(rust_name: &str, key: &str) -> bool {
    let check = |n: &str| {
        let lower = n.to_ascii_lowercase();
        ["date", "time", "timestamp", "datetime", "created", "updated", "deleted", "birthday", "dob", "expires"]
            .contains(&lower.as_str())
            || ["_at", "_date", "_time", "_on", "_ts", "_timestamp"].iter().any(|s| lower.ends_with(s))
            || ["At", "Date", "Time", "On"].iter().any(|s| n.ends_with(s) && n.len() > s.len())
    };
    check(rust_name) || check(key)
}

/// `1564` as `1,564`.
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_snake_case_identifiers() {
        for (key, ident) in [
            ("theaterId", "theater_id"),
            ("street1", "street1"),
            ("__v", "v"),
            ("type", "kind"),
            ("match", "match_"),
            ("2fa", "field_2fa"),
            ("Prénom", "pr_nom"),
            ("名前", "field"),
            ("HTTPStatus", "http_status"),
        ] {
            assert_eq!(field_ident(key), ident, "{key}");
        }
    }

    #[test]
    fn types_are_pascal_case_and_singular_where_asked() {
        assert_eq!(type_ident("theaters", true), "Theater");
        assert_eq!(type_ident("categories", true), "Category");
        assert_eq!(type_ident("addresses", true), "Address");
        assert_eq!(type_ident("status", true), "Status");
        assert_eq!(type_ident("user_events", true), "UserEvent");
        assert_eq!(type_ident("location", false), "Location");
        assert_eq!(type_ident("2019", false), "Value2019");
        assert_eq!(module_ident("log-archive.2019"), "log_archive_2019");
    }

    #[test]
    fn numbers_take_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1564), "1,564");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
