//! Tests of `distance.rs`, kept apart because that file is embedded in generated code.

use super::distance::{close_enough, distance};

#[test]
fn counts_single_edits() {
    assert_eq!(distance("max_item", "max_items"), 1);
    assert_eq!(distance("nulable", "nullable"), 1);
    assert_eq!(distance("unbound", "unbounded"), 2);
    assert_eq!(distance("colection", "collection"), 1);
    assert_eq!(distance("", "abc"), 3);
    assert_eq!(distance("abc", ""), 3);
    assert!(distance("custom_id", "max_len") > 2);
}

#[test]
fn a_swap_of_neighbours_is_one_edit() {
    assert_eq!(distance("stauts", "status"), 1);
    assert_eq!(distance("nmae", "name"), 1);
    assert_eq!(distance("ab", "ba"), 1);
}

#[test]
fn ignores_ascii_case() {
    assert_eq!(distance("caseLevel", "caselevel"), 0);
    assert_eq!(distance("case_level", "caseLevel"), 1);
}

#[test]
fn long_names_are_never_close() {
    let long = "a".repeat(65);
    assert_eq!(distance(&long, &long), usize::MAX);
    assert!(!close_enough(&long, distance(&long, "a")));
}

#[test]
fn closeness_grows_with_length() {
    assert!(close_enough("nme", 1));
    assert!(!close_enough("nme", 2));
    assert!(!close_enough("uniqe", 2));
    assert!(close_enough("stauts", 2));
    assert!(!close_enough("stauts", 3));
}
