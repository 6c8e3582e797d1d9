//! The test package's library holds no code: it makes the programs the guides show (`docs/guides/*.md`) doctests, so
//! `cargo test --workspace` (and `cargo test -p odm-tests --doc`) compiles each as written (a block that needs a
//! server is `no_run`). It lives here, not in `odm`, because the published package does not ship `docs/`.

/// The guides, one module each, whose documentation is the page: their Rust blocks are this crate's doctests.
#[cfg(doctest)]
pub mod guides {
    #[doc = include_str!("../../docs/guides/command-line.md")]
    pub mod command_line {}
}
