//! Typed update building, diffs and wire bytes vs hand-written documents.
fn main() {}
