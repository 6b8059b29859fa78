//! The JSON Schemas of `sluice_reflect::schema` checked by a real validator: Python's
//! `jsonschema` package validates what sluice writes for generated values of several types,
//! and rejects broken documents (which sluice's reader rejects too).
//!
//! Needs `python3` with `jsonschema` (`pip install jsonschema`). Without them the test says so
//! and passes, unless `SLUICE_REQUIRE_CORPUS=1` (as in CI), where it fails.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use sluice_core::{OwnedNumber, Value, ValueReader, ValueWriter, pipe};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice_reflect::handlers::{Mark, builtin};
use sluice_reflect::info::{StructStyle, VariantStyle};
use sluice_reflect::schema::{JsonSchema, SchemaMode, Shapes};
use sluice_reflect::{
    Flags, PropertyReader, PropertyWriter, Reflect, ScalarKind, TypeInfo, TypeKind, TypeRegistry,
    Typed, Uuid,
};

// ---- the types ----

#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Team {
    Red,
    #[reflect(rename = "blue", alias = "Blue")]
    Blue,
    Green = 7,
}

#[derive(Reflect, Debug, Clone, Copy)]
#[reflect(flags)]
enum Access {
    Read = 1,
    Write = 2,
    Exec = 4,
}

#[derive(Reflect, Debug, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect {
        w: u16,
        #[reflect(rename = "height", alias = "h")]
        h: u16,
    },
    Group(Vec<Shape>),
}

#[derive(Reflect, Debug, Clone)]
struct Meters(f64);

#[derive(Reflect, Debug, Clone)]
struct Pair(u8, String);

#[derive(Reflect, Debug, Clone)]
struct Marker;

#[derive(Reflect, Debug, Clone)]
struct Item {
    name: String,
    #[reflect(rename = "qty", alias = "quantity")]
    count: u16,
    #[reflect(default)]
    tags: BTreeSet<String>,
    weight: Option<f32>,
}

#[derive(Reflect, Debug, Clone)]
struct Settings {
    #[reflect(rename = "displayName", alias = "display_name")]
    display_name: String,
    volume: u8,
    balance: i8,
    level: i16,
    score: i32,
    big: i64,
    huge: u64,
    wide: i128,
    uwide: u128,
    ratio: f32,
    precise: f64,
    initial: char,
    enabled: bool,
    id: Uuid,
    team: Team,
    access: Flags<Access>,
    shape: Shape,
    #[reflect(default)]
    items: Vec<Item>,
    lookup: BTreeMap<String, u16>,
    by_id: HashMap<u32, i8>,
    offsets: BTreeMap<i64, String>,
    by_team: BTreeMap<Team, bool>,
    by_uuid: BTreeMap<Uuid, char>,
    pair: (u8, String, bool),
    coords: [i16; 3],
    length: Meters,
    tagged: Pair,
    marker: Marker,
    nested: Option<Option<u8>>,
    boxed: Box<Item>,
    #[reflect(default)]
    letters: VecDeque<char>,
    nothing: (),
    // Not reflected: absent from the schema and from the output.
    #[reflect(skip)]
    #[allow(dead_code)]
    cache: u32,
}

#[derive(Reflect, Debug, Clone)]
struct Node {
    label: String,
    children: Vec<Node>,
}

// The types of the handler conventions (marks and trait objects, in `registry()`).

#[derive(Reflect, Debug, Clone)]
struct Rgba {
    r: f32,
    g: f32,
    b: f32,
    a: f32,
}

#[derive(Reflect, Debug, Clone)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f64,
}

trait Part: Reflect {}

#[derive(Reflect, Debug)]
struct Wheel {
    radius: f32,
    #[reflect(default)]
    spokes: u8,
}

#[derive(Reflect, Debug)]
struct Lamp {
    #[reflect(rename = "colour", alias = "color")]
    tint: Rgba,
    on: Option<bool>,
}

impl Part for Wheel {}
impl Part for Lamp {}

sluice_reflect::reflect_trait_object!(Part, default = Wheel);

#[derive(Reflect)]
struct Scene {
    name: String,
    data: Vec<u8>,
    tint: Rgba,
    pos: Vec3,
    dir: [f32; 3],
    cells: BTreeMap<(u8, u8), String>,
    parts: Vec<Box<dyn Part>>,
    main: Box<dyn Part>,
    access: Flags<Access>,
    team: Team,
    #[reflect(default)]
    tags: BTreeSet<String>,
}

/// The registry the conventions flavor writes and reads with.
fn registry() -> &'static TypeRegistry {
    static REGISTRY: OnceLock<TypeRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = TypeRegistry::new();
        registry
            .mark::<Vec<u8>>(Mark::Blob)
            .mark::<Rgba>(Mark::Color)
            .mark::<Vec3>(Mark::Vector)
            .register_polymorphic::<Box<dyn Part>, Wheel>(|w| Box::new(w))
            .register_polymorphic::<Box<dyn Part>, Lamp>(|l| Box::new(l))
            .register::<Scene>();
        registry
    })
}

/// The registry of a flavor: `Some` when the handler conventions apply.
type Reg = Option<&'static TypeRegistry>;

fn has_mark(info: &TypeInfo, mark: Mark, reg: Reg) -> bool {
    reg.is_some_and(|r| r.has_mark(info, mark))
}

/// The implementor named by the `$type` of `doc`, when `info` is a registered trait object.
fn implementor_of(doc: &Value, info: &TypeInfo, reg: Reg) -> Option<&'static TypeInfo> {
    let implementors = reg?.implementors(info)?;
    let name = doc.get("$type")?.as_str()?;
    implementors.into_iter().find(|i| i.name() == name)
}

fn is_float_vector(info: &TypeInfo) -> bool {
    matches!(info.kind(), TypeKind::Array { item, len }
        if (2..=4).contains(len)
            && matches!(item().kind(), TypeKind::Scalar(ScalarKind::F32 | ScalarKind::F64)))
}

/// Values of the conventions' own forms: trait objects with `$type`, colors as arrays.
fn random_special(info: &'static TypeInfo, rng: &mut Rng, depth: usize, reg: Reg) -> Option<Value> {
    let registry = reg?;
    if let Some(implementors) = registry.implementors(info) {
        let implementor = implementors[rng.below(implementors.len() as u64) as usize];
        let Value::Map(mut fields) = random_value(implementor, rng, depth + 1, reg) else {
            panic!("implementors are named structs")
        };
        let at = rng.below(fields.len() as u64 + 1) as usize;
        fields.insert(at, (Value::from("$type"), Value::from(implementor.name())));
        return Some(Value::Map(fields));
    }
    if has_mark(info, Mark::Color, reg) {
        let fields = info.as_struct().expect("a struct").fields;
        return Some(Value::Array(
            fields
                .iter()
                .map(|f| random_value((f.ty)(), rng, depth + 1, reg))
                .collect(),
        ));
    }
    None
}

