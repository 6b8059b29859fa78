use sluice_reflect::Reflect;

#[derive(Reflect)]
#[reflect(flags)]
struct Access {
    bits: u32,
}

fn main() {}
