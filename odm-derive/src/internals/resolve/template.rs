//! A collection name template (`log_app_event_{yyyymm}`): the text around its one placeholder, resolved once for
//! the naming rules and the generated `Model::TEMPLATE`.

/// The placeholders a template may hold: as written, the runtime's `Placeholder` variant, and a sample of what it
/// stands for, which the naming rules check the whole name with.
const PLACEHOLDERS: &[(&str, &str, &str)] = &[
    ("{yyyy}", "Year", "2026"),
    ("{yyyymm}", "Month", "202612"),
    ("{yyyymmdd}", "Day", "20261205"),
    ("{name}", "Name", "a"),
];

/// A resolved template.
pub struct Template {
    /// The text before the placeholder.
    pub prefix: String,
    /// The runtime `Placeholder` variant (`Month`).
    pub variant: &'static str,
    /// The placeholder as written (`{yyyymm}`).
    pub placeholder: &'static str,
    /// The text after it.
    pub suffix: String,
    /// The name with a sample in place of the placeholder, for the naming rules.
    pub sample: String,
}

impl Template {
    /// True for a calendar period (every placeholder but `{name}`).
    pub fn is_period(&self) -> bool {
        self.variant != "Name"
    }
}

/// The template a collection name is, `Ok(None)` for a plain name, or what is wrong with it.
pub fn resolve(name: &str) -> Result<Option<Template>, String> {
    if !name.contains(['{', '}']) {
        return Ok(None);
    }
    let known = || PLACEHOLDERS.iter().map(|(p, _, _)| format!("`{p}`")).collect::<Vec<_>>().join(", ");
    let open = name.find('{').ok_or_else(|| format!("`}}` without `{{` in collection name template `{name}`"))?;
    let close = name[open..].find('}').map(|i| open + i).ok_or_else(|| {
        format!("collection name template `{name}` opens a placeholder it does not close: use one of {}", known())
    })?;
    let written = &name[open..=close];
    let Some(&(placeholder, variant, sample)) = PLACEHOLDERS.iter().find(|(p, _, _)| *p == written) else {
        return Err(format!("`{written}` is not a placeholder of collection names: use one of {}", known()));
    };
    let (prefix, suffix) = (&name[..open], &name[close + 1..]);
    if suffix.contains(['{', '}']) {
        return Err(format!(
            "collection name template `{name}` holds more than one placeholder: a template names its instances by \
             one period or one name"
        ));
    }
    if prefix.is_empty() {
        return Err(format!(
            "collection name template `{name}` starts with its placeholder: start it with fixed text \
             (`<module>_<table>_{written}`), so every instance is recognised by its prefix"
        ));
    }
    Ok(Some(Template {
        prefix: prefix.to_owned(),
        variant,
        placeholder,
        suffix: suffix.to_owned(),
        sample: format!("{prefix}{sample}{suffix}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn a_template_resolves_around_its_placeholder() {
        let t = resolve("log_app_event_{yyyymm}").unwrap().unwrap();
        assert_eq!((t.prefix.as_str(), t.variant, t.suffix.as_str()), ("log_app_event_", "Month", ""));
        assert_eq!(t.sample, "log_app_event_202612");
        assert!(resolve("order_header").unwrap().is_none());
        for bad in ["log_{yyyymm}_{name}", "{name}_order", "log_app_{month}", "log_app_{yyyymm", "log_app_}"] {
            assert!(resolve(bad).is_err(), "{bad}");
        }
    }
}