/// Other spellings the conventions read: `$type` last, colors as `{"RGBA": [...]}`, vectors
/// as objects of capital axes, flags as text, unit variants as integer strings, map entries
/// as `Key` / `Value`, a `$comment` field.
fn loosen_special(doc: &Value, info: &'static TypeInfo, rng: &mut Rng, reg: Reg) -> Option<Value> {
    reg?;
    if let Some(implementor) = implementor_of(doc, info, reg) {
        let Value::Map(entries) = doc.clone() else {
            return None;
        };
        let (kind, rest): (Vec<_>, Vec<_>) = entries
            .into_iter()
            .partition(|(k, _)| k.as_str() == Some("$type"));
        let fields = implementor.as_struct().map_or(&[][..], |s| s.fields);
        let Value::Map(mut out) = loosen_fields(rest, fields, rng, reg) else {
            return None;
        };
        out.extend(kind);
        return Some(Value::Map(out));
    }
    let components = doc.as_array();
    if has_mark(info, Mark::Color, reg) && rng.chance(2) {
        let form = if components?.len() == 4 {
            "rgba"
        } else {
            "RGB"
        };
        return Some(Value::Map(vec![(Value::from(form), doc.clone())]));
    }
    if (has_mark(info, Mark::Vector, reg) || is_float_vector(info)) && rng.chance(2) {
        let axes = ["X", "y", "Z", "w"];
        return Some(Value::Map(
            components?
                .iter()
                .zip(axes)
                .map(|(v, axis)| (Value::from(axis), v.clone()))
                .collect(),
        ));
    }
    match (info.kind(), doc) {
        (TypeKind::Enum(e), Value::Array(items)) if e.flags_of.is_some() && rng.chance(2) => {
            let names: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            Some(names.map_or_else(|| doc.clone(), |names| Value::from(names.join("|"))))
        }
        (TypeKind::Enum(e), Value::String(name)) if e.is_unit_only() && rng.chance(3) => {
            let variant = e.variants.iter().find(|v| v.name == name)?;
            Some(Value::from(format!(" {} ", variant.discriminant)))
        }
        (TypeKind::Map { key, value }, Value::Array(entries)) => Some(Value::Array(
            entries
                .iter()
                .map(|entry| {
                    let (k, v) = (entry.get("$key").cloned()?, entry.get("$value").cloned()?);
                    let (kn, vn) = if rng.chance(2) {
                        ("Key", "Value")
                    } else {
                        ("$key", "$value")
                    };
                    Some(Value::Map(vec![
                        (Value::from(vn), loosen(v, value(), rng, reg)),
                        (Value::from(kn), loosen(k, key(), rng, reg)),
                    ]))
                })
                .collect::<Option<Vec<_>>>()?,
        )),
        (TypeKind::Struct(s), Value::Map(entries))
            if s.style == StructStyle::Named && rng.chance(4) =>
        {
            let Value::Map(mut out) = loosen_fields(entries.clone(), s.fields, rng, reg) else {
                return None;
            };
            out.push((Value::from("$comment"), Value::from("skipped")));
            Some(Value::Map(out))
        }
        _ => None,
    }
}

/// Wrong values where the conventions read more than one shape.
fn wrong_special(
    current: &Value,
    info: &'static TypeInfo,
    rng: &mut Rng,
    reg: Reg,
) -> Option<Value> {
    let registry = reg?;
    if registry.implementors(info).is_some() {
        let mut doc = current.clone();
        match rng.below(3) {
            0 => doc.insert("$type", Value::from("NoSuchType")),
            1 => doc.remove("$type"),
            _ => doc.insert("unknown_field", Value::Null),
        };
        return Some(doc);
    }
    let marked = [Mark::Blob, Mark::Color, Mark::Vector]
        .into_iter()
        .any(|mark| has_mark(info, mark, reg));
    (marked || is_float_vector(info)).then(|| Value::from(true))
}

// ---- a deterministic generator of values of any reflected type ----

/// xorshift64*: small, fast, and the same sequence on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    fn wide(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }
}

fn random_char(rng: &mut Rng) -> char {
    const SPECIAL: &[char] = &['"', '\\', '\n', '\t', '\u{0}', '/', 'é', '€', '😀', '|'];
    match rng.below(4) {
        0 => SPECIAL[rng.below(SPECIAL.len() as u64) as usize],
        1 => loop {
            if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                break c;
            }
        },
        _ => char::from(b' ' + rng.below(95) as u8),
    }
}

fn random_string(rng: &mut Rng) -> String {
    (0..rng.below(9)).map(|_| random_char(rng)).collect()
}

/// An integer of `kind`, often at the edges of its range.
fn random_integer(kind: ScalarKind, rng: &mut Rng) -> Value {
    let bits = rng.wide();
    let edge = rng.below(4);
    macro_rules! pick {
        ($ty:ty, $variant:ident, $wide:ty) => {{
            let value: $ty = match edge {
                0 => <$ty>::MIN,
                1 => <$ty>::MAX,
                _ => bits as $ty,
            };
            Value::Number(OwnedNumber::$variant(<$wide>::from(value)))
        }};
    }
    match kind {
        ScalarKind::I8 => pick!(i8, I64, i64),
        ScalarKind::I16 => pick!(i16, I64, i64),
        ScalarKind::I32 => pick!(i32, I64, i64),
        ScalarKind::I64 => pick!(i64, I64, i64),
        ScalarKind::I128 => pick!(i128, I128, i128),
        ScalarKind::U8 => pick!(u8, U64, u64),
        ScalarKind::U16 => pick!(u16, U64, u64),
        ScalarKind::U32 => pick!(u32, U64, u64),
        ScalarKind::U64 => pick!(u64, U64, u64),
        ScalarKind::U128 => pick!(u128, U128, u128),
        other => panic!("not an integer: {other:?}"),
    }
}

fn random_scalar(kind: ScalarKind, rng: &mut Rng) -> Value {
    match kind {
        ScalarKind::Bool => Value::Bool(rng.chance(2)),
        ScalarKind::F32 => loop {
            let v = f32::from_bits(rng.next() as u32);
            if v.is_finite() {
                break Value::Number(OwnedNumber::F32(v));
            }
        },
        ScalarKind::F64 => loop {
            let v = f64::from_bits(rng.next());
            if v.is_finite() {
                break Value::Number(OwnedNumber::F64(v));
            }
        },
        ScalarKind::Char => Value::String(random_char(rng).to_string()),
        ScalarKind::String => Value::String(random_string(rng)),
        other => random_integer(other, rng),
    }
}

