//! Reflection for sluice: native Rust values as token streams.
//!
//! Rust has no run-time reflection, so sluice brings its own, in the spirit of the O3DE
//! `SerializeContext` and `bevy_reflect`:
//!
//! - [`Reflect`]: an object-safe trait giving a value's [`TypeInfo`] and typed access to its
//!   insides ([`ReflectRef`] / [`ReflectMut`]: struct fields, list elements, map entries...);
//! - `#[derive(Reflect)]` (re-exported from `sluice-derive`) for structs and enums;
//! - [`TypeRegistry`]: types by name and by stable [`Uuid`];
//! - [`PropertyReader`]: a `&dyn Reflect` read as tokens; [`PropertyWriter`]: tokens written
//!   into a `&mut dyn Reflect`. With them, `pipe(json_reader, property_writer)` deserializes
//!   and `pipe(property_reader, json_writer)` serializes, with no per-type code.
//!
//! ```
//! use sluice_core::{pipe, Value, ValueReader, ValueWriter};
//! use sluice_reflect::{PropertyReader, PropertyWriter, Reflect};
//!
//! #[derive(Reflect, Debug, PartialEq)]
//! struct Point { x: i32, y: i32 }
//!
//! let input = Value::Map(vec![(Value::from("x"), Value::from(3i64)), (Value::from("y"), Value::from(-4i64))]);
//! let mut point = Point { x: 0, y: 0 };
//! pipe(&mut ValueReader::new(&input), &mut PropertyWriter::new(&mut point))?;
//! assert_eq!(point, Point { x: 3, y: -4 });
//!
//! let mut out = ValueWriter::new();
//! pipe(&mut PropertyReader::new(&point), &mut out)?;
//! assert_eq!(out.into_value()?, input);
//! # Ok::<(), sluice_core::Error>(())
//! ```
#![warn(missing_docs)]

// The derive macro refers to this crate as `::sluice_reflect`; inside it, that is `crate`.
extern crate self as sluice_reflect;

mod emit;
pub mod evolve;
mod flags;
pub mod handlers;
mod impls;
pub mod info;
mod num;
mod reader;
mod reflect;
mod registry;
pub mod schema;
mod writer;

pub use flags::Flags;
pub use handlers::{Deserializer, Serializer};
pub use impls::HashBuilder;
pub use info::{
    EnumInfo, FieldDefault, FieldInfo, GenericInfoCell, ScalarKind, StructInfo, StructStyle,
    TypeInfo, TypeKind, TypeRef, VariantInfo, VariantStyle, uuid_from_type_path,
};
pub use reader::PropertyReader;
pub use reflect::{
    Enum, List, Map, OptionValue, Reflect, ReflectMut, ReflectRef, ScalarMut, ScalarRef, Set,
    Struct, Tuple, Typed,
};
pub use registry::TypeRegistry;
pub use sluice_derive::Reflect;
/// The uuid type of type ids and `Uuid` values (re-exported from the `uuid` crate).
pub use uuid::Uuid;
pub use writer::PropertyWriter;

/// Error codes of the reflection layer (category `reflect`).
pub mod codes {
    use sluice_core::ErrorCode;

    /// A field name the struct does not have (nor as an alias).
    pub const UNKNOWN_FIELD: ErrorCode = ErrorCode::new("reflect", "UnknownField");
    /// A required field was absent; the span is the whole object.
    pub const MISSING_FIELD: ErrorCode = ErrorCode::new("reflect", "MissingField");
    /// The input has another shape than the target type (a string for a number...).
    pub const WRONG_TYPE: ErrorCode = ErrorCode::new("reflect", "WrongType");
    /// No enum variant has this name (or discriminant).
    pub const ENUM_NAME_NOT_FOUND: ErrorCode = ErrorCode::new("reflect", "EnumNameNotFound");
    /// An array for a tuple or fixed array has the wrong number of elements.
    pub const LENGTH_MISMATCH: ErrorCode = ErrorCode::new("reflect", "LengthMismatch");
    /// A string that is not a valid uuid.
    pub const INVALID_UUID: ErrorCode = ErrorCode::new("reflect", "InvalidUuid");
    /// No rule, uuid handler or kind handler of a handler table applies to a value.
    pub const NO_MATCHING_HANDLER: ErrorCode = ErrorCode::new("reflect", "NoMatchingHandler");
    /// A polymorphic value names a type that is not a registered implementor.
    pub const UNKNOWN_TYPE: ErrorCode = ErrorCode::new("reflect", "UnknownType");
    /// A polymorphic value has no `"$type"` key.
    pub const MISSING_TYPE: ErrorCode = ErrorCode::new("reflect", "MissingType");
    /// A value a convention reads has the wrong form (bad base64, bad color...).
    pub const INVALID_FORM: ErrorCode = ErrorCode::new("reflect", "InvalidForm");
}

/// Items used by the code `#[derive(Reflect)]` generates. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use uuid::Uuid;
}
