//! Parsing and checking: the derive's input as an IR, and every compile-time rule. No code generation here.

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod check_index;
pub mod check_query;
pub mod check_update;
pub mod concern_attr;
pub mod ctxt;
pub mod distance;
#[cfg(test)]
mod distance_tests;
pub mod index_attr;
pub mod lists;
pub mod names;
pub mod query_attr;
pub mod rules;
pub mod ty;
