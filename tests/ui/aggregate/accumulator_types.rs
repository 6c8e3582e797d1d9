// `path-stage-type`: each accumulator's output field holds every value the server can return for it.
use odm::aggregate::{self, Pipeline};
use odm::{bson::oid::ObjectId, Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "sensor_reading")]
struct Reading {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "v")]
    value: i32,
    #[serde(rename = "x", skip_serializing_if = "Option::is_none")]
    extra: Option<i32>,
}

#[derive(Embedded, Serialize, Deserialize)]
struct PerSensor {
    #[serde(rename = "_id")]
    sensor: String,
    // The sum of `int`s is a `long` once it passes 2^31 - 1.
    #[serde(rename = "t")]
    total: i32,
    // `null` for a group none of whose documents has `extra`.
    #[serde(rename = "xa")]
    extra_average: f64,
    #[serde(rename = "xl")]
    extra_lowest: i32,
    #[serde(rename = "xh")]
    extra_highest: i32,
    // A count is a `long` past 2^31 - 1 documents.
    #[serde(rename = "n")]
    readings: i32,
    #[serde(rename = "vs")]
    #[odm(unbounded)]
    values: Vec<String>,
    #[serde(rename = "ss")]
    #[odm(unbounded)]
    sensors: Vec<i64>,
}

fn main() {
    let (f, out) = (Reading::fields(), aggregate::fields::<PerSensor>());
    let _ = Pipeline::<Reading>::new().group(|g| {
        g.key(&out.sensor(), &f.sensor())
            .sum(&out.total(), &f.value())
            .avg(&out.extra_average(), &f.extra())
            .min(&out.extra_lowest(), &f.extra())
            .max(&out.extra_highest(), &f.extra())
            .count(&out.readings())
            .push(&out.values(), &f.value())
            .add_to_set(&out.sensors(), &f.sensor())
    });
}

#[derive(Embedded, Serialize, Deserialize)]
struct Count {
    #[serde(rename = "n")]
    n: i32,
}

#[allow(dead_code)]
fn counted() {
    let _ = Pipeline::<Reading>::new().count(&aggregate::fields::<Count>().n());
}
