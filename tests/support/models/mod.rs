//! Models more than one test binary uses, by domain. A model whose shape is what a test checks stays in that test.

pub mod families;
pub mod shop;
