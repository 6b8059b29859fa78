//! JSON Schema (draft 2020-12) of what sluice writes and reads for a reflected type.

use std::any::TypeId;
use std::collections::{HashMap, HashSet};

use sluice_core::{OwnedNumber, Value};

use super::DRAFT_2020_12;
use super::type_info::len_value;
use crate::handlers::Mark;
use crate::info::{EnumInfo, FieldDefault, FieldInfo, StructStyle, VariantInfo, VariantStyle};
use crate::{ScalarKind, TypeInfo, TypeKind, TypeRegistry, Typed};

/// Which side of sluice's JSON the schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaMode {
    /// Exactly what sluice writes: every field present under its name (after `rename`), `null`
    /// for `None`, enums by name, sets without duplicates.
    #[default]
    Write,
    /// What sluice reads: fields also under their aliases, defaulted and `Option` fields may
    /// be absent, unit enum variants also by discriminant, flags also as `"A | B"` text or an
    /// integer, and the other read forms of the conventions.
    Read,
}

/// Which shapes the schema describes: those of the built-in JSON handler set, or the plain
/// shapes of reflection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shapes {
    /// What the built-in JSON handler set writes and reads (the one-line helpers
    /// `sluice::json::to_string` / `from_str` use it): flags as arrays of names, unit enum
    /// variants also from integer strings, maps with non-string keys as `$key` / `$value`
    /// entries (also `Key` / `Value` on read), fixed arrays of 2 to 4 floats read as vectors,
    /// unknown `$` fields skipped on read.
    #[default]
    Conventions,
    /// The plain shapes of `PropertyReader` / `PropertyWriter` with no handler table: a flags
    /// value is one name or an integer.
    Plain,
}

/// A JSON Schema generator (draft 2020-12) for reflected types.
///
/// The schema is a [`Value`]; write it with any writer. User types (structs and enums) and
/// registered trait objects go to `$defs` under their names and are referred to with `$ref`, so
/// recursive types work; the root refers to its own type.
///
/// By default it describes the built-in JSON handler set ([`Shapes::Conventions`]); give it the
/// registry the tables use ([`registry`](JsonSchema::registry)) for blobs, colors, vectors and
/// trait objects.
///
/// | Rust type | schema ([`SchemaMode::Write`]) |
/// |---|---|
/// | `bool` | `{"type": "boolean"}` |
/// | `i8` ... `u128` | `{"type": "integer", "minimum": MIN, "maximum": MAX}` |
/// | `f32`, `f64` | `{"type": "number"}` |
/// | `char` | `{"type": "string", "minLength": 1, "maxLength": 1}` |
/// | `String` | `{"type": "string"}` |
/// | `Uuid` | `{"type": "string", "format": "uuid", "pattern": ...}` (lowercase, hyphenated) |
/// | `struct S { a: A }` | `{"type": "object", "properties": {"a": A}, "required": ["a"], "additionalProperties": false}` |
/// | `struct S(A, B)`, `(A, B)` | `{"type": "array", "prefixItems": [A, B], "items": false, "minItems": 2}` |
/// | `struct S(A)`, `Box<A>` | the schema of `A` |
/// | `struct S;`, `()` | `{"type": "null"}` |
/// | enum | `{"oneOf": [{"enum": [unit names]}, {"type": "object", "properties": {"V": payload}, "required": ["V"], ...}]}` |
/// | `Flags<E>` | an array of names of `E`, then at most one integer (the bits no name covers) |
/// | `Vec<A>`, `VecDeque<A>` | `{"type": "array", "items": A}` |
/// | `[A; N]` | `{"type": "array", "items": A, "minItems": N, "maxItems": N}` |
/// | `HashSet<A>`, `BTreeSet<A>` | `{"type": "array", "items": A, "uniqueItems": true}` |
/// | maps with string, number, bool, char, uuid or unit-enum keys | `{"type": "object", "propertyNames": K, "additionalProperties": V}` |
/// | maps with other keys | `{"type": "array", "items": {"type": "object", "properties": {"$key": K, "$value": V}, ...}}` |
/// | `Option<A>` | `{"anyOf": [{"type": "null"}, A]}` |
/// | lists marked [`Mark::Blob`] | `{"type": "string", "contentEncoding": "base64", ...}` |
/// | structs marked [`Mark::Color`] or [`Mark::Vector`] | an array of their components |
/// | registered trait objects | `{"oneOf": [{"properties": {"$type": {"enum": ["Circle"]}, ...}}, ...]}` |
///
/// [`SchemaMode::Read`] relaxes it to what sluice reads: a field's aliases are accepted as
/// alternative property names (`required` becomes an `anyOf` of the names), fields with a
/// default and `Option` fields are not required, unknown `$` fields are skipped, unit variants
/// are also accepted by their discriminant (as a number or text), flags also as
/// `"Read | Write"` text or an integer, uuids in every form the `uuid` crate parses, sets with
/// duplicates, vectors and colors in all their read forms, `$type` by path or uuid.
///
/// ```
/// use sluice_core::Value;
/// use sluice_reflect::{Reflect, Typed, schema::{JsonSchema, SchemaMode}};
///
/// #[derive(Reflect)]
/// struct Config {
///     #[reflect(rename = "maxPlayers", alias = "max_players")]
///     max_players: u8,
///     #[reflect(default)]
///     motd: String,
/// }
///
/// let written = JsonSchema::new().generate(Config::info());
/// let config = written.get("$defs").and_then(|d| d.get("Config")).unwrap();
/// assert_eq!(config.get("required"), Some(&Value::Array(vec!["maxPlayers".into(), "motd".into()])));
/// let max = config.get("properties").and_then(|p| p.get("maxPlayers")).and_then(|s| s.get("maximum"));
/// assert_eq!(max.and_then(Value::as_u64), Some(255));
///
/// let read = JsonSchema::new().mode(SchemaMode::Read).generate(Config::info());
/// let config = read.get("$defs").and_then(|d| d.get("Config")).unwrap();
/// assert!(config.get("properties").and_then(|p| p.get("max_players")).is_some());
/// assert!(config.get("required").is_none(), "one of two names: an anyOf instead");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonSchema<'r> {
    mode: SchemaMode,
    shapes: Shapes,
    registry: Option<&'r TypeRegistry>,
}

