//! [`TypeInfo`]: what a reflected type looks like, known once per type.
//!
//! Every reflected type has one `&'static TypeInfo`: its name, a stable [`Uuid`], a version,
//! and its [`TypeKind`] with the details a reader, writer or registry needs (field names and
//! aliases, enum variants, element types). Readers and writers work through the typed
//! access of [`ReflectRef`](crate::ReflectRef) / [`ReflectMut`](crate::ReflectMut) on the hot
//! path and consult `TypeInfo` for names, defaults and messages.
//!
//! Element types are referenced through [`TypeRef`] (a function returning the info) so that
//! recursive types (`struct Node { children: Vec<Node> }`) can describe themselves.

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::sync::{OnceLock, RwLock};

use uuid::Uuid;

use crate::Reflect;

/// A lazily resolved reference to another type's info (element, field or key type).
pub type TypeRef = fn() -> &'static TypeInfo;

/// The namespace of the version-5 UUIDs derived from type paths.
///
/// A type without an explicit `#[reflect(uuid = "...")]` gets
/// `Uuid::new_v5(&TYPE_PATH_NAMESPACE, type_path)`, the same on every build and machine as long
/// as the type path does not change.
pub const TYPE_PATH_NAMESPACE: Uuid = Uuid::from_u128(0x5c1d_e0a7_4e3b_4f5e_9a61_2b7d_0c8f_13a4);

/// Derives the stable id of a type from its path (UUID version 5).
///
/// ```
/// use sluice_reflect::uuid_from_type_path;
/// assert_eq!(uuid_from_type_path("game::Settings"), uuid_from_type_path("game::Settings"));
/// assert_ne!(uuid_from_type_path("game::Settings"), uuid_from_type_path("game::Other"));
/// ```
#[must_use]
pub fn uuid_from_type_path(type_path: &str) -> Uuid {
    Uuid::new_v5(&TYPE_PATH_NAMESPACE, type_path.as_bytes())
}

/// The description of one reflected type.
pub struct TypeInfo {
    name: &'static str,
    type_path: &'static str,
    type_id: TypeId,
    uuid: Uuid,
    version: u32,
    kind: TypeKind,
    construct: fn() -> Box<dyn Reflect>,
}

impl TypeInfo {
    /// Describes a type. `name` is the short name shown in messages (`"Settings"`,
    /// `"Vec<u32>"`); `type_path` the full path used for the derived Uuid.
    ///
    /// The uuid is derived from `type_path` until [`with_uuid`](TypeInfo::with_uuid) sets one.
    #[must_use]
    pub fn new<T: crate::Typed>(
        name: &'static str,
        type_path: &'static str,
        kind: TypeKind,
    ) -> TypeInfo {
        TypeInfo {
            name,
            type_path,
            type_id: TypeId::of::<T>(),
            uuid: uuid_from_type_path(type_path),
            version: 0,
            kind,
            construct: || Box::new(T::reflect_default()),
        }
    }

    /// Sets an explicit uuid.
    #[must_use]
    pub fn with_uuid(mut self, uuid: Uuid) -> TypeInfo {
        self.uuid = uuid;
        self
    }

    /// Sets the version (0 when not set).
    #[must_use]
    pub fn with_version(mut self, version: u32) -> TypeInfo {
        self.version = version;
        self
    }

    /// The short name shown in messages, such as `Settings` or `Vec<u32>`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The full type path, such as `game::Settings`.
    #[must_use]
    pub fn type_path(&self) -> &'static str {
        self.type_path
    }

    /// The Rust `TypeId`.
    #[must_use]
    pub fn type_id(&self) -> TypeId {
        self.type_id
    }

    /// The stable id: given by attribute, or derived from the type path (UUID v5).
    #[must_use]
    pub fn uuid(&self) -> Uuid {
        self.uuid
    }

    /// The data version (0 unless set with `#[reflect(version = N)]`).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The kind and its details.
    #[must_use]
    pub fn kind(&self) -> &TypeKind {
        &self.kind
    }

    /// A fresh value of this type: its default (required fields get their types' defaults).
    #[must_use]
    pub fn construct(&self) -> Box<dyn Reflect> {
        (self.construct)()
    }

    /// The fields when this is a struct, else `None`.
    #[must_use]
    pub fn as_struct(&self) -> Option<&StructInfo> {
        match &self.kind {
            TypeKind::Struct(info) => Some(info),
            _ => None,
        }
    }

    /// The variants when this is an enum, else `None`.
    #[must_use]
    pub fn as_enum(&self) -> Option<&EnumInfo> {
        match &self.kind {
            TypeKind::Enum(info) => Some(info),
            _ => None,
        }
    }

    /// The types this type refers to directly (fields, elements, keys, values, variants).
    #[must_use]
    pub fn children(&self) -> Vec<&'static TypeInfo> {
        match &self.kind {
            TypeKind::Scalar(_) | TypeKind::Uuid => Vec::new(),
            TypeKind::Struct(info) => info.fields.iter().map(|f| (f.ty)()).collect(),
            TypeKind::Enum(info) => info
                .variants
                .iter()
                .flat_map(|v| v.fields.iter().map(|f| (f.ty)()))
                .chain(info.flags_of.map(|f| f()))
                .collect(),
            TypeKind::List { item } | TypeKind::Set { item } | TypeKind::Option { some: item } => {
                vec![item()]
            }
            TypeKind::Array { item, .. } | TypeKind::Box { inner: item } => vec![item()],
            TypeKind::Map { key, value } => vec![key(), value()],
            TypeKind::Tuple { items } => items.iter().map(|t| t()).collect(),
        }
    }
}

