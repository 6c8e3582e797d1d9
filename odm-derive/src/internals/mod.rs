//! Parsing, resolving and checking: the derive's input as an IR (`ast`, `attr`), the resolved model (`resolve`), and
//! every compile-time rule (`check`, with the rule ids in `rules`). No code generation here.

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod ctxt;
pub mod distance;
#[cfg(test)]
mod distance_tests;
pub mod index_keys;
pub mod lists;
pub mod resolve;
pub mod rules;
pub mod source;
pub mod symbol;
pub mod ty;
pub mod view;