impl JsonSchema<'static> {
    /// A generator of [`SchemaMode::Write`] schemas of the built-in JSON conventions, with no
    /// registry (no marks, no polymorphic types).
    #[must_use]
    pub fn new() -> JsonSchema<'static> {
        JsonSchema::default()
    }
}

impl<'r> JsonSchema<'r> {
    /// Sets the mode: what sluice writes, or what it reads.
    #[must_use]
    pub fn mode(mut self, mode: SchemaMode) -> JsonSchema<'r> {
        self.mode = mode;
        self
    }

    /// Takes the marks ([`Mark::Blob`], [`Mark::Color`], [`Mark::Vector`]) and the
    /// polymorphic implementors of `registry` into account, as the handler tables do when
    /// given the same registry: blobs as base64 strings, colors and vectors as arrays,
    /// trait objects as `{"$type": ..., fields}` objects of one of their implementors.
    #[must_use]
    pub fn registry<'s>(self, registry: &'s TypeRegistry) -> JsonSchema<'s> {
        JsonSchema {
            mode: self.mode,
            shapes: self.shapes,
            registry: Some(registry),
        }
    }

    /// Sets the shapes described: the built-in JSON conventions (the default) or the plain
    /// shapes of reflection.
    #[must_use]
    pub fn shapes(mut self, shapes: Shapes) -> JsonSchema<'r> {
        self.shapes = shapes;
        self
    }

    /// The schema of the type described by `info`, with `$schema`, a `title` (the type's name)
    /// and the `$defs` of every user type it reaches.
    #[must_use]
    pub fn generate(&self, info: &'static TypeInfo) -> Value {
        let mut generator = Generator {
            mode: self.mode,
            shapes: self.shapes,
            registry: self.registry,
            defs: Vec::new(),
            def_of_type: HashMap::new(),
            def_names: HashSet::new(),
        };
        let root = generator.schema(info);
        let mut document = vec![
            (Value::from("$schema"), Value::from(DRAFT_2020_12)),
            (Value::from("title"), Value::from(info.name())),
        ];
        match root {
            Value::Map(entries) => document.extend(entries),
            other => document.push((Value::from("allOf"), Value::Array(vec![other]))),
        }
        if !generator.defs.is_empty() {
            let defs = generator
                .defs
                .into_iter()
                .map(|(name, schema)| (Value::from(name), schema))
                .collect();
            document.push((Value::from("$defs"), Value::Map(defs)));
        }
        Value::Map(document)
    }

    /// The schema of `T` (see [`generate`](JsonSchema::generate)).
    #[must_use]
    pub fn of<T: Typed>(&self) -> Value {
        self.generate(T::info())
    }
}

