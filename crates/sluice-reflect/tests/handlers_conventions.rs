//! The conventions of the built-in handler sets, each both ways: a JSON fixture from
//! `corpus/handlers/`, the Rust value it reads as, the form it is written in, the round trip
//! (JSON and MessagePack), and the error cases with their codes and spans.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use sluice_core::{ErrorCode, Result, Span};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};
use sluice_reflect::handlers::{Deserializer, Mark, Serializer, builtin};
use sluice_reflect::{Flags, Reflect, TypeRegistry, Typed, Uuid, codes};

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus/handlers/",
            $name
        ))
    };
}

fn read_with<T: Typed>(table: &Deserializer, registry: &TypeRegistry, text: &str) -> Result<T> {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::relaxed());
    table.deserialize(&mut reader, registry)
}

fn write_with(
    table: &Serializer,
    registry: &TypeRegistry,
    value: &dyn Reflect,
    options: WriterOptions,
) -> String {
    let mut writer = JsonWriter::new(Vec::new(), options);
    table
        .serialize(value, &mut writer, registry)
        .expect("serialize");
    writer.into_string().expect("utf-8")
}

/// Reads `text` with the JSON set, checks the value, writes it back (condensed) and checks the
/// form, reads that form again, and round-trips the value through MessagePack.
fn both_ways<T: Typed + PartialEq + std::fmt::Debug>(
    registry: &TypeRegistry,
    text: &str,
    expected: &T,
    written: &str,
) {
    let read: T = read_with(&builtin::json(), registry, text).expect("read the fixture");
    assert_eq!(&read, expected);
    let out = write_with(
        &builtin::json_serializer(),
        registry,
        &read,
        WriterOptions::condensed(),
    );
    assert_eq!(out, written);
    let again: T = read_with(&builtin::json(), registry, &out).expect("read the written form");
    assert_eq!(&again, expected);
    let back: T = msgpack_round_trip(registry, &read);
    assert_eq!(&back, expected);
}

fn msgpack_round_trip<T: Typed>(registry: &TypeRegistry, value: &T) -> T {
    let mut writer = MsgPackWriter::new(Vec::new());
    builtin::msgpack_serializer()
        .serialize(value, &mut writer, registry)
        .expect("to msgpack");
    let bytes = writer.into_inner().expect("bytes");
    let mut reader = MsgPackReader::from_slice(&bytes);
    builtin::msgpack()
        .deserialize(&mut reader, registry)
        .expect("from msgpack")
}

/// Checks an error's code and that its span starts at `at` in `text` (and covers `covers`).
fn assert_error(error: &sluice_core::Error, code: ErrorCode, text: &str, covers: &str) {
    assert_eq!(error.code(), code, "{error:?}");
    let start = text.find(covers).expect("the fragment is in the text");
    assert_eq!(
        error.span(),
        Some(Span::new(start, start + covers.len())),
        "{error:?}"
    );
}

fn path_of(error: &sluice_core::Error) -> String {
    error.path().map(ToString::to_string).unwrap_or_default()
}

// ---- coercions ----

#[derive(Reflect, Debug, PartialEq)]
struct Coerced {
    enabled: bool,
    visible: bool,
    count: i32,
    lives: u8,
    ratio: f64,
    weight: f32,
    title: String,
    code: String,
}