/// A value of the type of `info`, in the shape sluice reads. Deep values get empty lists and
/// unit variants, so recursive types stay small.
fn random_value(info: &'static TypeInfo, rng: &mut Rng, depth: usize, reg: Reg) -> Value {
    let deep = depth > 3;
    if let Some(special) = random_special(info, rng, depth, reg) {
        return special;
    }
    let count = |rng: &mut Rng| if deep { 0 } else { rng.below(4) };
    match info.kind() {
        TypeKind::Scalar(kind) => random_scalar(*kind, rng),
        TypeKind::Uuid => Value::String(Uuid::from_u128(rng.wide()).to_string()),
        TypeKind::Struct(s) => match s.style {
            StructStyle::Unit => Value::Null,
            StructStyle::Tuple if s.is_newtype() => {
                random_value((s.fields[0].ty)(), rng, depth, reg)
            }
            StructStyle::Tuple => Value::Array(
                s.fields
                    .iter()
                    .map(|f| random_value((f.ty)(), rng, depth + 1, reg))
                    .collect(),
            ),
            StructStyle::Named => Value::Map(
                s.fields
                    .iter()
                    .map(|f| {
                        (
                            Value::from(f.name),
                            random_value((f.ty)(), rng, depth + 1, reg),
                        )
                    })
                    .collect(),
            ),
        },
        TypeKind::Enum(e) if e.flags_of.is_some() => {
            let mut bits = 0;
            for v in e.variants {
                if rng.chance(2) {
                    bits |= v.discriminant;
                }
            }
            if rng.chance(5) {
                bits |= 1 << 40;
            }
            Value::from(bits)
        }
        TypeKind::Enum(e) => {
            let units: Vec<_> = e
                .variants
                .iter()
                .filter(|v| v.style == VariantStyle::Unit)
                .collect();
            let variant = if deep && !units.is_empty() {
                units[rng.below(units.len() as u64) as usize]
            } else {
                &e.variants[rng.below(e.variants.len() as u64) as usize]
            };
            let payload = match variant.style {
                VariantStyle::Unit => return Value::from(variant.name),
                VariantStyle::Newtype => {
                    random_value((variant.fields[0].ty)(), rng, depth + 1, reg)
                }
                VariantStyle::Tuple => Value::Array(
                    variant
                        .fields
                        .iter()
                        .map(|f| random_value((f.ty)(), rng, depth + 1, reg))
                        .collect(),
                ),
                VariantStyle::Struct => Value::Map(
                    variant
                        .fields
                        .iter()
                        .map(|f| {
                            (
                                Value::from(f.name),
                                random_value((f.ty)(), rng, depth + 1, reg),
                            )
                        })
                        .collect(),
                ),
            };
            Value::Map(vec![(Value::from(variant.name), payload)])
        }
        TypeKind::List { item } | TypeKind::Set { item } => Value::Array(
            (0..count(rng))
                .map(|_| random_value(item(), rng, depth + 1, reg))
                .collect(),
        ),
        TypeKind::Array { item, len } => Value::Array(
            (0..*len)
                .map(|_| random_value(item(), rng, depth + 1, reg))
                .collect(),
        ),
        TypeKind::Map { key, value } => Value::Map(
            (0..count(rng))
                .map(|_| {
                    (
                        random_value(key(), rng, depth + 1, reg),
                        random_value(value(), rng, depth + 1, reg),
                    )
                })
                .collect(),
        ),
        TypeKind::Option { some } => {
            if rng.chance(3) {
                Value::Null
            } else {
                random_value(some(), rng, depth, reg)
            }
        }
        TypeKind::Box { inner } => random_value(inner(), rng, depth, reg),
        TypeKind::Tuple { items: [] } => Value::Null,
        TypeKind::Tuple { items } => Value::Array(
            items
                .iter()
                .map(|t| random_value(t(), rng, depth + 1, reg))
                .collect(),
        ),
    }
}

/// A generated `T`: a random value read into a fresh `T` by sluice.
fn generate<T: Typed>(flavor: Flavor, rng: &mut Rng) -> T {
    let value = random_value(T::info(), rng, 0, flavor.registry());
    let mut target = T::reflect_default();
    let mut reader = ValueReader::new(&value);
    match flavor {
        Flavor::Plain => pipe(&mut reader, &mut PropertyWriter::new(&mut target)),
        Flavor::Conventions => {
            builtin::json().deserialize_into(&mut reader, &mut target, registry(), &mut ())
        }
    }
    .unwrap_or_else(|e| {
        panic!(
            "generated {value:?} does not read as {}: {e}",
            T::info().name()
        )
    });
    target
}

/// Rewrites a written document (`doc`, of the type of `info`) into another spelling sluice
/// reads: fields under an alias, defaulted and optional fields left out, unit variants by
/// alias or discriminant, flags as `A | B` text, uuids braced in capitals.
fn loosen(doc: Value, info: &'static TypeInfo, rng: &mut Rng, reg: Reg) -> Value {
    if let Some(special) = loosen_special(&doc, info, rng, reg) {
        return special;
    }
    match (info.kind(), doc) {
        (TypeKind::Struct(s), doc) if s.is_newtype() => loosen(doc, (s.fields[0].ty)(), rng, reg),
        (TypeKind::Struct(s), Value::Map(entries)) => loosen_fields(entries, s.fields, rng, reg),
        (TypeKind::Struct(s), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .zip(s.fields)
                .map(|(item, f)| loosen(item, (f.ty)(), rng, reg))
                .collect(),
        ),
        (TypeKind::Enum(e), Value::Number(n)) if e.flags_of.is_some() => {
            let bits = n.as_number().to_i64().expect("flags bits");
            let named: Vec<&str> = e
                .variants
                .iter()
                .filter(|v| bits & v.discriminant != 0)
                .map(|v| v.name)
                .collect();
            let covered = e
                .variants
                .iter()
                .filter(|v| bits & v.discriminant != 0)
                .fold(0, |acc, v| acc | v.discriminant);
            if covered == bits && rng.chance(2) {
                Value::from(named.join(" | "))
            } else {
                Value::Number(n)
            }
        }
        (TypeKind::Enum(e), Value::String(name)) if e.flags_of.is_none() => {
            let variant = e
                .variants
                .iter()
                .find(|v| v.name == name)
                .expect("a variant");
            match rng.below(3) {
                0 => Value::from(variant.discriminant),
                1 if !variant.aliases.is_empty() => Value::from(variant.aliases[0]),
                _ => Value::String(name),
            }
        }
        (TypeKind::Enum(e), Value::Map(mut entries)) if e.flags_of.is_none() => {
            let (Value::String(name), payload) = entries.remove(0) else {
                panic!("a variant name")
            };
            let variant = e
                .variants
                .iter()
                .find(|v| v.name == name)
                .expect("a variant");
            let payload = match (variant.style, payload) {
                (VariantStyle::Newtype, payload) => {
                    loosen(payload, (variant.fields[0].ty)(), rng, reg)
                }
                (VariantStyle::Struct, Value::Map(fields)) => {
                    loosen_fields(fields, variant.fields, rng, reg)
                }
                (VariantStyle::Tuple, Value::Array(items)) => Value::Array(
                    items
                        .into_iter()
                        .zip(variant.fields)
                        .map(|(item, f)| loosen(item, (f.ty)(), rng, reg))
                        .collect(),
                ),
                (_, other) => other,
            };
            Value::Map(vec![(Value::String(name), payload)])
        }
        (TypeKind::Uuid, Value::String(text)) if rng.chance(3) => {
            Value::from(format!("{{{}}}", text.to_uppercase()))
        }
        (
            TypeKind::List { item } | TypeKind::Set { item } | TypeKind::Array { item, .. },
            Value::Array(items),
        ) => Value::Array(
            items
                .into_iter()
                .map(|v| loosen(v, item(), rng, reg))
                .collect(),
        ),
        (TypeKind::Tuple { items: types }, Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .zip(*types)
                .map(|(item, t)| loosen(item, t(), rng, reg))
                .collect(),
        ),
        (TypeKind::Map { value, .. }, Value::Map(entries)) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k, loosen(v, value(), rng, reg)))
                .collect(),
        ),
        (TypeKind::Option { some }, doc) if !doc.is_null() => loosen(doc, some(), rng, reg),
        (TypeKind::Box { inner }, doc) => loosen(doc, inner(), rng, reg),
        (_, doc) => doc,
    }
}

