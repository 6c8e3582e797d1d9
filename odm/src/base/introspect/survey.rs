//! The survey: documents walked as they are read into a tree of what each path held, of bounded size (an object
//! whose keys are data folds its entries into one node), flattened into the report's paths at the end.

use super::lengths::{Histogram, Lengths};
use super::strings::{is_date, is_number};
use bson::raw::{RawBsonRef, RawDocument};
use bson::spec::ElementType;
use bson::Bson;
use std::collections::{HashMap, HashSet};

/// How many `_id`s each finding keeps, the first ones read.
pub const SAMPLE_IDS: usize = 3;
/// Distinct keys past which an object's keys are taken for data (a map), whatever they look like.
const MAP_KEYS: usize = 32;
/// Distinct keys that all look like data (numbers, dates, ids) from which an object is taken for a map.
const DATA_KEYS: usize = 3;
/// Distinct keys of a map counted one by one; past that, the count says "more".
const KEYS_COUNTED: usize = 1024;
/// Documents at least this large (12 MiB, three quarters of the 16 MiB a document may take) are near the limit.
pub const NEAR_LIMIT: u64 = 12 * 1024 * 1024;

/// Documents read so far, path by path. Feed it every document read ([`Survey::add`]); [`Survey::shape`] gives the
/// report. Its memory does not grow with the number of documents: counts and histograms per path, a few sample `_id`s
/// per finding, and an object whose keys are data held as one node for all its entries.
///
/// ```
/// use odm::introspect::Survey;
/// use bson::{rawdoc, spec::ElementType};
///
/// let mut survey = Survey::new();
/// survey.add(&rawdoc! { "_id": 1, "age": 41, "joined": "2024-05-01" });
/// survey.add(&rawdoc! { "_id": 2, "age": "41" });
/// let shape = survey.shape();
/// let age = shape.path("age").unwrap();
/// assert_eq!(age.types.iter().map(|t| t.kind).collect::<Vec<_>>(), [ElementType::Int32, ElementType::String]);
/// assert_eq!(age.numbers_as_strings.as_ref().unwrap().count, 1);
/// let joined = shape.path("joined").unwrap();
/// assert_eq!((joined.present, joined.of), (1, 2));
/// ```
#[derive(Default)]
pub struct Survey {
    root: Node,
    sizes: Histogram,
    near_limit: Option<Seen>,
}

impl Survey {
    /// An empty survey.
    pub fn new() -> Self {
        Survey::default()
    }

    /// Walks one stored document into the survey.
    pub fn add(&mut self, document: &RawDocument) {
        let id = document.get("_id").ok().flatten();
        let size = document.as_bytes().len() as u64;
        self.sizes.add(size);
        if size >= NEAR_LIMIT {
            note_one(&mut self.near_limit, ElementType::EmbeddedDocument, id);
        }
        self.root.objects += 1;
        self.root.object(document, id);
    }

    /// Documents added so far.
    pub fn documents(&self) -> u64 {
        self.root.objects
    }

    /// What the documents added so far held, path by path.
    pub fn shape(&self) -> Shape {
        let (mut paths, mut counters) = (Vec::new(), Vec::new());
        self.root.flatten_fields("", &mut paths, &mut counters);
        Shape {
            documents: self.root.objects,
            paths,
            sizes: self.sizes.lengths(),
            near_limit: self.near_limit.clone(),
            counters,
        }
    }
}

/// What the documents of a collection held, path by path (see [`Survey`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Shape {
    /// Documents read.
    pub documents: u64,
    /// Every path seen, in the order of the documents' keys (a parent before its children).
    pub paths: Vec<PathShape>,
    /// The sizes of the documents in bytes, as stored.
    pub sizes: Option<Lengths>,
    /// Documents of at least [`NEAR_LIMIT`] bytes (12 MiB), near the 16 MiB a document may take.
    pub near_limit: Option<Seen>,
    /// Integer fields beside an array that are named as its count (`items_count`, `itemsCount`, `n_items`, …), with
    /// how often they held its length.
    pub counters: Vec<CounterPair>,
}