#[test]
fn coercions_follow_the_o3de_table_in_the_relaxed_set_only() {
    let text = fixture!("coercions.json");
    let registry = TypeRegistry::new();
    let read: Coerced = read_with(&builtin::json_relaxed(), &registry, text).expect("relaxed");
    let expected = Coerced {
        enabled: true,
        visible: true,
        count: 42,
        lives: 1,
        ratio: 2.5,
        weight: 0.0,
        title: "True".into(),
        code: "12.5".into(),
    };
    assert_eq!(read, expected);
    // Written in the strict types, which both sets read back.
    let out = write_with(
        &builtin::json_serializer(),
        &registry,
        &read,
        WriterOptions::condensed(),
    );
    assert_eq!(
        out,
        r#"{"enabled":true,"visible":true,"count":42,"lives":1,"ratio":2.5,"weight":0.0,"title":"True","code":"12.5"}"#
    );
    let strict: Coerced = read_with(&builtin::json(), &registry, &out).expect("strict");
    assert_eq!(strict, expected);
    assert_eq!(msgpack_round_trip(&registry, &read), expected);

    // The strict set refuses the first mismatch.
    let error = read_with::<Coerced>(&builtin::json(), &registry, text).expect_err("strict");
    assert_error(&error, codes::WRONG_TYPE, text, "1");
    assert_eq!(path_of(&error), "$.enabled");
}

#[test]
fn coercion_errors_and_float_truncation() {
    let registry = TypeRegistry::new();
    let relaxed = builtin::json_relaxed();
    let text = r#"{"enabled": 2, "visible": true, "count": 1, "lives": 1, "ratio": 1, "weight": 1, "title": "", "code": ""}"#;
    let error = read_with::<Coerced>(&relaxed, &registry, text).expect_err("2 is no bool");
    assert_error(&error, codes::WRONG_TYPE, text, "2");
    assert_eq!(path_of(&error), "$.enabled");
    assert_eq!(error.type_path(), Some("Coerced.enabled: bool"));

    let text = r#"{"enabled": "yes", "visible": true, "count": 1, "lives": 1, "ratio": 1, "weight": 1, "title": "", "code": ""}"#;
    let error = read_with::<Coerced>(&relaxed, &registry, text).expect_err("yes is no bool");
    assert_error(&error, codes::WRONG_TYPE, text, "\"yes\"");

    let text = r#"{"enabled": true, "visible": true, "count": "12x", "lives": 1, "ratio": 1, "weight": 1, "title": "", "code": ""}"#;
    let error = read_with::<Coerced>(&relaxed, &registry, text).expect_err("12x");
    assert_eq!(path_of(&error), "$.count");
    assert_eq!(error.span().map(|s| s.start), text.find("\"12x\""));

    let text = r#"{"enabled": true, "visible": true, "count": 1, "lives": "300", "ratio": 1, "weight": 1, "title": "", "code": ""}"#;
    let error = read_with::<Coerced>(&relaxed, &registry, text).expect_err("300 > u8");
    assert_eq!(error.code(), sluice_core::codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(path_of(&error), "$.lives");

    // Floats into integers: an error unless the option truncates.
    let text = r#"{"enabled": true, "visible": true, "count": -3.9, "lives": 1, "ratio": 1, "weight": 1, "title": "", "code": ""}"#;
    let error = read_with::<Coerced>(&relaxed, &registry, text).expect_err("no truncation");
    assert_eq!(path_of(&error), "$.count");
    let mut truncating = builtin::json();
    builtin::add_coercions(&mut truncating, true);
    let read: Coerced = read_with(&truncating, &registry, text).expect("truncated");
    assert_eq!(read.count, -3);
}

// ---- enums ----

#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quality {
    Low,
    Medium = 5,
    High,
}

#[derive(Reflect, Debug, PartialEq)]
struct Graphics {
    quality: Quality,
    fallback: Quality,
    numeric: Quality,
}

#[test]
fn enums_read_by_name_with_an_integer_fallback_and_write_by_name() {
    let expected = Graphics {
        quality: Quality::High,
        fallback: Quality::Medium,
        numeric: Quality::Low,
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("enums.json"),
        &expected,
        r#"{"quality":"High","fallback":"Medium","numeric":"Low"}"#,
    );
}

