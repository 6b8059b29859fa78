use sluice_reflect::Reflect;

struct Opaque;

#[derive(Reflect)]
struct Config {
    value: Opaque,
}

fn main() {}