/// An integer field named as the count of the array beside it, and how often it held the array's length.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CounterPair {
    /// The array's path.
    pub array: String,
    /// The counter's path.
    pub counter: String,
    /// Documents where both were present and the counter held the array's length.
    pub agree: u64,
    /// Documents where both were present and it did not, with the first ones' `_id`s.
    pub disagree: Option<Seen>,
}

impl Shape {
    /// The path spelled `path` (`"address.city"`, `"items[].sku"`, `"scores{}"`).
    pub fn path(&self, path: &str) -> Option<&PathShape> {
        self.paths.iter().find(|p| p.path == path)
    }
}

/// What one stored path held.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PathShape {
    /// The last key of the path as stored (`[]` for an array's elements, `{}` for a map's entries).
    pub key: String,
    /// The stored keys from the document's root, joined by `.`; `[]` stands for an array's elements (`items[].sku`)
    /// and `{}` for the entries of an object whose keys are data (`scores{}`, see [`PathShape::map`]).
    pub path: String,
    /// How many values were seen where this path could be: the enclosing documents (the documents read, for a
    /// top-level key), or for `[]` and `{}` the arrays and maps that held the elements and entries.
    pub of: u64,
    /// How many values this path held: for a key, the documents it was present in (`present < of`: absent from
    /// some); for `[]` and `{}`, the elements and entries.
    pub present: u64,
    /// The BSON types seen, most common first, each with a few `_id`s of documents holding it.
    pub types: Vec<Seen>,
    /// The lengths of the arrays seen here.
    pub arrays: Option<Lengths>,
    /// The lengths in bytes of the strings seen here.
    pub strings: Option<Lengths>,
    /// Strings that are dates as programs write them (`"2024-05-01T12:30:00Z"`).
    pub dates_as_strings: Option<Seen>,
    /// Strings that are numbers, written as text without anything a number would lose (no leading zero).
    pub numbers_as_strings: Option<Seen>,
    /// Of [`PathShape::numbers_as_strings`], those that are integers (no fraction, within `i64`).
    pub integers_as_strings: Option<Seen>,
    /// Set when the documents seen here have keys that are data rather than fields (ids, dates, numbers, or more
    /// distinct keys than a struct would have): their values are surveyed together under `{}`.
    pub map: Option<MapKeys>,
}

impl PathShape {
    /// The type seen most often (the first of [`PathShape::types`]).
    pub fn main_type(&self) -> Option<ElementType> {
        self.types.first().map(|t| t.kind)
    }
}

/// Values of one kind at a path: how many, and the `_id`s of the first documents holding one.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Seen {
    /// The BSON type (for a finding about strings, `String`).
    pub kind: ElementType,
    /// How many values.
    pub count: u64,
    /// The `_id`s of the first documents that held one (at most 3; none where documents have no `_id`).
    pub ids: Vec<Bson>,
}

/// The keys of an object whose keys are data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MapKeys {
    /// Distinct keys seen (counted up to 1,024: see [`MapKeys::more`]).
    pub distinct: u64,
    /// True when more distinct keys were seen than were counted.
    pub more: bool,
    /// A few of the keys, the first seen.
    pub samples: Vec<String>,
}

/// What one path held so far.
#[derive(Default)]
struct Node {
    values: u64,
    types: Vec<Seen>,
    arrays: Histogram,
    strings: Histogram,
    dates: Option<Seen>,
    numbers: Option<Seen>,
    integers: Option<Seen>,
    /// Values that were documents: what the fields below are counted against.
    objects: u64,
    fields: Vec<(String, Node)>,
    /// The fields in stored order: a key first seen after another is placed after it, so a key absent from the
    /// first documents still takes its place among the others (`street1, street2, city`), as a model must write it.
    order: Vec<usize>,
    index: HashMap<String, usize>,
    /// Whether every key seen so far looks like data.
    data_keys: bool,
    element: Option<Box<Node>>,
    /// Set once the keys are taken for data: every entry is surveyed here.
    entries: Option<Box<Node>>,
    keys: HashSet<String>,
    key_samples: Vec<String>,
    keys_more: bool,
    /// Arrays and counters named for them among this path's fields.
    pairs: Vec<Pair>,
    /// This document's arrays and integers (field index, value), reused from one document to the next.
    arrays_here: Vec<(usize, u64)>,
    integers_here: Vec<(usize, i64)>,
}

