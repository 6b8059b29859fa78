//! `#[derive(Reflect)]` for sluice.
