//! Syntactic classification of field types. The derive only sees tokens, so this recognises the standard shapes by
//! their last path segment; the runtime trait `BsonSchema` (with `#[diagnostic::on_unimplemented]`) and generated
//! const assertions back it up for type aliases.

use syn::{GenericArgument, PathArguments, Type};

/// What a field type stores, as far as the tokens tell.
pub enum TyKind<'a> {
    /// `Option<T>`.
    Option(&'a Type),
    /// `Vec<T>`, `VecDeque<T>`, sets, slices, `[T; N]` (with N when fixed).
    Array { elem: &'a Type, fixed: Option<&'a syn::Expr> },
    /// `HashMap<K, V>` / `BTreeMap<K, V>`.
    Map { key: &'a Type, value: &'a Type },
    /// A Rust integer; `bits` and signedness decide the BSON type.
    Int,
    /// An integer width that cannot be stored faithfully.
    Unfaithful { name: String, why: &'static str },
    /// Types that store several BSON types (`Bson`, `serde_json::Value`, …).
    Multi { name: String },
    /// A tuple: stored as an array whose elements may differ in type.
    Tuple,
    /// `f32`, `f64`, `bool`: scalars, but not integers (for counters).
    NonInteger,
    /// `chrono::DateTime<…>`, `NaiveDateTime`, … : written as strings by their own serde impls.
    ChronoLike,
    /// `String`, `str`, `char`.
    Str,
    /// `Box<T>`, `Arc<T>`: stored as the inner type.
    Boxed(&'a Type),
    /// Anything else (primitives, bson types, user types): decided by the runtime trait.
    Other,
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

fn path_string(ty: &Type) -> String {
    match ty {
        Type::Path(p) => p.path.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::"),
        _ => String::new(),
    }
}

fn type_args(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Classifies one type.
pub fn classify(ty: &Type) -> TyKind<'_> {
    match ty {
        Type::Array(a) => return TyKind::Array { elem: &a.elem, fixed: Some(&a.len) },
        Type::Slice(s) => return TyKind::Array { elem: &s.elem, fixed: None },
        Type::Reference(r) => return classify(&r.elem),
        Type::Group(g) => return classify(&g.elem),
        Type::Paren(p) => return classify(&p.elem),
        Type::Tuple(t) if !t.elems.is_empty() => return TyKind::Tuple,
        _ => {}
    }
    let Some(seg) = last_segment(ty) else {
        return TyKind::Other;
    };
    let name = seg.ident.to_string();
    let args = type_args(seg);
    // Only a few names need the whole path; rendering it for every type is most of this function's cost.
    let path = || path_string(ty);
    match (name.as_str(), args.as_slice()) {
        ("Option", [inner]) => TyKind::Option(inner),
        ("Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet" | "LinkedList" | "BinaryHeap", [elem, ..]) => {
            TyKind::Array { elem, fixed: None }
        }
        ("HashMap" | "BTreeMap" | "IndexMap", [key, value, ..]) => TyKind::Map { key, value },
        ("Box" | "Arc" | "Rc", [inner]) => TyKind::Boxed(inner),
        ("i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32", []) => TyKind::Int,
        ("u64" | "usize", []) => TyKind::Unfaithful {
            name,
            why: "values above i64::MAX fail to serialize, since BSON has no unsigned 64-bit integer; use `i64`, \
                  or `u32` (stored as `long`)",
        },
        ("isize", []) => TyKind::Unfaithful {
            name,
            why: "its width depends on the platform; use `i64` (stored as `long`) or `i32` (stored as `int`)",
        },
        ("i128" | "u128", []) => TyKind::Unfaithful {
            name,
            why: "BSON has no 128-bit integer and serialization fails; use `i64` or `odm::bson::Decimal128`",
        },
        ("String" | "str" | "char", []) => TyKind::Str,
        ("f32" | "f64" | "bool", []) => TyKind::NonInteger,
        ("Bson" | "RawBson" | "RawBsonRef" | "RawBsonBuf", []) => TyKind::Multi { name: path() },
        // A bare `Value` may be the user's own type; `serde_json::Value` imported bare is still refused by the
        // missing `BsonSchema` impl.
        ("Value", []) if path().contains("json") => TyKind::Multi { name: path() },
        ("DateTime", [_]) => TyKind::ChronoLike,
        (
            "NaiveDateTime" | "NaiveDate" | "NaiveTime" | "OffsetDateTime" | "PrimitiveDateTime" | "Timestamp"
            | "Zoned" | "SystemTime",
            [],
        ) if !path().starts_with("bson") => {
            if name == "Timestamp" && !path().contains("jiff") {
                // `bson::Timestamp` imported bare is a real BSON type.
                return TyKind::Other;
            }
            TyKind::ChronoLike
        }
        _ => TyKind::Other,
    }
}

/// Strips `Option<…>` (once).
pub fn unwrap_option(ty: &Type) -> &Type {
    match classify(ty) {
        TyKind::Option(inner) => inner,
        _ => ty,
    }
}

/// The type as written, without token spacing (`DateTime<Utc>`), for messages.
pub fn display(ty: &Type) -> String {
    let s = quote::ToTokens::to_token_stream(ty).to_string();
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // Keep the spaces in `dyn Trait`, `&'a mut T`, `[T; N]` and `(A, B)`; drop the ones quote puts around
        // other punctuation.
        if c == ' ' {
            let prev = out.chars().last().unwrap_or(' ');
            let next = chars.peek().copied().unwrap_or(' ');
            let between_words = prev.is_alphanumeric() && (next.is_alphanumeric() || next == '\'');
            if between_words || prev == ';' || prev == ',' {
                out.push(' ');
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// True when the tokens name a scalar outright (`i32`, `String`, `f64`, `ObjectId`, `DateTime`, …, also inside
/// `Option`/`Box`/`Arc`): no const assertion is needed to learn that it is not an array. Only the spellings
/// `bson` and std use are trusted; anything else (aliases included) is asserted on its real type.
pub fn is_known_scalar(ty: &Type) -> bool {
    match classify(ty) {
        TyKind::Option(inner) | TyKind::Boxed(inner) => is_known_scalar(inner),
        TyKind::Int | TyKind::Str | TyKind::NonInteger => true,
        TyKind::Other => last_segment(ty).is_some_and(|s| {
            s.arguments.is_none()
                && ["ObjectId", "DateTime", "Decimal128", "Uuid", "Binary", "Timestamp"].iter().any(|n| s.ident == n)
        }),
        _ => false,
    }
}

/// The type as source text when its tokens alone make `BsonSchema` certain: std scalars, `bson` types named by
/// their full path (`bson::oid::ObjectId`, `odm::bson::DateTime`), and `Option`, `Box` or `Vec` of those. No
/// error can point at such a type, so generated code may name it without the field's span (and at less cost:
/// text instead of tokens). `None` for anything else, the user's own types included.
pub fn certain_text(ty: &Type) -> Option<String> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let segs = &p.path.segments;
    let last = segs.last()?;
    if segs.len() == 1 {
        let name = last.ident.to_string();
        let args = type_args(last);
        return match (name.as_str(), args.as_slice()) {
            ("i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "f32" | "f64" | "bool" | "char" | "String", [])
                if last.arguments.is_none() && p.path.leading_colon.is_none() =>
            {
                Some(name)
            }
            ("Option" | "Box" | "Vec", [inner]) => Some(format!("{name}<{}>", certain_text(inner)?)),
            _ => None,
        };
    }
    if segs.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let names: Vec<String> = segs.iter().map(|s| s.ident.to_string()).collect();
    let rest = match names.first().map(String::as_str) {
        Some("bson") => &names[1..],
        Some("odm") if names.get(1).is_some_and(|n| n == "bson") => &names[2..],
        _ => return None,
    };
    let known = matches!(
        rest.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["oid", "ObjectId"]
            | ["DateTime" | "Decimal128" | "Binary" | "Uuid" | "Timestamp" | "Document"]
            | ["datetime", "DateTime"]
    );
    let lead = if p.path.leading_colon.is_some() { "::" } else { "" };
    known.then(|| format!("{lead}{}", names.join("::")))
}

/// For a field typed `Version<…>` (odm's version field): `Some` with the number when it is written as a literal
/// (`Version<3>`), `Some(None)` for another argument (a const or an alias: asserted on its real type).
pub fn version_arg(ty: &Type) -> Option<Option<u64>> {
    let seg = last_segment(ty).filter(|s| s.ident == "Version")?;
    let PathArguments::AngleBracketed(args) = &seg.arguments else { return None };
    let [arg] = args.args.iter().collect::<Vec<_>>()[..] else { return None };
    Some(match arg {
        GenericArgument::Const(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })) => n.base10_parse().ok(),
        GenericArgument::Type(Type::Path(p)) => p.path.get_ident().and_then(|i| i.to_string().parse().ok()),
        _ => None,
    })
}

/// True if `ty` is (syntactically) `ObjectId` or `Option<ObjectId>`.
pub fn is_object_id(ty: &Type) -> bool {
    last_segment(unwrap_option(ty)).is_some_and(|s| s.ident == "ObjectId")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_drops_token_spacing() {
        for (src, shown) in [
            ("chrono :: DateTime < chrono :: Utc >", "chrono::DateTime<chrono::Utc>"),
            ("[u8 ; 3]", "[u8; 3]"),
            ("(f64 , f64)", "(f64, f64)"),
            ("& 'a mut T", "&'a mut T"),
            ("Option < Vec < i32 > >", "Option<Vec<i32>>"),
        ] {
            let ty: Type = syn::parse_str(src).unwrap();
            assert_eq!(display(&ty), shown);
        }
    }

    #[test]
    fn classify_shapes() {
        let t = |s: &str| -> Type { syn::parse_str(s).unwrap() };
        assert!(matches!(classify(&t("Vec<u8>")), TyKind::Array { fixed: None, .. }));
        assert!(matches!(classify(&t("[u8; 3]")), TyKind::Array { fixed: Some(_), .. }));
        assert!(matches!(classify(&t("(i32, i32)")), TyKind::Tuple));
        assert!(matches!(classify(&t("odm::bson::Bson")), TyKind::Multi { .. }));
        assert!(matches!(classify(&t("serde_json::Value")), TyKind::Multi { .. }));
        // A bare `Value` may be the user's own type.
        assert!(matches!(classify(&t("Value")), TyKind::Other));
        assert!(matches!(classify(&t("chrono::DateTime<Utc>")), TyKind::ChronoLike));
        assert!(matches!(classify(&t("odm::bson::Timestamp")), TyKind::Other));
        assert!(matches!(classify(&t("u64")), TyKind::Unfaithful { .. }));
        assert!(matches!(classify(&t("f64")), TyKind::NonInteger));
    }

    #[test]
    fn certain_types_as_text() {
        let t = |s: &str| -> Type { syn::parse_str(s).unwrap() };
        for (src, text) in [
            ("i32", "i32"),
            ("Option < String >", "Option<String>"),
            ("Vec<Box<f64>>", "Vec<Box<f64>>"),
            ("bson::oid::ObjectId", "bson::oid::ObjectId"),
            ("::odm::bson::DateTime", "::odm::bson::DateTime"),
            ("Option<bson::Document>", "Option<bson::Document>"),
        ] {
            assert_eq!(certain_text(&t(src)).as_deref(), Some(text), "{src}");
        }
        for other in
            ["Line", "ObjectId", "Vec<Line>", "std::string::String", "bson::Foo", "HashMap<String, i32>", "::i32"]
        {
            assert_eq!(certain_text(&t(other)), None, "{other}");
        }
    }

    #[test]
    fn known_scalars_by_their_tokens() {
        let t = |s: &str| -> Type { syn::parse_str(s).unwrap() };
        for scalar in ["i32", "Option<String>", "Box<f64>", "bson::oid::ObjectId", "bson::DateTime", "Option<Uuid>"] {
            assert!(is_known_scalar(&t(scalar)), "{scalar}");
        }
        for other in ["Tags", "Vec<i32>", "Option<Line>", "chrono::DateTime<Utc>", "[u8; 4]", "HashMap<String, i32>"] {
            assert!(!is_known_scalar(&t(other)), "{other}");
        }
    }
}
