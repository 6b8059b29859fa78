//! The shapes of the exported forms: the compact type info and the JSON Schema keywords, for
//! each kind of type.

use std::collections::{BTreeMap, HashSet};

use sluice_core::{OwnedNumber, Value, ValueReader, pipe};
use sluice_json::{JsonWriter, WriterOptions};
use sluice_reflect::schema::{DRAFT_2020_12, JsonSchema, SchemaMode, Shapes, type_info};
use sluice_reflect::{Flags, Reflect, Typed, Uuid};

pub(crate) fn s(text: &str) -> Value {
    Value::from(text)
}

pub(crate) fn arr(items: Vec<Value>) -> Value {
    Value::Array(items)
}

pub(crate) fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Map(
        pairs
            .into_iter()
            .map(|(k, v)| (Value::from(k), v))
            .collect(),
    )
}

pub(crate) fn leaf(kind: &str) -> Value {
    arr(vec![s(kind)])
}

fn json(value: &Value) -> String {
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    pipe(&mut ValueReader::new(value), &mut writer).unwrap();
    writer.into_string().unwrap()
}

#[derive(Reflect, Debug, Clone, Copy)]
enum Team {
    Red,
    #[reflect(rename = "blue", alias = "Blue")]
    Blue,
}

#[derive(Reflect, Debug, Clone, Copy)]
#[reflect(flags)]
enum Access {
    Read = 1,
    Write = 2,
}

#[derive(Reflect, Debug)]
enum Shape {
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Reflect, Debug)]
struct Meters(f64);

#[derive(Reflect, Debug)]
struct Pair(u8, String);

#[derive(Reflect, Debug)]
struct Marker;

#[derive(Reflect, Debug)]
struct Player {
    #[reflect(rename = "displayName", alias = "name")]
    display_name: String,
    team: Team,
    access: Flags<Access>,
    shape: Shape,
    scores: Vec<u32>,
    seen: HashSet<char>,
    best: [i8; 2],
    by_level: BTreeMap<u16, Option<f32>>,
    pair: Pair,
    height: Meters,
    marker: Marker,
    pos: (f32, f32),
    id: Uuid,
    boxed: Box<bool>,
    nothing: (),
    #[reflect(default)]
    note: Option<String>,
    #[reflect(skip)]
    #[allow(dead_code)]
    cache: u64,
}

#[derive(Reflect, Debug)]
struct Node {
    label: String,
    children: Vec<Node>,
}

#[test]
fn type_info_expands_every_kind() {
    let expected = obj(vec![
        ("displayName", leaf("string")),
        ("team", arr(vec![s("enum"), s("Red"), s("blue")])),
        ("access", arr(vec![s("flags"), s("Read"), s("Write")])),
        (
            "shape",
            arr(vec![
                s("enum"),
                s("Empty"),
                obj(vec![("Circle", leaf("f64"))]),
                obj(vec![(
                    "Segment",
                    arr(vec![s("tuple"), leaf("i32"), leaf("i32")]),
                )]),
                obj(vec![(
                    "Rect",
                    obj(vec![("w", leaf("u16")), ("h", leaf("u16"))]),
                )]),
            ]),
        ),
        ("scores", arr(vec![s("list"), leaf("u32")])),
        ("seen", arr(vec![s("set"), leaf("char")])),
        ("best", arr(vec![s("array"), leaf("i8"), Value::from(2u64)])),
        (
            "by_level",
            arr(vec![
                s("map"),
                leaf("u16"),
                arr(vec![s("option"), leaf("f32")]),
            ]),
        ),
        ("pair", arr(vec![s("tuple"), leaf("u8"), leaf("string")])),
        ("height", leaf("f64")),
        ("marker", leaf("null")),
        ("pos", arr(vec![s("tuple"), leaf("f32"), leaf("f32")])),
        ("id", leaf("uuid")),
        ("boxed", leaf("bool")),
        ("nothing", leaf("null")),
        ("note", arr(vec![s("option"), leaf("string")])),
    ]);
    assert_eq!(type_info(Player::info()), expected);
}

#[test]
fn type_info_stops_at_recursion_and_expands_repeats() {
    assert_eq!(
        type_info(Node::info()),
        obj(vec![
            ("label", leaf("string")),
            (
                "children",
                arr(vec![s("list"), arr(vec![s("ref"), s("Node")])])
            ),
        ])
    );
    // The same type twice side by side is expanded both times (it is not recursion).
    let twice = type_info(<(Pair, Pair)>::info());
    let pair = arr(vec![s("tuple"), leaf("u8"), leaf("string")]);
    assert_eq!(twice, arr(vec![s("tuple"), pair.clone(), pair]));
}

