use sluice_reflect::Reflect;

#[derive(Reflect)]
#[reflect(version = "2")]
struct Config {
    value: u32,
}

fn main() {}