impl fmt::Debug for TypeInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypeInfo")
            .field("name", &self.name)
            .field("uuid", &self.uuid)
            .field("version", &self.version)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// What kind of type this is, with its details.
#[derive(Debug)]
pub enum TypeKind {
    /// A single value: bool, a number, char or a string.
    Scalar(ScalarKind),
    /// A `uuid::Uuid` (written as its canonical string).
    Uuid,
    /// A struct with named fields, a tuple struct or a unit struct.
    Struct(StructInfo),
    /// An enum: plain (unit variants), flags, or with data-carrying variants.
    Enum(EnumInfo),
    /// A growable sequence (`Vec<T>`, `VecDeque<T>`).
    List {
        /// The element type.
        item: TypeRef,
    },
    /// A fixed-size array `[T; N]`.
    Array {
        /// The element type.
        item: TypeRef,
        /// The length.
        len: usize,
    },
    /// A map (`HashMap`, `BTreeMap`) with any reflected key type.
    Map {
        /// The key type.
        key: TypeRef,
        /// The value type.
        value: TypeRef,
    },
    /// A set (`HashSet`, `BTreeSet`).
    Set {
        /// The element type.
        item: TypeRef,
    },
    /// `Option<T>`.
    Option {
        /// The type inside `Some`.
        some: TypeRef,
    },
    /// `Box<T>`: reads and writes as the inner value.
    Box {
        /// The boxed type.
        inner: TypeRef,
    },
    /// A tuple `(A, B, ...)`.
    Tuple {
        /// The element types, in order.
        items: &'static [TypeRef],
    },
}

impl TypeKind {
    /// A short name of the kind for messages (`"struct"`, `"list"`, `"string"`...).
    #[must_use]
    pub fn describe(&self) -> &'static str {
        match self {
            TypeKind::Scalar(s) => s.describe(),
            TypeKind::Uuid => "uuid",
            TypeKind::Struct(_) => "struct",
            TypeKind::Enum(_) => "enum",
            TypeKind::List { .. } => "list",
            TypeKind::Array { .. } => "array",
            TypeKind::Map { .. } => "map",
            TypeKind::Set { .. } => "set",
            TypeKind::Option { .. } => "option",
            TypeKind::Box { .. } => "box",
            TypeKind::Tuple { .. } => "tuple",
        }
    }
}

/// The kind of a scalar value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ScalarKind {
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    Char,
    /// `String` or `Box<str>`.
    String,
}

impl ScalarKind {
    /// A short name for messages.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            ScalarKind::Bool => "bool",
            ScalarKind::I8 => "i8",
            ScalarKind::I16 => "i16",
            ScalarKind::I32 => "i32",
            ScalarKind::I64 => "i64",
            ScalarKind::I128 => "i128",
            ScalarKind::U8 => "u8",
            ScalarKind::U16 => "u16",
            ScalarKind::U32 => "u32",
            ScalarKind::U64 => "u64",
            ScalarKind::U128 => "u128",
            ScalarKind::F32 => "f32",
            ScalarKind::F64 => "f64",
            ScalarKind::Char => "char",
            ScalarKind::String => "string",
        }
    }
}

/// How a struct's fields are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StructStyle {
    /// `struct S { a: A }`: written as a struct (a JSON object).
    Named,
    /// `struct S(A, B)`: written as an array; a one-field tuple struct is written as its field.
    Tuple,
    /// `struct S;`: written as null.
    Unit,
}

/// The fields of a struct (or of a data-carrying enum variant).
#[derive(Debug)]
pub struct StructInfo {
    /// Named, tuple or unit.
    pub style: StructStyle,
    /// The reflected fields in declaration order (skipped fields are not listed).
    pub fields: &'static [FieldInfo],
}

impl StructInfo {
    /// Finds a field by its name or one of its aliases.
    #[must_use]
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.matches(name))
    }

    /// Whether a one-field tuple struct: written transparently as its field.
    #[must_use]
    pub fn is_newtype(&self) -> bool {
        self.style == StructStyle::Tuple && self.fields.len() == 1
    }

    /// The names of the fields, for messages (`a, b, c`).
    #[must_use]
    pub fn field_names(&self) -> String {
        join_names(self.fields.iter().map(|f| f.name))
    }
}

