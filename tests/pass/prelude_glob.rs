// `use odm::prelude::*` beside the std prelude and the usual serde and driver imports: every name still means what
// it meant (`Result` takes any error, `Sync` is the marker trait, `Client` is the driver's), and the prelude's own
// names are there.
use odm::mongodb::bson::{doc, oid::ObjectId};
use odm::mongodb::{Client, Database};
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// A note, embedded in a person.
#[derive(Embedded, Serialize, Deserialize)]
struct Note {
    #[serde(rename = "t")]
    text: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_person", version = 1)]
struct Person {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<1>,
    #[serde(rename = "e")]
    email: Lowercase,
    #[serde(rename = "n")]
    #[odm(max_items = 4)]
    notes: Vec<Note>,
}

fn needs_thread_safe<T: Send + Sync>() {}

fn parse(s: &str) -> Result<u8, std::num::ParseIntError> {
    s.parse()
}

fn verify(client: &Client) -> SchemaSync<'_> {
    SchemaSync::new(client).mode(SyncMode::Verify)
}

fn people(db: &Database) -> Collection<Person> {
    Collection::new(db)
}

fn main() {
    needs_thread_safe::<Collection<Person>>();
    needs_thread_safe::<Session>();
    assert_eq!(parse("7"), Ok(7));
    let boxed: Option<Box<String>> = Some(Box::new(String::from("x")));
    assert!(boxed.is_some());
    let _ = (verify, people);
    let f = Person::fields();
    let filter: Filter<Person> = f.email().eq(Lowercase::new("Ada@Example.org"));
    assert_eq!(filter.to_document(), doc! { "e": "ada@example.org" });
    let sort: Sort<Person> = f.email().asc();
    let projection: Projection<Person> = Projection::only().field(f.email());
    let update: Update<Person> = Update::new().push(f.notes(), Note { text: "hi".into() });
    let _ = (sort, projection, update);
    assert!(<Person as Model>::COLLECTION == "crm_person");
    assert!(Person::validator().contains_key("$jsonSchema"));
    let _: fn() -> odm::bson::Document = <Note as BsonSchema>::bson_schema;
}