#[test]
fn the_flags_enum_itself_is_marked_as_flags() {
    assert_eq!(
        type_info(Access::info()),
        arr(vec![s("flags"), s("Read"), s("Write")])
    );
}

pub(crate) fn def<'a>(schema: &'a Value, name: &str) -> &'a Value {
    schema
        .get("$defs")
        .and_then(|d| d.get(name))
        .unwrap_or_else(|| panic!("no $defs/{name} in {}", json(schema)))
}

pub(crate) fn property<'a>(object: &'a Value, name: &str) -> &'a Value {
    object
        .get("properties")
        .and_then(|p| p.get(name))
        .unwrap_or_else(|| panic!("no property {name} in {}", json(object)))
}

#[test]
fn the_document_names_the_dialect_and_refers_to_its_type() {
    let schema = JsonSchema::new().of::<Player>();
    assert_eq!(
        schema.get("$schema").and_then(Value::as_str),
        Some(DRAFT_2020_12)
    );
    assert_eq!(schema.get("title").and_then(Value::as_str), Some("Player"));
    assert_eq!(
        schema.get("$ref").and_then(Value::as_str),
        Some("#/$defs/Player")
    );
    let defs: Vec<&str> = schema
        .get("$defs")
        .and_then(Value::as_map)
        .unwrap()
        .iter()
        .filter_map(|(k, _)| k.as_str())
        .collect();
    // User types only, each once, in the order first met.
    assert_eq!(
        defs,
        [
            "Player",
            "Team",
            "Flags_Access_",
            "Shape",
            "Pair",
            "Meters",
            "Marker"
        ]
    );
}

#[test]
fn write_schemas_require_every_field_under_its_written_name() {
    let schema = JsonSchema::new().of::<Player>();
    let player = def(&schema, "Player");
    let required: Vec<&str> = player
        .get("required")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(required.len(), 16);
    assert!(required.contains(&"displayName") && required.contains(&"note"));
    assert!(!required.contains(&"cache") && !required.contains(&"display_name"));
    assert_eq!(
        player.get("additionalProperties"),
        Some(&Value::Bool(false))
    );
    assert!(
        player.get("properties").unwrap().get("name").is_none(),
        "no alias on write"
    );
}

#[test]
fn read_schemas_take_aliases_and_leave_defaulted_and_optional_fields_out() {
    let schema = JsonSchema::new().mode(SchemaMode::Read).of::<Player>();
    let player = def(&schema, "Player");
    assert_eq!(property(player, "name"), property(player, "displayName"));
    let required = player.get("required").and_then(Value::as_array).unwrap();
    assert!(
        !required.contains(&s("displayName")),
        "two names: an anyOf instead"
    );
    assert!(!required.contains(&s("note")), "defaulted and optional");
    assert!(required.contains(&s("team")));
    assert_eq!(
        player.get("allOf"),
        Some(&arr(vec![obj(vec![(
            "anyOf",
            arr(vec![
                obj(vec![("required", arr(vec![s("displayName")]))]),
                obj(vec![("required", arr(vec![s("name")]))]),
            ])
        )])]))
    );
    // Unit variants by name, alias or discriminant.
    let plain = JsonSchema::new()
        .mode(SchemaMode::Read)
        .shapes(Shapes::Plain)
        .of::<Player>();
    assert_eq!(
        def(&plain, "Team"),
        &obj(vec![
            ("title", s("Team")),
            (
                "enum",
                arr(vec![
                    s("Red"),
                    Value::from(0i64),
                    s("blue"),
                    s("Blue"),
                    Value::from(1i64)
                ])
            ),
        ])
    );
}

#[test]
fn integers_carry_the_range_of_their_width() {
    let bounds = |schema: Value| {
        let min = schema.get("minimum").cloned();
        let max = schema.get("maximum").cloned();
        assert_eq!(schema.get("type").and_then(Value::as_str), Some("integer"));
        (min, max)
    };
    assert_eq!(
        bounds(JsonSchema::new().of::<u8>()),
        (Some(Value::from(0u64)), Some(Value::from(255u64)))
    );
    assert_eq!(
        bounds(JsonSchema::new().of::<i16>()),
        (Some(Value::from(-32768i64)), Some(Value::from(32767i64)))
    );
    assert_eq!(
        bounds(JsonSchema::new().of::<i128>()),
        (
            Some(Value::Number(OwnedNumber::I128(i128::MIN))),
            Some(Value::Number(OwnedNumber::I128(i128::MAX)))
        )
    );
    assert_eq!(
        bounds(JsonSchema::new().of::<u64>()).1,
        Some(Value::from(u64::MAX))
    );
    // Big bounds are written exactly.
    assert!(
        json(&JsonSchema::new().of::<u128>()).contains("340282366920938463463374607431768211455")
    );
}

