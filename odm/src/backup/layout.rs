//! mongodump's directory layout: where a collection's files go (`<out>/<db>/<collection>.bson` and
//! `<collection>.metadata.json`, each with `.gz` appended when compressed) and what the metadata file holds.
//!
//! The metadata is one canonical Extended JSON object, its fields in mongodump's order: `options` (what
//! `listCollections` gives, the validator included; left out when empty), `indexes` (what `listIndexes` gives, the
//! `_id` index included), `uuid` (the collection's UUID as 32 hex digits, left out when unknown), `collectionName`
//! and `type` (`collection`); then, only when odm owns some of the collection's indexes, `odmIndexes`, odm's records
//! of them (mongorestore ignores a top-level key it does not know).

use crate::base::error::{BackupError, Result};
use bson::{doc, Bson, Document};
use std::path::{Path, PathBuf};

/// The suffix of a collection's documents file.
pub const BSON_SUFFIX: &str = ".bson";
/// The suffix of a collection's metadata file.
pub const METADATA_SUFFIX: &str = ".metadata.json";
/// The suffix mongodump's `--gzip` appends to both.
pub const GZIP_SUFFIX: &str = ".gz";

/// A collection name as a file name, escaped as mongodump escapes it (Go's `url.PathEscape`, which escapes a path
/// segment): every byte but ASCII letters and digits, the unreserved `-._~` and the reserved `$&+:=@` that a path
/// segment may hold becomes `%XX` (uppercase hex), so `/`, `,`, `;` and `?` are escaped, a name holding `/` stays
/// one file, and a byte of a multi-byte UTF-8 character is escaped on its own.
pub fn escape_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~$&+:=@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A file name escaped by [`escape_name`] back to the collection name (`None` when an escape is not valid).
pub fn unescape_name(escaped: &str) -> Option<String> {
    let bytes = escaped.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// How a dump's files are written: as they are, or gzip-compressed (`mongodump --gzip`), which adds `.gz` to both
/// file names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Compression {
    /// Plain files: `<collection>.bson`, `<collection>.metadata.json`.
    #[default]
    None,
    /// gzip-compressed files: `<collection>.bson.gz`, `<collection>.metadata.json.gz`.
    Gzip,
}

/// The documents file of `collection` of `db` under `out`: `<out>/<db>/<collection>.bson`, `.bson.gz` when
/// compressed.
pub fn bson_file(out: &Path, db: &str, collection: &str, compression: Compression) -> PathBuf {
    file(out, db, collection, BSON_SUFFIX, compression)
}

/// The metadata file of `collection` of `db` under `out`: `<out>/<db>/<collection>.metadata.json`,
/// `.metadata.json.gz` when compressed.
pub fn metadata_file(out: &Path, db: &str, collection: &str, compression: Compression) -> PathBuf {
    file(out, db, collection, METADATA_SUFFIX, compression)
}

fn file(out: &Path, db: &str, collection: &str, suffix: &str, compression: Compression) -> PathBuf {
    let gz = match compression {
        Compression::None => "",
        Compression::Gzip => GZIP_SUFFIX,
    };
    out.join(db).join(format!("{}{suffix}{gz}", escape_name(collection)))
}

/// What a collection's metadata file holds: how to create it again and its indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Metadata {
    /// The collection's options as `listCollections` gives them: `validator`, `validationLevel`,
    /// `validationAction`, `capped`, `size`, `max`, `collation`, …
    pub options: Document,
    /// The index specifications as `listIndexes` gives them, the `_id` index included.
    pub indexes: Vec<Document>,
    /// The collection's UUID as 32 lowercase hex digits, when the server gave one.
    pub uuid: Option<String>,
    /// The collection's name (file names are escaped; this is the name itself).
    pub collection_name: String,
    /// The collection's type as `listCollections` names it: `collection` (a `view` or `timeseries` is not dumped by
    /// odm).
    pub kind: String,
    /// The indexes of the collection odm owns, as it recorded creating them ([`ownership`](crate::sync::plan::ownership)):
    /// the top-level key `odmIndexes`, written only when there are some (mongorestore ignores it), so a restore by
    /// odm leaves those indexes odm's, and only those.
    pub odm_indexes: Vec<Document>,
}

impl Metadata {
    /// The metadata as mongodump writes it: canonical Extended JSON, fields in its order, no trailing newline.
    pub fn to_json(&self) -> Vec<u8> {
        let mut d = Document::new();
        if !self.options.is_empty() {
            d.insert("options", self.options.clone());
        }
        d.insert("indexes", self.indexes.clone());
        if let Some(uuid) = &self.uuid {
            d.insert("uuid", uuid);
        }
        d.insert("collectionName", &self.collection_name);
        d.insert("type", &self.kind);
        if !self.odm_indexes.is_empty() {
            d.insert(super::owned::METADATA_KEY, self.odm_indexes.clone());
        }
        // A `serde_json::Value` always serializes.
        serde_json::to_vec(&Bson::Document(d).into_canonical_extjson()).unwrap_or_default()
    }

