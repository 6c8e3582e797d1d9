// `copy-bounds`: a copy accepts every value of its source: same stored type, bounds at least as wide.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "hr_employee")]
struct Employee {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 40)]
    name: String,
    #[serde(rename = "s")]
    salary: i64,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(copies(model = "Employee", by = "id"))]
struct EmployeeRef {
    #[serde(rename = "i")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 20)]
    name: String,
    #[serde(rename = "s")]
    salary: i32,
    #[serde(rename = "t")]
    title: String,
}

fn main() {}