/// An object schema from its keywords.
fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Map(
        pairs
            .into_iter()
            .map(|(k, v)| (Value::from(k), v))
            .collect(),
    )
}

fn of_type(name: &str) -> Value {
    object([("type", Value::from(name))])
}

fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> Value {
    Value::Array(items.into_iter().map(Value::from).collect())
}

fn any_of(mut schemas: Vec<Value>) -> Value {
    if schemas.len() == 1 {
        return schemas.pop().unwrap_or(Value::Bool(false));
    }
    object([("anyOf", Value::Array(schemas))])
}

/// The inclusive bounds of an integer kind, `None` for other kinds.
fn integer_bounds(kind: ScalarKind) -> Option<(Value, Value)> {
    let signed = |min: i64, max: i64| Some((Value::from(min), Value::from(max)));
    let unsigned = |max: u64| Some((Value::from(0u64), Value::from(max)));
    match kind {
        ScalarKind::I8 => signed(i8::MIN.into(), i8::MAX.into()),
        ScalarKind::I16 => signed(i16::MIN.into(), i16::MAX.into()),
        ScalarKind::I32 => signed(i32::MIN.into(), i32::MAX.into()),
        ScalarKind::I64 => signed(i64::MIN, i64::MAX),
        ScalarKind::I128 => Some((
            Value::Number(OwnedNumber::I128(i128::MIN)),
            Value::Number(OwnedNumber::I128(i128::MAX)),
        )),
        ScalarKind::U8 => unsigned(u8::MAX.into()),
        ScalarKind::U16 => unsigned(u16::MAX.into()),
        ScalarKind::U32 => unsigned(u32::MAX.into()),
        ScalarKind::U64 => unsigned(u64::MAX),
        ScalarKind::U128 => Some((
            Value::from(0u64),
            Value::Number(OwnedNumber::U128(u128::MAX)),
        )),
        _ => None,
    }
}

fn is_signed(kind: ScalarKind) -> bool {
    matches!(
        kind,
        ScalarKind::I8 | ScalarKind::I16 | ScalarKind::I32 | ScalarKind::I64 | ScalarKind::I128
    )
}

/// The canonical text of a uuid, as sluice writes it.
const UUID_PATTERN: &str = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
/// Every text the `uuid` crate parses: simple, hyphenated, braced and URN, in any case.
const UUID_READ_PATTERN: &str = "^(?:[0-9A-Fa-f]{32}|(?:urn:uuid:)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|\\{[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\\})$";
/// Integer map keys, as their decimal text.
const UNSIGNED_KEY_PATTERN: &str = "^(?:0|[1-9][0-9]*)$";
const SIGNED_KEY_PATTERN: &str = "^(?:0|-?[1-9][0-9]*)$";
/// Float map keys, as their JSON number text.
const FLOAT_KEY_PATTERN: &str = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$";

/// Escapes the characters that mean something in a regular expression.
fn regex_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// A pattern for the texts Rust's `i64` parsing reads as `value`: an optional sign and
/// leading zeros.
fn integer_text_pattern(value: i64) -> String {
    match value {
        0 => String::from("[+-]?0+"),
        v if v < 0 => format!("-0*{}", v.unsigned_abs()),
        v => format!("\\+?0*{v}"),
    }
}

/// Standard base64 with padding, as the blob convention writes it.
const BASE64_PATTERN: &str = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

/// Padded or unpadded base64, as the blob convention reads it.
const BASE64_READ_PATTERN: &str = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2,3})?={0,2}$";

fn object_enum(values: Vec<Value>) -> Value {
    object([("enum", Value::Array(values))])
}

fn is_float(info: &TypeInfo) -> bool {
    matches!(
        info.kind(),
        TypeKind::Scalar(ScalarKind::F32 | ScalarKind::F64)
    )
}

fn is_number(info: &TypeInfo) -> bool {
    matches!(
        info.kind(),
        TypeKind::Scalar(kind)
            if !matches!(kind, ScalarKind::Bool | ScalarKind::Char | ScalarKind::String)
    )
}

