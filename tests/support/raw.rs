//! The raw driver's view of a collection, as another program has it: reading what is stored (BSON types included)
//! and writing documents odm would not write.

use odm::bson::{doc, oid::ObjectId, Document};

/// The stored document with `_id` `id` in `collection`, as the server has it; panics when there is none.
pub async fn stored(db: &odm::mongodb::Database, collection: &str, id: ObjectId) -> Document {
    db.collection::<Document>(collection)
        .find_one(doc! { "_id": id })
        .await
        .expect("raw read")
        .unwrap_or_else(|| panic!("document {id} in {collection}"))
}

/// Inserts `docs` as another program would, past the collection's validator (as documents written before the
/// validator existed, or by an older release), in batches the server takes in one command.
pub async fn insert_outside(raw: &odm::mongodb::Collection<Document>, docs: Vec<Document>) {
    for chunk in docs.chunks(1000) {
        raw.insert_many(chunk.to_vec()).bypass_document_validation(true).await.expect("insert outside documents");
    }
}