/// An array and the integer field named as its count, among one object's fields.
#[derive(Clone)]
struct Pair {
    array: String,
    counter: String,
    agree: u64,
    disagree: Option<Seen>,
}

impl Node {
    /// Surveys one value; gives an array's length.
    fn value(&mut self, value: RawBsonRef<'_>, id: Option<RawBsonRef<'_>>) -> Option<u64> {
        self.values += 1;
        note(&mut self.types, value.element_type(), id);
        match value {
            RawBsonRef::String(s) => {
                self.strings.add(s.len() as u64);
                if is_date(s) {
                    note_one(&mut self.dates, ElementType::String, id);
                } else if is_number(s) {
                    note_one(&mut self.numbers, ElementType::String, id);
                    if s.parse::<i64>().is_ok() {
                        note_one(&mut self.integers, ElementType::String, id);
                    }
                }
            }
            RawBsonRef::Array(items) => {
                let element = self.element.get_or_insert_with(Box::default);
                let mut length = 0;
                for item in items.into_iter().map_while(Result::ok) {
                    element.value(item, id);
                    length += 1;
                }
                self.arrays.add(length);
                return Some(length);
            }
            RawBsonRef::Document(d) => {
                self.objects += 1;
                self.object(d, id);
            }
            _ => {}
        }
        None
    }

    fn object(&mut self, d: &RawDocument, id: Option<RawBsonRef<'_>>) {
        let mut previous: Option<usize> = None;
        for (key, value) in d.into_iter().map_while(Result::ok) {
            let key = key.as_str();
            if let Some(entries) = self.entries.as_mut() {
                entries.value(value, id);
                remember_key(&mut self.keys, &mut self.key_samples, &mut self.keys_more, key);
                continue;
            }
            let at = match self.index.get(key) {
                Some(&at) => at,
                None => {
                    self.data_keys = (self.fields.is_empty() || self.data_keys) && is_data_key(key);
                    let at = self.fields.len();
                    self.index.insert(key.to_owned(), at);
                    self.fields.push((key.to_owned(), Node::default()));
                    let place = previous.and_then(|p| self.order.iter().position(|&o| o == p)).map_or(0, |i| i + 1);
                    self.order.insert(place, at);
                    at
                }
            };
            previous = Some(at);
            match value {
                RawBsonRef::Int32(n) => self.integers_here.push((at, i64::from(n))),
                RawBsonRef::Int64(n) => self.integers_here.push((at, n)),
                _ => {}
            }
            if let Some(length) = self.fields[at].1.value(value, id) {
                self.arrays_here.push((at, length));
            }
        }
        if !self.arrays_here.is_empty() && !self.integers_here.is_empty() {
            self.pair_counters(id);
        }
        self.arrays_here.clear();
        self.integers_here.clear();
        self.fold_if_map();
    }

    /// Compares each integer named as the count of an array beside it with the array's length, in this document.
    fn pair_counters(&mut self, id: Option<RawBsonRef<'_>>) {
        for &(a, length) in &self.arrays_here {
            for &(c, value) in &self.integers_here {
                let (array, counter) = (&self.fields[a].0, &self.fields[c].0);
                if !is_counter_of(counter, array) {
                    continue;
                }
                let at = match self.pairs.iter().position(|p| &p.array == array && &p.counter == counter) {
                    Some(at) => at,
                    None => {
                        let pair = Pair { array: array.clone(), counter: counter.clone(), agree: 0, disagree: None };
                        self.pairs.push(pair);
                        self.pairs.len() - 1
                    }
                };
                let pair = &mut self.pairs[at];
                if u64::try_from(value) == Ok(length) {
                    pair.agree += 1;
                } else {
                    note_one(&mut pair.disagree, ElementType::Int64, id);
                }
            }
        }
    }

