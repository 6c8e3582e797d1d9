//! Operators on arrays: `$push` (with modifiers), `$addToSet`, `$pull`, `$pop`, with the array's counter kept in
//! step and guards for counted arrays.

use super::markers::AllowsSlice;
use super::modifiers::Modifiers;
use super::value::{conflict, Update};
use crate::base::error::Invalid;
use crate::base::filter::{element_condition, Element, Filter};
use crate::base::operator::Operator;
use crate::base::path::{Access, ArrayWritable, AsPath, PullByValue, Pushable, RawPath, Uncounted};
use crate::base::schema::paths::{ArrayLike, ElemNode};
use crate::base::set_element;
use bson::{Bson, Document};
use std::marker::PhantomData;

impl<R> Update<R> {
    /// `$push` of one element. On a counted array the counter grows by one in the same update; on a `keep_last`
    /// array the oldest elements beyond the bound are cut. Otherwise a push past the array's bound is refused by the
    /// validator: nothing is cut silently. Not offered on an array declared a set (`unique_items`): use
    /// [`Update::add_to_set`].
    pub fn push<P: AsPath<R>>(mut self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: ArrayWritable + Pushable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        match Self::encode_item(raw, &item.into()) {
            // Nothing pushed to this path yet and nothing to cut: a plain `$push` of the element, as `push_impl`
            // would write it, without wrapping the value on the way.
            Ok(v) if raw.keep_last().is_none() && !self.pushes_to(raw) => {
                self.add(raw, Operator::Push, Ok(v));
                self.bump_counter(raw, 1);
                self
            }
            item => self.push_impl(raw, item.map(Items::One), None, None, None),
        }
    }

    /// True when the update already pushes to `raw`'s path.
    fn pushes_to(&mut self, raw: &RawPath) -> bool {
        self.existing(Operator::Push).is_some_and(|push| push.contains_key(&*raw.key))
    }

