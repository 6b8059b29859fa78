//! What a reflected type looks like, exported as data: a compact type-info form and a JSON
//! Schema.
//!
//! Both are built from a type's [`TypeInfo`](crate::TypeInfo) and produced as a
//! [`Value`](sluice_core::Value), so they can be written with any writer (JSON, pretty JSON,
//! MessagePack...):
//!
//! - [`type_info`] gives the compact form in the style of flecs' `type_info`: a struct is an
//!   object of its fields, every other type an array whose first element names the kind
//!   (`{"x": ["f32"], "tags": ["list", ["string"]]}`);
//! - [`JsonSchema`] gives a JSON Schema (draft 2020-12) that accepts what sluice writes for the
//!   type ([`SchemaMode::Write`], the default) or what it reads ([`SchemaMode::Read`]: aliases,
//!   defaulted and optional fields, enum discriminants).
//!
//! ```
//! use sluice_core::Value;
//! use sluice_reflect::{Reflect, Typed, schema};
//!
//! #[derive(Reflect)]
//! struct Point { x: f32, y: f32 }
//!
//! let info = schema::type_info(Point::info());
//! assert_eq!(info.get("x"), Some(&Value::Array(vec![Value::from("f32")])));
//!
//! let json_schema = schema::JsonSchema::new().generate(Point::info());
//! assert_eq!(json_schema.get("$ref").and_then(Value::as_str), Some("#/$defs/Point"));
//! ```

mod json_schema;
mod type_info;

pub use json_schema::{JsonSchema, SchemaMode, Shapes};
pub use type_info::{type_info, type_info_with};

/// The `$schema` URI of the JSON Schema dialect produced (draft 2020-12).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
