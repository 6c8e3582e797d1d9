//! The guides: one page per topic, each explaining a part of odm with complete programs and the rules that apply.
//!
//! In reading order:
//!
//! - [Naming](naming): database and collection names, module prefixes (`base_`, `log_`), short stored keys.
//! - [Keys and stored types](keys_and_types): one BSON type per field, dates, `Option`, `_id`, enums and
//!   polymorphic collections.
//! - [Schema-design patterns](patterns): embedding or referencing, counted arrays, computed fields, subsets,
//!   extended references, buckets, collections per period, the document-size budget.
//! - [Indexes](indexes): index declarations, ESR and declared access patterns, `explain`, `hint`.
//! - [Validators and sync](validators_and_sync): the generated `$jsonSchema` validator, startup sync, plans, the
//!   schema checker.
//! - [Versioned models](versioning): older shapes read and migrated, batch migrations, validator rollout.
//! - [Old data](old_data): capped and TTL collections, retention by period, what `log_` collections need.
//! - [Reading and writing consistently](consistency): typed filters and updates, revisions, transactions, bulk
//!   writes, change streams, typed aggregation, errors.
//! - [Sharding](sharding): shard keys, the sync's sharding commands, reads and writes that reach every shard.
//! - [Models without a database](models_without_a_database): the driver-free core, for crates that share models.
//! - [The command line](command_line): the application's own admin binary (`odm::cli::Admin`, feature `cli`).
//! - [Operating](operating): scheduled backups, the spans of every operation, what is live on the server.
//! - [A database that already exists](existing_database): what its documents hold, the audit against the rules,
//!   the model that reads it as it is.
//!
//! Each program a guide shows is one of this crate's doctests, so it compiles as written. A guide whose programs need
//! a feature exists only with it (docs.rs builds every feature).
// Without `cli` (or `driver`) the guides that need it do not exist, so other guides' links to them cannot resolve:
// rustdoc leaves them unlinked. docs.rs builds with all features, where CI denies a broken link
// (`cargo doc --all-features` with `-D warnings`); only this lint is off, only in those builds.
#![cfg_attr(not(feature = "cli"), allow(rustdoc::broken_intra_doc_links))]

#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
#[doc = include_str!("guide/command-line.md")]
pub mod command_line {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/consistency.md")]
pub mod consistency {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/existing-database.md")]
pub mod existing_database {}

#[doc = include_str!("guide/indexes.md")]
pub mod indexes {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/keys-and-types.md")]
pub mod keys_and_types {}

#[doc = include_str!("guide/models-without-a-database.md")]
pub mod models_without_a_database {}

#[doc = include_str!("guide/naming.md")]
pub mod naming {}

#[doc = include_str!("guide/old-data.md")]
pub mod old_data {}

#[cfg(feature = "backup")]
#[cfg_attr(docsrs, doc(cfg(feature = "backup")))]
#[doc = include_str!("guide/operating.md")]
pub mod operating {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/patterns.md")]
pub mod patterns {}

#[doc = include_str!("guide/sharding.md")]
pub mod sharding {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/validators-and-sync.md")]
pub mod validators_and_sync {}

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
#[doc = include_str!("guide/versioning.md")]
pub mod versioning {}

/// Every guide is a page above, and each of its Rust blocks is compiled: a guide added without its module, or a block
/// marked `ignore` (or any attribute but `no_run`), would be a program CI never builds.
#[cfg(test)]
mod every_guide_compiles {
    use std::path::Path;

    #[test]
    fn every_guide_is_a_page_and_no_rust_block_is_left_out() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let module = std::fs::read_to_string(src.join("guide.rs")).expect("odm/src/guide.rs");
        let mut left_out = Vec::new();
        let guides = std::fs::read_dir(src.join("guide")).expect("odm/src/guide");
        for entry in guides.map(|e| e.expect("a guide").path()) {
            let name = entry.file_name().and_then(|n| n.to_str()).expect("a file name").to_owned();
            if !name.ends_with(".md") {
                continue;
            }
            if !module.contains(&format!("#[doc = include_str!(\"guide/{name}\")]")) {
                left_out.push(format!("{name}: not a page of odm::guide (odm/src/guide.rs)"));
            }
            let text = std::fs::read_to_string(&entry).expect("the guide");
            let mut open = false;
            for (n, line) in text.lines().enumerate() {
                let Some(info) = line.trim_start().strip_prefix("```") else { continue };
                if open {
                    open = false;
                    continue;
                }
                open = true;
                // rustdoc reads a block without a language, or whose first word is `rust`, as Rust.
                let words: Vec<&str> = info.split(',').map(str::trim).collect();
                if !matches!(words[0], "" | "rust") {
                    continue;
                }
                if let Some(bad) = words[1..].iter().find(|w| **w != "no_run") {
                    left_out.push(format!("{name}:{}: a Rust block marked `{bad}` is not compiled as shown", n + 1));
                }
            }
        }
        assert!(left_out.is_empty(), "every program a guide shows must compile:\n{}", left_out.join("\n"));
    }
}
