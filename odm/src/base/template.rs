//! Collection name templates: `NameTemplate` (naming an instance, parsing a live name, the periods a retention has
//! expired), `Placeholder`, `InstanceKey`, `Instance`, and the calendar arithmetic. Listing and dropping live instances
//! is `crate::driver::collection::instances`. Users read the docs at `odm::template` (src/template.rs).

use bson::DateTime;
use std::fmt;

/// What the placeholder of a collection name template stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placeholder {
    /// `{yyyy}`: one collection per calendar year.
    Year,
    /// `{yyyymm}`: one collection per calendar month.
    Month,
    /// `{yyyymmdd}`: one collection per calendar day.
    Day,
    /// `{name}`: one collection per name given at run time (a tenant): lowercase letters, digits and `_`.
    Name,
}

impl Placeholder {
    /// The placeholder as a template writes it (`{yyyymm}`).
    pub const fn text(self) -> &'static str {
        match self {
            Placeholder::Year => "{yyyy}",
            Placeholder::Month => "{yyyymm}",
            Placeholder::Day => "{yyyymmdd}",
            Placeholder::Name => "{name}",
        }
    }

    /// True for the calendar periods.
    pub const fn is_period(self) -> bool {
        !matches!(self, Placeholder::Name)
    }

    /// How many digits a period is written in (`0` for a name).
    const fn digits(self) -> usize {
        match self {
            Placeholder::Year => 4,
            Placeholder::Month => 6,
            Placeholder::Day => 8,
            Placeholder::Name => 0,
        }
    }
}

/// A model's collection name template: the text before and after its one placeholder, and how many periods a
/// retention keeps (`#[odm(keep_periods = 12)]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NameTemplate {
    /// The text before the placeholder (`log_app_event_`).
    pub prefix: &'static str,
    /// What the placeholder stands for.
    pub placeholder: Placeholder,
    /// The text after it (often empty).
    pub suffix: &'static str,
    /// For a period: how many of the latest periods [`crate::collection::drop_expired`] keeps, the current one
    /// included; `None` keeps every period.
    pub keep_periods: Option<u32>,
}

/// Which instance of a templated collection: a moment, whose period names it, or a name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum InstanceKey {
    /// The period containing this moment (UTC).
    At(DateTime),
    /// A name (for a `{name}` template).
    Name(String),
}

impl From<DateTime> for InstanceKey {
    fn from(at: DateTime) -> Self {
        InstanceKey::At(at)
    }
}

impl From<&str> for InstanceKey {
    fn from(name: &str) -> Self {
        InstanceKey::Name(name.to_owned())
    }
}

impl From<String> for InstanceKey {
    fn from(name: String) -> Self {
        InstanceKey::Name(name)
    }
}

/// A live collection recognised as an instance of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Instance {
    /// The collection name.
    pub name: String,
    /// For a period: its first moment (UTC midnight of its first day). `None` for a `{name}` instance.
    pub period_start: Option<DateTime>,
}

/// Why a key cannot name an instance of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceKeyError {
    /// The template (`log_app_event_{yyyymm}`).
    pub template: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for InstanceKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no instance of `{}`: {}", self.template, self.reason)
    }
}

impl std::error::Error for InstanceKeyError {}

impl fmt::Display for NameTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.prefix, self.placeholder.text(), self.suffix)
    }
}

impl NameTemplate {
    /// The collection name of the instance `key` names. A period template takes a moment
    /// ([`InstanceKey::At`]); a `{name}` template a name of lowercase letters, digits and `_` that leaves no empty
    /// part between underscores.
    pub fn name_of(&self, key: &InstanceKey) -> Result<String, InstanceKeyError> {
        let part = match (self.placeholder, key) {
            (Placeholder::Name, InstanceKey::Name(name)) => {
                self.check_name(name)?;
                name.clone()
            }
            (Placeholder::Name, InstanceKey::At(_)) => {
                return Err(self.refuse("the template takes a name (`{name}`), not a moment".to_owned()))
            }
            (period, InstanceKey::At(at)) => {
                let (y, m, d) = civil(at.timestamp_millis().div_euclid(MS_PER_DAY));
                if !(0..=9999).contains(&y) {
                    return Err(self.refuse(format!("the year {y} has no four-digit name")));
                }
                match period {
                    Placeholder::Year => format!("{y:04}"),
                    Placeholder::Month => format!("{y:04}{m:02}"),
                    _ => format!("{y:04}{m:02}{d:02}"),
                }
            }
            (_, InstanceKey::Name(name)) => {
                return Err(self.refuse(format!(
                    "the template is per period ({}): give a moment, not the name `{name}`",
                    self.placeholder.text()
                )))
            }
        };
        Ok(format!("{}{part}{}", self.prefix, self.suffix))
    }

