//! The error accumulator: every rule reports here, and the derive checks once before generating code,
//! so a user sees all problems of one type in one build (serde's `Ctxt` pattern). Every message ends with the id of
//! the rule it reports (see [`super::rules`]).

use super::rules::{self, Rule};
use quote::ToTokens;
use std::cell::{Cell, RefCell};
use std::fmt::Display;

/// Collects errors; must be consumed with [`Ctxt::check`].
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    serde_rejects: Cell<bool>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt { errors: RefCell::new(Some(Vec::new())), serde_rejects: Cell::new(false) }
    }

    /// Records an error about `rule` spanning the tokens of `obj`.
    pub fn error_spanned_by<A: ToTokens, T: Display>(&self, obj: A, rule: Rule, msg: T) {
        // Converting to a TokenStream first keeps monomorphisation down (one instance per message type).
        self.push(syn::Error::new_spanned(obj.into_token_stream(), rule.message(msg)));
    }

    /// Records an error about `rule` at `span`.
    pub fn error_at<T: Display>(&self, span: proc_macro2::Span, rule: Rule, msg: T) {
        self.push(syn::Error::new(span, rule.message(msg)));
    }

    /// Records a parse error from syn (an attribute that is not `key = value`, `flag` or `key(...)`). syn places
    /// its errors at one token, so each keeps its span.
    pub fn syn_error(&self, err: syn::Error) {
        for e in err {
            self.push(syn::Error::new(e.span(), rules::ATTR_SYNTAX.message(e)));
        }
    }

    /// Notes a problem serde's own derive reports (a duplicate or malformed `#[serde(...)]` attribute, `content`
    /// without `tag`): odm stays silent so the user sees the error once, and knows serde's impls will be missing.
    pub fn serde_rejects(&self) {
        self.serde_rejects.set(true);
    }

    /// True when serde's derive fails on this input too (see [`Ctxt::serde_rejects`]).
    pub fn serde_rejected(&self) -> bool {
        self.serde_rejects.get()
    }

    fn push(&self, err: syn::Error) {
        self.errors.borrow_mut().as_mut().expect("Ctxt used after check").push(err);
    }

    /// Consumes the context; all errors combined into one.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.borrow_mut().take().expect("Ctxt checked twice").into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("odm-derive: Ctxt dropped without check()");
        }
    }
}
