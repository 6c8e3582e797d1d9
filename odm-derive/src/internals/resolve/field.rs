//! The facts of each field that several stages read, resolved once by the resolve stage for every field of the
//! container: how the validator learns its stored type, the serializer its serde converter names, its
//! `skip_serializing_if` predicate, its validator keywords, its counter link both ways and its computed-field links
//! (as indices into its siblings). Rules and generators read these ([`FieldFacts::of`]) and never derive them again,
//! so they cannot disagree.

use super::super::ast::{Data, Field, Style};
use super::super::attr;
use super::super::rules::Rule;
use super::super::source::{converter_type, Source};
use proc_macro2::TokenStream;

/// The resolved facts of every field of a container, by [`Field::id`].
pub struct FieldFacts {
    all: Vec<Facts>,
}

impl FieldFacts {
    /// Resolves the facts of every field of `data`, each field list linked among its own siblings.
    pub fn new(data: &Data) -> Self {
        let mut all: Vec<(usize, Facts)> = Vec::new();
        let mut add = |fields: &[Field]| all.extend(fields.iter().map(|f| f.id).zip(linked(fields)));
        match data {
            Data::Struct(fields) => add(fields),
            Data::Newtype(field) => add(std::slice::from_ref(&**field)),
            Data::Enum(variants) => {
                for v in variants {
                    match &v.style {
                        Style::Newtype(field) => add(std::slice::from_ref(&**field)),
                        Style::Struct(fields) => add(fields),
                        Style::Unit | Style::Tuple => {}
                    }
                }
            }
        }
        all.sort_by_key(|(id, _)| *id);
        debug_assert!(all.iter().enumerate().all(|(i, (id, _))| i == *id), "field ids number every field once");
        FieldFacts { all: all.into_iter().map(|(_, facts)| facts).collect() }
    }

    /// The facts of `field`, a field of the container these were resolved for.
    pub fn of(&self, field: &Field) -> &Facts {
        &self.all[field.id]
    }

    /// The field that `field`'s `counter = "…"` names among `fields`, its siblings, when there is one.
    pub fn counter_target<'f, 'a>(&self, field: &Field, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
        self.of(field).counter.map(|i| &fields[i])
    }

    /// The array among `fields`, its siblings, that `field` counts (the first, when several name it).
    pub fn counted_array<'f, 'a>(&self, field: &Field, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
        self.of(field).counted_by.map(|i| &fields[i])
    }

    /// True when some array among its siblings is counted by `field`.
    pub fn is_counter(&self, field: &Field) -> bool {
        self.of(field).counted_by.is_some()
    }
}

/// The facts of one list of sibling fields, in order, with their counter and computed-field links.
fn linked(fields: &[Field]) -> Vec<Facts> {
    let mut facts: Vec<Facts> = fields.iter().map(|f| Facts::of(&f.attrs)).collect();
    let names: Vec<&str> = fields.iter().map(|f| f.rust_name.as_str()).collect();
    let counters: Vec<Option<&str>> =
        fields.iter().map(|f| f.attrs.counter.as_ref().map(|c| c.value.as_str())).collect();
    for (f, (counter, counted_by)) in facts.iter_mut().zip(link_counters(&names, &counters)) {
        f.counter = counter;
        f.counted_by = counted_by;
    }
    link_computed(fields, &mut facts);
    facts
}