    /// The instance a live collection `name` is, or `None` when it is not one: the prefix and suffix match, a
    /// period is written in exactly its digits and is a real date, a name is one [`NameTemplate::name_of`] would
    /// give. What is recognised is exactly what this template names, so nothing else is ever taken for an instance
    /// (or dropped as an expired one).
    pub fn parse(&self, name: &str) -> Option<Instance> {
        let part = name.strip_prefix(self.prefix)?.strip_suffix(self.suffix)?;
        if self.placeholder == Placeholder::Name {
            self.check_name(part).ok()?;
            return Some(Instance { name: name.to_owned(), period_start: None });
        }
        if part.len() != self.placeholder.digits() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y: i64 = part[..4].parse().ok()?;
        let m: u32 = if part.len() >= 6 { part[4..6].parse().ok()? } else { 1 };
        let d: u32 = if part.len() == 8 { part[6..8].parse().ok()? } else { 1 };
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        let start = DateTime::from_millis(days_from_civil(y, m, d) * MS_PER_DAY);
        Some(Instance { name: name.to_owned(), period_start: Some(start) })
    }

    /// The instances among `names` whose period a retention of [`NameTemplate::keep_periods`] has expired at
    /// `now`: those older than the latest `keep_periods` periods (the current one included). Empty for a template
    /// without a retention, and for a `{name}` template. Names that are not instances are never listed.
    pub fn expired<'n>(&self, names: impl IntoIterator<Item = &'n str>, now: DateTime) -> Vec<Instance> {
        let Some(keep) = self.keep_periods.filter(|_| self.placeholder.is_period()) else { return Vec::new() };
        let current = self.period_index(now);
        let mut out: Vec<Instance> = names
            .into_iter()
            .filter_map(|n| self.parse(n))
            .filter(|i| i.period_start.is_some_and(|start| self.period_index(start) <= current - i64::from(keep)))
            .collect();
        out.sort();
        out
    }

    /// The first moment of the period `offset` periods after the one containing `now` (`1`: the next period, which a
    /// pre-populating sync creates before it is needed).
    pub fn period_start(&self, now: DateTime, offset: i64) -> Option<DateTime> {
        let index = self.period_index(now) + offset;
        let days = match self.placeholder {
            Placeholder::Name => return None,
            Placeholder::Year => days_from_civil(index, 1, 1),
            Placeholder::Month => days_from_civil(index.div_euclid(12), (index.rem_euclid(12) + 1) as u32, 1),
            Placeholder::Day => index,
        };
        Some(DateTime::from_millis(days * MS_PER_DAY))
    }

    /// A period's position in a count of periods (years, months since year 0, days since 1970).
    fn period_index(&self, at: DateTime) -> i64 {
        let days = at.timestamp_millis().div_euclid(MS_PER_DAY);
        let (y, m, _) = civil(days);
        match self.placeholder {
            Placeholder::Year => y,
            Placeholder::Month => y * 12 + i64::from(m) - 1,
            Placeholder::Day | Placeholder::Name => days,
        }
    }

    fn check_name(&self, name: &str) -> Result<(), InstanceKeyError> {
        let reason = if name.is_empty() {
            Some("the name is empty".to_owned())
        } else if let Some(c) = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')) {
            Some(format!("`{name}` contains `{c}`; names are lowercase letters, digits and `_` only"))
        } else {
            let full = format!("{}{name}{}", self.prefix, self.suffix);
            (full.contains("__") || full.ends_with('_') || name.starts_with('_') || name.ends_with('_'))
                .then(|| format!("`{full}` would have an empty part between underscores"))
        };
        reason.map_or(Ok(()), |r| Err(self.refuse(r)))
    }

    fn refuse(&self, reason: String) -> InstanceKeyError {
        InstanceKeyError { template: self.to_string(), reason }
    }
}