#[test]
fn unknown_enum_names_and_numbers_are_errors_listing_the_names() {
    let registry = TypeRegistry::new();
    for bad in ["\"Ultra\"", "\"7\"", "7"] {
        let text = format!(r#"{{"quality": {bad}, "fallback": "Low", "numeric": "Low"}}"#);
        let error = read_with::<Graphics>(&builtin::json(), &registry, &text).expect_err(bad);
        assert_error(&error, codes::ENUM_NAME_NOT_FOUND, &text, bad);
        assert!(error.message().contains("Low, Medium, High"), "{error:?}");
        assert_eq!(path_of(&error), "$.quality");
    }
}

// ---- flags ----

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(flags)]
enum Layer {
    Ground = 1,
    Water = 2,
    Air = 4,
    Amphibious = 3,
    Space = 8,
}

#[derive(Reflect, Debug, PartialEq)]
struct Collision {
    layers: Flags<Layer>,
    combo: Flags<Layer>,
    extra: Flags<Layer>,
    none: Flags<Layer>,
    text: Flags<Layer>,
    bits: Flags<Layer>,
}

#[test]
fn flags_are_arrays_of_names_with_combined_names_first_and_a_leftover_integer() {
    let expected = Collision {
        layers: Flags::from_bits(5),
        combo: Flags::from_bits(11),
        extra: Flags::from_bits(20),
        none: Flags::empty(),
        text: Flags::from_bits(10),
        bits: Flags::from_bits(6),
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("flags.json"),
        &expected,
        concat!(
            r#"{"layers":["Ground","Air"],"combo":["Amphibious","Space"],"extra":["Air",16],"#,
            r#""none":[],"text":["Water","Space"],"bits":["Water","Air"]}"#
        ),
    );
}

