//! `impl Bucket` of a bucket model and `const TIMESERIES` of a time-series model (declarations checked by
//! `check/series.rs`).

use super::text::Code;
use crate::internals::ast::Container;
use crate::internals::resolve::Resolved;
use quote::quote;

/// Writes `impl Bucket for …`, beside `impl Model`: the reading type is the array's element type.
pub fn bucket_impl(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let (Some(b), Some(bucket)) = (&cont.attrs.bucket, &resolved.bucket) else { return };
    let (Some(_), Some(items), Some(array)) = (&b.key, &b.items, bucket.items) else { return };
    let (ident, ty, items) = (cont.ident, array.ty, items.value());
    let key = bucket.key.iter().map(|(name, _)| name);
    code.tokens(quote! {
        #[automatically_derived]
        impl __odm::Bucket for #ident {
            type Reading = <#ty as __odm::path::ArrayLike>::Item;
            const BUCKET: __odm::BucketFields = __odm::BucketFields { key: &[#(#key),*], items: #items };
        }
    });
}

/// Writes `const TIMESERIES`, inside `impl Model`: stored keys, as the server's `create` names them.
pub fn timeseries_item(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let (Some(t), Some(series)) = (&cont.attrs.timeseries, &resolved.timeseries) else { return };
    let Some(time) = series.time.map(|f| &f.key) else { return };
    let meta = match series.meta.map(|f| &f.key) {
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
    code.tokens(quote! {
        const TIMESERIES: __OdmOption<__odm::TimeSeries> = __OdmSome(__odm::TimeSeries {
            time: #time, meta: #meta, granularity: #granularity, expire_after: #expire,
        });
    });
}
