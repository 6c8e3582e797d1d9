//! Syntactic classification of field types. The derive only sees tokens, so this recognises the standard shapes by
//! their last path segment; the runtime trait `BsonSchema` (with `#[diagnostic::on_unimplemented]`) and generated
//! const assertions back it up for type aliases.

use syn::{GenericArgument, PathArguments, Type};

/// What a field type stores, as far as the tokens tell.
pub enum TyKind<'a> {
    /// `Option<T>`.
    Option(&'a Type),
    /// `Vec<T>`, `VecDeque<T>`, sets, slices, `[T; N]` (with N when fixed).
    Array {
        elem: &'a Type,
        fixed: Option<&'a syn::Expr>,
    },
    /// `HashMap<K, V>` / `BTreeMap<K, V>`.
    Map { key: &'a Type },
    /// A Rust integer; `bits` and signedness decide the BSON type.
    Int,
    /// An integer width that cannot be stored faithfully.
    Unfaithful { name: String, why: &'static str },
    /// Types that store several BSON types (`Bson`, `serde_json::Value`, …).
    Multi { name: String },
    /// `chrono::DateTime<…>`, `NaiveDateTime`, … : written as strings by their own serde impls.
    ChronoLike { name: String },
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
        Type::Path(p) => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::"),
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
        Type::Array(a) => {
            return TyKind::Array {
                elem: &a.elem,
                fixed: Some(&a.len),
            }
        }
        Type::Slice(s) => {
            return TyKind::Array {
                elem: &s.elem,
                fixed: None,
            }
        }
        Type::Reference(r) => return classify(&r.elem),
        Type::Group(g) => return classify(&g.elem),
        Type::Paren(p) => return classify(&p.elem),
        Type::Tuple(t) if !t.elems.is_empty() => {
            return TyKind::Multi {
                name: "a tuple".into(),
            };
        }
        _ => {}
    }
    let Some(seg) = last_segment(ty) else {
        return TyKind::Other;
    };
    let name = seg.ident.to_string();
    let args = type_args(seg);
    let path = path_string(ty);
    match (name.as_str(), args.as_slice()) {
        ("Option", [inner]) => TyKind::Option(inner),
        ("Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet" | "LinkedList" | "BinaryHeap", [elem, ..]) => {
            TyKind::Array { elem, fixed: None }
        }
        ("HashMap" | "BTreeMap" | "IndexMap", [key, _, ..]) => TyKind::Map { key },
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
            why: "BSON has no 128-bit integer and serialization fails; use `i64` or `bson::Decimal128`",
        },
        ("String" | "str" | "char", []) => TyKind::Str,
        ("Bson" | "RawBson" | "RawBsonRef" | "RawBsonBuf", []) => TyKind::Multi { name: path },
        ("Value", []) if path.contains("json") || path == "Value" => TyKind::Multi { name: path },
        ("DateTime", [_]) => TyKind::ChronoLike { name: path },
        ("NaiveDateTime" | "NaiveDate" | "NaiveTime" | "OffsetDateTime" | "PrimitiveDateTime" | "Timestamp"
        | "Zoned" | "SystemTime", [])
            if !path.starts_with("bson") =>
        {
            if name == "Timestamp" && !path.contains("jiff") {
                // `bson::Timestamp` imported bare is a real BSON type.
                return TyKind::Other;
            }
            TyKind::ChronoLike { name: path }
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

/// True if `ty` is (syntactically) `ObjectId` or `Option<ObjectId>`.
pub fn is_object_id(ty: &Type) -> bool {
    last_segment(unwrap_option(ty)).is_some_and(|s| s.ident == "ObjectId")
}
