// A union has no stored shape.
use odm::Embedded;

#[derive(Embedded)]
union Bits {
    i: i32,
    f: f32,
}

fn main() {}
