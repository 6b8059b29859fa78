use sluice_reflect::Reflect;

#[derive(Reflect)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