#[test]
fn data_enums_are_one_of_their_variant_shapes() {
    let schema = JsonSchema::new().of::<Shape>();
    let shape = def(&schema, "Shape");
    let variants = shape.get("oneOf").and_then(Value::as_array).unwrap();
    assert_eq!(variants.len(), 4);
    assert_eq!(variants[0], obj(vec![("enum", arr(vec![s("Empty")]))]));
    let segment = &variants[2];
    assert_eq!(segment.get("required"), Some(&arr(vec![s("Segment")])));
    let payload = property(segment, "Segment");
    assert_eq!(payload.get("minItems").and_then(Value::as_u64), Some(2));
    assert_eq!(payload.get("items"), Some(&Value::Bool(false)));
    assert_eq!(
        payload
            .get("prefixItems")
            .and_then(Value::as_array)
            .map(<[Value]>::len),
        Some(2)
    );
}

#[test]
fn recursive_types_refer_to_their_definition() {
    let schema = JsonSchema::new().of::<Node>();
    let node = def(&schema, "Node");
    assert_eq!(
        property(node, "children").get("items"),
        Some(&obj(vec![("$ref", s("#/$defs/Node"))]))
    );
}

mod other {
    /// A second type named `Pair`, in another module.
    #[derive(sluice_reflect::Reflect, Debug)]
    pub(crate) struct Pair {
        pub(crate) left: bool,
    }
}

#[test]
fn types_sharing_a_name_get_distinct_definitions() {
    let schema = JsonSchema::new().of::<(Pair, other::Pair)>();
    let items = schema.get("prefixItems").and_then(Value::as_array).unwrap();
    assert_eq!(items[0], obj(vec![("$ref", s("#/$defs/Pair"))]));
    assert_eq!(items[1], obj(vec![("$ref", s("#/$defs/Pair_2"))]));
    assert!(
        def(&schema, "Pair_2")
            .get("properties")
            .unwrap()
            .get("left")
            .is_some()
    );
}

#[test]
fn map_keys_are_described_by_their_text() {
    let schema = JsonSchema::new().of::<BTreeMap<i32, bool>>();
    assert_eq!(schema.get("type").and_then(Value::as_str), Some("object"));
    let pattern = schema
        .get("propertyNames")
        .and_then(|p| p.get("pattern"))
        .and_then(Value::as_str)
        .unwrap();
    assert!(
        pattern.contains('-'),
        "signed keys may be negative: {pattern}"
    );
    // Keys with no text form: an array of entries.
    let schema = JsonSchema::new().of::<BTreeMap<(u8, u8), bool>>();
    assert_eq!(schema.get("type").and_then(Value::as_str), Some("array"));
    let entry = schema.get("items").unwrap();
    assert_eq!(
        entry.get("required"),
        Some(&arr(vec![s("$key"), s("$value")]))
    );
}

#[test]
fn the_conventions_write_flags_as_arrays_and_read_integer_strings() {
    let schema = JsonSchema::new().of::<Flags<Access>>();
    let flags = def(&schema, "Flags_Access_");
    assert_eq!(flags.get("type").and_then(Value::as_str), Some("array"));
    assert_eq!(
        flags.get("maxContains").and_then(Value::as_u64),
        Some(1),
        "one leftover integer at most"
    );
    let plain = JsonSchema::new()
        .shapes(Shapes::Plain)
        .of::<Flags<Access>>();
    let plain_flags = def(&plain, "Flags_Access_");
    assert!(
        plain_flags.get("anyOf").is_some(),
        "a name or an integer: {}",
        json(&plain)
    );

    let read = JsonSchema::new().mode(SchemaMode::Read).of::<Team>();
    let team = def(&read, "Team").get("oneOf").and_then(Value::as_array);
    let team = team.unwrap_or_else(|| panic!("{}", json(&read)));
    assert_eq!(
        team[1].get("pattern").and_then(Value::as_str),
        Some("^\\s*(?:[+-]?0+|\\+?0*1)\\s*$")
    );
}

