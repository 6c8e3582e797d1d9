//! Reading text as the value it holds: what a model's older shape uses for a date or a number stored as a string,
//! so that the step to the next version moves a value rather than parsing one (a document whose text does not
//! parse fails to read, and a migration lists it, instead of being stored with a made-up value).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::str::FromStr;

/// Reads a string as a date: `2024-05-01`, `2024-05-01T12:30:00Z`, with a fraction of a second, an offset
/// (`+02:00`), a space for the `T`, or no zone (read as UTC). Anything else is an error naming the text. For
/// `#[serde(deserialize_with = "odm::pull::date_from_text")]` on a `DateTime` field of an older shape, with
/// `#[odm(bson_type = "string")]`, since the stored value is a string.
///
/// ```
/// # use serde::Deserialize;
/// #[derive(Deserialize)]
/// struct Old {
///     #[serde(deserialize_with = "odm::pull::date_from_text")]
///     at: odm::bson::DateTime,
/// }
/// let read = |at: &str| odm::bson::deserialize_from_slice::<Old>(odm::bson::rawdoc! { "at": at }.as_bytes());
/// assert_eq!(read("2024-05-01T12:30:00+02:00").unwrap().at.try_to_rfc3339_string().unwrap(), "2024-05-01T10:30:00Z");
/// assert!(read("May 1st").is_err());
///
/// // An optional one: absent or `null` is `None`.
/// #[derive(Deserialize)]
/// struct Seen {
///     #[serde(default, deserialize_with = "odm::pull::optional_date_from_text")]
///     at: Option<odm::bson::DateTime>,
/// }
/// let seen = |d: odm::bson::RawDocumentBuf| odm::bson::deserialize_from_slice::<Seen>(d.as_bytes()).unwrap().at;
/// assert_eq!(seen(odm::bson::rawdoc! {}), None);
/// assert_eq!(seen(odm::bson::rawdoc! { "at": null }), None);
/// assert!(seen(odm::bson::rawdoc! { "at": "2024-05-01" }).is_some());
/// ```
pub fn date_from_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bson::DateTime, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_date(&text).ok_or_else(|| D::Error::custom(format!("`{text}` is not a date this field reads")))
}

/// Reads a string as a number (`"12"`, `"-0.5"`) of the field's type. Anything else is an error naming the text.
/// For `#[serde(deserialize_with = "odm::pull::number_from_text")]` on an `i64` or `f64` field of an older shape,
/// with `#[odm(bson_type = "string")]`.
pub fn number_from_text<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(|_| D::Error::custom(format!("`{text}` is not a number this field reads")))
}

/// [`date_from_text`] for an optional field: `null` (or, with `#[serde(default)]`, an absent key) is `None`, a date
/// written as text is `Some`. For `#[serde(default, deserialize_with = "odm::pull::optional_date_from_text")]` on an
/// `Option<DateTime>` field of an older shape.
pub fn optional_date_from_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bson::DateTime>, D::Error> {
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(text) => parse_date(&text)
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("`{text}` is not a date this field reads"))),
    }
}

/// [`number_from_text`] for an optional field: `null` (or, with `#[serde(default)]`, an absent key) is `None`.
pub fn optional_number_from_text<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
{
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(text) => {
            text.parse().map(Some).map_err(|_| D::Error::custom(format!("`{text}` is not a number this field reads")))
        }
    }
}

/// The date `text` holds, in the forms `date_from_text` documents.
pub(crate) fn parse_date(text: &str) -> Option<bson::DateTime> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Some(bson::DateTime::from_chrono(date.and_hms_opt(0, 0, 0)?.and_utc()));
    }
    let text = text.replacen(' ', "T", 1);
    if let Ok(at) = DateTime::parse_from_rfc3339(&text) {
        return Some(bson::DateTime::from_chrono(at));
    }
    let naive = NaiveDateTime::parse_from_str(&text, "%Y-%m-%dT%H:%M:%S%.f").ok()?;
    Some(bson::DateTime::from_chrono(naive.and_utc()))
}

#[cfg(test)]
mod tests {
    use super::parse_date;

    #[test]
    fn every_form_the_survey_takes_for_a_date_parses() {
        for (text, millis) in [
            ("2024-05-01", 1_714_521_600_000),
            ("2024-05-01T12:30:00Z", 1_714_566_600_000),
            ("2024-05-01T12:30:00.250Z", 1_714_566_600_250),
            ("2024-05-01 12:30:00", 1_714_566_600_000),
            ("2024-05-01T12:30:00", 1_714_566_600_000),
            ("2024-05-01T14:30:00+02:00", 1_714_566_600_000),
        ] {
            assert_eq!(parse_date(text).map(|d| d.timestamp_millis()), Some(millis), "{text}");
        }
        for text in ["2024-13-01", "May 1, 2024", "2024-05-01T12:30", ""] {
            assert_eq!(parse_date(text), None, "{text}");
        }
    }
}
