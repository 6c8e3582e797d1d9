//! Compile-time rules of `#[derive(Model)]` / `#[derive(Embedded)]` and of typed paths and updates (trybuild).
//!
//! `ui/<family>/*.rs` must fail to compile with exactly the diagnostics in the `.stderr` beside each case (one
//! rule per file, grouped by rule family: `ui/keys` holds the `key-*` rules); `pass/*.rs` must compile and run
//! (each `main` asserts on the generated validator); `ODM_UI=<family>,…` runs only those families. Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p odm-tests --test ui`, then read every `.stderr` before committing it.

use std::path::{Path, PathBuf};

/// The folders of `ui/`, one per rule family (see `odm::rules`).
const FAMILIES: &[&str] = &[
    "names",
    "keys",
    "types",
    "dates",
    "arrays",
    "strings",
    "counters",
    "computed",
    "ids",
    "enums",
    "closed",
    "polymorphic",
    "indexes",
    "queries",
    "shard",
    "capped",
    "revisions",
    "concerns",
    "model",
    "versions",
    "serde",
    "attrs",
    "updates",
    "filters",
    "aggregate",
    "references",
    "series",
    "views",
];

#[test]
fn ui() {
    // `ODM_UI=aggregate,pass` runs only those families (`pass` for `pass/*.rs`) while working on them.
    let only = std::env::var("ODM_UI").ok();
    let runs = |name: &str| only.as_deref().is_none_or(|o| o.split(',').any(|f| f.trim() == name));
    let t = trybuild::TestCases::new();
    for family in FAMILIES.iter().filter(|f| runs(f)) {
        t.compile_fail(format!("ui/{family}/*.rs"));
    }
    if runs("pass") {
        t.pass("pass/*.rs");
    }
}

/// Every case lives in a family folder that [`ui`] runs: none is skipped by a folder missing from [`FAMILIES`].
#[test]
fn every_ui_folder_is_run() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    for entry in std::fs::read_dir(&ui).expect("tests/ui") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        assert!(path.is_dir(), "ui/{name}: cases go into a family folder, ui/<family>/{name}");
        assert!(FAMILIES.contains(&name.as_str()), "ui/{name} is not in FAMILIES, so its cases would not run");
    }
}

/// The files below `dir` (recursively) whose name ends with `suffix`.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            out.extend(files(&path, suffix));
        } else if path.to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
    out
}

/// The rule ids `text` cites: "(rule `key-short`)", or a link "rules#key-short".
fn cited(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, end) in [("(rule `", "`)"), ("rules#", ")")] {
        for piece in text.split(start).skip(1) {
            if let Some((id, _)) = piece.split_once(end) {
                out.push(id.to_owned());
            }
        }
    }
    out
}

/// Every rule id an error cites has a heading on the rules page (`odm::rules`), and every heading is cited by the
/// derive (its one list of ids) or by the runtime crate (an `on_unimplemented` message or a doc link), so the page
/// documents exactly the rules there are.
#[test]
fn rules_page_matches_the_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_owned();
    let page = std::fs::read_to_string(root.join("odm/src/rules.md")).expect("the rules page");
    let headings: Vec<&str> = page.lines().filter_map(|l| l.strip_prefix("### `")?.strip_suffix('`')).collect();
    for (i, h) in headings.iter().enumerate() {
        assert!(!headings[..i].contains(h), "`{h}` has two headings on the rules page");
    }
    let mut used: Vec<String> = Vec::new();
    let derive_ids = std::fs::read_to_string(root.join("odm-derive/src/internals/rules.rs")).expect("derive ids");
    for id in derive_ids.lines().filter_map(|l| l.trim().split_once(" = \"")?.1.strip_suffix("\";")) {
        assert!(headings.contains(&id), "the derive's rule `{id}` has no heading on the rules page");
        used.push(id.to_owned());
    }
    let mut sources = files(&root.join("odm/src"), ".rs");
    sources.extend(files(&root.join("tests/ui"), ".stderr"));
    for file in sources {
        let text = std::fs::read_to_string(&file).expect("source");
        for id in cited(&text) {
            assert!(
                headings.contains(&id.as_str()),
                "{} cites rule `{id}`, which has no heading on the rules page",
                file.display()
            );
            used.push(id);
        }
    }
    for h in &headings {
        assert!(used.iter().any(|u| u == h), "rule `{h}` has a heading on the rules page but nothing cites it");
    }
}

/// odm's own collections, which rule `name-system` keeps models out of: the derive's list
/// (`odm-derive/src/internals/check/names.rs`, `ODM_OWN`, where `ui/names/collection_odm_own.rs` shows both names
/// refused) is the runtime's.
#[test]
fn the_derive_refuses_every_collection_odm_keeps() {
    assert_eq!(odm::sync::plan::ownership::METADATA_COLLECTIONS, ["odm_index", "odm_sync_lock"]);
}