fn loosen_fields(
    entries: Vec<(Value, Value)>,
    fields: &'static [sluice_reflect::FieldInfo],
    rng: &mut Rng,
    reg: Reg,
) -> Value {
    let mut out = Vec::new();
    for (key, value) in entries {
        let field = fields
            .iter()
            .find(|f| key.as_str() == Some(f.name))
            .expect("a known field");
        let optional = matches!((field.ty)().kind(), TypeKind::Option { .. });
        if (optional || field.default == sluice_reflect::FieldDefault::Default) && rng.chance(3) {
            continue;
        }
        let name = if !field.aliases.is_empty() && rng.chance(2) {
            Value::from(field.aliases[rng.below(field.aliases.len() as u64) as usize])
        } else {
            key
        };
        out.push((name, loosen(value, (field.ty)(), rng, reg)));
    }
    Value::Map(out)
}

/// A value sluice refuses where a value of the type of `info` is due (`None` when the type
/// takes anything of that shape, like `()`).
fn wrong_value(current: &Value, info: &'static TypeInfo, rng: &mut Rng, reg: Reg) -> Option<Value> {
    if let Some(special) = wrong_special(current, info, rng, reg) {
        return Some(special);
    }
    let wrong = match info.kind() {
        TypeKind::Scalar(ScalarKind::Bool) => Value::from(1u64),
        TypeKind::Scalar(ScalarKind::F32 | ScalarKind::F64) => Value::from("1.5"),
        TypeKind::Scalar(ScalarKind::String) => Value::from(7u64),
        TypeKind::Scalar(ScalarKind::Char) => Value::from("ab"),
        TypeKind::Scalar(kind) => {
            let (min, max): (i128, u128) = match kind {
                ScalarKind::I8 => (i8::MIN.into(), i8::MAX as u128),
                ScalarKind::I16 => (i16::MIN.into(), i16::MAX as u128),
                ScalarKind::I32 => (i32::MIN.into(), i32::MAX as u128),
                ScalarKind::I64 => (i64::MIN.into(), i64::MAX as u128),
                ScalarKind::I128 => (i128::MIN, i128::MAX as u128),
                ScalarKind::U8 => (0, u8::MAX.into()),
                ScalarKind::U16 => (0, u16::MAX.into()),
                ScalarKind::U32 => (0, u32::MAX.into()),
                ScalarKind::U64 => (0, u64::MAX.into()),
                _ => (0, u128::MAX),
            };
            match rng.below(3) {
                0 => number(&format!("-{}", min.unsigned_abs() + 1)),
                1 if max < u128::MAX => number(&(max + 1).to_string()),
                _ => Value::from("12"),
            }
        }
        TypeKind::Uuid => Value::from("0000"),
        TypeKind::Struct(s) if s.is_newtype() => {
            return wrong_value(current, (s.fields[0].ty)(), rng, reg);
        }
        TypeKind::Struct(s) if s.style == StructStyle::Named && rng.chance(2) => {
            // An unknown field, or a required field left out.
            let mut doc = current.clone();
            let required: Vec<_> = s
                .fields
                .iter()
                .filter(|f| {
                    f.default == sluice_reflect::FieldDefault::Required
                        && !matches!((f.ty)().kind(), TypeKind::Option { .. })
                })
                .collect();
            if required.is_empty() || rng.chance(2) {
                doc.insert("unknown_field", Value::Null);
            } else {
                doc.remove(required[rng.below(required.len() as u64) as usize].name);
            }
            doc
        }
        TypeKind::Struct(s) if s.style == StructStyle::Unit => Value::from(0u64),
        TypeKind::Struct(_) | TypeKind::List { .. } | TypeKind::Set { .. } => Value::from(true),
        TypeKind::Enum(e) if e.flags_of.is_some() => Value::from("NoSuchFlag"),
        TypeKind::Enum(_) => Value::from("NoSuchVariant"),
        TypeKind::Array { item, len } => {
            let mut items = current
                .as_array()
                .map(<[Value]>::to_vec)
                .unwrap_or_default();
            if rng.chance(2) && *len > 0 {
                items.pop();
            } else {
                items.push(random_value(item(), rng, 9, reg));
            }
            Value::Array(items)
        }
        TypeKind::Tuple { items: [] } => return None,
        TypeKind::Tuple { .. } => Value::Array(vec![]),
        TypeKind::Map { .. } => Value::Array(vec![Value::from(1u64)]),
        TypeKind::Option { some } => {
            return wrong_value(&Value::Null, some(), rng, reg).filter(|v| !v.is_null());
        }
        TypeKind::Box { inner } => return wrong_value(current, inner(), rng, reg),
    };
    Some(wrong)
}

