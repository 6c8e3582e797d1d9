//! `sample_mflix.theaters`: version 2 of its model follows odm's rules where the data allows;
//! version 1 is the shape as found (pulled by odm from 1,564 documents (every one)), read from
//! documents not migrated yet, and the step between them is below. Where a person must decide (a
//! path of several types), the step does not compile until they have.

use odm::bson::oid::ObjectId;
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// A document of `sample_mflix.theaters`, version 2: odm's rules followed where the data allowed.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "theaters", version = 2, older(TheaterV1))]
pub struct Theater {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "_v")]
    pub v: Version<2>,
    #[serde(rename = "theaterId")]
    pub theater_id: i32,
    pub location: Location,
}

/// `location`, version 2.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Location {
    pub address: Address,
    pub geo: Geo,
}

/// `location.address`, version 2.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Address {
    pub street1: String,

    // type-option-absent: `None` is left out; version 1's `null`s become absent
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street2: Option<String>,
    pub city: String,
    pub state: String,
    pub zipcode: String,
}

/// `location.geo`, version 2.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Geo {
    #[serde(rename = "type")]
    pub kind: String,

    // counter-field: `coordinates_count` counts this array, from the step on
    #[odm(max_items = 2, counter = "coordinates_count")]
    pub coordinates: Vec<f64>,
    #[serde(rename = "n_coordinates")]
    pub coordinates_count: i32,
}

/// Version 1 of [`Theater`]: a document of `sample_mflix.theaters` as found.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TheaterV1 {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "theaterId")]
    pub theater_id: i32,
    pub location: LocationV1,
}

/// Version 1 of [`Location`]: `location` as stored.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LocationV1 {
    pub address: AddressV1,
    pub geo: GeoV1,
}

/// Version 1 of [`Address`]: `location.address` as stored.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AddressV1 {
    pub street1: String,

    // type-option-absent: absent from 1,008 of 1,564 and `null` in 189: both read as `None`, left
    // out, as most are
    #[serde(skip_serializing_if = "Option::is_none")]
    #[odm(nullable)]
    pub street2: Option<String>,
    pub city: String,
    pub state: String,
    pub zipcode: String,
}

/// Version 1 of [`Geo`]: `location.geo` as stored.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GeoV1 {
    #[serde(rename = "type")]
    pub kind: String,

    // array-bound: the longest of the 1,564 arrays read holds 2 (95 % at most 2); raise the bound
    // if they grow
    #[odm(max_items = 2)]
    pub coordinates: Vec<f64>,
}

impl Upgrade for TheaterV1 {
    type Next = Theater;

    fn upgrade(self) -> Theater {
        Theater {
            id: self.id,
            v: Version,
            theater_id: self.theater_id,
            location: self.location.into(),
        }
    }
}

impl From<LocationV1> for Location {
    fn from(v1: LocationV1) -> Self {
        Location {
            address: v1.address.into(),
            geo: v1.geo.into(),
        }
    }
}

impl From<AddressV1> for Address {
    fn from(v1: AddressV1) -> Self {
        Address {
            street1: v1.street1,
            street2: v1.street2,
            city: v1.city,
            state: v1.state,
            zipcode: v1.zipcode,
        }
    }
}

impl From<GeoV1> for Geo {
    fn from(v1: GeoV1) -> Self {
        let coordinates_count = v1.coordinates.len() as i32;
        Geo {
            kind: v1.kind,
            coordinates: v1.coordinates,
            coordinates_count,
        }
    }
}