/// Links each computed field (`sum`/`min`/`max = "array.field"`) to the array it names, both ways; a name that is
/// no sibling stays unlinked, for `computed-source` to report.
fn link_computed(fields: &[Field], facts: &mut [Facts]) {
    for (target, field) in fields.iter().enumerate() {
        let Some((aggregate, path)) = field.attrs.computed.first().map(|(a, p)| (*a, p.value.as_str())) else {
            continue;
        };
        if path.contains(',') {
            // A sum of fields: each one it adds up carries the sum, for updates to follow.
            let sum_of: Vec<(String, Option<usize>)> = path
                .split(',')
                .map(str::trim)
                .map(|name| (name.to_owned(), fields.iter().position(|f| f.rust_name == name)))
                .collect();
            let inputs: Vec<usize> = sum_of.iter().filter_map(|(_, at)| *at).filter(|&at| at != target).collect();
            for &at in &inputs {
                facts[at].computes.push(Computes { aggregate, of: String::new(), target, addend: true });
            }
            facts[target].computed_from = inputs.first().copied();
            facts[target].sums = inputs;
            facts[target].sum_of = sum_of;
            continue;
        }
        let (array, of) = path.split_once('.').unwrap_or((path, ""));
        let Some(at) = fields.iter().position(|f| f.rust_name == array) else {
            continue;
        };
        facts[target].computed_from = Some(at);
        if at != target {
            let of = of.to_owned();
            facts[at].computes.push(Computes { aggregate, of, target, addend: false });
        }
    }
}