    /// Folds the fields into one entry node once the keys look like data.
    fn fold_if_map(&mut self) {
        let n = self.fields.len();
        if self.entries.is_some() || !(n > MAP_KEYS || (n >= DATA_KEYS && self.data_keys)) {
            return;
        }
        self.fold_forced();
    }

    /// Adds what `other` counted (a map's former fields folded into its entries).
    fn merge(&mut self, other: Node) {
        self.values += other.values;
        for seen in other.types {
            merge_seen(&mut self.types, seen);
        }
        self.arrays.merge(&other.arrays);
        self.strings.merge(&other.strings);
        for (mine, theirs) in
            [(&mut self.dates, other.dates), (&mut self.numbers, other.numbers), (&mut self.integers, other.integers)]
        {
            match (mine.as_mut(), theirs) {
                (Some(m), Some(t)) => add_seen(m, t),
                (None, Some(t)) => *mine = Some(t),
                _ => {}
            }
        }
        self.objects += other.objects;
        for pair in other.pairs {
            match self.pairs.iter_mut().find(|p| p.array == pair.array && p.counter == pair.counter) {
                Some(mine) => {
                    mine.agree += pair.agree;
                    match (mine.disagree.as_mut(), pair.disagree) {
                        (Some(m), Some(t)) => add_seen(m, t),
                        (None, Some(t)) => mine.disagree = Some(t),
                        _ => {}
                    }
                }
                None => self.pairs.push(pair),
            }
        }
        if let Some(e) = other.element {
            match self.element.as_mut() {
                Some(mine) => mine.merge(*e),
                None => self.element = Some(e),
            }
        }
        for key in other.key_samples.iter().chain(other.keys.iter()) {
            remember_key(&mut self.keys, &mut self.key_samples, &mut self.keys_more, key);
        }
        self.keys_more |= other.keys_more;
        if let Some(e) = other.entries {
            self.fold_forced();
            self.entries.as_mut().expect("folded").merge(*e);
        }
        for (key, child) in other.fields {
            if let Some(entries) = self.entries.as_mut() {
                entries.merge(child);
                remember_key(&mut self.keys, &mut self.key_samples, &mut self.keys_more, &key);
                continue;
            }
            match self.index.get(&key) {
                Some(&at) => self.fields[at].1.merge(child),
                None => {
                    self.data_keys = (self.fields.is_empty() || self.data_keys) && is_data_key(&key);
                    self.index.insert(key.clone(), self.fields.len());
                    self.order.push(self.fields.len());
                    self.fields.push((key, child));
                }
            }
        }
        self.fold_if_map();
    }

    /// Folds the fields into one entry node whatever they look like (merging in a map).
    fn fold_forced(&mut self) {
        if self.entries.is_none() {
            let mut entries = Node::default();
            for (key, child) in std::mem::take(&mut self.fields) {
                remember_key(&mut self.keys, &mut self.key_samples, &mut self.keys_more, &key);
                entries.merge(child);
            }
            self.index.clear();
            self.order.clear();
            self.entries = Some(Box::new(entries));
        }
    }

    fn flatten_fields(&self, prefix: &str, out: &mut Vec<PathShape>, counters: &mut Vec<CounterPair>) {
        let join = |key: &str| if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
        for &at in &self.order {
            let (key, child) = &self.fields[at];
            child.flatten(key, join(key), self.objects, out, counters);
        }
        counters.extend(self.pairs.iter().map(|p| CounterPair {
            array: join(&p.array),
            counter: join(&p.counter),
            agree: p.agree,
            disagree: p.disagree.clone(),
        }));
    }

