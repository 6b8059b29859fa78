//! Bridges between sluice and serde.
#![warn(missing_docs)]
