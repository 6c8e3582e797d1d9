use odm::bson::{doc, oid::ObjectId, DateTime, Decimal128};
use odm::{Collection, Embedded, Model};
use serde::{Deserialize, Serialize};

/// One line of an order (订单项): name, unit price, quantity.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct OrderItem {
    /// Product name.
    #[serde(rename = "n")]
    #[odm(max_len = 100)]
    name: String,
    /// Unit price.
    #[serde(rename = "p")]
    unit_price: Decimal128,
    /// Quantity ordered.
    #[serde(rename = "q")]
    quantity: i32,
}

/// Where an order stands (订单状态).
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum OrderStatus {
    Pending,
    Paid,
    Shipped,
    Refunded,
}

/// An order header (订单) with its items embedded.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "shop", module = "order", collection = "order_header", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// Order number shown to the customer (订单号).
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    number: String,
    /// Freight in cents (运费).
    #[serde(rename = "fr")]
    freight: i64,
    /// Total price in cents (总价格).
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "st")]
    status: OrderStatus,
    /// When the order was placed.
    #[serde(rename = "ca")]
    created_at: DateTime,
    /// The embedded items: at most 30 (seed 002 "小结").
    #[serde(rename = "it")]
    #[odm(max_items = 30, counter = "item_count")]
    items: Vec<OrderItem>,
    /// Number of items, kept equal to `items.len()` (checked by the server).
    #[serde(rename = "ic")]
    item_count: i32,
    /// Customer remark; absent when there is none.
    #[serde(rename = "rm", skip_serializing_if = "Option::is_none")]
    remark: Option<String>,
}

