use sluice_reflect::Reflect;

#[derive(Reflect)]
struct Config {
    #[reflect(skip, rename = "cache")]
    cached: u32,
}

fn main() {}
