//! The test package's library exports no code: it makes every guide (`docs/guides/*.md`) a page of doctests, so
//! `cargo test --workspace` (and `cargo test -p odm-tests --doc`) compiles each program a guide shows as written (one
//! that needs a server is `rust,no_run`). Each program is complete, imports and models included, so what a reader
//! copies compiles; no block is `rust,ignore` (the test below keeps it so, and keeps every guide listed here). It
//! lives here, not in `odm`, because the published package does not ship `docs/`.

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

/// Every guide is a page of doctests above, and each of its Rust blocks is compiled: a guide added without its
/// module, or a block marked `ignore` (or any attribute but `no_run`), would be a program CI never builds.
#[cfg(test)]
mod every_guide_compiles {
    use std::path::Path;

    #[test]
    fn every_guide_is_a_doctest_page_and_no_rust_block_is_left_out() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("tests/src/lib.rs");
        let mut left_out = Vec::new();
        let guides = std::fs::read_dir(root.join("../docs/guides")).expect("docs/guides");
        for entry in guides.map(|e| e.expect("a guide").path()) {
            let name = entry.file_name().and_then(|n| n.to_str()).expect("a file name").to_owned();
            if !name.ends_with(".md") {
                continue;
            }
            if !lib.contains(&format!("include_str!(\"../../docs/guides/{name}\")")) {
                left_out.push(format!("{name}: not included as a doctest page in tests/src/lib.rs"));
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
