// Every piece of advice an unbounded size budget prints compiles when followed: each model without a bound is
// followed by the same model with the advice applied as the message words it, whose budget is then bounded.
use odm::bson::oid::ObjectId;
use odm::size::Budget;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

/// The message's advice for a budget without a bound.
fn advice<M: Model>() -> String {
    match M::size_budget() {
        Budget::Unbounded(u) => u.to_string(),
        bounded => panic!("`{}` is bounded: {bounded}", M::COLLECTION),
    }
}

fn assert_bounded<M: Model>() {
    assert!(matches!(M::size_budget(), Budget::AtMost(_)), "{}: {}", M::COLLECTION, M::size_budget());
}

// A string: "a string without a length bound (`max_len`)".
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_note")]
struct Note {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    text: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_note")]
struct NoteBounded {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    #[odm(max_len = 200)]
    text: String,
}

// The strings of an array: `max_len` on the array bounds nothing inside it; the element type carries the bound, as
// the advice writes it (`Name`, `N` filled in).
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_book")]
struct Book {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "au")]
    #[odm(max_items = 5)]
    authors: Vec<String>,
}

#[derive(Embedded, Serialize, Deserialize)] struct Name(#[odm(max_len = 80)] String);

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_book")]
struct BookBounded {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "au")]
    #[odm(max_items = 5)]
    authors: Vec<Name>,
}

// An array declared `unbounded`: "an array without a length bound (`max_items`)".
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_shelf")]
struct Shelf {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sl")]
    #[odm(unbounded)]
    slots: Vec<i32>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_shelf")]
struct ShelfBounded {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sl")]
    #[odm(max_items = 50)]
    slots: Vec<i32>,
}

/// A code whose newtype declares no bound: the field holding it takes `max_len`, as for a string.
#[derive(Embedded, Serialize, Deserialize)]
struct Code(String);

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_item")]
struct Item {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "c")]
    code: Code,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_item")]
struct ItemBounded {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "c")]
    #[odm(max_len = 12)]
    code: Code,
}

// A map: its keys and how many are chosen at run time and no attribute bounds them; the advice holds its entries
// as a bounded array of `Entry` documents, as it writes them (`N` and `V` filled in: `V` is the map's value type,
// which then takes the bound a field of its type takes).
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_label")]
struct Labels {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "l")]
    labels: std::collections::HashMap<String, String>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_alias")]
struct Aliases {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "a")]
    aliases: std::collections::BTreeMap<String, Vec<String>>,
}

#[derive(Embedded, Serialize, Deserialize)]
struct Entry { #[odm(max_len = 40)] key: String, #[odm(max_len = 200)] value: String }

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "lib_label")]
struct LabelsBounded {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "l")]
    #[odm(max_items = 20)] labels: Vec<Entry>,
}

fn main() {
    assert_eq!(advice::<Note>(), "`Note.text` holds a string without a length bound (`max_len`)");
    assert_bounded::<NoteBounded>();

    let book = advice::<Book>();
    assert!(book.starts_with("`Book.authors` holds strings without a length bound"), "{book}");
    // The advice, word for word, is what `Name` and `BookBounded` above write (with `N` = 80).
    let written = "`#[derive(Embedded, Serialize, Deserialize)] struct Name(#[odm(max_len = N)] String);` and `Vec<Name>`";
    assert!(book.contains(written), "{book}");
    assert_bounded::<BookBounded>();
    // Stored as plain strings, each checked by the validator.
    let v = BookBounded::validator();
    let authors = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap().get_document("au").unwrap();
    let items = authors.get_document("items").unwrap();
    assert_eq!((items.get_str("bsonType").unwrap(), items.get_i64("maxLength").unwrap()), ("string", 80), "{authors}");

    assert_eq!(advice::<Shelf>(), "`Shelf.slots` holds an array without a length bound (`max_items`)");
    assert_bounded::<ShelfBounded>();

    assert_eq!(advice::<Item>(), "`Item.code` holds a string without a length bound (`max_len`)");
    assert_bounded::<ItemBounded>();

    let written = "`#[derive(Embedded, Serialize, Deserialize)] struct Entry { #[odm(max_len = N)] key: String, value: V }`, `V` the map's value type, and `#[odm(max_items = N)] Vec<Entry>`";
    for map in [advice::<Labels>(), advice::<Aliases>()] {
        assert!(map.contains("holds a map, whose keys and how many are chosen at run time"), "{map}");
        // The advice, word for word, is what `Entry` and `LabelsBounded` above write (`V` = `String`, which then takes
        // `max_len` as a string field does).
        assert!(map.contains(written), "{map}");
    }
    assert!(advice::<Labels>().starts_with("`Labels.labels` holds a map"));
    assert_bounded::<LabelsBounded>();
}
