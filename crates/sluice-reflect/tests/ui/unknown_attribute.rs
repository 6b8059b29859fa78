use sluice_reflect::Reflect;

#[derive(Reflect)]
struct Config {
    #[reflect(renamed = "x")]
    value: u32,
}

fn main() {}