/// A name usable in a `$ref` fragment without escaping.
fn def_name(type_name: &str) -> String {
    type_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// How the keys of a map are written.
enum KeyForm {
    /// As JSON object keys; the schema of the key text (`None`: any text).
    Text(Option<Value>),
    /// As `[{"$key": k, "$value": v}]`.
    Entries,
}

struct Generator<'r> {
    mode: SchemaMode,
    shapes: Shapes,
    registry: Option<&'r TypeRegistry>,
    /// Definitions in the order first met; a definition being built holds `Null`.
    defs: Vec<(String, Value)>,
    def_of_type: HashMap<TypeId, usize>,
    def_names: HashSet<String>,
}

impl Generator<'_> {
    fn reading(&self) -> bool {
        self.mode == SchemaMode::Read
    }

    fn conventions(&self) -> bool {
        self.shapes == Shapes::Conventions
    }

    /// The schema of a value of this type: a `$ref` for user types, inline otherwise.
    fn schema(&mut self, info: &'static TypeInfo) -> Value {
        match info.kind() {
            TypeKind::Struct(_) | TypeKind::Enum(_) => self.reference(info),
            TypeKind::Box { .. } if self.implementors(info).is_some() => self.reference(info),
            _ => self.inline(info),
        }
    }

    /// The registry, when the conventions apply and one was given.
    fn conventions_registry(&self) -> Option<&TypeRegistry> {
        self.registry.filter(|_| self.conventions())
    }

    fn has_mark(&self, info: &TypeInfo, mark: Mark) -> bool {
        self.conventions_registry()
            .is_some_and(|registry| registry.has_mark(info, mark))
    }

    fn implementors(&self, info: &TypeInfo) -> Option<Vec<&'static TypeInfo>> {
        self.conventions_registry()?.implementors(info)
    }

    /// The schema of a type a registered convention writes in its own form, if any.
    fn marked(&mut self, info: &'static TypeInfo) -> Option<Value> {
        if let Some(implementors) = self.implementors(info) {
            return Some(self.polymorphic(&implementors));
        }
        if let TypeKind::List { item } = info.kind()
            && self.has_mark(info, Mark::Blob)
        {
            let pattern = if self.reading() {
                BASE64_READ_PATTERN
            } else {
                BASE64_PATTERN
            };
            let text = object([
                ("type", Value::from("string")),
                ("contentEncoding", Value::from("base64")),
                ("pattern", Value::from(pattern)),
            ]);
            if !self.reading() {
                return Some(text);
            }
            // A plain list of bytes is read too.
            let list = object([
                ("type", Value::from("array")),
                ("items", self.schema(item())),
            ]);
            return Some(any_of(vec![text, list]));
        }
        let fields = info.as_struct().map(|s| s.fields)?;
        if self.has_mark(info, Mark::Color)
            && (3..=4).contains(&fields.len())
            && fields.iter().all(|f| is_float((f.ty)()))
        {
            return Some(self.color(fields));
        }
        if self.has_mark(info, Mark::Vector)
            && (2..=4).contains(&fields.len())
            && fields.iter().all(|f| is_number((f.ty)()))
        {
            let components: Vec<Value> = fields.iter().map(|f| self.schema((f.ty)())).collect();
            return Some(self.vector(components));
        }
        None
    }

    fn reference(&mut self, info: &'static TypeInfo) -> Value {
        let index = match self.def_of_type.get(&info.type_id()) {
            Some(&index) => index,
            None => {
                let base = def_name(info.name());
                let mut name = base.clone();
                let mut suffix = 2;
                while !self.def_names.insert(name.clone()) {
                    name = format!("{base}_{suffix}");
                    suffix += 1;
                }
                let index = self.defs.len();
                self.defs.push((name, Value::Null));
                self.def_of_type.insert(info.type_id(), index);
                let mut body = vec![(Value::from("title"), Value::from(info.name()))];
                match self.inline(info) {
                    Value::Map(entries) => body.extend(entries),
                    other => body.push((Value::from("allOf"), Value::Array(vec![other]))),
                }
                self.defs[index].1 = Value::Map(body);
                index
            }
        };
        object([(
            "$ref",
            Value::from(format!("#/$defs/{}", self.defs[index].0)),
        )])
    }

    fn inline(&mut self, info: &'static TypeInfo) -> Value {
        if let Some(schema) = self.marked(info) {
            return schema;
        }
        match info.kind() {
            TypeKind::Scalar(kind) => self.scalar(*kind),
            TypeKind::Uuid => {
                if self.reading() {
                    object([
                        ("type", Value::from("string")),
                        ("pattern", Value::from(UUID_READ_PATTERN)),
                    ])
                } else {
                    object([
                        ("type", Value::from("string")),
                        ("format", Value::from("uuid")),
                        ("pattern", Value::from(UUID_PATTERN)),
                    ])
                }
            }
            TypeKind::Struct(s) => match s.style {
                StructStyle::Unit => of_type("null"),
                StructStyle::Tuple if s.is_newtype() => self.schema((s.fields[0].ty)()),
                StructStyle::Tuple => {
                    let items: Vec<Value> =
                        s.fields.iter().map(|f| self.schema((f.ty)())).collect();
                    Self::tuple(items)
                }
                StructStyle::Named => self.fields(s.fields),
            },
            TypeKind::Enum(e) if e.flags && e.flags_of.is_some() => self.flags(e),
            TypeKind::Enum(e) => self.enumeration(e),
            TypeKind::List { item } => object([
                ("type", Value::from("array")),
                ("items", self.schema(item())),
            ]),
            TypeKind::Array { item, len } => self.array(item(), *len),
            TypeKind::Set { item } => {
                let items = self.schema(item());
                if self.reading() {
                    object([("type", Value::from("array")), ("items", items)])
                } else {
                    object([
                        ("type", Value::from("array")),
                        ("items", items),
                        ("uniqueItems", Value::Bool(true)),
                    ])
                }
            }
            TypeKind::Map { key, value } => self.map(key(), value()),
            TypeKind::Option { some } => any_of(vec![of_type("null"), self.schema(some())]),
            TypeKind::Box { inner } => self.schema(inner()),
            TypeKind::Tuple { items: [] } => of_type("null"),
            TypeKind::Tuple { items } => {
                let items: Vec<Value> = items.iter().map(|t| self.schema(t())).collect();
                Self::tuple(items)
            }
        }
    }

    fn array(&mut self, item: &'static TypeInfo, len: usize) -> Value {
        let items = self.schema(item);
        if self.conventions() && is_float(item) && (2..=4).contains(&len) {
            return self.vector(vec![items; len]);
        }
        object([
            ("type", Value::from("array")),
            ("items", items),
            ("minItems", Value::from(len_value(len))),
            ("maxItems", Value::from(len_value(len))),
        ])
    }

    /// A vector of these components: written as an array of them; read from an array of any
    /// length (missing components are 0, extra ones skipped unread) or from an object of
    /// x / y / z / w keys in any case.
    fn vector(&self, components: Vec<Value>) -> Value {
        if !self.reading() {
            return Self::tuple(components);
        }
        let axes = components
            .iter()
            .zip(["x", "y", "z", "w"])
            .map(|(schema, axis)| {
                let upper = axis.to_ascii_uppercase();
                (Value::from(format!("^[{axis}{upper}]$")), schema.clone())
            });
        any_of(vec![
            object([
                ("type", Value::from("array")),
                ("prefixItems", Value::Array(components.clone())),
            ]),
            object([
                ("type", Value::from("object")),
                ("patternProperties", Value::Map(axes.collect())),
                ("additionalProperties", Value::Bool(false)),
            ]),
        ])
    }

    /// A color of these float fields (r, g, b and maybe a).
    fn color(&mut self, fields: &'static [FieldInfo]) -> Value {
        let components: Vec<Value> = fields.iter().map(|f| self.schema((f.ty)())).collect();
        if !self.reading() {
            return Self::tuple(components);
        }
        let numbers = |len: u64, item: Value| {
            object([
                ("type", Value::from("array")),
                ("items", item),
                ("minItems", Value::from(len)),
                ("maxItems", Value::from(len)),
            ])
        };
        let number = of_type("number");
        let byte = object([
            ("type", Value::from("integer")),
            ("minimum", Value::from(0u64)),
            ("maximum", Value::from(255u64)),
        ]);
        let hex = |digits: usize| {
            object([
                ("type", Value::from("string")),
                ("pattern", Value::from(format!("^[0-9A-Fa-f]{{{digits}}}$"))),
            ])
        };
        // One key, in any case.
        let forms = object([
            ("^[Rr][Gg][Bb]$", numbers(3, number.clone())),
            ("^[Rr][Gg][Bb][Aa]$", numbers(4, number.clone())),
            ("^[Rr][Gg][Bb]8$", numbers(3, byte.clone())),
            ("^[Rr][Gg][Bb][Aa]8$", numbers(4, byte)),
            ("^[Hh][Ee][Xx]$", hex(6)),
            ("^[Hh][Ee][Xx][Aa]$", hex(8)),
        ]);
        any_of(vec![
            object([
                ("type", Value::from("array")),
                ("items", number),
                ("minItems", Value::from(3u64)),
                ("maxItems", Value::from(4u64)),
            ]),
            object([
                ("type", Value::from("string")),
                (
                    "pattern",
                    Value::from("^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"),
                ),
            ]),
            object([
                ("type", Value::from("object")),
                ("minProperties", Value::from(1u64)),
                ("maxProperties", Value::from(1u64)),
                ("patternProperties", forms),
                ("additionalProperties", Value::Bool(false)),
            ]),
        ])
    }

    /// A trait object: `{"$type": name, fields...}` of one of its registered implementors.
    fn polymorphic(&mut self, implementors: &[&'static TypeInfo]) -> Value {
        let alternatives = implementors
            .iter()
            .map(|implementor| {
                let fields = implementor.as_struct().map_or(&[][..], |s| s.fields);
                let names = if self.reading() {
                    // By name, full path or uuid.
                    let uuid = implementor.uuid();
                    vec![
                        Value::from(implementor.name()),
                        Value::from(implementor.type_path()),
                        Value::from(uuid.to_string()),
                        Value::from(uuid.hyphenated().to_string().to_uppercase()),
                    ]
                } else {
                    vec![Value::from(implementor.name())]
                };
                let Value::Map(mut object) = self.fields(fields) else {
                    return Value::Bool(false);
                };
                for (key, value) in &mut object {
                    match (key.as_str(), value) {
                        (Some("properties"), Value::Map(properties)) => {
                            properties
                                .insert(0, (Value::from("$type"), object_enum(names.clone())));
                        }
                        (Some("required"), Value::Array(required)) => {
                            required.insert(0, Value::from("$type"));
                        }
                        _ => {}
                    }
                }
                if !object.iter().any(|(k, _)| k.as_str() == Some("required")) {
                    object.insert(2, (Value::from("required"), strings(["$type"])));
                }
                Value::Map(object)
            })
            .collect();
        object([("oneOf", Value::Array(alternatives))])
    }

    fn scalar(&self, kind: ScalarKind) -> Value {
        if let Some((min, max)) = integer_bounds(kind) {
            return object([
                ("type", Value::from("integer")),
                ("minimum", min),
                ("maximum", max),
            ]);
        }
        match kind {
            ScalarKind::Bool => of_type("boolean"),
            ScalarKind::F32 | ScalarKind::F64 => of_type("number"),
            ScalarKind::Char => object([
                ("type", Value::from("string")),
                ("minLength", Value::from(1u64)),
                ("maxLength", Value::from(1u64)),
            ]),
            _ => of_type("string"),
        }
    }

    fn tuple(items: Vec<Value>) -> Value {
        let len = len_value(items.len());
        object([
            ("type", Value::from("array")),
            ("prefixItems", Value::Array(items)),
            ("items", Value::Bool(false)),
            ("minItems", Value::from(len)),
        ])
    }

    /// The object of a named struct or of a struct variant's payload.
    fn fields(&mut self, fields: &'static [FieldInfo]) -> Value {
        let mut properties = Vec::new();
        let mut required = Vec::new();
        let mut one_name_of = Vec::new();
        for field in fields {
            let schema = self.schema((field.ty)());
            properties.push((Value::from(field.name), schema.clone()));
            if self.reading() {
                for alias in field.aliases {
                    properties.push((Value::from(*alias), schema.clone()));
                }
            }
            if !self.reading() {
                required.push(field.name);
                continue;
            }
            let is_option = matches!((field.ty)().kind(), TypeKind::Option { .. });
            if field.default == FieldDefault::Default || is_option {
                continue;
            }
            if field.aliases.is_empty() {
                required.push(field.name);
            } else {
                // Present under any one of its names.
                let names = std::iter::once(field.name).chain(field.aliases.iter().copied());
                let alternatives = names
                    .map(|name| object([("required", strings([name]))]))
                    .collect();
                one_name_of.push(object([("anyOf", Value::Array(alternatives))]));
            }
        }
        let mut schema = vec![
            (Value::from("type"), Value::from("object")),
            (Value::from("properties"), Value::Map(properties)),
        ];
        if !required.is_empty() {
            schema.push((Value::from("required"), strings(required)));
        }
        if !one_name_of.is_empty() {
            schema.push((Value::from("allOf"), Value::Array(one_name_of)));
        }
        if self.reading() && self.conventions() {
            // Unknown fields named `$...` are skipped.
            schema.push((
                Value::from("patternProperties"),
                object([("^\\$", Value::Bool(true))]),
            ));
        }
        schema.push((Value::from("additionalProperties"), Value::Bool(false)));
        Value::Map(schema)
    }

    fn variant_names(&self, variant: &VariantInfo) -> Vec<&'static str> {
        let mut names = vec![variant.name];
        if self.reading() {
            names.extend(variant.aliases.iter().copied());
        }
        names
    }

    fn enumeration(&mut self, info: &'static EnumInfo) -> Value {
        let mut unit_names = Vec::new();
        let mut unit_discriminants = Vec::new();
        let mut alternatives = Vec::new();
        for variant in info.variants {
            if variant.style == VariantStyle::Unit {
                unit_names.extend(self.variant_names(variant).into_iter().map(Value::from));
                if self.reading() {
                    unit_names.push(Value::from(variant.discriminant));
                    unit_discriminants.push(integer_text_pattern(variant.discriminant));
                }
                continue;
            }
            let payload = match variant.style {
                VariantStyle::Newtype => self.schema((variant.fields[0].ty)()),
                VariantStyle::Tuple => {
                    let items = variant
                        .fields
                        .iter()
                        .map(|f| self.schema((f.ty)()))
                        .collect();
                    Self::tuple(items)
                }
                _ => self.fields(variant.fields),
            };
            // `{"Variant": payload}`, the only key.
            for name in self.variant_names(variant) {
                alternatives.push(object([
                    ("type", Value::from("object")),
                    ("properties", object([(name, payload.clone())])),
                    ("required", strings([name])),
                    ("additionalProperties", Value::Bool(false)),
                ]));
            }
        }
        if self.reading() && self.conventions() && !unit_discriminants.is_empty() {
            // A unit variant's discriminant as text (`"5"`, `" +05 "`).
            let pattern = format!("^\\s*(?:{})\\s*$", unit_discriminants.join("|"));
            alternatives.insert(
                0,
                object([
                    ("type", Value::from("string")),
                    ("pattern", Value::from(pattern)),
                ]),
            );
        }
        if !unit_names.is_empty() {
            alternatives.insert(0, object([("enum", Value::Array(unit_names))]));
        }
        match alternatives.len() {
            0 => Value::Bool(false),
            1 => alternatives.pop().unwrap_or(Value::Bool(false)),
            _ => object([("oneOf", Value::Array(alternatives))]),
        }
    }

    /// A `Flags<E>` value.
    fn flags(&self, info: &'static EnumInfo) -> Value {
        let integer = |extra: Option<(&str, Value)>| {
            let mut schema = vec![
                (Value::from("type"), Value::from("integer")),
                (Value::from("minimum"), Value::from(i64::MIN)),
                (Value::from("maximum"), Value::from(i64::MAX)),
            ];
            if let Some((keyword, value)) = extra {
                schema.push((Value::from(keyword), value));
            }
            Value::Map(schema)
        };
        if self.reading() {
            let names: Vec<&str> = info
                .variants
                .iter()
                .flat_map(|v| std::iter::once(v.name).chain(v.aliases.iter().copied()))
                .collect();
            // `"Read | Exec"`: names separated by `|`, blanks around them.
            let alternation: Vec<String> = names.iter().map(|n| regex_escape(n)).collect();
            let name = format!("(?:{})", alternation.join("|"));
            let pattern = format!("^\\s*(?:{name}\\s*)?(?:\\|\\s*(?:{name}\\s*)?)*$");
            let mut alternatives = Vec::new();
            if self.conventions() {
                // `["Read", "Exec", 16]`: names and integers, ORed.
                let item = any_of(vec![object([("enum", strings(names))]), integer(None)]);
                alternatives.push(object([("type", Value::from("array")), ("items", item)]));
            }
            alternatives.push(object([
                ("type", Value::from("string")),
                ("pattern", Value::from(pattern)),
            ]));
            alternatives.push(integer(None));
            return any_of(alternatives);
        }
        if self.conventions() {
            // The names covering the bits, then the bits no name covers as one integer.
            let names = info
                .variants
                .iter()
                .filter(|v| v.discriminant != 0)
                .map(|v| v.name);
            let leftover = integer(Some(("not", object([("const", Value::from(0i64))]))));
            return object([
                ("type", Value::from("array")),
                (
                    "items",
                    any_of(vec![object([("enum", strings(names))]), leftover]),
                ),
                ("uniqueItems", Value::Bool(true)),
                ("contains", of_type("integer")),
                ("minContains", Value::from(0u64)),
                ("maxContains", Value::from(1u64)),
            ]);
        }
        // A value equal to one flag is written as its name, any other as its integer.
        let discriminants: Vec<Value> = info
            .variants
            .iter()
            .map(|v| Value::from(v.discriminant))
            .collect();
        let mut alternatives = Vec::new();
        if !info.variants.is_empty() {
            alternatives.push(object([(
                "enum",
                strings(info.variants.iter().map(|v| v.name)),
            )]));
        }
        alternatives.push(integer(Some((
            "not",
            object([("enum", Value::Array(discriminants))]),
        ))));
        any_of(alternatives)
    }

    fn key_form(&self, key: &'static TypeInfo) -> KeyForm {
        match key.kind() {
            TypeKind::Scalar(ScalarKind::String) => KeyForm::Text(None),
            TypeKind::Scalar(ScalarKind::Bool) => {
                KeyForm::Text(Some(object([("enum", strings(["true", "false"]))])))
            }
            TypeKind::Scalar(ScalarKind::Char) => {
                KeyForm::Text(Some(self.scalar(ScalarKind::Char)))
            }
            TypeKind::Scalar(ScalarKind::F32 | ScalarKind::F64) => {
                KeyForm::Text(Some(object([("pattern", Value::from(FLOAT_KEY_PATTERN))])))
            }
            TypeKind::Scalar(kind) => {
                let pattern = if is_signed(*kind) {
                    SIGNED_KEY_PATTERN
                } else {
                    UNSIGNED_KEY_PATTERN
                };
                KeyForm::Text(Some(object([("pattern", Value::from(pattern))])))
            }
            TypeKind::Uuid => {
                let pattern = if self.reading() {
                    UUID_READ_PATTERN
                } else {
                    UUID_PATTERN
                };
                KeyForm::Text(Some(object([("pattern", Value::from(pattern))])))
            }
            TypeKind::Enum(e) if e.flags_of.is_none() && e.is_unit_only() => {
                let names = e.variants.iter().flat_map(|v| self.variant_names(v));
                KeyForm::Text(Some(object([("enum", strings(names))])))
            }
            _ => KeyForm::Entries,
        }
    }

    fn map(&mut self, key: &'static TypeInfo, value: &'static TypeInfo) -> Value {
        match self.key_form(key) {
            KeyForm::Text(names) => {
                let mut schema = vec![(Value::from("type"), Value::from("object"))];
                if let Some(names) = names {
                    schema.push((Value::from("propertyNames"), names));
                }
                schema.push((Value::from("additionalProperties"), self.schema(value)));
                Value::Map(schema)
            }
            KeyForm::Entries => {
                let (key, value) = (self.schema(key), self.schema(value));
                let entry = if self.reading() && self.conventions() {
                    // O3DE's `Key` / `Value` are read too.
                    let either = |a: &str, b: &str| {
                        object([(
                            "anyOf",
                            Value::Array(vec![
                                object([("required", strings([a]))]),
                                object([("required", strings([b]))]),
                            ]),
                        )])
                    };
                    object([
                        ("type", Value::from("object")),
                        (
                            "properties",
                            object([
                                ("$key", key.clone()),
                                ("Key", key),
                                ("$value", value.clone()),
                                ("Value", value),
                            ]),
                        ),
                        (
                            "allOf",
                            Value::Array(vec![either("$key", "Key"), either("$value", "Value")]),
                        ),
                        ("additionalProperties", Value::Bool(false)),
                    ])
                } else {
                    object([
                        ("type", Value::from("object")),
                        ("properties", object([("$key", key), ("$value", value)])),
                        ("required", strings(["$key", "$value"])),
                        ("additionalProperties", Value::Bool(false)),
                    ])
                };
                let entries = object([("type", Value::from("array")), ("items", entry)]);
                if self.reading() {
                    // An empty object reads as an empty map too.
                    let empty = object([
                        ("type", Value::from("object")),
                        ("maxProperties", Value::from(0u64)),
                    ]);
                    return any_of(vec![entries, empty]);
                }
                entries
            }
        }
    }
}