/// Replaces the `target`-th node (in document order) of `doc` by a wrong value; `counter`
/// counts the nodes passed. Returns whether the replacement was made.
fn break_node(
    doc: &mut Value,
    info: &'static TypeInfo,
    counter: &mut usize,
    target: usize,
    rng: &mut Rng,
    reg: Reg,
) -> bool {
    if *counter == target {
        if let Some(wrong) = wrong_value(doc, info, rng, reg) {
            *doc = wrong;
            return true;
        }
        return false;
    }
    *counter += 1;
    let child = |doc: &mut Value, info: &'static TypeInfo, counter: &mut usize, rng: &mut Rng| {
        break_node(doc, info, counter, target, rng, reg)
    };
    if let (Some(implementor), Value::Map(entries)) = (implementor_of(doc, info, reg), &mut *doc) {
        let fields = implementor.as_struct().map_or(&[][..], |s| s.fields);
        return entries.iter_mut().any(|(k, v)| {
            fields
                .iter()
                .find(|f| k.as_str() == Some(f.name))
                .is_some_and(|f| child(v, (f.ty)(), counter, rng))
        });
    }
    match (info.kind(), doc) {
        (TypeKind::Struct(s), doc) if s.is_newtype() => {
            child(doc, (s.fields[0].ty)(), counter, rng)
        }
        (TypeKind::Struct(s), Value::Map(entries)) => entries
            .iter_mut()
            .zip(s.fields)
            .any(|((_, v), f)| child(v, (f.ty)(), counter, rng)),
        (TypeKind::Struct(s), Value::Array(items)) => items
            .iter_mut()
            .zip(s.fields)
            .any(|(v, f)| child(v, (f.ty)(), counter, rng)),
        (TypeKind::Enum(e), Value::Map(entries)) if e.flags_of.is_none() => {
            let Some((Value::String(name), payload)) = entries.first_mut() else {
                return false;
            };
            let variant = e
                .variants
                .iter()
                .find(|v| v.name == *name)
                .expect("a variant");
            match (variant.style, payload) {
                (VariantStyle::Newtype, payload) => {
                    child(payload, (variant.fields[0].ty)(), counter, rng)
                }
                (VariantStyle::Struct, Value::Map(fields)) => fields
                    .iter_mut()
                    .zip(variant.fields)
                    .any(|((_, v), f)| child(v, (f.ty)(), counter, rng)),
                (VariantStyle::Tuple, Value::Array(items)) => items
                    .iter_mut()
                    .zip(variant.fields)
                    .any(|(v, f)| child(v, (f.ty)(), counter, rng)),
                _ => false,
            }
        }
        (
            TypeKind::List { item } | TypeKind::Set { item } | TypeKind::Array { item, .. },
            Value::Array(items),
        ) => items.iter_mut().any(|v| child(v, item(), counter, rng)),
        (TypeKind::Tuple { items: types }, Value::Array(items)) => items
            .iter_mut()
            .zip(*types)
            .any(|(v, t)| child(v, t(), counter, rng)),
        (TypeKind::Map { value, .. }, Value::Map(entries)) => entries
            .iter_mut()
            .any(|(_, v)| child(v, value(), counter, rng)),
        // `[{"$key": k, "$value": v}]`
        (TypeKind::Map { key, value }, Value::Array(entries)) => entries.iter_mut().any(|entry| {
            let Value::Map(pair) = entry else {
                return false;
            };
            pair.iter_mut().any(|(name, v)| match name.as_str() {
                Some("$key") => child(v, key(), counter, rng),
                Some("$value") => child(v, value(), counter, rng),
                _ => false,
            })
        }),
        (TypeKind::Option { some }, doc) if !doc.is_null() => child(doc, some(), counter, rng),
        (TypeKind::Box { inner }, doc) => child(doc, inner(), counter, rng),
        _ => false,
    }
}

/// The number of nodes `break_node` can visit in `doc`.
fn count_nodes(doc: &Value, info: &'static TypeInfo, reg: Reg) -> usize {
    let mut copy = doc.clone();
    let mut counter = 0;
    let mut rng = Rng(1);
    break_node(&mut copy, info, &mut counter, usize::MAX, &mut rng, reg);
    counter
}

// ---- sluice's JSON, both ways ----

/// Which of sluice's JSON shapes a run checks, with the matching writer, reader and schema.
#[derive(Clone, Copy, Debug)]
enum Flavor {
    /// `PropertyReader` / `PropertyWriter` piped to and from JSON, no handler table.
    Plain,
    /// The built-in JSON handler set (what `sluice::json::to_string` / `from_str` use), with
    /// a registry of marks and polymorphic implementors.
    Conventions,
}

impl Flavor {
    const ALL: [Flavor; 2] = [Flavor::Plain, Flavor::Conventions];

    fn prefix(self) -> &'static str {
        match self {
            Flavor::Plain => "plain",
            Flavor::Conventions => "conventions",
        }
    }

    fn registry(self) -> Reg {
        match self {
            Flavor::Plain => None,
            Flavor::Conventions => Some(registry()),
        }
    }

    fn schema(self, mode: SchemaMode) -> JsonSchema<'static> {
        match self {
            Flavor::Plain => JsonSchema::new().mode(mode).shapes(Shapes::Plain),
            Flavor::Conventions => JsonSchema::new().mode(mode).registry(registry()),
        }
    }

    /// The JSON text sluice writes for `value`.
    fn write(self, value: &dyn Reflect) -> String {
        let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
        match self {
            Flavor::Plain => pipe(&mut PropertyReader::new(value), &mut writer),
            Flavor::Conventions => {
                builtin::json_serializer().serialize(value, &mut writer, registry())
            }
        }
        .expect("sluice writes the value");
        writer.into_string().expect("UTF-8")
    }

    /// Whether sluice's strict JSON reading takes `text` as a `T`.
    fn reads<T: Typed>(self, text: &str) -> Result<(), sluice_core::Error> {
        let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
        let mut target = T::reflect_default();
        match self {
            Flavor::Plain => pipe(&mut reader, &mut PropertyWriter::new(&mut target)),
            Flavor::Conventions => {
                builtin::json().deserialize_into(&mut reader, &mut target, registry(), &mut ())
            }
        }
    }
}

fn value_to_json(value: &Value) -> String {
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    pipe(&mut ValueReader::new(value), &mut writer).expect("a Value writes as JSON");
    writer.into_string().expect("UTF-8")
}

fn json_to_value(text: &str) -> Value {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
    let mut writer = ValueWriter::new();
    pipe(&mut reader, &mut writer).expect("valid JSON");
    writer.into_value().expect("one value")
}

// ---- the validator run ----

/// Validates every case with Python's `jsonschema`, in one process. argv[1]: a directory of
/// `<name>.json` schemas; argv[2]: the cases, one per line: schema name, expected verdict
/// (`1`/`0`), label, document, separated by tabs. Prints one JSON object: how many cases ran,
/// and the ones whose verdict differs from the expected one.
const VALIDATOR: &str = r#"
import json, os, sys
from jsonschema import Draft202012Validator

