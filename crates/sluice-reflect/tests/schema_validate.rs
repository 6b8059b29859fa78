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

use sluice_core::{OwnedNumber, Value, ValueReader, ValueWriter, pipe};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice_reflect::info::{StructStyle, VariantStyle};
use sluice_reflect::schema::{JsonSchema, SchemaMode};
use sluice_reflect::{
    Flags, PropertyReader, PropertyWriter, Reflect, ScalarKind, TypeInfo, TypeKind, Typed, Uuid,
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
fn random_value(info: &'static TypeInfo, rng: &mut Rng, depth: usize) -> Value {
    let deep = depth > 3;
    let count = |rng: &mut Rng| if deep { 0 } else { rng.below(4) };
    match info.kind() {
        TypeKind::Scalar(kind) => random_scalar(*kind, rng),
        TypeKind::Uuid => Value::String(Uuid::from_u128(rng.wide()).to_string()),
        TypeKind::Struct(s) => match s.style {
            StructStyle::Unit => Value::Null,
            StructStyle::Tuple if s.is_newtype() => random_value((s.fields[0].ty)(), rng, depth),
            StructStyle::Tuple => Value::Array(
                s.fields
                    .iter()
                    .map(|f| random_value((f.ty)(), rng, depth + 1))
                    .collect(),
            ),
            StructStyle::Named => Value::Map(
                s.fields
                    .iter()
                    .map(|f| (Value::from(f.name), random_value((f.ty)(), rng, depth + 1)))
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
                VariantStyle::Newtype => random_value((variant.fields[0].ty)(), rng, depth + 1),
                VariantStyle::Tuple => Value::Array(
                    variant
                        .fields
                        .iter()
                        .map(|f| random_value((f.ty)(), rng, depth + 1))
                        .collect(),
                ),
                VariantStyle::Struct => Value::Map(
                    variant
                        .fields
                        .iter()
                        .map(|f| (Value::from(f.name), random_value((f.ty)(), rng, depth + 1)))
                        .collect(),
                ),
            };
            Value::Map(vec![(Value::from(variant.name), payload)])
        }
        TypeKind::List { item } | TypeKind::Set { item } => Value::Array(
            (0..count(rng))
                .map(|_| random_value(item(), rng, depth + 1))
                .collect(),
        ),
        TypeKind::Array { item, len } => Value::Array(
            (0..*len)
                .map(|_| random_value(item(), rng, depth + 1))
                .collect(),
        ),
        TypeKind::Map { key, value } => Value::Map(
            (0..count(rng))
                .map(|_| {
                    (
                        random_value(key(), rng, depth + 1),
                        random_value(value(), rng, depth + 1),
                    )
                })
                .collect(),
        ),
        TypeKind::Option { some } => {
            if rng.chance(3) {
                Value::Null
            } else {
                random_value(some(), rng, depth)
            }
        }
        TypeKind::Box { inner } => random_value(inner(), rng, depth),
        TypeKind::Tuple { items: [] } => Value::Null,
        TypeKind::Tuple { items } => Value::Array(
            items
                .iter()
                .map(|t| random_value(t(), rng, depth + 1))
                .collect(),
        ),
    }
}

/// A generated `T`: a random value read into a fresh `T` by sluice.
fn generate<T: Typed>(rng: &mut Rng) -> T {
    let value = random_value(T::info(), rng, 0);
    let mut target = T::reflect_default();
    pipe(
        &mut ValueReader::new(&value),
        &mut PropertyWriter::new(&mut target),
    )
    .unwrap_or_else(|e| {
        panic!(
            "generated {value:?} does not read as {}: {e}",
            T::info().name()
        )
    });
    target
}

// ---- sluice's JSON, both ways ----

/// What `sluice::json::to_string` writes: the value through a `PropertyReader` into a
/// condensed `JsonWriter`.
fn to_json(value: &dyn Reflect) -> String {
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    pipe(&mut PropertyReader::new(value), &mut writer).expect("sluice writes the value");
    writer.into_string().expect("UTF-8")
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

/// Whether sluice's strict JSON reader reads `text` as a `T`.
fn sluice_reads<T: Typed>(text: &str) -> Result<(), sluice_core::Error> {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
    let mut target = T::reflect_default();
    pipe(&mut reader, &mut PropertyWriter::new(&mut target))
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
fn add_generated<T: Typed>(cases: &mut Cases, name: &str, rng: &mut Rng, samples: usize) {
    cases.schema(&format!("{name}.write"), JsonSchema::new().of::<T>());
    cases.schema(
        &format!("{name}.read"),
        JsonSchema::new().mode(SchemaMode::Read).of::<T>(),
    );
    for i in 0..samples {
        let value: T = generate(rng);
        let text = to_json(&value);
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
    }
}

/// A document both schemas and sluice's reader must reject.
fn add_broken<T: Typed>(cases: &mut Cases, name: &str, label: &str, doc: &Value) {
    let text = value_to_json(doc);
    assert!(
        sluice_reads::<T>(&text).is_err(),
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
fn add_read_only<T: Typed>(cases: &mut Cases, name: &str, label: &str, doc: &Value) {
    let text = value_to_json(doc);
    if let Err(e) = sluice_reads::<T>(&text) {
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

#[test]
fn the_validator_accepts_what_sluice_writes_and_rejects_broken_documents() {
    if !validator_available() {
        return;
    }
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut cases = Cases::default();
    add_generated::<Settings>(&mut cases, "settings", &mut rng, 150);
    add_generated::<Node>(&mut cases, "node", &mut rng, 60);
    add_generated::<Shape>(&mut cases, "shape", &mut rng, 80);
    add_generated::<Vec<Option<Team>>>(&mut cases, "teams", &mut rng, 40);
    add_generated::<HashMap<String, Vec<(u8, f64)>>>(&mut cases, "table", &mut rng, 40);
    add_generated::<Flags<Access>>(&mut cases, "access", &mut rng, 40);
    add_generated::<(Team, Pair, [u64; 2])>(&mut cases, "triple", &mut rng, 40);
    let generated = cases.count;

    // Broken documents, derived from a written one.
    let settings: Settings = generate(&mut rng);
    let doc = json_to_value(&to_json(&settings));
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
        add_broken::<Settings>(&mut cases, "settings", label, doc);
    }
    add_broken::<Node>(
        &mut cases,
        "node",
        "missing children",
        &Value::Map(vec![("label".into(), "x".into())]),
    );
    add_broken::<Flags<Access>>(&mut cases, "access", "a float for flags", &1.5.into());

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
        add_read_only::<Settings>(&mut cases, "settings", label, doc);
    }
    add_read_only::<Flags<Access>>(
        &mut cases,
        "access",
        "flags as text with blanks",
        &" Write|Read ".into(),
    );
    add_read_only::<Item>(
        &mut cases,
        "item",
        "item without its options",
        &Value::Map(vec![
            ("name".into(), "x".into()),
            ("quantity".into(), 1u64.into()),
        ]),
    );
    cases.schema("item.write", JsonSchema::new().of::<Item>());
    cases.schema(
        "item.read",
        JsonSchema::new().mode(SchemaMode::Read).of::<Item>(),
    );

    assert!(cases.count > generated + 2 * broken.len());
    cases.validate();
}
