//! The survey's flat list of paths, as the tree it was flattened from: each object's fields, an array's elements,
//! a map's entries.

use crate::base::introspect::{PathShape, Shape};
use std::collections::HashMap;

/// One path and what lies below it.
pub(super) struct Node<'a> {
    pub shape: &'a PathShape,
    /// The fields of the documents stored here, in the order they were first seen.
    pub fields: Vec<Node<'a>>,
    /// An array's elements (`items[]`).
    pub element: Option<Box<Node<'a>>>,
    /// A map's entries (`daily{}`).
    pub entries: Option<Box<Node<'a>>>,
}

/// The document's top-level fields, each with what lies below it.
pub(super) fn build(shape: &Shape) -> Vec<Node<'_>> {
    // Children are attached to their parents after the walk: a parent is listed before its children, so walking the
    // list backwards finds every child before its parent is moved into its own parent.
    let mut nodes: Vec<Option<Node<'_>>> = Vec::with_capacity(shape.paths.len());
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(shape.paths.len());
    for path in &shape.paths {
        let parent = parent_path(path).and_then(|p| at.get(p).copied());
        at.insert(path.path.as_str(), nodes.len());
        parents.push(parent);
        nodes.push(Some(Node { shape: path, fields: Vec::new(), element: None, entries: None }));
    }
    let mut roots = Vec::new();
    for i in (0..nodes.len()).rev() {
        let node = nodes[i].take().expect("each node is moved once");
        match parents[i] {
            None => roots.push(node),
            Some(p) => {
                let parent = nodes[p].as_mut().expect("a parent comes before its children");
                match node.shape.key.as_str() {
                    "[]" => parent.element = Some(Box::new(node)),
                    "{}" => parent.entries = Some(Box::new(node)),
                    _ => parent.fields.push(node),
                }
            }
        }
    }
    roots.reverse();
    reverse_fields(&mut roots);
    roots
}

/// The children were attached last first.
fn reverse_fields(nodes: &mut [Node<'_>]) {
    for node in nodes {
        node.fields.reverse();
        reverse_fields(&mut node.fields);
        for below in [node.element.as_deref_mut(), node.entries.as_deref_mut()].into_iter().flatten() {
            reverse_fields(std::slice::from_mut(below));
        }
    }
}

/// The path of what holds `path`: `a.b` for `a.b.c`, `items` for `items[]`, none for a top-level key. The key is
/// known, so a key holding `.` is not mistaken for nesting.
fn parent_path(path: &PathShape) -> Option<&str> {
    let full = path.path.as_str();
    match path.key.as_str() {
        "[]" | "{}" => Some(&full[..full.len() - 2]),
        key if full.len() == key.len() => None,
        key => Some(&full[..full.len() - key.len() - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::build;
    use crate::base::introspect::Survey;
    use bson::rawdoc;

    #[test]
    fn the_paths_become_the_tree_they_came_from() {
        let mut survey = Survey::new();
        survey.add(&rawdoc! { "_id": 1, "a": { "b": 1, "c": [ { "d": 1 } ] }, "e": [[1]], "a.b": 2 });
        let shape = survey.shape();
        let roots = build(&shape);
        let keys: Vec<&str> = roots.iter().map(|n| n.shape.key.as_str()).collect();
        assert_eq!(keys, ["_id", "a", "e", "a.b"]);
        let a = &roots[1];
        assert_eq!(a.fields.iter().map(|n| n.shape.path.as_str()).collect::<Vec<_>>(), ["a.b", "a.c"]);
        let d = &a.fields[1].element.as_ref().unwrap().fields[0];
        assert_eq!(d.shape.path, "a.c[].d");
        let inner = roots[2].element.as_ref().unwrap().element.as_ref().unwrap();
        assert_eq!(inner.shape.path, "e[][]");
        assert!(roots[3].fields.is_empty());
    }
}
