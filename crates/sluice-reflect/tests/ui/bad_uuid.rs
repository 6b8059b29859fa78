use sluice_reflect::Reflect;

#[derive(Reflect)]
#[reflect(uuid = "not-a-uuid")]
struct Config {
    value: u32,
}

fn main() {}