#[test]
fn flags_written_pretty_stay_on_one_line() {
    let value = Collision {
        layers: Flags::from_bits(5),
        combo: Flags::empty(),
        extra: Flags::empty(),
        none: Flags::empty(),
        text: Flags::empty(),
        bits: Flags::from_bits(32),
    };
    let out = write_with(
        &builtin::json_serializer(),
        &TypeRegistry::new(),
        &value,
        WriterOptions::pretty(),
    );
    assert!(out.contains(r#""layers": ["Ground", "Air"]"#), "{out}");
    assert!(out.contains(r#""bits": [32]"#), "{out}");
}

#[test]
fn unknown_flag_names_and_other_tokens_are_errors() {
    let registry = TypeRegistry::new();
    let base = r#""combo": [], "extra": [], "none": [], "text": [], "bits": []"#;
    let text = format!(r#"{{"layers": ["Ground", "Lava"], {base}}}"#);
    let error = read_with::<Collision>(&builtin::json(), &registry, &text).expect_err("Lava");
    assert_error(&error, codes::ENUM_NAME_NOT_FOUND, &text, "\"Lava\"");
    assert_eq!(path_of(&error), "$.layers");
    let text = format!(r#"{{"layers": ["Ground", true], {base}}}"#);
    let error = read_with::<Collision>(&builtin::json(), &registry, &text).expect_err("true");
    assert_error(&error, codes::WRONG_TYPE, &text, "true");
}

// ---- maps ----

#[derive(Reflect, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Cell {
    x: i32,
    y: i32,
}

#[derive(Reflect, Debug, PartialEq)]
struct World {
    names: BTreeMap<u32, String>,
    tiles: BTreeMap<Cell, String>,
    legacy: BTreeMap<Cell, u8>,
    by_name: HashMap<String, u8>,
}

#[test]
fn maps_with_non_string_keys_are_key_value_arrays() {
    let expected = World {
        names: [(1, "one".into()), (2, "two".into())].into(),
        tiles: [
            (Cell { x: 0, y: 1 }, "grass".into()),
            (Cell { x: -1, y: 0 }, "sand".into()),
        ]
        .into(),
        legacy: [(Cell { x: 2, y: 3 }, 9)].into(),
        by_name: [("a".into(), 1)].into(),
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("maps.json"),
        &expected,
        concat!(
            r#"{"names":{"1":"one","2":"two"},"#,
            r#""tiles":[{"$key":{"x":-1,"y":0},"$value":"sand"},{"$key":{"x":0,"y":1},"$value":"grass"}],"#,
            r#""legacy":[{"$key":{"x":2,"y":3},"$value":9}],"by_name":{"a":1}}"#
        ),
    );
}

#[test]
fn key_value_entries_need_both_parts_and_nothing_else() {
    let registry = TypeRegistry::new();
    let text =
        r#"{"names": {}, "tiles": [{"$key": {"x": 0, "y": 1}}], "legacy": [], "by_name": {}}"#;
    let error = read_with::<World>(&builtin::json(), &registry, text).expect_err("no value");
    assert_error(
        &error,
        codes::MISSING_FIELD,
        text,
        r#"{"$key": {"x": 0, "y": 1}}"#,
    );
    assert_eq!(path_of(&error), "$.tiles[0]");
    let text = r#"{"names": {}, "tiles": [{"$key": {"x": 0, "y": 1}, "$val": "a"}], "legacy": [], "by_name": {}}"#;
    let error = read_with::<World>(&builtin::json(), &registry, text).expect_err("$val");
    assert_error(&error, codes::UNKNOWN_FIELD, text, "\"$val\"");
    // A key of the wrong shape is located inside the entry.
    let text = r#"{"names": {}, "tiles": [{"$key": {"x": "a", "y": 1}, "$value": "a"}], "legacy": [], "by_name": {}}"#;
    let error = read_with::<World>(&builtin::json(), &registry, text).expect_err("x");
    assert_error(&error, codes::WRONG_TYPE, text, "\"a\"");
    assert_eq!(path_of(&error), "$.tiles[0].$key.x");
}

// ---- sets ----

#[derive(Reflect, Debug, PartialEq)]
struct Tags {
    tags: HashSet<String>,
    ids: HashSet<i32>,
    cells: BTreeSet<Cell>,
}

#[test]
fn sets_are_written_sorted() {
    let expected = Tags {
        tags: ["alpha", "beta", "gamma"].map(String::from).into(),
        ids: [-1, 2, 3].into(),
        cells: [Cell { x: 0, y: 5 }, Cell { x: 1, y: 0 }].into(),
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("sets.json"),
        &expected,
        r#"{"tags":["alpha","beta","gamma"],"ids":[-1,2,3],"cells":[{"x":0,"y":5},{"x":1,"y":0}]}"#,
    );
    // Hash sets built in another order write the same text.
    let mut other = Tags {
        tags: HashSet::new(),
        ids: HashSet::new(),
        cells: BTreeSet::new(),
    };
    for tag in ["gamma", "alpha", "beta"] {
        other.tags.insert(tag.into());
    }
    for id in [3, 2, -1] {
        other.ids.insert(id);
    }
    other.cells.clone_from(&expected.cells);
    let registry = TypeRegistry::new();
    let table = builtin::json_serializer();
    assert_eq!(
        write_with(&table, &registry, &other, WriterOptions::condensed()),
        write_with(&table, &registry, &expected, WriterOptions::condensed())
    );
}

// ---- uuids ----

#[derive(Reflect, Debug, PartialEq)]
struct Entity {
    id: Uuid,
    parent: Uuid,
    owner: Uuid,
}

#[test]
fn uuids_read_braced_and_uppercase_and_write_canonical() {
    let expected = Entity {
        id: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        parent: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c9),
        owner: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0ca),
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("uuids.json"),
        &expected,
        concat!(
            r#"{"id":"67e55044-10b1-426f-9247-bb680e5fe0c8","#,
            r#""parent":"67e55044-10b1-426f-9247-bb680e5fe0c9","#,
            r#""owner":"67e55044-10b1-426f-9247-bb680e5fe0ca"}"#
        ),
    );
    let text = r#"{"id": "67e55044-10b1", "parent": "", "owner": ""}"#;
    let error =
        read_with::<Entity>(&builtin::json(), &TypeRegistry::new(), text).expect_err("short uuid");
    assert_error(&error, codes::INVALID_UUID, text, "\"67e55044-10b1\"");
    assert_eq!(path_of(&error), "$.id");
}

// ---- polymorphism ----

trait Component: Reflect {
    fn describe(&self) -> String;
}

#[derive(Reflect, Debug, Default, PartialEq)]
#[reflect(uuid = "9a1b2c3d-0000-4000-8000-000000000001")]
struct Health {
    hp: u32,
}

impl Component for Health {
    fn describe(&self) -> String {
        format!("health {}", self.hp)
    }
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Mesh {
    path: String,
    scale: f32,
}

impl Component for Mesh {
    fn describe(&self) -> String {
        format!("mesh {} x{}", self.path, self.scale)
    }
}

sluice_reflect::reflect_trait_object!(Component, default = Health);

#[derive(Reflect)]
struct Actor {
    components: Vec<Box<dyn Component>>,
}

impl std::fmt::Debug for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(describe(self)).finish()
    }
}

fn component_registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.register_polymorphic::<Box<dyn Component>, Health>(|h| Box::new(h));
    registry.register_polymorphic::<Box<dyn Component>, Mesh>(|m| Box::new(m));
    registry
}

fn describe(actor: &Actor) -> Vec<String> {
    actor.components.iter().map(|c| c.describe()).collect()
}

#[test]
fn polymorphic_values_are_chosen_by_type_anywhere_in_the_object() {
    let registry = component_registry();
    let text = fixture!("polymorphism.json");
    let actor: Actor = read_with(&builtin::json(), &registry, text).expect("components");
    assert_eq!(
        describe(&actor),
        ["health 10", "mesh ship.mesh x2.5", "health 3"]
    );
    let out = write_with(
        &builtin::json_serializer(),
        &registry,
        &actor,
        WriterOptions::condensed(),
    );
    assert_eq!(
        out,
        concat!(
            r#"{"components":[{"$type":"Health","hp":10},"#,
            r#"{"$type":"Mesh","path":"ship.mesh","scale":2.5},{"$type":"Health","hp":3}]}"#
        )
    );
    let again: Actor = read_with(&builtin::json(), &registry, &out).expect("again");
    assert_eq!(describe(&again), describe(&actor));
    let back: Actor = msgpack_round_trip(&registry, &actor);
    assert_eq!(describe(&back), describe(&actor));
}

#[test]
fn unknown_or_missing_types_are_errors() {
    let registry = component_registry();
    let text = r#"{"components": [{"hp": 1, "$type": "Light"}]}"#;
    let error = read_with::<Actor>(&builtin::json(), &registry, text).expect_err("Light");
    assert_error(&error, codes::UNKNOWN_TYPE, text, "\"Light\"");
    assert!(error.message().contains("Health, Mesh"), "{error:?}");
    assert_eq!(path_of(&error), "$.components[0]");

    let text = r#"{"components": [{"hp": 1}]}"#;
    let error = read_with::<Actor>(&builtin::json(), &registry, text).expect_err("no $type");
    assert_error(&error, codes::MISSING_TYPE, text, r#"{"hp": 1}"#);

    // Fields are checked against the chosen type, with their spans kept through the buffer.
    let text = r#"{"components": [{"hp": "x", "$type": "Health"}]}"#;
    let error = read_with::<Actor>(&builtin::json(), &registry, text).expect_err("hp");
    assert_error(&error, codes::WRONG_TYPE, text, "\"x\"");
    assert_eq!(path_of(&error), "$.components[0].hp");
}

// ---- vectors ----

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Reflect, Debug, PartialEq)]
struct Transform {
    position: Vec3,
    scale: [f32; 3],
    uv: [f64; 2],
    rotation: [f32; 4],
}

