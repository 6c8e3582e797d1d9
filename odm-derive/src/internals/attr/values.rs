//! The values of attributes: literals read once, attributes set at most once, and the reports of unknown or
//! refused ones, shared by the container, field and variant parsers.

use super::common::duplicate;
use super::common::{did_you_mean, skip_rest, Sp};
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self, Rule};
use crate::internals::symbol::{self, Symbol, *};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{LitInt, LitStr, Token};

/// An attribute that may be set at most once.
pub(super) struct Attr<'c, T> {
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
    pub(super) fn none(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr { cx, name, serde: false, value: None, first_key: TokenStream::new() }
    }

    /// A `#[serde(...)]` attribute odm reads.
    pub(super) fn serde(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr { cx, name, serde: true, value: None, first_key: TokenStream::new() }
    }

    /// Sets the value; `obj` is what later rules point at.
    pub(super) fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        let tokens = obj.into_token_stream();
        self.set_at(tokens.clone(), tokens, value);
    }

    /// Sets the value; a duplicate is reported at `key` (the attribute's name), `obj` is what later rules point at.
    pub(super) fn set_at<K: ToTokens, A: ToTokens>(&mut self, key: K, obj: A, value: T) {
        if self.value.is_none() {
            self.value = Some(Sp { value, tokens: obj.into_token_stream() });
            self.first_key = key.into_token_stream();
        } else if self.serde {
            self.cx.serde_rejects();
        } else {
            duplicate(self.cx, "odm attribute", self.name.as_str(), &self.first_key, key);
        }
    }

    pub(super) fn get(self) -> Option<Sp<T>> {
        self.value
    }
}

/// `validation_level = "…"` / `validation_action = "…"`: one of `allowed`, or an error listing them.
pub(super) fn validation_choice(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    attr: Symbol,
    allowed: &[&str],
) -> Option<(LitStr, String)> {
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

pub(super) fn lit_str(cx: &Ctxt, attr: Symbol, meta: &ParseNestedMeta) -> Option<LitStr> {
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

pub(super) fn lit_usize(cx: &Ctxt, attr: Symbol, meta: &ParseNestedMeta) -> Option<(usize, LitInt)> {
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
pub(super) fn serde_lit_str(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<LitStr> {
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
pub(super) fn ser_name(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<LitStr> {
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
pub(super) fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<Sp<RenameRule>> {
    let lit = ser_name(cx, meta)?;
    match RenameRule::from_str(&lit.value()) {
        Some(rule) => Some(Sp { value: rule, tokens: lit.into_token_stream() }),
        None => {
            cx.serde_rejects();
            None
        }
    }
}

/// The entries of an attribute written exactly `#[…(key = "value", …)]` (string values only, a trailing comma
/// allowed), each as its key, literal and string, read straight from the tokens. Most serde attributes on stored
/// fields are a `rename`, perhaps with a `skip_serializing_if`; syn's meta parser costs several times more for them,
/// for every field of every derived type. A plain string (no escapes, no raw string, no suffix) is read off its text;
/// anything else goes through syn's literal parser. `None` for any other shape.
pub(super) fn str_entries(attr: &syn::Attribute) -> Option<Vec<(proc_macro2::Ident, proc_macro2::Literal, String)>> {
    use proc_macro2::TokenTree;
    let syn::Meta::List(list) = &attr.meta else { return None };
    let mut entries = Vec::new();
    let mut tokens = list.tokens.clone().into_iter();
    loop {
        let (Some(TokenTree::Ident(k)), Some(TokenTree::Punct(eq)), Some(TokenTree::Literal(lit))) =
            (tokens.next(), tokens.next(), tokens.next())
        else {
            return None;
        };
        if eq.as_char() != '=' {
            return None;
        }
        let value = str_value(&lit)?;
        entries.push((k, lit, value));
        match tokens.next() {
            None => return Some(entries),
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                if tokens.clone().next().is_none() {
                    return Some(entries);
                }
            }
            Some(_) => return None,
        }
    }
}

/// The string a literal holds, if it is a string without a suffix: off its text when plain, else through syn.
fn str_value(lit: &proc_macro2::Literal) -> Option<String> {
    let text = lit.to_string();
    if let Some(plain) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if !plain.contains(['\\', '"']) {
            return Some(plain.to_owned());
        }
    }
    match syn::Lit::new(lit.clone()) {
        syn::Lit::Str(s) if s.suffix().is_empty() => Some(s.value()),
        _ => None,
    }
}

/// Parses every `#[name(...)]` attribute in `attrs` with `f`, reporting parse errors and moving on.
pub(super) fn each_nested<'a>(
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

pub(super) fn unknown(cx: &Ctxt, meta: &ParseNestedMeta, what: &str, known: &[Symbol]) {
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
pub(super) fn unknown_serde(cx: &Ctxt, meta: &ParseNestedMeta, what: &str) {
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
pub(super) fn refuse_serde(cx: &Ctxt, meta: &ParseNestedMeta, rule: Rule, why: &str) {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(&meta.path, rule, format!("`#[serde({name})]` is not supported by odm: {why}"));
    skip_rest(meta);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(attr: syn::Attribute) -> Option<String> {
        match str_entries(&attr)?.as_slice() {
            [(k, _, v)] if k == "rename" => Some(v.clone()),
            _ => None,
        }
    }

    fn keys(attr: syn::Attribute) -> Option<Vec<(String, String)>> {
        Some(str_entries(&attr)?.into_iter().map(|(k, _, v)| (k.to_string(), v)).collect())
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

    #[test]
    fn entries_of_strings_are_read_in_order_and_anything_else_is_left_to_syn() {
        let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
        assert_eq!(
            keys(syn::parse_quote!(#[serde(rename = "rm", skip_serializing_if = "Option::is_none")])),
            Some(vec![pair("rename", "rm"), pair("skip_serializing_if", "Option::is_none")])
        );
        assert_eq!(keys(syn::parse_quote!(#[serde(rename = "rm",)])), Some(vec![pair("rename", "rm")]));
        assert_eq!(keys(syn::parse_quote!(#[serde(rename = "rm", default)])), None);
        assert_eq!(keys(syn::parse_quote!(#[serde(rename = "rm" with = "x")])), None);
        assert_eq!(keys(syn::parse_quote!(#[serde(rename(serialize = "a"))])), None);
        assert_eq!(keys(syn::parse_quote!(#[serde(rename = "a",, alias = "b")])), None);
        assert_eq!(keys(syn::parse_quote!(#[serde(skip)])), None);
    }
}
