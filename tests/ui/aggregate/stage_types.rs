// `path-stage-type`: what a stage writes into an output field fits that field's type.
use odm::aggregate::{self, Pipeline};
use odm::{bson::oid::ObjectId, Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: String,
    #[serde(rename = "am")]
    amount: i64,
}

#[derive(Embedded, Serialize, Deserialize)]
struct PerCustomer {
    #[serde(rename = "_id")]
    customer: i64,
    #[serde(rename = "rv")]
    revenue: i32,
    #[serde(rename = "av")]
    average: f64,
    #[serde(rename = "n")]
    orders: String,
}

fn main() {
    let (f, out) = (Order::fields(), aggregate::fields::<PerCustomer>());
    let _ = Pipeline::<Order>::new().group(|g| {
        g.key(&out.customer(), &f.customer())
            .sum(&out.revenue(), &f.amount())
            .avg(&out.average(), &f.customer())
            .count(&out.orders())
    });
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "o")]
    order: String,
}

#[derive(Embedded, Serialize, Deserialize)]
struct WithCustomer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customer: Vec<Customer>,
}

#[allow(dead_code)]
fn joined() {
    let (f, c, out) = (Order::fields(), Customer::fields(), aggregate::fields::<WithCustomer>());
    let _ = Pipeline::<Order>::new().lookup(&f.id(), &c.order(), &out.customer());
}
