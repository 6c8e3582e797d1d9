//! Parsing and checking: the derive's input as an IR, and every compile-time rule. No code generation here.

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
