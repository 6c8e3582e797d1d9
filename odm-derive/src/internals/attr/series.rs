//! `#[odm(bucket(key = "…", items = "…"))]` and `#[odm(timeseries(time = "…", meta = "…", granularity = "…",
//! expire_after = N))]`: two ways to store readings over time. Parsing only (rules live in `check/series.rs`).

use super::common::{did_you_mean, duplicate, skip_rest};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self, Rule};
use crate::internals::symbol::{Symbol, EXPIRE_AFTER, GRANULARITY, ITEMS, KEY, META, TIME};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Lit, LitInt, LitStr};

/// `bucket(key = "sensor, day", items = "readings")`.
pub struct BucketAttr {
    /// `bucket`, where errors about the declaration as a whole point.
    pub tokens: TokenStream,
    /// The key fields, comma-separated Rust names.
    pub key: Option<LitStr>,
    /// The counted array of readings.
    pub items: Option<LitStr>,
    /// Some option was malformed (already reported): the rules about missing options stay quiet.
    pub malformed: bool,
}

/// `timeseries(time = "at", meta = "sensor", granularity = "minutes", expire_after = 86400)`.
pub struct TimeseriesAttr {
    /// `timeseries`, where errors about the declaration as a whole point.
    pub tokens: TokenStream,
    /// The date field of each measurement.
    pub time: Option<LitStr>,
    /// The field naming the series a measurement belongs to.
    pub meta: Option<LitStr>,
    /// `seconds`, `minutes` or `hours`.
    pub granularity: Option<LitStr>,
    /// Seconds after which the server removes a measurement.
    pub expire_after: Option<(u64, LitInt)>,
    /// Some option was malformed (already reported): the rules about missing options stay quiet.
    pub malformed: bool,
}

const BUCKET_EXAMPLE: &str = "`bucket(key = \"sensor, day\", items = \"readings\")`";
const TIMESERIES_EXAMPLE: &str =
    "`timeseries(time = \"at\", meta = \"sensor\", granularity = \"minutes\", expire_after = 86400)`";

/// The granularities MongoDB takes.
pub const GRANULARITIES: &[&str] = &["seconds", "minutes", "hours"];

pub fn parse_bucket(cx: &Ctxt, meta: &ParseNestedMeta) -> BucketAttr {
    let mut out = BucketAttr { tokens: meta.path.to_token_stream(), key: None, items: None, malformed: false };
    let what = "name the key fields and the counted array of readings";
    out.malformed = !each_option(cx, meta, rules::BUCKET_SHAPE, what, BUCKET_EXAMPLE, &[KEY, ITEMS], |name, lit| {
        let Lit::Str(s) = lit else { return Err("a string") };
        *(if name == KEY { &mut out.key } else { &mut out.items }) = Some(s);
        Ok(())
    });
    out
}

pub fn parse_timeseries(cx: &Ctxt, meta: &ParseNestedMeta) -> TimeseriesAttr {
    let mut out = TimeseriesAttr {
        tokens: meta.path.to_token_stream(),
        time: None,
        meta: None,
        granularity: None,
        expire_after: None,
        malformed: false,
    };
    let what = "name the date field of each measurement";
    let options = &[TIME, META, GRANULARITY, EXPIRE_AFTER];
    out.malformed = !each_option(cx, meta, rules::TIMESERIES_FIELDS, what, TIMESERIES_EXAMPLE, options, |name, lit| {
        match lit {
            Lit::Int(n) if name == EXPIRE_AFTER => match n.base10_parse::<u64>() {
                Ok(v) if v > 0 => out.expire_after = Some((v, n)),
                _ => return Err("a positive number of seconds"),
            },
            Lit::Str(s) if name == GRANULARITY => {
                if !GRANULARITIES.contains(&s.value().as_str()) {
                    return Err("`\"seconds\"`, `\"minutes\"` or `\"hours\"`");
                }
                out.granularity = Some(s);
            }
            Lit::Str(s) if name == TIME => out.time = Some(s),
            Lit::Str(s) if name == META => out.meta = Some(s),
            _ if name == EXPIRE_AFTER => return Err("a positive number of seconds"),
            _ => return Err("a string"),
        }
        Ok(())
    });
    out
}

/// Reads `name = literal` options of `meta` (one of `known` each, once), handing each to `take`, which says what it
/// expected when the literal does not fit. Everything malformed is reported and skipped; returns `false` then.
fn each_option(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    rule: Rule,
    what: &str,
    example: &str,
    known: &[Symbol],
    mut take: impl FnMut(Symbol, Lit) -> Result<(), &'static str>,
) -> bool {
    let attr = meta.path.to_token_stream().to_string();
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, rule, format!("{what}: {example}"));
        skip_rest(meta);
        return false;
    }
    let mut ok = true;
    let mut seen: Vec<(Symbol, TokenStream)> = Vec::new();
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let Some(name) = known.iter().copied().find(|k| p == *k) else {
            let name = p.to_token_stream().to_string();
            let hint = did_you_mean(&name, known.iter().map(|k| k.as_str()));
            cx.error_spanned_by(p, rules::ATTR_UNKNOWN, format!("unknown `{attr}` option `{name}`{hint}: {example}"));
            ok = false;
            skip_rest(&inner);
            return Ok(());
        };
        match seen.iter().find(|(n, _)| *n == name) {
            Some((_, first)) => duplicate(cx, &format!("{attr} option"), name.as_str(), first, p),
            None => seen.push((name, p.to_token_stream())),
        }
        let Ok(lit) = inner.value().and_then(|v| v.parse::<Lit>()) else {
            cx.error_spanned_by(p, rules::ATTR_SYNTAX, format!("expected `{name} = <value>`: {example}"));
            ok = false;
            return Ok(());
        };
        let at = lit.to_token_stream();
        if let Err(expected) = take(name, lit) {
            cx.error_spanned_by(at, rule, format!("`{name}` is {expected}: {example}"));
            ok = false;
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("{e}: {example}"));
        ok = false;
    }
    ok
}
