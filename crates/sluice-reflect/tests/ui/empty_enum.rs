use sluice_reflect::Reflect;

#[derive(Reflect)]
enum Never {}

fn main() {}