pub(crate) fn join_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut joined = String::new();
    for name in names {
        if !joined.is_empty() {
            joined.push_str(", ");
        }
        joined.push_str(name);
    }
    joined
}

/// What happens when a field is absent from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldDefault {
    /// The field is required: absence is a `MissingField` error (an `Option` field is `None`).
    Required,
    /// The field gets a default value (its `Default`, or the function given by attribute).
    Default,
}

/// One reflected field.
#[derive(Debug)]
pub struct FieldInfo {
    /// The name in the data (after `rename`); the index as text for tuple fields.
    pub name: &'static str,
    /// Other accepted names when reading.
    pub aliases: &'static [&'static str],
    /// The field's type.
    pub ty: TypeRef,
    /// What to do when the field is missing.
    pub default: FieldDefault,
}

impl FieldInfo {
    /// Whether `name` is this field's name or one of its aliases.
    #[must_use]
    pub fn matches(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// The shape of an enum variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantStyle {
    /// `A`: written as its name.
    Unit,
    /// `A(T)` with one field: written as `{"A": value}`.
    Newtype,
    /// `A(T, U)`: written as `{"A": [t, u]}`.
    Tuple,
    /// `A { x: T }`: written as `{"A": {"x": t}}`.
    Struct,
}

/// One enum variant.
#[derive(Debug)]
pub struct VariantInfo {
    /// The name in the data (after `rename`).
    pub name: &'static str,
    /// Other accepted names when reading.
    pub aliases: &'static [&'static str],
    /// The discriminant (unit-only enums; the index otherwise).
    pub discriminant: i64,
    /// Unit, newtype, tuple or struct.
    pub style: VariantStyle,
    /// The payload fields (empty for unit variants).
    pub fields: &'static [FieldInfo],
}

impl VariantInfo {
    /// Whether `name` is this variant's name or one of its aliases.
    #[must_use]
    pub fn matches(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// The variants of an enum.
#[derive(Debug)]
pub struct EnumInfo {
    /// The variants in declaration order.
    pub variants: &'static [VariantInfo],
    /// Whether the variants are bit flags (`#[reflect(flags)]`), combined in a
    /// [`Flags`](crate::Flags) value.
    pub flags: bool,
    /// For a [`Flags<E>`](crate::Flags) value: the flags enum `E` whose variants name the bits.
    pub flags_of: Option<TypeRef>,
}

impl EnumInfo {
    /// Finds a variant by name or alias.
    #[must_use]
    pub fn variant_index(&self, name: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.matches(name))
    }

    /// Finds a variant by discriminant.
    #[must_use]
    pub fn variant_by_discriminant(&self, value: i64) -> Option<usize> {
        self.variants.iter().position(|v| v.discriminant == value)
    }

    /// Whether every variant is a unit variant.
    #[must_use]
    pub fn is_unit_only(&self) -> bool {
        self.variants.iter().all(|v| v.style == VariantStyle::Unit)
    }

    /// The variant names for messages (`Near, Mid`).
    #[must_use]
    pub fn variant_names(&self) -> String {
        join_names(self.variants.iter().map(|v| v.name))
    }
}

/// Storage for the `TypeInfo` of generic types (one per monomorphized type).
///
/// Rust has no generic statics, so `Vec<T>` keeps its info in a process-wide table keyed by
/// `TypeId`, built once and leaked (types are finite, so this is bounded).
///
/// ```
/// use sluice_reflect::{GenericInfoCell, ScalarKind, TypeInfo, TypeKind};
/// static CELL: GenericInfoCell = GenericInfoCell::new();
/// let first = CELL.get_or_init::<u8>(|| TypeInfo::new::<u8>("u8", "u8", TypeKind::Scalar(ScalarKind::U8)));
/// let again = CELL.get_or_init::<u8>(|| unreachable!("built once"));
/// assert!(std::ptr::eq(first, again));
/// ```
#[derive(Debug)]
pub struct GenericInfoCell {
    table: OnceLock<RwLock<HashMap<TypeId, &'static TypeInfo>>>,
}

impl GenericInfoCell {
    /// An empty cell.
    #[must_use]
    pub const fn new() -> GenericInfoCell {
        GenericInfoCell {
            table: OnceLock::new(),
        }
    }

    /// The info of `T`, built by `build` on first use.
    pub fn get_or_init<T: 'static>(&self, build: impl FnOnce() -> TypeInfo) -> &'static TypeInfo {
        let table = self.table.get_or_init(Default::default);
        let id = TypeId::of::<T>();
        if let Some(info) = table
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&id)
        {
            return info;
        }
        // Built outside the lock: building may ask for the info of other types.
        let built: &'static TypeInfo = Box::leak(Box::new(build()));
        let mut write = table
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        write.entry(id).or_insert(built)
    }
}

impl Default for GenericInfoCell {
    fn default() -> Self {
        GenericInfoCell::new()
    }
}

/// Leaks a string built at run time so it can live in a `TypeInfo` (once per type).
#[must_use]
pub fn leak_str(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}