schemas = {}
for file in sorted(os.listdir(sys.argv[1])):
    schema = json.load(open(os.path.join(sys.argv[1], file), encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    schemas[file[:-5]] = Draft202012Validator(
        schema, format_checker=Draft202012Validator.FORMAT_CHECKER)

ran, wrong = 0, []
for line in open(sys.argv[2], encoding="utf-8"):
    name, expected, label, doc = line.rstrip("\n").split("\t", 3)
    errors = list(schemas[name].iter_errors(json.loads(doc)))
    ran += 1
    if (not errors) != (expected == "1"):
        wrong.append({"label": label, "schema": name, "expected_valid": expected == "1",
                      "errors": [e.message[:300] for e in errors[:3]], "doc": doc[:500]})
print(json.dumps({"ran": ran, "schemas": len(schemas), "wrong": wrong}))
"#;

/// Whether `python3 -c 'import jsonschema'` works; explains and decides when it does not.
fn validator_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        let message = "python3 with the jsonschema package is missing: install it with \
                       `pip install jsonschema` to run the schema validation test";
        let required = std::env::var("SLUICE_REQUIRE_CORPUS").is_ok_and(|v| v == "1");
        assert!(!required, "{message}");
        eprintln!("skipping: {message}");
    }
    ok
}

#[derive(Default)]
struct Cases {
    schemas: Vec<(String, Value)>,
    lines: String,
    count: usize,
}

impl Cases {
    fn schema(&mut self, name: &str, schema: Value) {
        self.schemas.push((name.to_owned(), schema));
    }

    fn case(&mut self, schema: &str, valid: bool, label: &str, doc: &str) {
        assert!(
            !doc.contains(['\n', '\t']),
            "condensed JSON has no raw newline or tab"
        );
        let verdict = if valid { '1' } else { '0' };
        writeln!(self.lines, "{schema}\t{verdict}\t{label}\t{doc}").unwrap();
        self.count += 1;
    }

