use sluice_reflect::Reflect;

#[derive(Reflect)]
struct Config {
    width: u32,
    #[reflect(rename = "width")]
    height: u32,
}

fn main() {}
