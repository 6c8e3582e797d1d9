//! Pieces every attribute parser shares: values with their spans, skipping what is not ours, "did you mean" hints.

use crate::internals::ctxt::Ctxt;
use crate::internals::distance::{close_enough, distance};
use crate::internals::rules;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;

/// A value together with the tokens that set it, so later rules can point at the attribute responsible.
#[derive(Clone, Debug)]
pub struct Sp<T> {
    pub value: T,
    pub tokens: TokenStream,
}

impl<T> Sp<T> {
    pub fn span(&self) -> Span {
        self.tokens.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span())
    }
}

impl<T> ToTokens for Sp<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.tokens.clone());
    }
}

/// Consumes whatever value follows an attribute key we do not interpret (`= expr` or `(...)`), so parsing can go on.
pub fn skip_rest(meta: &ParseNestedMeta) {
    let _ = meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            if let proc_macro2::TokenTree::Punct(p) = &tt {
                if p.as_char() == ',' {
                    break;
                }
            }
            rest = next;
        }
        Ok(((), rest))
    });
}

/// The known name closest to the misspelt `name`, if one is close enough to suggest.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (distance(name, k), k))
        .filter(|(d, _)| close_enough(name, *d))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// " (did you mean `x`?)" for a misspelt `name`, or nothing.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, known).map_or_else(String::new, |k| format!(" (did you mean `{k}`?)"))
}

/// A duplicate `what` (an odm attribute, an index option) named `name`, reported at both places: the second copy,
/// and the first one it repeats.
pub fn duplicate(cx: &Ctxt, what: &str, name: &str, first: &TokenStream, second: impl ToTokens) {
    cx.error_spanned_by(
        second,
        rules::ATTR_DUPLICATE,
        format!("duplicate {what} `{name}`: it is already set here (see the next error); keep one"),
    );
    cx.error_spanned_by(
        first,
        rules::ATTR_DUPLICATE,
        format!("`{name}` is first set here; the duplicate is reported above"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_suggests_near_names_only() {
        let known = ["merchant", "status", "amount", "id"];
        assert_eq!(closest("stauts", known), Some("status"));
        assert_eq!(closest("STATUS", known), Some("status"));
        assert_eq!(closest("merchnt", known), Some("merchant"));
        // Short names allow one edit, not two: `am` is no typo of `id`.
        assert_eq!(closest("ix", known), Some("id"));
        assert_eq!(closest("am", known), None);
        assert_eq!(closest("created_at", known), None);
    }
}
