use sluice_reflect::Reflect;

#[derive(Reflect)]
#[reflect(flags)]
enum Access {
    Read,
    Custom(u32),
}

fn main() {}