/// The resolved facts of one field (the links are filled by [`FieldFacts::new`], which needs the siblings).
pub struct Facts {
    /// How the validator learns the stored type.
    pub source: Source,
    /// Why odm cannot use the field's serde converter, and the rule that says so, when neither `bson_type` nor
    /// `mixed` replaces what the converter would tell (the source is then [`Source::Mixed`]).
    pub converter_error: Option<(Rule, &'static str)>,
    /// How a value written through the field's typed path (or compared by its diff) becomes BSON.
    pub encoding: Encoding,
    /// The `skip_serializing_if` predicate when it is a path (`Option::is_none`): one that is not is serde's error.
    pub skip_if: Option<String>,
    /// The validator keywords the field's bounds add (`minItems`, `maxItems`, `minLength`, `maxLength`), in that
    /// order: the one table the schema's tokens and the field table's text are both written from.
    pub keywords: Vec<(&'static str, i64)>,
    /// The index, among its siblings, of the field its `counter = "…"` names (itself included), if any does.
    pub counter: Option<usize>,
    /// The index, among its siblings, of the first array whose `counter = "…"` names this field.
    pub counted_by: Option<usize>,
    /// For an array: the fields computed from it (`sum`/`min`/`max = "<this array>…"` on a sibling).
    pub computes: Vec<Computes>,
    /// For a computed field: the index, among its siblings, of the array its first `sum`/`min`/`max` names (of the
    /// first field a sum of fields adds up).
    pub computed_from: Option<usize>,
    /// For a sum of fields (`sum = "subtotal, shipping"`): the indices, among its siblings, of the fields it adds up.
    pub sums: Vec<usize>,
    /// For a sum of fields: each name it lists as written (trimmed), with its index among the siblings when it
    /// names one (itself included, which the rules refuse).
    pub sum_of: Vec<(String, Option<usize>)>,
}

/// One field computed from an array, as the array's facts hold it.
pub struct Computes {
    /// `sum`, `min` or `max`.
    pub aggregate: crate::internals::symbol::Symbol,
    /// The element field's Rust name; empty for the elements themselves.
    pub of: String,
    /// The computed field's index among its siblings.
    pub target: usize,
    /// True when this field is one a sum of fields adds up, rather than an array.
    pub addend: bool,
}

impl Facts {
    /// Resolves what a field's own attributes decide.
    pub fn of(a: &attr::Field) -> Self {
        let keywords = [
            (&a.min_items, "minItems"),
            (&a.max_items, "maxItems"),
            (&a.min_len, "minLength"),
            (&a.max_len, "maxLength"),
        ]
        .into_iter()
        .filter_map(|(attr, keyword)| Some((keyword, attr.as_ref()?.value as i64)))
        .collect();
        let (source, converter_error) = source(a);
        Facts {
            converter_error,
            encoding: match serializer(a) {
                Some(f) => Encoding::Converter(f),
                None if source == Source::Trait => Encoding::Schema,
                None => Encoding::Value,
            },
            source,
            skip_if: a.skip_serializing_if.as_ref().map(|s| &s.value).filter(|s| is_path(s)).cloned(),
            keywords,
            counter: None,
            counted_by: None,
            computes: Vec::new(),
            computed_from: None,
            sums: Vec::new(),
            sum_of: Vec::new(),
        }
    }
}

/// How a field's values become BSON outside a whole document (typed paths, diffs).
pub enum Encoding {
    /// The field type's own `BsonSchema::to_bson`: the validator's type comes from the trait too.
    Schema,
    /// serde's serializer of the field type: a `bson_type` or `mixed` field without a converter (or with one that
    /// does not parse, which is serde's error).
    Value,
    /// serde's serializer through the converter's function (`m::serialize`, `f`, or
    /// `__odm::serde_with::As::<T>::serialize` for `serde_as`).
    Converter(TokenStream),
}

/// Links each array to its counter and back, by the Rust names `counter = "…"` gives: `names[i]` is field `i`'s
/// name, `counters[i]` the counter it names; returns `(counter, counted_by)` per field. Once per field list, so no
/// stage searches the siblings again.
fn link_counters(names: &[&str], counters: &[Option<&str>]) -> Vec<(Option<usize>, Option<usize>)> {
    let mut links: Vec<(Option<usize>, Option<usize>)> = vec![(None, None); names.len()];
    for (i, c) in counters.iter().enumerate() {
        // The first field of that name, in declaration order.
        let Some(target) = c.and_then(|c| names.iter().position(|n| *n == c)) else {
            continue;
        };
        links[i].0 = Some(target);
        if links[target].1.is_none() {
            links[target].1 = Some(i);
        }
    }
    links
}

/// Decides a field's [`Source`], with the converter's error for the type rules to report.
fn source(a: &attr::Field) -> (Source, Option<(Rule, &'static str)>) {
    if a.mixed.is_some() {
        return (Source::Mixed, None);
    }
    if let Some(t) = &a.bson_type {
        return (Source::Fixed(t.value.clone()), None);
    }
    match &a.converter {
        Some(conv) => match converter_type(&conv.value) {
            Ok(t) => (Source::Fixed(t.to_owned()), None),
            Err(e) => (Source::Mixed, Some(e)),
        },
        None => (Source::Trait, None),
    }
}

/// Whether a field may hold much of a document (the size budget points at the largest): anything but a scalar the
/// tokens name, whose stored size is a few bytes; a string is small only without a length bound, as it then leaves
/// the budget unbounded. Asked of a model's fields only, when its size check is generated.
pub fn may_be_large(source: &Source, ty: &syn::Type, a: &attr::Field) -> bool {
    use super::super::ty::{classify, is_known_scalar, unwrap_option, TyKind};
    let scalar = *source == Source::Trait && is_known_scalar(ty);
    let bounded_string = a.max_len.is_some() && matches!(classify(unwrap_option(ty)), TyKind::Str);
    !scalar || bounded_string
}

/// The path of the function that serializes a field through its serde converter, if it declares one.
fn serializer(a: &attr::Field) -> Option<TokenStream> {
    use quote::quote;
    match (&a.serialize_fn, &a.converter) {
        (Some(f), _) => syn::parse_str::<syn::ExprPath>(f).ok().map(|p| quote!(#p)),
        (None, Some(as_ty)) => {
            syn::parse_str::<syn::Type>(&as_ty.value).ok().map(|t| quote!(__odm::serde_with::As::<#t>::serialize))
        }
        (None, None) => None,
    }
}

/// Whether a `skip_serializing_if` predicate is a path (`Option::is_none`, `::std::vec::Vec::is_empty`): checked on
/// its text, which is what almost every predicate is, before asking `syn` (a debug build under `cargo check`, where a
/// parse costs a hundred times more); anything else, a turbofish or a qualified path, is parsed.
fn is_path(s: &str) -> bool {
    let plain = s.strip_prefix("::").unwrap_or(s).split("::").all(|seg| {
        seg.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && seg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && seg != "_"
            && !is_keyword(seg)
    });
    plain || syn::parse_str::<syn::ExprPath>(s).is_ok()
}

/// Rust's keywords that cannot be a path segment (`crate`, `self`, `super` and `Self` can).
fn is_keyword(s: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false", "fn", "for",
        "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
        "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
    ];
    KEYWORDS.contains(&s)
}

#[cfg(test)]
mod tests {
    use super::{is_path, link_counters, Encoding, Facts};
    use crate::internals::attr;
    use crate::internals::ctxt::Ctxt;
    use crate::internals::source::Source;

    /// The facts of a field declared with `attrs`.
    fn facts(attrs: proc_macro2::TokenStream) -> Facts {
        let field: syn::DeriveInput = syn::parse2(quote::quote!(struct S { #attrs f: u8 })).expect("parses");
        let syn::Data::Struct(s) = &field.data else { unreachable!() };
        let cx = Ctxt::new();
        let a = attr::Field::from_ast(&cx, &s.fields.iter().next().expect("one field").attrs);
        cx.check().expect("valid attributes");
        Facts::of(&a)
    }

    #[test]
    fn a_fields_facts_come_from_its_attributes() {
        let plain = facts(quote::quote!());
        assert!(plain.source == Source::Trait && matches!(plain.encoding, Encoding::Schema));
        assert!(plain.keywords.is_empty() && plain.skip_if.is_none() && plain.converter_error.is_none());

        // One keyword table, in the order the validator writes them, whatever the attributes' order.
        let bounded = facts(quote::quote!(#[odm(max_len = 9, min_items = 1, max_items = 5)]));
        assert_eq!(bounded.keywords, [("minItems", 1), ("maxItems", 5), ("maxLength", 9)]);

        let skipped = facts(quote::quote!(#[serde(skip_serializing_if = "Option::is_none")]));
        assert_eq!(skipped.skip_if.as_deref(), Some("Option::is_none"));
        assert!(facts(quote::quote!(#[serde(skip_serializing_if = "not a path")])).skip_if.is_none());

        let converted = facts(quote::quote!(#[serde(with = "odm::bson::serde_helpers::object_id::FromHexString")]));
        assert!(converted.source == Source::Fixed("objectId".to_owned()));
        assert!(matches!(&converted.encoding, Encoding::Converter(f) if f.to_string().ends_with("serialize")));

        // A converter odm cannot read: any type, and the error kept for the type rules.
        let unknown = facts(quote::quote!(#[serde(with = "my_mod")]));
        assert!(unknown.source == Source::Mixed && unknown.converter_error.is_some());
        assert!(matches!(unknown.encoding, Encoding::Converter(_)));
        // `bson_type` decides the type instead, and values go through the type's serializer.
        let declared = facts(quote::quote!(#[odm(bson_type = "string")]));
        assert!(declared.source == Source::Fixed("string".to_owned()) && matches!(declared.encoding, Encoding::Value));
    }

    #[test]
    fn only_scalars_named_by_their_tokens_are_small() {
        let large = |field: proc_macro2::TokenStream| {
            let input: syn::DeriveInput = syn::parse2(quote::quote!(struct S { #field })).expect("parses");
            let syn::Data::Struct(s) = &input.data else { unreachable!() };
            let f = s.fields.iter().next().expect("one field");
            let cx = Ctxt::new();
            let a = attr::Field::from_ast(&cx, &f.attrs);
            cx.check().expect("valid attributes");
            super::may_be_large(&Facts::of(&a).source, &f.ty, &a)
        };
        assert!(!large(quote::quote!(n: i64)));
        assert!(!large(quote::quote!(id: ObjectId)));
        assert!(!large(quote::quote!(note: Option<String>)));
        assert!(large(quote::quote!(#[odm(max_len = 9)] note: Option<String>)));
        assert!(large(quote::quote!(#[odm(max_items = 3)] lines: Vec<Line>)));
        assert!(large(quote::quote!(line: Line)));
        assert!(large(quote::quote!(#[odm(bson_type = "string", max_len = 3)] code: Code)));
    }

    #[test]
    fn a_predicate_is_a_path_whether_read_off_its_text_or_parsed() {
        for path in ["Option::is_none", "::std::vec::Vec::is_empty", "crate::skip", "is_zero", "Self::empty", "_x"] {
            assert!(is_path(path), "{path}");
        }
        // Not plain, but paths all the same: syn decides.
        assert!(is_path("Option::<u8>::is_none"));
        assert!(is_path("<Vec<u8>>::is_empty"));
        for not in ["", "a::", "::", "a::::b", "1st", "fn::x", "x::fn", "not a path", "a.b", "_"] {
            assert!(!is_path(not), "{not}");
        }
    }

    #[test]
    fn every_field_of_a_container_has_its_facts_linked_among_its_siblings() {
        use crate::internals::ast::{Container, Data, Derive, Style};
        let input: syn::DeriveInput = syn::parse2(quote::quote!(
            #[serde(tag = "t")]
            enum E {
                A {
                    #[odm(max_items = 3, counter = "n")]
                    items: Vec<u8>,
                    n: i32,
                },
                B(u8),
                C {
                    #[odm(sum = "x, y")]
                    total: i64,
                    x: i32,
                    y: i32,
                },
            }
        ))
        .expect("parses");
        let cx = Ctxt::new();
        let cont = Container::from_ast(&cx, &input, Derive::Embedded).expect("an enum");
        cx.check().expect("valid attributes");
        let facts = super::FieldFacts::new(&cont.data);
        let Data::Enum(variants) = &cont.data else { unreachable!() };
        let (Style::Struct(a), Style::Newtype(b), Style::Struct(c)) =
            (&variants[0].style, &variants[1].style, &variants[2].style)
        else {
            unreachable!()
        };
        // Numbered across the variants, in declaration order.
        let ids: Vec<usize> = a.iter().chain(std::iter::once(&**b)).chain(c).map(|f| f.id).collect();
        assert_eq!(ids, [0, 1, 2, 3, 4, 5]);
        // Linked within each variant: indices are among the variant's own fields.
        assert_eq!(facts.counter_target(&a[0], a).map(|f| f.rust_name.as_str()), Some("n"));
        assert!(facts.is_counter(&a[1]) && !facts.is_counter(&a[0]));
        assert_eq!(facts.of(&a[0]).keywords, [("maxItems", 3)]);
        assert_eq!(facts.of(&c[0]).sums, [1, 2]);
        assert_eq!(facts.of(&c[0]).sum_of, [("x".to_owned(), Some(1)), ("y".to_owned(), Some(2))]);
        assert!(facts.of(&c[1]).computes.iter().all(|k| k.target == 0 && k.addend));
        assert!(facts.of(b).computes.is_empty() && facts.of(b).counter.is_none());
    }

    #[test]
    fn counters_link_both_ways_by_name() {
        let names = ["items", "count", "tags", "tag_count", "me"];
        let counters = [Some("count"), None, Some("count"), Some("nowhere"), Some("me")];
        let links = link_counters(&names, &counters);
        assert_eq!(links[0], (Some(1), None));
        // Two arrays name one counter (a rule refuses it): the first is the one it counts.
        assert_eq!(links[1], (None, Some(0)));
        assert_eq!(links[2], (Some(1), None));
        assert_eq!(links[3], (None, None));
        // An array naming itself (a rule refuses it) links to itself both ways.
        assert_eq!(links[4], (Some(4), Some(4)));
    }
}