    /// Reads a metadata file's bytes (canonical or relaxed Extended JSON, as mongodump of any release writes it);
    /// `path` names the file in the error.
    pub fn from_json(bytes: &[u8], path: &Path) -> Result<Metadata> {
        let malformed = |reason: String| BackupError::Malformed { path: path.to_owned(), reason };
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| malformed(format!("not JSON ({e})")))?;
        let doc = match Bson::try_from(value) {
            Ok(Bson::Document(doc)) => doc,
            Ok(_) => return Err(malformed("not a JSON object".to_owned()).into()),
            Err(e) => return Err(malformed(format!("not Extended JSON ({e})")).into()),
        };
        let options = match doc.get("options") {
            None | Some(Bson::Null) => Document::new(),
            Some(Bson::Document(o)) => o.clone(),
            Some(_) => return Err(malformed("`options` is not an object".to_owned()).into()),
        };
        let indexes = match doc.get("indexes") {
            None | Some(Bson::Null) => Vec::new(),
            Some(Bson::Array(list)) => list
                .iter()
                .map(|i| i.as_document().cloned())
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| malformed("an entry of `indexes` is not an object".to_owned()))?,
            Some(_) => return Err(malformed("`indexes` is not an array".to_owned()).into()),
        };
        Ok(Metadata {
            options,
            indexes,
            uuid: doc.get_str("uuid").ok().map(str::to_owned),
            collection_name: doc.get_str("collectionName").unwrap_or_default().to_owned(),
            kind: doc.get_str("type").unwrap_or("collection").to_owned(),
            // Records are odm's own addition: one it cannot read is left out (its indexes are then not odm's).
            odm_indexes: match doc.get_array(super::owned::METADATA_KEY) {
                Ok(list) => list.iter().filter_map(|i| i.as_document().cloned()).collect(),
                Err(_) => Vec::new(),
            },
        })
    }

    /// The `create` command that makes the collection again with its options, named `name`.
    pub fn create_command(&self, name: &str) -> Document {
        let mut command = doc! { "create": name };
        command.extend(self.options.clone());
        command
    }

    /// The indexes to build after the documents: every one but `_id`'s (which `create` makes), without the `ns`
    /// field older servers list (`createIndexes` refuses a namespace of another database).
    pub fn secondary_indexes(&self) -> Vec<Document> {
        self.indexes
            .iter()
            .filter(|i| i.get_str("name").ok() != Some("_id_"))
            .map(|i| {
                let mut i = i.clone();
                i.remove("ns");
                i
            })
            .collect()
    }
}

/// The UUID of a `listCollections` entry (`info.uuid`, binary subtype 4) as mongodump writes it: 32 hex digits.
pub(crate) fn uuid_hex(entry: &Document) -> Option<String> {
    match entry.get_document("info").ok()?.get("uuid")? {
        Bson::Binary(b) if b.subtype == bson::spec::BinarySubtype::Uuid => {
            Some(b.bytes.iter().map(|byte| format!("{byte:02x}")).collect())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_as_mongodump_escapes_them() {
        assert_eq!(escape_name("order_header"), "order_header");
        assert_eq!(escape_name("a/b c%"), "a%2Fb%20c%25");
        assert_eq!(unescape_name("a%2Fb%20c%25").as_deref(), Some("a/b c%"));
        assert_eq!(unescape_name("bad%2"), None);
        assert_eq!(escape_name("a,b;c?d"), "a%2Cb%3Bc%3Fd");
        assert_eq!(escape_name("é€"), "%C3%A9%E2%82%AC");
        let out = Path::new("out");
        assert_eq!(
            bson_file(out, "shop", "order_header", Compression::Gzip),
            Path::new("out/shop/order_header.bson.gz")
        );
        assert_eq!(metadata_file(out, "shop", "o", Compression::None), Path::new("out/shop/o.metadata.json"));
    }

    /// Every ASCII character against Go's `shouldEscape(c, encodePathSegment)`: letters and digits, `-_.~` and
    /// `$&+:=@` are kept; `/;,?` and every other character (controls, space, `!"#%'()*<>[\]^`{|}`, DEL) escaped.
    #[test]
    fn every_ascii_character_is_escaped_as_go_path_escape_does() {
        for byte in 0u8..128 {
            let c = char::from(byte);
            let kept = c.is_ascii_alphanumeric() || "-_.~$&+:=@".contains(c);
            let expected = if kept { c.to_string() } else { format!("%{byte:02X}") };
            let name = format!("a{c}b");
            assert_eq!(escape_name(&name), format!("a{expected}b"), "byte {byte:#04x}");
            assert_eq!(unescape_name(&escape_name(&name)).as_deref(), Some(name.as_str()), "byte {byte:#04x}");
        }
        // A few names as Go prints them for `url.PathEscape(name)`.
        for (name, go) in [
            ("log,2026;q1", "log%2C2026%3Bq1"),
            ("a b+c", "a%20b+c"),
            ("x!y*(z)'", "x%21y%2A%28z%29%27"),
            ("naïve/日本", "na%C3%AFve%2F%E6%97%A5%E6%9C%AC"),
            ("100%", "100%25"),
        ] {
            assert_eq!(escape_name(name), go, "{name}");
            assert_eq!(unescape_name(go).as_deref(), Some(name));
        }
    }

    #[test]
    fn metadata_is_canonical_extended_json_in_mongodumps_order() {
        let meta = Metadata {
            options: doc! { "validator": { "$jsonSchema": { "bsonType": "object" } }, "capped": true, "size": 4096_i64 },
            indexes: vec![doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" }],
            uuid: Some("0123456789abcdef0123456789abcdef".to_owned()),
            collection_name: "order_header".to_owned(),
            kind: "collection".to_owned(),
            odm_indexes: Vec::new(),
        };
        let json = String::from_utf8(meta.to_json()).expect("utf-8");
        assert_eq!(
            json,
            r#"{"options":{"validator":{"$jsonSchema":{"bsonType":"object"}},"capped":true,"size":{"$numberLong":"4096"}},"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}],"uuid":"0123456789abcdef0123456789abcdef","collectionName":"order_header","type":"collection"}"#
        );
        assert_eq!(Metadata::from_json(json.as_bytes(), Path::new("m")).expect("parses"), meta);
        let cut = Metadata::from_json(&json.as_bytes()[..40], Path::new("out/shop/o.metadata.json"));
        assert!(cut.expect_err("cut short").to_string().contains("out/shop/o.metadata.json is not a dump file"));
    }
}