    fn flatten(&self, key: &str, path: String, of: u64, out: &mut Vec<PathShape>, counters: &mut Vec<CounterPair>) {
        let mut types = self.types.clone();
        types.sort_by_key(|t| std::cmp::Reverse(t.count));
        let map = self.entries.as_ref().map(|_| MapKeys {
            distinct: self.keys.len() as u64,
            more: self.keys_more,
            samples: self.key_samples.clone(),
        });
        out.push(PathShape {
            key: key.to_owned(),
            path: path.clone(),
            of,
            present: self.values,
            types,
            arrays: self.arrays.lengths(),
            strings: self.strings.lengths(),
            dates_as_strings: self.dates.clone(),
            numbers_as_strings: self.numbers.clone(),
            integers_as_strings: self.integers.clone(),
            map,
        });
        if let Some(element) = &self.element {
            element.flatten("[]", format!("{path}[]"), self.arrays.lengths().map_or(0, |l| l.count), out, counters);
        }
        if let Some(entries) = &self.entries {
            entries.flatten("{}", format!("{path}{{}}"), self.objects, out, counters);
        }
        self.flatten_fields(&path, out, counters);
    }
}

/// Counts one value of `kind`, keeping its document's `_id` among the first few.
fn note(types: &mut Vec<Seen>, kind: ElementType, id: Option<RawBsonRef<'_>>) {
    match types.iter_mut().find(|t| t.kind == kind) {
        Some(seen) => {
            seen.count += 1;
            keep_id(&mut seen.ids, id);
        }
        None => {
            let mut seen = Seen { kind, count: 1, ids: Vec::new() };
            keep_id(&mut seen.ids, id);
            types.push(seen);
        }
    }
}

fn note_one(seen: &mut Option<Seen>, kind: ElementType, id: Option<RawBsonRef<'_>>) {
    let seen = seen.get_or_insert_with(|| Seen { kind, count: 0, ids: Vec::new() });
    seen.count += 1;
    keep_id(&mut seen.ids, id);
}

fn keep_id(ids: &mut Vec<Bson>, id: Option<RawBsonRef<'_>>) {
    if ids.len() < SAMPLE_IDS {
        if let Some(id) = id.and_then(|id| Bson::try_from(id).ok()) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
}

fn merge_seen(types: &mut Vec<Seen>, other: Seen) {
    match types.iter_mut().find(|t| t.kind == other.kind) {
        Some(seen) => add_seen(seen, other),
        None => types.push(other),
    }
}

fn add_seen(seen: &mut Seen, other: Seen) {
    seen.count += other.count;
    for id in other.ids {
        if seen.ids.len() < SAMPLE_IDS && !seen.ids.contains(&id) {
            seen.ids.push(id);
        }
    }
}

fn remember_key(keys: &mut HashSet<String>, samples: &mut Vec<String>, more: &mut bool, key: &str) {
    if samples.len() < SAMPLE_IDS + 2 && !samples.iter().any(|s| s == key) {
        samples.push(key.to_owned());
    }
    if keys.len() < KEYS_COUNTED {
        keys.insert(key.to_owned());
    } else if !keys.contains(key) {
        *more = true;
    }
}

/// Whether `counter` is named as the count of the array `array`: `items_count`, `itemsCount`, `items_n`, `items_len`,
/// `n_items`, `num_items`, `count_items`, `nb_items`.
fn is_counter_of(counter: &str, array: &str) -> bool {
    if let Some(rest) = counter.strip_prefix(array) {
        return matches!(rest, "_count" | "Count" | "_n" | "_len" | "Len" | "_size" | "Size");
    }
    let capitalized = |rest: &str| {
        rest.len() == array.len()
            && array.is_char_boundary(1)
            && rest.is_char_boundary(1)
            && rest[..1] == array[..1].to_ascii_uppercase()
            && rest[1..] == array[1..]
    };
    ["n_", "num_", "count_", "nb_"].iter().any(|head| counter.strip_prefix(head) == Some(array))
        || ["n", "num", "count", "nb"].iter().any(|head| counter.strip_prefix(head).is_some_and(capitalized))
}

/// Whether a key looks like data rather than a field's name: a number, a date, an ObjectId or a UUID in hex.
fn is_data_key(key: &str) -> bool {
    let hex = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_hexdigit());
    let uuid = key.len() == 36 && key.split('-').map(str::len).eq([8, 4, 4, 4, 12]) && key.split('-').all(hex);
    (!key.is_empty() && key.bytes().all(|c| c.is_ascii_digit()))
        || is_date(key)
        || (key.len() == 24 && hex(key))
        || uuid
}

#[cfg(test)]
mod tests;