fn vector_registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.mark::<Vec3>(Mark::Vector);
    registry
}

#[test]
fn vectors_read_arrays_of_any_length_and_xyzw_objects() {
    let expected = Transform {
        position: Vec3 {
            x: 1.0,
            y: 2.0,
            z: 0.0,
        },
        scale: [2.0, 0.0, 0.0],
        uv: [0.5, 0.25],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    both_ways(
        &vector_registry(),
        fixture!("vectors.json"),
        &expected,
        concat!(
            r#"{"position":[1.0,2.0,0.0],"scale":[2.0,0.0,0.0],"uv":[0.5,0.25],"#,
            r#""rotation":[0.0,0.0,0.0,1.0]}"#
        ),
    );
    let pretty = write_with(
        &builtin::json_serializer(),
        &vector_registry(),
        &expected,
        WriterOptions::pretty(),
    );
    assert!(
        pretty.contains(r#""position": [1.0, 2.0, 0.0]"#),
        "{pretty}"
    );
    assert!(
        pretty.contains(r#""rotation": [0.0, 0.0, 0.0, 1.0]"#),
        "{pretty}"
    );
}

#[test]
fn vector_errors_are_located_at_the_component() {
    let registry = vector_registry();
    let rest = r#""scale": [], "uv": [], "rotation": []"#;
    let text = format!(r#"{{"position": {{"x": 1, "q": 2}}, {rest}}}"#);
    let error = read_with::<Transform>(&builtin::json(), &registry, &text).expect_err("q");
    assert_error(&error, codes::UNKNOWN_FIELD, &text, "\"q\"");
    assert_eq!(path_of(&error), "$.position");
    let text = format!(r#"{{"position": [1, "two"], {rest}}}"#);
    let error = read_with::<Transform>(&builtin::json(), &registry, &text).expect_err("two");
    assert_error(&error, codes::WRONG_TYPE, &text, "\"two\"");
    assert_eq!(path_of(&error), "$.position[1]");
    // Without the mark a struct is a struct.
    let text = format!(r#"{{"position": [1, 2, 3], {rest}}}"#);
    let error = read_with::<Transform>(&builtin::json(), &TypeRegistry::new(), &text)
        .expect_err("unmarked");
    assert_eq!(error.code(), codes::WRONG_TYPE);
}

// ---- colors ----

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
struct Color {
    r: f32,
    g: f32,
    b: f32,
    a: f32,
}

fn rgba(r: f32, g: f32, b: f32, a: f32) -> Color {
    Color { r, g, b, a }
}

fn color_registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.mark::<Color>(Mark::Color);
    registry
}

#[allow(clippy::cast_possible_truncation)]
fn byte(value: u8) -> f32 {
    (f64::from(value) / 255.0) as f32
}

#[test]
fn colors_read_every_form_and_write_one() {
    let registry = color_registry();
    let expected = vec![
        rgba(1.0, 0.0, 0.0, 1.0),
        rgba(0.0, 1.0, 0.0, 0.5),
        rgba(0.0, 0.0, 1.0, 1.0),
        rgba(1.0, 1.0, 1.0, 0.25),
        rgba(1.0, 0.0, byte(51), 1.0),
        rgba(0.0, 0.0, 0.0, 1.0),
        rgba(1.0, byte(0x4d), byte(0x33), 1.0),
        rgba(1.0, byte(0x4d), byte(0x33), byte(0xcc)),
        rgba(byte(0x33), byte(0x66), byte(0x99), 1.0),
        rgba(byte(0x33), byte(0x66), byte(0x99), byte(0x80)),
    ];
    let text = fixture!("colors.json");
    let read: Vec<Color> = read_with(&builtin::json(), &registry, text).expect("colors");
    assert_eq!(read, expected);
    let out = write_with(
        &builtin::json_serializer(),
        &registry,
        &read,
        WriterOptions::condensed(),
    );
    assert!(
        out.starts_with("[[1.0,0.0,0.0,1.0],[0.0,1.0,0.0,0.5],"),
        "{out}"
    );
    let again: Vec<Color> = read_with(&builtin::json(), &registry, &out).expect("again");
    assert_eq!(again, expected);
    assert_eq!(msgpack_round_trip(&registry, &read), expected);
}

#[test]
fn bad_colors_are_errors_with_spans() {
    let registry = color_registry();
    let cases: [(&str, ErrorCode, &str); 6] = [
        (r#"[{"HEX": "XYZ"}]"#, codes::INVALID_FORM, "\"XYZ\""),
        (r#"[{"HEXA": "FF4D33"}]"#, codes::INVALID_FORM, "\"FF4D33\""),
        (r"[[1, 2]]", codes::LENGTH_MISMATCH, "[1, 2]"),
        (
            r#"[{"RGBA": [1, 1, 1]}]"#,
            codes::LENGTH_MISMATCH,
            "[1, 1, 1]",
        ),
        (
            r#"[{"CMYK": [1, 1, 1, 1]}]"#,
            codes::INVALID_FORM,
            "\"CMYK\"",
        ),
        (r##"["#12"]"##, codes::INVALID_FORM, "\"#12\""),
    ];
    for (text, code, covers) in cases {
        let error = read_with::<Vec<Color>>(&builtin::json(), &registry, text).expect_err(text);
        assert_error(&error, code, text, covers);
        assert_eq!(path_of(&error), "$[0]", "{text}");
    }
    let text = r#"[{"RGB8": [255, 256, 0]}]"#;
    let error = read_with::<Vec<Color>>(&builtin::json(), &registry, text).expect_err("256");
    assert_error(&error, sluice_core::codes::NUMBER_OUT_OF_RANGE, text, "256");
}

// ---- bytes ----

#[derive(Reflect, Debug, PartialEq)]
struct Payload {
    name: String,
    data: Vec<u8>,
}

fn blob_registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.mark::<Vec<u8>>(Mark::Blob);
    registry
}

#[test]
fn blobs_are_base64_in_json_and_bin_in_msgpack() {
    let registry = blob_registry();
    let expected = Payload {
        name: "greeting".into(),
        data: b"hello world".to_vec(),
    };
    both_ways(
        &registry,
        fixture!("bytes.json"),
        &expected,
        r#"{"name":"greeting","data":"aGVsbG8gd29ybGQ="}"#,
    );
    let mut writer = MsgPackWriter::new(Vec::new());
    builtin::msgpack_serializer()
        .serialize(&expected, &mut writer, &registry)
        .expect("msgpack");
    let bytes = writer.into_inner().expect("bytes");
    let bin: Vec<u8> = [&[0xc4, 11][..], b"hello world"].concat();
    assert!(bytes.windows(bin.len()).any(|w| w == bin), "{bytes:x?}");
    // Without the mark, bytes are a list of numbers.
    let plain = write_with(
        &builtin::json_serializer(),
        &TypeRegistry::new(),
        &expected,
        WriterOptions::condensed(),
    );
    assert!(plain.contains("[104,101,"), "{plain}");
}

#[test]
fn bad_base64_is_an_error() {
    let text = r#"{"name": "x", "data": "aGVsbG8!"}"#;
    let error = read_with::<Payload>(&builtin::json(), &blob_registry(), text).expect_err("!");
    assert_error(&error, codes::INVALID_FORM, text, "\"aGVsbG8!\"");
    assert_eq!(path_of(&error), "$.data");
}

// ---- $ fields ----

#[derive(Reflect, Debug, PartialEq)]
struct Level {
    #[reflect(rename = "$id")]
    id: u32,
    name: String,
}

#[test]
fn dollar_fields_are_skipped_on_read_unless_claimed() {
    let expected = Level {
        id: 7,
        name: "n".into(),
    };
    both_ways(
        &TypeRegistry::new(),
        fixture!("dollar_fields.json"),
        &expected,
        r#"{"$id":7,"name":"n"}"#,
    );
    let text = fixture!("dollar_fields.json");
    let error = read_with::<Level>(&builtin::pipe(), &TypeRegistry::new(), text)
        .expect_err("the pipe set keeps them");
    assert_error(&error, codes::UNKNOWN_FIELD, text, "\"$schema\"");
}

#[derive(Reflect, Debug, PartialEq)]
struct Waypoints {
    by_id: BTreeMap<u32, Vec3>,
    by_quality: BTreeMap<Quality, Vec3>,
    by_name: BTreeMap<String, Flags<Layer>>,
}

#[test]
fn string_like_keys_stay_object_keys_when_the_values_need_handlers() {
    let registry = vector_registry();
    let point = |x: f32| Vec3 { x, y: 0.0, z: 0.0 };
    let expected = Waypoints {
        by_id: [(1, point(1.0)), (20, point(2.0))].into(),
        by_quality: [(Quality::Low, point(3.0)), (Quality::High, point(4.0))].into(),
        by_name: [("sea".to_string(), Flags::from_bits(2))].into(),
    };
    let text = r#"{"by_id": {"1": [1], "20": {"x": 2}}, "by_quality": {"Low": [3], "High": [4]}, "by_name": {"sea": ["Water"]}}"#;
    both_ways(
        &registry,
        text,
        &expected,
        concat!(
            r#"{"by_id":{"1":[1.0,0.0,0.0],"20":[2.0,0.0,0.0]},"#,
            r#""by_quality":{"Low":[3.0,0.0,0.0],"High":[4.0,0.0,0.0]},"#,
            r#""by_name":{"sea":["Water"]}}"#
        ),
    );
}

#[test]
fn a_built_in_writer_can_be_replaced_and_the_readers_still_take_the_new_form() {
    let registry = color_registry();
    let mut table = builtin::json_serializer();
    // Colors as "#RRGGBBAA" instead of float arrays.
    assert!(table.replace(builtin::COLOR, |ctx| {
        let color = ctx.value.downcast_ref::<Color>().expect("a Color");
        let hex: String = [color.r, color.g, color.b, color.a]
            .iter()
            .map(|c| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let byte = (f64::from(*c) * 255.0).round().clamp(0.0, 255.0) as u8;
                format!("{byte:02X}")
            })
            .collect();
        ctx.writer.write_str(&format!("#{hex}"))
    }));
    let colors = vec![rgba(1.0, byte(0x4d), byte(0x33), byte(0xcc))];
    let out = write_with(&table, &registry, &colors, WriterOptions::condensed());
    assert_eq!(out, r##"["#FF4D33CC"]"##);
    let back: Vec<Color> = read_with(&builtin::json(), &registry, &out).expect("back");
    assert_eq!(back, colors);
}

#[test]
fn serializer_handlers_by_type_see_user_data_and_path() {
    let mut table = builtin::json_serializer();
    table.on_type::<Quality>(|ctx| {
        let path = ctx.path().to_string();
        if let Some(paths) = ctx.user_data().downcast_mut::<Vec<String>>() {
            paths.push(path);
        }
        ctx.write_plain()
    });
    let graphics = Graphics {
        quality: Quality::High,
        fallback: Quality::Medium,
        numeric: Quality::Low,
    };
    let mut paths: Vec<String> = Vec::new();
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    table
        .serialize_with(&graphics, &mut writer, &TypeRegistry::new(), &mut paths)
        .expect("graphics");
    assert_eq!(paths, ["$.quality", "$.fallback", "$.numeric"]);
    assert_eq!(
        writer.into_string().expect("utf-8"),
        r#"{"quality":"High","fallback":"Medium","numeric":"Low"}"#
    );
}

#[test]
fn writing_errors_inside_handled_values_have_their_path() {
    let registry = component_registry();
    let actor = Actor {
        components: vec![
            Box::new(Health { hp: 1 }),
            Box::new(Mesh {
                path: "m".into(),
                scale: f32::NAN,
            }),
        ],
    };
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    let error = builtin::json_serializer()
        .serialize(&actor, &mut writer, &registry)
        .expect_err("NaN has no JSON form");
    assert_eq!(path_of(&error), "$.components[1].scale");
}
