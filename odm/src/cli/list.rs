//! `list`: the models the program manages (no server needed).

use super::exit::OK;
use super::models::Entry;
use super::output::Done;
use serde_json::{json, Map};

/// The selected models: Rust name, `database.collection` (as `--db` makes it), version.
pub(super) fn list(entries: &[&Entry], db: Option<&str>) -> Done {
    let rows: Vec<(String, String, String)> = entries
        .iter()
        .map(|e| {
            let database = db.or(e.spec.db).unwrap_or("(--db)");
            let version = e.version().map_or_else(|| "-".to_owned(), |v| v.to_string());
            (e.name.to_owned(), format!("{database}.{}", e.collection()), version)
        })
        .collect();
    let width = |f: fn(&(String, String, String)) -> &String, title: &str| {
        rows.iter().map(|r| f(r).len()).chain([title.len()]).max().unwrap_or(0)
    };
    let (w0, w1) = (width(|r| &r.0, "MODEL"), width(|r| &r.1, "COLLECTION"));
    let mut text = format!("{:w0$}  {:w1$}  VERSION\n", "MODEL", "COLLECTION");
    for (name, ns, version) in &rows {
        text.push_str(&format!("{name:w0$}  {ns:w1$}  {version}\n"));
    }
    let models: Vec<_> = entries
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "typeName": e.spec.type_name,
                "db": db.or(e.spec.db),
                "collection": e.collection(),
                "namedAtRunTime": e.spec.template.is_some(),
                "version": e.version(),
            })
        })
        .collect();
    let mut json = Map::new();
    json.insert("models".into(), models.into());
    Done { code: OK, text, json }
}
