//! The test package's library holds no code: it makes every guide (`docs/guides/*.md`) a page of doctests, so
//! `cargo test --workspace` (and `cargo test -p odm-tests --doc`) compiles each program a guide shows as written (one
//! that needs a server is `rust,no_run`). A block that elides what its point does not need (`/* … */`, a `db` or a
//! `client` from context) is a sketch, marked `rust,ignore`. It lives here, not in `odm`, because the published
//! package does not ship `docs/`.

/// The guides, one module each, whose documentation is the page: their Rust blocks are this crate's doctests.
#[cfg(doctest)]
pub mod guides {
    #[doc = include_str!("../../docs/guides/command-line.md")]
    pub mod command_line {}
    #[doc = include_str!("../../docs/guides/consistency.md")]
    pub mod consistency {}
    #[doc = include_str!("../../docs/guides/indexes.md")]
    pub mod indexes {}
    #[doc = include_str!("../../docs/guides/keys-and-types.md")]
    pub mod keys_and_types {}
    #[doc = include_str!("../../docs/guides/models-without-a-database.md")]
    pub mod models_without_a_database {}
    #[doc = include_str!("../../docs/guides/naming.md")]
    pub mod naming {}
    #[doc = include_str!("../../docs/guides/old-data.md")]
    pub mod old_data {}
    #[doc = include_str!("../../docs/guides/operating.md")]
    pub mod operating {}
    #[doc = include_str!("../../docs/guides/patterns.md")]
    pub mod patterns {}
    #[doc = include_str!("../../docs/guides/sharding.md")]
    pub mod sharding {}
    #[doc = include_str!("../../docs/guides/validators-and-sync.md")]
    pub mod validators_and_sync {}
    #[doc = include_str!("../../docs/guides/versioning.md")]
    pub mod versioning {}
}