const MS_PER_DAY: i64 = 86_400_000;

/// The civil date of a day counted from 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The day, counted from 1970-01-01, of a civil date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONTHLY: NameTemplate =
        NameTemplate { prefix: "log_app_event_", placeholder: Placeholder::Month, suffix: "", keep_periods: Some(3) };

    fn at(y: i64, m: u32, d: u32) -> DateTime {
        DateTime::from_millis(days_from_civil(y, m, d) * MS_PER_DAY + 3_600_000)
    }

    #[test]
    fn a_moment_names_its_period_and_the_name_reads_back() {
        assert_eq!(MONTHLY.name_of(&at(2026, 12, 5).into()).unwrap(), "log_app_event_202612");
        let day = NameTemplate { placeholder: Placeholder::Day, ..MONTHLY };
        assert_eq!(day.name_of(&at(2024, 2, 29).into()).unwrap(), "log_app_event_20240229");
        let i = MONTHLY.parse("log_app_event_202612").expect("an instance");
        assert_eq!(i.period_start, Some(DateTime::from_millis(days_from_civil(2026, 12, 1) * MS_PER_DAY)));
        for y in [1970, 1999, 2000, 2024, 2100] {
            for m in 1..=12 {
                let (yy, mm, dd) = civil(days_from_civil(y, m, days_in_month(y, m)));
                assert_eq!((yy, mm, dd), (y, m, days_in_month(y, m)));
            }
        }
    }

    #[test]
    fn only_exact_instances_are_recognised() {
        for other in [
            "log_app_event_20261",
            "log_app_event_2026123",
            "log_app_event_202613",
            "log_app_event_202600",
            "log_app_event_2026_12",
            "log_app_event_",
            "log_app_event_202612_old",
            "log_app_other_202612",
            "log_app_event_２０２６１２",
        ] {
            assert_eq!(MONTHLY.parse(other), None, "{other}");
        }
        let day = NameTemplate { placeholder: Placeholder::Day, ..MONTHLY };
        assert_eq!(day.parse("log_app_event_20230229"), None, "not a real date");
        assert!(day.parse("log_app_event_20240229").is_some());
    }

    #[test]
    fn retention_keeps_the_latest_periods_and_nothing_else_is_listed() {
        let names = [
            "log_app_event_202608",
            "log_app_event_202609",
            "log_app_event_202610",
            "log_app_event_202611",
            "log_app_event_202612",
            "log_app_event_202701",
            "log_app_event_backup",
            "log_app_event_202609_copy",
        ];
        let expired: Vec<String> = MONTHLY.expired(names, at(2026, 12, 31)).into_iter().map(|i| i.name).collect();
        assert_eq!(expired, ["log_app_event_202608", "log_app_event_202609"]);
        let forever = NameTemplate { keep_periods: None, ..MONTHLY };
        assert!(forever.expired(names, at(2026, 12, 31)).is_empty());
        assert_eq!(
            MONTHLY.period_start(at(2026, 12, 31), 1),
            Some(DateTime::from_millis(days_from_civil(2027, 1, 1) * MS_PER_DAY))
        );
    }

    #[test]
    fn names_are_checked_like_collection_names() {
        let tenant =
            NameTemplate { prefix: "shop_order_", placeholder: Placeholder::Name, suffix: "", keep_periods: None };
        assert_eq!(tenant.name_of(&"acme".into()).unwrap(), "shop_order_acme");
        for bad in ["", "Acme", "a.b", "_a", "a_", "a__b", "a$"] {
            let err = tenant.name_of(&bad.into()).expect_err(bad);
            assert!(err.to_string().starts_with("no instance of `shop_order_{name}`: "), "{err}");
        }
        assert!(tenant.name_of(&at(2026, 1, 1).into()).is_err());
        assert!(MONTHLY.name_of(&"acme".into()).is_err());
        assert_eq!(tenant.parse("shop_order_acme").map(|i| i.period_start), Some(None));
    }
}