#[test]
fn the_conventions_read_fixed_float_arrays_as_vectors() {
    let read = JsonSchema::new().mode(SchemaMode::Read).of::<[f32; 3]>();
    let text = json(&read);
    assert!(text.contains(r#""^[zZ]$":{"type":"number"}"#), "{text}");
    let written = JsonSchema::new().of::<[f32; 3]>();
    assert_eq!(written.get("minItems").and_then(Value::as_u64), Some(3));
}

mod conventions {
    use sluice_core::Value;
    use sluice_reflect::handlers::Mark;
    use sluice_reflect::schema::{JsonSchema, SchemaMode, type_info, type_info_with};
    use sluice_reflect::{Reflect, TypeRegistry, Typed};

    use super::{arr, def, leaf, obj, property, s};

    pub(crate) trait Shape: Reflect {}

    #[derive(Reflect, Debug)]
    pub(crate) struct Circle {
        r: f64,
    }

    #[derive(Reflect, Debug)]
    pub(crate) struct Square {
        side: f64,
    }

    impl Shape for Circle {}
    impl Shape for Square {}

    sluice_reflect::reflect_trait_object!(Shape, default = Circle);

    #[derive(Reflect, Debug)]
    struct Rgb {
        r: f32,
        g: f32,
        b: f32,
    }

    #[derive(Reflect, Debug)]
    struct Point {
        x: i32,
        y: i32,
    }

    #[derive(Reflect)]
    struct Sprite {
        pixels: Vec<u8>,
        tint: Rgb,
        at: Point,
        shape: Box<dyn Shape>,
    }

    fn registry() -> TypeRegistry {
        let mut registry = TypeRegistry::new();
        registry
            .mark::<Vec<u8>>(Mark::Blob)
            .mark::<Rgb>(Mark::Color)
            .mark::<Point>(Mark::Vector)
            .register_polymorphic::<Box<dyn Shape>, Circle>(|c| Box::new(c))
            .register_polymorphic::<Box<dyn Shape>, Square>(|s| Box::new(s));
        registry
    }

    #[test]
    fn type_info_marks_blobs_colors_vectors_and_trait_objects() {
        let registry = registry();
        assert_eq!(
            type_info_with(Sprite::info(), &registry),
            obj(vec![
                ("pixels", leaf("blob")),
                (
                    "tint",
                    arr(vec![s("color"), leaf("f32"), Value::from(3u64)])
                ),
                ("at", arr(vec![s("vector"), leaf("i32"), Value::from(2u64)])),
                (
                    "shape",
                    arr(vec![
                        s("dyn"),
                        obj(vec![
                            ("Circle", obj(vec![("r", leaf("f64"))])),
                            ("Square", obj(vec![("side", leaf("f64"))])),
                        ]),
                    ])
                ),
            ])
        );
        // Without the registry, the plain shapes.
        let plain = type_info(Sprite::info());
        assert_eq!(plain.get("pixels"), Some(&arr(vec![s("list"), leaf("u8")])));
        assert_eq!(plain.get("shape"), Some(&obj(vec![("r", leaf("f64"))])));
    }

    #[test]
    fn schemas_follow_the_registered_conventions() {
        let registry = registry();
        let schema = JsonSchema::new().registry(&registry).of::<Sprite>();
        let sprite = def(&schema, "Sprite");
        let pixels = property(sprite, "pixels");
        assert_eq!(
            pixels.get("contentEncoding").and_then(Value::as_str),
            Some("base64")
        );
        let tint = def(&schema, "Rgb");
        assert_eq!(tint.get("type").and_then(Value::as_str), Some("array"));
        assert_eq!(tint.get("minItems").and_then(Value::as_u64), Some(3));
        let shape = def(&schema, "Box_dyn_Shape_");
        let implementors = shape.get("oneOf").and_then(Value::as_array).unwrap();
        assert_eq!(implementors.len(), 2);
        assert_eq!(
            property(&implementors[1], "$type"),
            &obj(vec![("enum", arr(vec![s("Square")]))])
        );
        assert_eq!(
            implementors[1].get("required"),
            Some(&arr(vec![s("$type"), s("side")]))
        );

        // On read, `$type` is also the full path or the uuid.
        let read = JsonSchema::new()
            .mode(SchemaMode::Read)
            .registry(&registry)
            .of::<Sprite>();
        let shape = def(&read, "Box_dyn_Shape_");
        let circle = &shape.get("oneOf").and_then(Value::as_array).unwrap()[0];
        let names = property(circle, "$type")
            .get("enum")
            .and_then(Value::as_array)
            .unwrap();
        assert!(names.contains(&Value::from(Circle::info().uuid().to_string())));
        assert!(names.contains(&Value::from(Circle::info().type_path())));
    }
}
