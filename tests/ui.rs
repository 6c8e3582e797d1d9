//! Compile-time rules of `#[derive(Model)]` / `#[derive(Embedded)]` (trybuild).
//!
//! `ui/*.rs` must fail to compile with exactly the diagnostics in the `.stderr` beside each case (one rule per
//! file); `pass/*.rs` must compile and run (each `main` asserts on the generated validator).
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p odm-tests --test ui`, then read every
//! `.stderr` before committing it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("pass/*.rs");
}