    /// Runs the validator; panics with the cases it judged otherwise than expected.
    fn validate(&self) {
        let dir = std::env::temp_dir().join(format!("sluice-schema-{}", std::process::id()));
        let schema_dir = dir.join("schemas");
        std::fs::create_dir_all(&schema_dir).unwrap();
        for (name, schema) in &self.schemas {
            std::fs::write(
                schema_dir.join(format!("{name}.json")),
                value_to_json(schema),
            )
            .unwrap();
        }
        let cases: PathBuf = dir.join("cases.tsv");
        std::fs::write(&cases, &self.lines).unwrap();
        let out = Command::new("python3")
            .args(["-c", VALIDATOR])
            .arg(&schema_dir)
            .arg(&cases)
            .output()
            .expect("python3 runs");
        let _ = std::fs::remove_dir_all(&dir);
        let rejected = self.lines.lines().filter(|l| l.contains("\t0\t")).count();
        eprintln!(
            "validating {} documents ({} to be rejected) against {} schemas",
            self.count,
            rejected,
            self.schemas.len()
        );
        assert!(
            out.status.success(),
            "the validator failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report = json_to_value(std::str::from_utf8(&out.stdout).expect("UTF-8"));
        let wrong = report.get("wrong").and_then(Value::as_array).unwrap();
        assert!(
            wrong.is_empty(),
            "{} of {} cases judged otherwise than expected; first ones:\n{}",
            wrong.len(),
            self.count,
            wrong
                .iter()
                .take(5)
                .map(value_to_json)
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(
            report.get("ran").and_then(Value::as_u64),
            Some(self.count as u64)
        );
        assert_eq!(
            report.get("schemas").and_then(Value::as_u64),
            Some(self.schemas.len() as u64)
        );
    }
}

/// Adds the write and read schemas of `T` and `samples` generated values of it, each valid
/// for both schemas.
fn add_generated<T: Typed>(
    cases: &mut Cases,
    flavor: Flavor,
    name: &str,
    rng: &mut Rng,
    samples: usize,
) {
    let base = name;
    let reg = flavor.registry();
    let name = &format!("{}.{name}", flavor.prefix());
    cases.schema(
        &format!("{name}.write"),
        flavor.schema(SchemaMode::Write).of::<T>(),
    );
    cases.schema(
        &format!("{name}.read"),
        flavor.schema(SchemaMode::Read).of::<T>(),
    );
    for i in 0..samples {
        let value: T = generate(flavor, rng);
        let text = flavor.write(&value);
        cases.case(
            &format!("{name}.write"),
            true,
            &format!("{name} #{i}"),
            &text,
        );
        cases.case(
            &format!("{name}.read"),
            true,
            &format!("{name} #{i} (read)"),
            &text,
        );
        // One node replaced by a value sluice refuses: both schemas refuse it too.
        let doc = json_to_value(&text);
        let mut broken = doc.clone();
        let target = rng.below(count_nodes(&doc, T::info(), reg) as u64) as usize;
        if break_node(&mut broken, T::info(), &mut 0, target, rng, reg) {
            add_broken::<T>(
                cases,
                flavor,
                base,
                &format!("{name} #{i} (broken at node {target})"),
                &broken,
            );
        }
        // The same value as a person may write it: sluice reads it, the read schema takes it.
        let loose = value_to_json(&loosen(json_to_value(&text), T::info(), rng, reg));
        if let Err(e) = flavor.reads::<T>(&loose) {
            panic!("sluice does not read {loose}: {e}");
        }
        cases.case(
            &format!("{name}.read"),
            true,
            &format!("{name} #{i} (loosened)"),
            &loose,
        );
    }
}

/// A document both schemas and sluice's reader must reject.
fn add_broken<T: Typed>(cases: &mut Cases, flavor: Flavor, name: &str, label: &str, doc: &Value) {
    let name = &format!("{}.{name}", flavor.prefix());
    let text = value_to_json(doc);
    assert!(
        flavor.reads::<T>(&text).is_err(),
        "{label}: sluice reads {text} as {}",
        T::info().name()
    );
    cases.case(&format!("{name}.write"), false, label, &text);
    cases.case(
        &format!("{name}.read"),
        false,
        &format!("{label} (read)"),
        &text,
    );
}

/// A document sluice's reader accepts and the read schema too, but that sluice never writes
/// (the write schema rejects it).
fn add_read_only<T: Typed>(
    cases: &mut Cases,
    flavor: Flavor,
    name: &str,
    label: &str,
    doc: &Value,
) {
    let name = &format!("{}.{name}", flavor.prefix());
    let text = value_to_json(doc);
    if let Err(e) = flavor.reads::<T>(&text) {
        panic!(
            "{label}: sluice does not read {text} as {}: {e}",
            T::info().name()
        );
    }
    cases.case(
        &format!("{name}.read"),
        true,
        &format!("{label} (read)"),
        &text,
    );
    cases.case(&format!("{name}.write"), false, label, &text);
}

fn with(doc: &Value, key: &str, value: Value) -> Value {
    let mut doc = doc.clone();
    doc.insert(key, value);
    doc
}

fn without(doc: &Value, key: &str) -> Value {
    let mut doc = doc.clone();
    assert!(doc.remove(key).is_some(), "no {key} in the document");
    doc
}

fn renamed(doc: &Value, from: &str, to: &str) -> Value {
    let mut doc = doc.clone();
    let Value::Map(entries) = &mut doc else {
        panic!("not an object")
    };
    let entry = entries
        .iter_mut()
        .find(|(k, _)| k.as_str() == Some(from))
        .unwrap_or_else(|| panic!("no {from} in the document"));
    entry.0 = Value::from(to);
    doc
}

fn number(text: &str) -> Value {
    let hint = if text.starts_with('-') {
        sluice_core::NumberHint::NegInteger
    } else {
        sluice_core::NumberHint::Integer
    };
    Value::number_text(text, hint)
}

/// Adds the cases of one flavor: generated values of several types, broken documents and
/// documents sluice only reads.
fn add_flavor(cases: &mut Cases, flavor: Flavor, rng: &mut Rng) {
    add_generated::<Settings>(cases, flavor, "settings", rng, 150);
    add_generated::<Node>(cases, flavor, "node", rng, 60);
    add_generated::<Shape>(cases, flavor, "shape", rng, 80);
    add_generated::<Vec<Option<Team>>>(cases, flavor, "teams", rng, 40);
    add_generated::<HashMap<String, Vec<(u8, f64)>>>(cases, flavor, "table", rng, 40);
    add_generated::<Flags<Access>>(cases, flavor, "access", rng, 40);
    add_generated::<(Team, Pair, [u64; 2])>(cases, flavor, "triple", rng, 40);
    if matches!(flavor, Flavor::Conventions) {
        add_generated::<Scene>(cases, flavor, "scene", rng, 120);
        add_generated::<BTreeMap<(Team, i8), Vec<Box<dyn Part>>>>(cases, flavor, "parts", rng, 40);
    }
    let generated = cases.count;

    // Broken documents, derived from a written one.
    let settings: Settings = generate(flavor, rng);
    let doc = json_to_value(&flavor.write(&settings));
    let broken: Vec<(&str, Value)> = vec![
        (
            "wrong type: a string for u8",
            with(&doc, "volume", "loud".into()),
        ),
        (
            "wrong type: a number for a string",
            with(&doc, "displayName", 3u64.into()),
        ),
        (
            "wrong type: an object for a list",
            with(&doc, "items", Value::Map(vec![])),
        ),
        ("missing required field", without(&doc, "volume")),
        (
            "missing required renamed field",
            without(&doc, "displayName"),
        ),
        ("unknown field", with(&doc, "extra", 1u64.into())),
        ("unknown enum name", with(&doc, "team", "Purple".into())),
        (
            "enum name in the wrong case",
            with(&doc, "team", "RED".into()),
        ),
        (
            "unknown variant with data",
            with(
                &doc,
                "shape",
                Value::Map(vec![("Square".into(), 1u64.into())]),
            ),
        ),
        (
            "variant with a wrong payload",
            with(
                &doc,
                "shape",
                Value::Map(vec![("Circle".into(), "x".into())]),
            ),
        ),
        ("u8 out of range", with(&doc, "volume", 256u64.into())),
        ("u8 negative", with(&doc, "volume", (-1i64).into())),
        ("i8 below range", with(&doc, "balance", (-129i64).into())),
        ("i16 above range", with(&doc, "level", 32768u64.into())),
        (
            "i32 below range",
            with(&doc, "score", (-2_147_483_649i64).into()),
        ),
        (
            "i64 above range",
            with(&doc, "big", number("9223372036854775808")),
        ),
        (
            "u64 above range",
            with(&doc, "huge", number("18446744073709551616")),
        ),
        (
            "i128 above range",
            with(
                &doc,
                "wide",
                number("170141183460469231731687303715884105728"),
            ),
        ),
        ("u128 negative", with(&doc, "uwide", (-1i64).into())),
        ("a fraction for an integer", with(&doc, "score", 1.5.into())),
        (
            "two characters for a char",
            with(&doc, "initial", "ab".into()),
        ),
        ("not a uuid", with(&doc, "id", "not-a-uuid".into())),
        (
            "tuple too short",
            with(&doc, "pair", Value::Array(vec![1u64.into(), "a".into()])),
        ),
        (
            "array too long",
            with(&doc, "coords", Value::Array(vec![1u64.into(); 4])),
        ),
        ("unknown flag name", with(&doc, "access", "Delete".into())),
        (
            "null for a required struct",
            with(&doc, "boxed", Value::Null),
        ),
        (
            "map value out of range",
            with(
                &doc,
                "lookup",
                Value::Map(vec![("a".into(), 70000u64.into())]),
            ),
        ),
        (
            "non-numeric key of an integer map",
            with(&doc, "by_id", Value::Map(vec![("x".into(), 1u64.into())])),
        ),
        (
            "unknown enum key",
            with(
                &doc,
                "by_team",
                Value::Map(vec![("Purple".into(), true.into())]),
            ),
        ),
    ];
    for (label, doc) in &broken {
        add_broken::<Settings>(cases, flavor, "settings", label, doc);
    }
    add_broken::<Node>(
        cases,
        flavor,
        "node",
        "missing children",
        &Value::Map(vec![("label".into(), "x".into())]),
    );
    add_broken::<Flags<Access>>(cases, flavor, "access", "a float for flags", &1.5.into());

    // What sluice reads but never writes: aliases, absent defaulted and optional fields,
    // discriminants, flags as text.
    let item = |name: &str| {
        Value::Map(vec![
            ("name".into(), "bolt".into()),
            (name.into(), 3u64.into()),
            ("weight".into(), Value::Null),
        ])
    };
    let read_only: Vec<(&str, Value)> = vec![
        (
            "field by its alias",
            renamed(&doc, "displayName", "display_name"),
        ),
        ("defaulted field absent", without(&doc, "items")),
        ("enum by discriminant", with(&doc, "team", 7u64.into())),
        ("enum variant by alias", with(&doc, "team", "Blue".into())),
        (
            "struct variant field by alias",
            with(
                &doc,
                "shape",
                Value::Map(vec![(
                    "Rect".into(),
                    Value::Map(vec![("w".into(), 1u64.into()), ("h".into(), 2u64.into())]),
                )]),
            ),
        ),
        ("flags as text", with(&doc, "access", "Read | Exec".into())),
        (
            "uuid braced in capitals",
            with(&doc, "id", "{67E55044-10B1-426F-9247-BB680E5FE0C8}".into()),
        ),
        (
            "nested struct with alias and absent fields",
            with(&doc, "items", Value::Array(vec![item("quantity")])),
        ),
    ];
    for (label, doc) in &read_only {
        add_read_only::<Settings>(cases, flavor, "settings", label, doc);
    }
    add_read_only::<Flags<Access>>(
        cases,
        flavor,
        "access",
        "flags as text with blanks",
        &" Write|Read ".into(),
    );
    add_read_only::<Item>(
        cases,
        flavor,
        "item",
        "item without its options",
        &Value::Map(vec![
            ("name".into(), "x".into()),
            ("quantity".into(), 1u64.into()),
        ]),
    );
    if matches!(flavor, Flavor::Conventions) {
        add_convention_cases(cases, rng);
    }
    let item = format!("{}.item", flavor.prefix());
    cases.schema(
        &format!("{item}.write"),
        flavor.schema(SchemaMode::Write).of::<Item>(),
    );
    cases.schema(
        &format!("{item}.read"),
        flavor.schema(SchemaMode::Read).of::<Item>(),
    );
    assert!(cases.count > generated + 2 * broken.len());
}

/// Broken and read-only documents of the conventions' own forms.
fn add_convention_cases(cases: &mut Cases, rng: &mut Rng) {
    let flavor = Flavor::Conventions;
    let scene: Scene = generate(flavor, rng);
    let doc = json_to_value(&flavor.write(&scene));
    let wheel = |kind: Option<&str>| {
        let mut wheel = vec![(Value::from("radius"), Value::from(1.5))];
        if let Some(kind) = kind {
            wheel.push((Value::from("$type"), Value::from(kind)));
        }
        Value::Map(wheel)
    };
    let one = |key: &str, value: Value| Value::Map(vec![(Value::from(key), value)]);
    let numbers = |items: &[f64]| Value::Array(items.iter().map(|&n| Value::from(n)).collect());
    let bytes = |items: &[u64]| Value::Array(items.iter().map(|&n| Value::from(n)).collect());
    let entry = |pairs: Vec<(&str, Value)>| {
        Value::Array(vec![Value::Map(
            pairs
                .into_iter()
                .map(|(k, v)| (Value::from(k), v))
                .collect(),
        )])
    };
    let cell_key = || bytes(&[1, 2]);
    let broken: Vec<(&str, Value)> = vec![
        (
            "trait object without $type",
            with(&doc, "main", wheel(None)),
        ),
        ("unknown $type", with(&doc, "main", wheel(Some("Gear")))),
        (
            "hex color of 5 digits",
            with(&doc, "tint", one("HEX", "12345".into())),
        ),
        ("color text not hex", with(&doc, "tint", "#12345G".into())),
        (
            "8-bit color out of range",
            with(&doc, "tint", one("RGB8", bytes(&[1, 2, 256]))),
        ),
        (
            "RGB with 4 components",
            with(&doc, "tint", one("RGB", numbers(&[1.0, 0.5, 0.0, 1.0]))),
        ),
        (
            "color object with two forms",
            with(
                &doc,
                "tint",
                Value::Map(vec![
                    ("RGB".into(), numbers(&[1.0, 0.5, 0.0])),
                    ("HEX".into(), "000000".into()),
                ]),
            ),
        ),
        (
            "color of 2 components",
            with(&doc, "tint", numbers(&[1.0, 0.5])),
        ),
        ("blob not base64", with(&doc, "data", "!!!!".into())),
        (
            "unknown flag in the array",
            with(
                &doc,
                "access",
                Value::Array(vec!["Read".into(), "Delete".into()]),
            ),
        ),
        (
            "map entry without a value",
            with(&doc, "cells", entry(vec![("$key", cell_key())])),
        ),
        (
            "map entry with a third key",
            with(
                &doc,
                "cells",
                entry(vec![
                    ("$key", cell_key()),
                    ("$value", "x".into()),
                    ("extra", 1u64.into()),
                ]),
            ),
        ),
        (
            "map with complex keys as an object",
            with(&doc, "cells", Value::Map(vec![("a".into(), "x".into())])),
        ),
        (
            "vector object with an unknown axis",
            with(&doc, "dir", one("q", 1.0.into())),
        ),
        (
            "vector of text",
            with(&doc, "pos", Value::Array(vec!["1".into()])),
        ),
        (
            "unknown enum integer string",
            with(&doc, "team", "3".into()),
        ),
        ("unknown non-$ field", with(&doc, "comment", "x".into())),
    ];
    for (label, doc) in &broken {
        add_broken::<Scene>(cases, flavor, "scene", label, doc);
    }
    let wheel_uuid = Wheel::info().uuid().to_string();
    let read_only: Vec<(&str, Value)> = vec![
        (
            "$type by uuid",
            with(&doc, "main", wheel(Some(&wheel_uuid))),
        ),
        (
            "$type by type path",
            with(&doc, "main", wheel(Some(Wheel::info().type_path()))),
        ),
        ("color as #RRGGBB", with(&doc, "tint", "#FF4D33".into())),
        (
            "color as HEXA",
            with(&doc, "tint", one("HEXA", "FF4D33CC".into())),
        ),
        (
            "color as rgb8 in lower case",
            with(&doc, "tint", one("rgb8", bytes(&[255, 0, 10]))),
        ),
        (
            "color of 3 components",
            with(&doc, "tint", numbers(&[0.5, 0.25, 1.0])),
        ),
        ("short vector", with(&doc, "dir", numbers(&[1.0]))),
        (
            "long vector, extra ignored",
            with(
                &doc,
                "dir",
                Value::Array(vec![1.0.into(), 2.0.into(), 3.0.into(), "x".into()]),
            ),
        ),
        (
            "vector struct as an object",
            with(&doc, "pos", Value::Map(vec![("Z".into(), 1.0.into())])),
        ),
        ("enum as an integer string", with(&doc, "team", "7".into())),
        (
            "flags as integers",
            with(&doc, "access", Value::Array(vec![1u64.into(), 4u64.into()])),
        ),
        (
            "map entry as Key / Value",
            with(
                &doc,
                "cells",
                entry(vec![("Value", "x".into()), ("Key", cell_key())]),
            ),
        ),
        ("unpadded base64", with(&doc, "data", "Zm9vYg".into())),
        (
            "empty object for a map with complex keys",
            with(&doc, "cells", Value::Map(vec![])),
        ),
        (
            "blob as a list of bytes",
            with(&doc, "data", bytes(&[1, 2])),
        ),
        (
            "$ field skipped",
            with(&doc, "$schema", "scene.json".into()),
        ),
    ];
    for (label, doc) in &read_only {
        add_read_only::<Scene>(cases, flavor, "scene", label, doc);
    }
}

#[test]
fn the_validator_accepts_what_sluice_writes_and_rejects_broken_documents() {
    if !validator_available() {
        return;
    }
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut cases = Cases::default();
    for flavor in Flavor::ALL {
        add_flavor(&mut cases, flavor, &mut rng);
    }
    // One validator process for every flavor.
    cases.validate();
}
