//! `impl Bucket` of a bucket model and `const TIMESERIES` of a time-series model (declarations checked by
//! `check/series.rs`).

use crate::internals::ast::{Container, Data, Field};
use proc_macro2::TokenStream;
use quote::quote;

/// The field named `name` (checked to exist before anything is generated).
fn field<'f, 'a>(fields: &'f [Field<'a>], name: &str) -> Option<&'f Field<'a>> {
    fields.iter().find(|f| f.rust_name == name)
}

/// `impl Bucket for …`, beside `impl Model`: the reading type is the array's element type.
pub fn bucket_impl(cont: &Container) -> TokenStream {
    let (Some(b), Data::Struct(fields)) = (&cont.attrs.bucket, &cont.data) else { return TokenStream::new() };
    let (Some(key), Some(items)) = (&b.key, &b.items) else { return TokenStream::new() };
    let Some(array) = field(fields, &items.value()) else { return TokenStream::new() };
    let (ident, ty, items) = (cont.ident, array.ty, items.value());
    let key = key.value();
    let key = key.split(',').map(str::trim).filter(|s| !s.is_empty());
    quote! {
        #[automatically_derived]
        impl __odm::Bucket for #ident {
            type Reading = <#ty as __odm::path::ArrayLike>::Item;
            const BUCKET: __odm::BucketFields = __odm::BucketFields { key: &[#(#key),*], items: #items };
        }
    }
}

/// `const TIMESERIES`, inside `impl Model`: stored keys, as the server's `create` names them.
pub fn timeseries_item(cont: &Container) -> TokenStream {
    let (Some(t), Data::Struct(fields)) = (&cont.attrs.timeseries, &cont.data) else { return TokenStream::new() };
    let stored = |lit: &Option<syn::LitStr>| lit.as_ref().and_then(|l| field(fields, &l.value())).map(|f| &f.key);
    let Some(time) = stored(&t.time) else { return TokenStream::new() };
    let meta = match stored(&t.meta) {
        Some(k) => quote!(__OdmSome(#k)),
        None => quote!(__OdmNone),
    };
    let granularity = match t.granularity.as_ref().map(|g| g.value()) {
        Some(g) => {
            let variant =
                syn::Ident::new(&format!("{}{}", g[..1].to_ascii_uppercase(), &g[1..]), proc_macro2::Span::call_site());
            quote!(__OdmSome(__odm::Granularity::#variant))
        }
        None => quote!(__OdmNone),
    };
    let expire = match &t.expire_after {
        Some((n, _)) => quote!(__OdmSome(#n)),
        None => quote!(__OdmNone),
    };
    quote! {
        const TIMESERIES: __OdmOption<__odm::TimeSeries> = __OdmSome(__odm::TimeSeries {
            time: #time, meta: #meta, granularity: #granularity, expire_after: #expire,
        });
    }
}