    /// `$push` with `$each`: appends all `items`, counting them on a counted array. Not offered on a set.
    pub fn push_each<P: AsPath<R>>(
        self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
    ) -> Self
    where
        P::Access: ArrayWritable + Pushable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        self.push_impl(raw, items.map(Items::Many), None, None, None)
    }

    /// `$push` with modifiers: `|m| m.position(0).sort_by(|e| e.at().desc()).slice(10)`. `$slice` is not offered on
    /// counted arrays; no `$push` is offered on a set.
    pub fn push_with<P: AsPath<R>, S>(
        self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
        modifiers: impl FnOnce(Modifiers<R, P::Value, P::Access>) -> Modifiers<R, P::Value, P::Access, S>,
    ) -> Self
    where
        P::Access: AllowsSlice<S> + Pushable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        let m = modifiers(Modifiers { position: None, sort: None, slice: None, _marker: PhantomData });
        self.push_impl(raw, items.map(Items::Many), m.position, m.sort, m.slice)
    }

    fn push_impl(
        mut self,
        raw: &RawPath,
        items: Result<Items, Invalid>,
        position: Option<i32>,
        sort: Option<Result<Bson, Invalid>>,
        user_slice: Option<i32>,
    ) -> Self {
        let items = match items {
            Ok(items) => items,
            Err(e) => {
                self.fail(e);
                return self;
            }
        };
        let n = items.len();
        let slice = user_slice.or(raw.keep_last().map(|k| -(k as i32)));
        let plain = position.is_none() && sort.is_none() && slice.is_none();
        // Pushes to one path merge into one `$each`, so `push(a, x).push(a, y)` is one operator, as intended.
        let mergeable = position.is_none() && sort.is_none() && user_slice.is_none();
        if mergeable && raw.check().is_ok() {
            if let Some(existing) = self.existing(Operator::Push).and_then(|push| push.get_mut(&*raw.key)) {
                match existing {
                    // `{$each: [...]}`, alone or with the `$slice` of a `keep_last` array. Elements never have `$`
                    // keys, so a spec is told from a pushed document by its first key.
                    Bson::Document(spec) if spec.keys().next().is_some_and(|k| k == "$each") => {
                        let keep_last_only =
                            spec.len() == 2 && spec.contains_key("$slice") && raw.keep_last().is_some();
                        if (plain && spec.len() == 1) || (!plain && keep_last_only) {
                            if let Ok(each) = spec.get_array_mut("$each") {
                                items.append_to(each);
                                self.bump_counter(raw, n as i32);
                                return self;
                            }
                        }
                    }
                    // One element pushed before: now a list.
                    element if plain => {
                        let mut each = vec![std::mem::take(element)];
                        items.append_to(&mut each);
                        *element = push_each_operand(each);
                        self.bump_counter(raw, n as i32);
                        return self;
                    }
                    _ => {}
                }
            }
        }
        if plain {
            let value = match items {
                Items::One(v) => v,
                Items::Many(list) => push_each_operand(list),
            };
            self.add(raw, Operator::Push, Ok(value));
            self.bump_counter(raw, n as i32);
            return self;
        }
        let mut spec = Document::new();
        spec.insert("$each", items.into_vec());
        if let Some(p) = position {
            spec.insert("$position", p);
        }
        match sort {
            Some(Ok(s)) => {
                spec.insert("$sort", s);
            }
            Some(Err(e)) => {
                self.fail(e);
                return self;
            }
            None => {}
        }
        if let Some(s) = slice {
            spec.insert("$slice", s);
        }
        self.add(raw, Operator::Push, Ok(Bson::Document(spec)));
        self.bump_counter(raw, n as i32);
        self
    }

    /// Adds `by` to the counter of a counted array (one `$inc` per counter, however many pushes). The operand has the
    /// counter's own type: on an upsert `$inc` creates the counter with its operand's type, and a `long` counter
    /// created as an `int` would be refused by the validator.
    fn bump_counter(&mut self, raw: &RawPath, by: i32) {
        if by == 0 {
            return;
        }
        let Some(counter) = raw.counter_key() else { return };
        let first = || if raw.counter_long() { Bson::Int64(i64::from(by)) } else { Bson::Int32(by) };
        if !self.inc_counter(counter, by, first) {
            let counter = raw.counter_key().expect("counted");
            self.fail(conflict(&counter, Operator::Inc, &counter, Operator::Inc));
        }
    }

    /// `$addToSet` of one element. On a counted array this becomes `$push` + `$inc` guarded by a filter condition that
    /// excludes documents already holding `item` (one helpful vote per voter): a second vote matches nothing.
    ///
    /// The guard finds `item` as odm reads elements: a document element equal to it as a set of keys, in any key
    /// order (another client may write `{w: 2, v: "v1"}` where odm writes `{v: "v1", w: 2}`), an optional key it
    /// leaves out absent there too; scalars compare with `$ne`. See rule [`array-unique`](crate::rules#array-unique).
    pub fn add_to_set<P: AsPath<R>>(mut self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let Some(value) = self.encoded_item(raw, &item.into()) else { return self };
        if <P::Access as ArrayWritable>::COUNTED {
            let meta = <<P::Value as ArrayLike>::Item as crate::base::schema::BsonSchema>::type_meta();
            let cond = match set_element::element_query(&value, meta) {
                // No element equal as a set of keys.
                Some(element) => bson::doc! { "$not": { "$elemMatch": element } },
                // `$ne` on an array matches documents where no element equals the value.
                None => bson::doc! { "$ne": value.clone() },
            };
            self.guard(raw, "add_to_set", raw.key.clone().into_owned(), Bson::Document(cond));
            return self.push_impl(raw, Ok(Items::One(value)), None, None, None);
        } else {
            self.add(raw, Operator::AddToSet, Ok(value));
        }
        self
    }

    /// `$addToSet` with `$each`. Not offered on counted arrays: how many elements are new is unknown.
    pub fn add_each_to_set<P: AsPath<R>>(
        mut self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
    ) -> Self
    where
        P::Access: Uncounted,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        self.add(raw, Operator::AddToSet, items.map(|i| Bson::Document(bson::doc! { "$each": i })));
        self
    }

    /// `$pull` of every element equal to `item`.
    ///
    /// On a counted set (`#[odm(counter = "…", unique_items)]`) the update removes exactly one element and the
    /// counter drops by one in the same statement. For that, the update only applies to documents whose set holds
    /// exactly one element equal to `item` (a filter guard): a second removal of the same value, concurrent or not,
    /// matches nothing, and so does a vote never cast.
    ///
    /// A document element is equal to `item` as odm reads it: the same keys with the same values in any key order,
    /// an optional key `item` leaves out absent there too (see rule [`array-unique`](crate::rules#array-unique)).
    /// The `$pull` removes every element equal in that sense, and the guard counts with the same comparison, so the
    /// number removed is the one the counter loses. A set holding one element twice in two key orders (written around
    /// odm: the server's `uniqueItems` compares key order and lets it through; `check_schema` reports it) would lose
    /// two elements for a counter dropping by one: the guard does not hold there, so nothing is written rather than
    /// miscount, and the collection's write fails with [`Error::DuplicateInSet`](crate::Error::DuplicateInSet)
    /// (the document, the set, how many copies, the repair) instead of answering "matched 0", which keeps meaning
    /// "not there". Telling the two apart costs one read, made after such a pull matched nothing and after every
    /// `update_many` with one, in the update's session or transaction (`update_one`, `update_many`,
    /// `find_one_and_update`; an `update_many` changes the documents holding the element once and then fails naming
    /// one it left, with how many it changed; an operation of a bulk write still counts as matching nothing:
    /// `check_schema` lists such sets). Repair the set (the rule
    /// [`array-unique`](crate::rules#array-unique) says how), then pull. Scalars compare whole (`$eq`). Not offered
    /// on a counted array that may hold duplicates.
    pub fn pull<P: AsPath<R>>(mut self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: ArrayWritable + PullByValue,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let Some(value) = self.encoded_item(raw, &item.into()) else { return self };
        if <P::Access as ArrayWritable>::COUNTED {
            let meta = <<P::Value as ArrayLike>::Item as crate::base::schema::BsonSchema>::type_meta();
            let pulled = match set_element::element_query(&value, meta) {
                // A document condition: each element is matched as a document by it, in any key order.
                Some(element) => {
                    self.guard_once(raw, set_element::count_equal(&format!("${}", raw.key), &value, meta));
                    Bson::Document(element)
                }
                // `{$eq: v}` as a `$pull` condition compares each element whole, and as a filter matches documents
                // holding an element equal to `v`, which a set holds at most once.
                None => {
                    let cond = Bson::Document(bson::doc! { "$eq": value.clone() });
                    self.guard(raw, "pull", raw.key.clone().into_owned(), cond.clone());
                    cond
                }
            };
            self.add(raw, Operator::Pull, Ok(pulled));
            self.extra().pulled.push((raw.key.clone().into_owned(), value));
            self.bump_counter(raw, -1);
        } else {
            self.add(raw, Operator::Pull, Ok(value));
        }
        self
    }

    /// `$pull` of every element matching a condition built from a path to the element: `|e| e.price().lt(0)`.
    /// Not offered on counted arrays, sets included: how many elements a condition removes is not known to the update,
    /// so the counter could not follow (remove one value of a counted set with [`Update::pull`]).
    pub fn pull_where<P: AsPath<R>>(
        mut self,
        path: P,
        cond: impl FnOnce(ElemNode<R, P::Value, P::Access>) -> Filter<R>,
    ) -> Self
    where
        P::Access: Uncounted,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let root = crate::base::path::Path::<R, <P::Value as ArrayLike>::Item, <P::Access as Access>::Elem>::with_raw(
            RawPath::default(),
        );
        let cond = cond(root.into()).into_marked().and_then(|d| element_condition(d, &raw.key)).map(|c| match c {
            // A condition on the element itself (`$pull: {tags: {$in: [...]}}`).
            Element::Itself(v) => v,
            Element::Fields(d) => Bson::Document(d),
        });
        self.add(raw, Operator::Pull, cond);
        self
    }

    /// `$pop: -1`: removes the first element. On a counted array the update only applies to documents whose array is
    /// not empty, and the counter drops by one.
    pub fn pop_first<P: AsPath<R>>(self, path: P) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        self.pop(path, -1)
    }

    /// `$pop: 1`: removes the last element; counted arrays as in [`Update::pop_first`].
    pub fn pop_last<P: AsPath<R>>(self, path: P) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        self.pop(path, 1)
    }

    fn pop<P: AsPath<R>>(mut self, path: P, end: i32) -> Self
    where
        P::Access: ArrayWritable,
    {
        let raw = &path.as_path().raw;
        self.add(raw, Operator::Pop, Ok(Bson::Int32(end)));
        if raw.counter().is_some() {
            // Only a non-empty array loses an element: guard so the counter drops only then.
            self.guard(raw, "pop", format!("{}.0", raw.key), Bson::Document(bson::doc! { "$exists": true }));
            self.bump_counter(raw, -1);
        }
        self
    }
}

/// The operand of a `$push` of `each` without modifiers: one element alone (fewer bytes, same effect), several as
/// `{$each: [...]}`.
pub(super) fn push_each_operand(mut each: Vec<Bson>) -> Bson {
    if each.len() == 1 {
        return each.pop().expect("one element");
    }
    let mut spec = Document::new();
    spec.insert("$each", each);
    Bson::Document(spec)
}

/// Encoded elements of one `$push`: one element needs no list.
enum Items {
    One(Bson),
    Many(Vec<Bson>),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::One(_) => 1,
            Items::Many(list) => list.len(),
        }
    }

    fn append_to(self, list: &mut Vec<Bson>) {
        match self {
            Items::One(v) => list.push(v),
            Items::Many(mut more) => list.append(&mut more),
        }
    }

    fn into_vec(self) -> Vec<Bson> {
        match self {
            Items::One(v) => vec![v],
            Items::Many(list) => list,
        }
    }
}
