//! `SerializeOptions`: each toggle on and off, combinations, JSON and MessagePack, errors.

use std::collections::{BTreeMap, HashMap};

use sluice::json::{JsonWriter, NonFinite, WriterOptions};
use sluice::reflect::handlers::builtin;
use sluice::reflect::handlers::options::OPTION_NOT_SUPPORTED;
use sluice::{FloatFormat, Reflect, SerializeOptions, TypeRegistry, TypeTags};

fn json<T: Reflect>(value: &T, options: &SerializeOptions) -> String {
    sluice::json::to_string_with_options(value, options).expect("JSON")
}

fn msgpack<T: Reflect>(value: &T, options: &SerializeOptions) -> Vec<u8> {
    sluice::msgpack::to_vec_with_options(value, options).expect("MessagePack")
}

/// MessagePack bytes shown as JSON text, so expectations stay readable.
fn msgpack_as_json(bytes: &[u8]) -> String {
    let mut reader = sluice::msgpack::MsgPackReader::from_slice(bytes);
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    sluice::pipe(&mut reader, &mut writer).expect("transcode");
    writer.into_string().expect("text")
}

// ---- types ----

#[derive(Reflect, Debug, Default, PartialEq, Clone)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Reflect, Debug, PartialEq, Clone)]
struct Window {
    title: String,
    #[reflect(default)]
    width: u32,
    #[reflect(default)]
    visible: bool,
    icon: Option<String>,
    /// Required: kept even when equal to its type's default.
    depth: u8,
    #[reflect(default)]
    origin: Point,
}

#[derive(Reflect, Debug, Default, PartialEq)]
#[reflect(version = 3)]
struct Save {
    level: u8,
}

#[derive(Reflect, Debug, PartialEq)]
struct Account {
    user: String,
    secret: String,
    history: Vec<Login>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Login {
    at: u32,
    secret: String,
}

#[derive(Reflect, Debug, PartialEq)]
struct Reading {
    value: f64,
    low: f32,
}

fn window() -> Window {
    Window {
        title: "main".into(),
        width: 0,
        visible: false,
        icon: None,
        depth: 0,
        origin: Point::default(),
    }
}

// ---- defaults ----

#[test]
fn default_options_write_what_the_plain_helpers_write() {
    let value = window();
    let plain = sluice::json::to_string(&value).expect("plain");
    assert_eq!(json(&value, &SerializeOptions::new()), plain);
    assert_eq!(
        msgpack(&value, &SerializeOptions::new()),
        sluice::msgpack::to_vec(&value).expect("plain")
    );
}

// ---- omit defaults ----

#[test]
fn omit_defaults_leaves_out_fields_that_may_be_absent_and_equal_their_default() {
    let value = window();
    assert_eq!(
        json(&value, &SerializeOptions::new()),
        r#"{"title":"main","width":0,"visible":false,"icon":null,"depth":0,"origin":{"x":0,"y":0}}"#
    );
    let options = SerializeOptions::new().omit_defaults(true);
    // `depth` is required, so it stays although it is 0.
    let text = json(&value, &options);
    assert_eq!(text, r#"{"title":"main","depth":0}"#);
    let back: Window = sluice::json::from_str(&text).expect("reads back");
    assert_eq!(back, value);
    assert_eq!(
        msgpack_as_json(&msgpack(&value, &options)),
        r#"{"title":"main","depth":0}"#
    );
    let bytes = msgpack(&value, &options);
    assert_eq!(
        sluice::msgpack::from_slice::<Window>(&bytes).expect("reads back"),
        value
    );
}

#[test]
fn omit_defaults_keeps_fields_that_differ_from_their_default() {
    let value = Window {
        width: 640,
        icon: Some("app.png".into()),
        origin: Point { x: 0, y: 5 },
        ..window()
    };
    let options = SerializeOptions::new().omit_defaults(true);
    let text = json(&value, &options);
    assert_eq!(
        text,
        r#"{"title":"main","width":640,"icon":"app.png","depth":0,"origin":{"x":0,"y":5}}"#
    );
    // `Point`'s fields are required: `x` stays although it is 0, so the text reads back.
    assert_eq!(
        sluice::json::from_str::<Window>(&text).expect("reads back"),
        value
    );
}

// ---- type tags ----

#[derive(Reflect, Debug, Default, PartialEq)]
struct Health {
    hp: u32,
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Mesh {
    path: String,
    #[reflect(default)]
    scale: f32,
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Light {
    range: f32,
    #[reflect(default)]
    color: u8,
}

trait Component: Reflect {}
impl Component for Health {}
impl Component for Mesh {}
impl Component for Light {}

sluice::reflect::reflect_trait_object!(Component, default = Health);

#[derive(Reflect)]
struct Actor {
    name: String,
    at: Point,
    components: Vec<Box<dyn Component>>,
}

fn registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.register_polymorphic::<Box<dyn Component>, Health>(|h| Box::new(h));
    registry.register_polymorphic::<Box<dyn Component>, Mesh>(|m| Box::new(m));
    registry.register_polymorphic::<Box<dyn Component>, Light>(|l| Box::new(l));
    registry
}

fn actor() -> Actor {
    Actor {
        name: "ship".into(),
        at: Point { x: 1, y: 2 },
        components: vec![
            Box::new(Health { hp: 10 }),
            Box::new(Mesh {
                path: "ship.mesh".into(),
                scale: 0.0,
            }),
        ],
    }
}

fn actor_json(options: &SerializeOptions) -> String {
    sluice::json::to_string_using_options(
        &actor(),
        options,
        &builtin::json_serializer(),
        &registry(),
    )
    .expect("JSON")
}

#[test]
fn type_tags_when_needed_tag_trait_objects_only() {
    let expected = r#"{"name":"ship","at":{"x":1,"y":2},"components":[{"$type":"Health","hp":10},{"$type":"Mesh","path":"ship.mesh","scale":0.0}]}"#;
    assert_eq!(actor_json(&SerializeOptions::new()), expected);
    let plain = sluice::json::to_string_using(
        &actor(),
        WriterOptions::condensed(),
        &builtin::json_serializer(),
        &registry(),
    )
    .expect("plain");
    assert_eq!(plain, expected);
}

#[test]
fn type_tags_always_tag_every_named_struct_once() {
    let options = SerializeOptions::new().type_tags(TypeTags::Always);
    assert_eq!(
        actor_json(&options),
        r#"{"$type":"Actor","name":"ship","at":{"$type":"Point","x":1,"y":2},"components":[{"$type":"Health","hp":10},{"$type":"Mesh","path":"ship.mesh","scale":0.0}]}"#
    );
    assert_eq!(
        msgpack_as_json(&msgpack(&Point { x: 1, y: 2 }, &options)),
        r#"{"$type":"Point","x":1,"y":2}"#
    );
}

#[test]
fn type_tags_never_leave_trait_objects_untagged() {
    let options = SerializeOptions::new().type_tags(TypeTags::Never);
    let text = actor_json(&options);
    assert_eq!(
        text,
        r#"{"name":"ship","at":{"x":1,"y":2},"components":[{"hp":10},{"path":"ship.mesh","scale":0.0}]}"#
    );
    // What makes it unreadable as trait objects is exactly the missing tag.
    let error = sluice::json::from_slice_using::<Actor>(
        text.as_bytes(),
        sluice::json::JsonOptions::default(),
        &builtin::json(),
        &registry(),
    )
    .err()
    .expect("no $type");
    assert_eq!(error.code(), sluice::reflect::codes::MISSING_TYPE);
}

#[test]
fn trait_objects_under_options_omit_their_defaults_and_read_back_tagged() {
    let options = SerializeOptions::new().omit_defaults(true);
    let text = actor_json(&options);
    assert_eq!(
        text,
        r#"{"name":"ship","at":{"x":1,"y":2},"components":[{"$type":"Health","hp":10},{"$type":"Mesh","path":"ship.mesh"}]}"#
    );
    let back = sluice::json::from_slice_using::<Actor>(
        text.as_bytes(),
        sluice::json::JsonOptions::default(),
        &builtin::json(),
        &registry(),
    )
    .expect("reads back");
    assert_eq!(back.components.len(), 2);
}

// ---- versions ----

#[test]
fn versions_are_written_for_versioned_types_unless_switched_off() {
    let save = Save { level: 4 };
    assert_eq!(
        json(&save, &SerializeOptions::new()),
        r#"{"$version":3,"level":4}"#
    );
    assert_eq!(
        json(&save, &SerializeOptions::new().versions(false)),
        r#"{"level":4}"#
    );
    // Version 0 is never written.
    assert_eq!(
        json(&Point { x: 1, y: 2 }, &SerializeOptions::new()),
        r#"{"x":1,"y":2}"#
    );
    assert_eq!(
        json(&save, &SerializeOptions::new().type_tags(TypeTags::Always)),
        r#"{"$type":"Save","$version":3,"level":4}"#
    );
    assert_eq!(
        msgpack(&save, &SerializeOptions::new()),
        [
            0x82, 0xa8, b'$', b'v', b'e', b'r', b's', b'i', b'o', b'n', 0x03, 0xa5, b'l', b'e',
            b'v', b'e', b'l', 0x04
        ]
    );
    // The built-in read table skips `$` fields a struct does not have.
    let back: Save = sluice::json::from_str(r#"{"$version":3,"level":4}"#).expect("reads");
    assert_eq!(back, save);
}

// ---- sorted keys ----

#[derive(Reflect, Debug, PartialEq)]
struct Inventory {
    zone: String,
    counts: HashMap<String, u32>,
    nested: BTreeMap<String, HashMap<String, u8>>,
    alpha: u8,
}

fn inventory() -> Inventory {
    let counts: HashMap<String, u32> = ["pear", "apple", "fig", "banana", "Zest", "$meta"]
        .iter()
        .enumerate()
        .map(|(i, k)| ((*k).to_string(), u32::try_from(i).unwrap_or(0)))
        .collect();
    let inner: HashMap<String, u8> = [("d", 4), ("b", 2), ("c", 3), ("a", 1)]
        .iter()
        .map(|(k, v)| ((*k).to_string(), *v))
        .collect();
    Inventory {
        zone: "north".into(),
        counts,
        nested: BTreeMap::from([("inner".to_string(), inner)]),
        alpha: 1,
    }
}

#[test]
fn sorted_keys_sort_maps_at_every_depth_and_keep_struct_order() {
    let options = SerializeOptions::new().sorted_keys(true);
    let expected = r#"{"zone":"north","counts":{"$meta":5,"Zest":4,"apple":1,"banana":3,"fig":2,"pear":0},"nested":{"inner":{"a":1,"b":2,"c":3,"d":4}},"alpha":1}"#;
    assert_eq!(json(&inventory(), &options), expected);
    assert_eq!(msgpack_as_json(&msgpack(&inventory(), &options)), expected);
    // Every run the same, whatever the hash seeds.
    for _ in 0..5 {
        assert_eq!(json(&inventory(), &options), expected);
    }
}

#[test]
fn without_sorted_keys_maps_keep_their_iteration_order() {
    let value = inventory();
    let text = json(&value, &SerializeOptions::new());
    let order: Vec<&String> = value.counts.keys().collect();
    let mut positions: Vec<usize> = order
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).expect("key written"))
        .collect();
    let before = positions.clone();
    positions.sort_unstable();
    assert_eq!(before, positions, "keys in the map's own order");
}

#[test]
fn sorted_keys_order_non_string_keys_by_value_in_messagepack() {
    let map: HashMap<(u8, u8), u8> = [((2, 1), 21), ((1, 9), 19), ((1, 2), 12)]
        .into_iter()
        .collect();
    let bytes = msgpack(&map, &SerializeOptions::new().sorted_keys(true));
    assert_eq!(
        bytes,
        [0x83, 0x92, 1, 2, 12, 0x92, 1, 9, 19, 0x92, 2, 1, 21],
    );
}

#[test]
fn sorted_keys_keep_key_value_entries_in_json() {
    let map: HashMap<(u8, u8), u8> = [((2, 1), 21)].into_iter().collect();
    assert_eq!(
        json(&map, &SerializeOptions::new().sorted_keys(true)),
        r#"[{"$key":[2,1],"$value":21}]"#
    );
}

// ---- field filter ----

fn account() -> Account {
    Account {
        user: "ann".into(),
        secret: "s0".into(),
        history: vec![
            Login {
                at: 1,
                secret: "s1".into(),
            },
            Login {
                at: 2,
                secret: "s2".into(),
            },
        ],
    }
}

#[test]
fn field_filter_drops_members_by_name() {
    let options = SerializeOptions::new().field_filter(|_, name| name != "secret");
    let expected = r#"{"user":"ann","history":[{"at":1},{"at":2}]}"#;
    assert_eq!(json(&account(), &options), expected);
    assert_eq!(msgpack_as_json(&msgpack(&account(), &options)), expected);
    assert_eq!(
        json(&account(), &SerializeOptions::new()),
        r#"{"user":"ann","secret":"s0","history":[{"at":1,"secret":"s1"},{"at":2,"secret":"s2"}]}"#
    );
}

#[test]
fn field_filter_sees_the_data_path_of_the_object() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = std::sync::Arc::clone(&seen);
    let options = SerializeOptions::new().field_filter(move |path, name| {
        let path = path.to_string();
        let keep = !(path == "$.history[1]" && name == "secret");
        record.lock().expect("lock").push(format!("{path} {name}"));
        keep
    });
    assert_eq!(
        json(&account(), &options),
        r#"{"user":"ann","secret":"s0","history":[{"at":1,"secret":"s1"},{"at":2}]}"#
    );
    assert_eq!(
        *seen.lock().expect("lock"),
        [
            "$ user",
            "$ secret",
            "$ history",
            "$.history[0] at",
            "$.history[0] secret",
            "$.history[1] at",
            "$.history[1] secret",
        ]
    );
}

#[test]
fn field_filter_drops_whole_containers_and_map_entries() {
    let options = SerializeOptions::new().field_filter(|path, name| {
        name != "history" && !(path.to_string() == "$.counts" && name.starts_with('a'))
    });
    assert_eq!(
        json(&account(), &options),
        r#"{"user":"ann","secret":"s0"}"#
    );
    let mut value = inventory();
    value.counts = HashMap::from([("apple".to_string(), 1), ("pear".to_string(), 2)]);
    value.nested.clear();
    assert_eq!(
        json(&value, &options),
        r#"{"zone":"north","counts":{"pear":2},"nested":{},"alpha":1}"#
    );
}

// ---- pretty ----

#[test]
fn pretty_indents_json_and_is_an_error_in_messagepack() {
    let point = Point { x: 1, y: 2 };
    assert_eq!(
        json(&point, &SerializeOptions::new().pretty(true)),
        "{\n  \"x\": 1,\n  \"y\": 2\n}"
    );
    assert_eq!(
        json(&point, &SerializeOptions::new().pretty(false)),
        r#"{"x":1,"y":2}"#
    );
    let error = sluice::msgpack::to_vec_with_options(&point, &SerializeOptions::new().pretty(true))
        .expect_err("no pretty MessagePack");
    assert_eq!(error.code(), OPTION_NOT_SUPPORTED);
}

// ---- float format ----

#[test]
fn float_format_fixed_writes_that_many_decimals() {
    let reading = Reading {
        value: 2.0 / 3.0,
        low: 0.1,
    };
    assert_eq!(
        json(&reading, &SerializeOptions::new()),
        r#"{"value":0.6666666666666666,"low":0.1}"#
    );
    assert_eq!(
        json(
            &reading,
            &SerializeOptions::new().float_format(FloatFormat::Fixed(3))
        ),
        r#"{"value":0.667,"low":0.100}"#
    );
    assert_eq!(
        json(
            &reading,
            &SerializeOptions::new().float_format(FloatFormat::Fixed(0))
        ),
        r#"{"value":1,"low":0}"#
    );
    let edge = Reading {
        value: -0.0,
        low: -1.5,
    };
    assert_eq!(
        json(
            &edge,
            &SerializeOptions::new().float_format(FloatFormat::Fixed(1))
        ),
        r#"{"value":-0.0,"low":-1.5}"#
    );
    let big = Reading {
        value: 1e20,
        low: 0.0,
    };
    let text = json(
        &big,
        &SerializeOptions::new().float_format(FloatFormat::Fixed(2)),
    );
    assert_eq!(text, r#"{"value":100000000000000000000.00,"low":0.00}"#);
    // Still JSON: it reads back.
    let back: Reading = sluice::json::from_str(&text).expect("valid JSON");
    assert_eq!(back, big);
}

#[test]
fn float_format_leaves_integers_alone() {
    let options = SerializeOptions::new().float_format(FloatFormat::Fixed(2));
    assert_eq!(json(&Point { x: 3, y: -4 }, &options), r#"{"x":3,"y":-4}"#);
}

#[test]
fn float_format_leaves_non_finite_values_to_the_writer_rule() {
    let options = SerializeOptions::new().float_format(FloatFormat::Fixed(2));
    let nan = Reading {
        value: f64::NAN,
        low: f32::INFINITY,
    };
    let error = sluice::json::to_string_with_options(&nan, &options).expect_err("NaN");
    assert_eq!(error.code(), sluice::json::codes::NON_FINITE_NUMBER);
    let mut writer = JsonWriter::new(
        Vec::new(),
        WriterOptions {
            non_finite: NonFinite::Null,
            ..WriterOptions::condensed()
        },
    );
    builtin::json_serializer()
        .serialize_with_options(&nan, &mut writer, &TypeRegistry::new(), &options)
        .expect("as null");
    assert_eq!(
        writer.into_string().expect("text"),
        r#"{"value":null,"low":null}"#
    );
}

#[test]
fn fixed_floats_are_an_error_in_messagepack() {
    let reading = Reading {
        value: 0.5,
        low: 0.25,
    };
    let error = sluice::msgpack::to_vec_with_options(
        &reading,
        &SerializeOptions::new().float_format(FloatFormat::Fixed(2)),
    )
    .expect_err("binary floats");
    assert_eq!(error.code(), OPTION_NOT_SUPPORTED);
    let bytes = msgpack(
        &reading,
        &SerializeOptions::new().float_format(FloatFormat::Shortest),
    );
    assert_eq!(bytes, sluice::msgpack::to_vec(&reading).expect("plain"));
}

// ---- combinations ----

#[test]
fn every_toggle_at_once() {
    #[derive(Reflect)]
    struct Report {
        title: String,
        #[reflect(default)]
        note: String,
        scores: HashMap<String, f64>,
        owner: Account,
    }
    let report = Report {
        title: "q3".into(),
        note: String::new(),
        scores: HashMap::from([("west".to_string(), 0.5), ("east".to_string(), 2.0 / 3.0)]),
        owner: account(),
    };
    let options = SerializeOptions::new()
        .omit_defaults(true)
        .type_tags(TypeTags::Always)
        .sorted_keys(true)
        .field_filter(|_, name| name != "secret" && name != "history")
        .float_format(FloatFormat::Fixed(2))
        .pretty(true);
    assert_eq!(
        json(&report, &options),
        r#"{
  "$type": "Report",
  "title": "q3",
  "scores": {
    "east": 0.67,
    "west": 0.50
  },
  "owner": {
    "$type": "Account",
    "user": "ann"
  }
}"#
    );
    let binary = options.pretty(false).float_format(FloatFormat::Shortest);
    assert_eq!(
        msgpack_as_json(&msgpack(&report, &binary)),
        r#"{"$type":"Report","title":"q3","scores":{"east":0.6666666666666666,"west":0.5},"owner":{"$type":"Account","user":"ann"}}"#
    );
}

// ---- adapters keep the writer's layout hints; rules keep other conventions ----

#[test]
fn sorted_keys_keep_inline_vectors_in_pretty_output() {
    let map: HashMap<String, [f32; 2]> =
        HashMap::from([("b".to_string(), [1.0, 2.0]), ("a".to_string(), [3.0, 4.0])]);
    let options = SerializeOptions::new().sorted_keys(true).pretty(true);
    assert_eq!(
        json(&map, &options),
        "{\n  \"a\": [3.0, 4.0],\n  \"b\": [1.0, 2.0]\n}"
    );
}

#[test]
fn struct_rules_leave_vectors_to_their_convention() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Body {
        #[reflect(default)]
        at: [f32; 2],
        mass: f32,
    }
    let options = SerializeOptions::new()
        .omit_defaults(true)
        .type_tags(TypeTags::Always);
    let body = Body {
        at: [0.0, 1.0],
        mass: 2.0,
    };
    assert_eq!(
        json(&body, &options),
        r#"{"$type":"Body","at":[0.0,1.0],"mass":2.0}"#
    );
    let resting = Body {
        at: [0.0, 0.0],
        mass: 2.0,
    };
    assert_eq!(json(&resting, &options), r#"{"$type":"Body","mass":2.0}"#);
}

#[test]
fn field_filter_drops_options_and_sets_whole() {
    #[derive(Reflect)]
    struct Tagged {
        tags: std::collections::BTreeSet<u8>,
        parent: Option<Point>,
        id: u8,
    }
    let value = Tagged {
        tags: [3, 1].into_iter().collect(),
        parent: Some(Point { x: 1, y: 1 }),
        id: 7,
    };
    let keep_id = SerializeOptions::new().field_filter(|_, name| name == "id");
    assert_eq!(json(&value, &keep_id), r#"{"id":7}"#);
    assert_eq!(msgpack(&value, &keep_id), [0x81, 0xa2, b'i', b'd', 7]);
    let drop_x = SerializeOptions::new()
        .field_filter(|path, name| !(path.to_string() == "$.parent" && name == "x"));
    assert_eq!(
        json(&value, &drop_x),
        r#"{"tags":[1,3],"parent":{"y":1},"id":7}"#
    );
}

#[test]
fn to_writer_with_options_writes_the_same_text() {
    let options = SerializeOptions::new()
        .sorted_keys(true)
        .field_filter(|_, name| name != "zone");
    let mut sink = Vec::new();
    sluice::json::to_writer_with_options(&mut sink, &inventory(), &options).expect("written");
    assert_eq!(
        String::from_utf8(sink).expect("UTF-8"),
        json(&inventory(), &options)
    );
    assert!(!json(&inventory(), &options).contains("zone"));
}

#[test]
fn misplaced_tokens_through_the_adapters_are_the_writer_errors() {
    use sluice::Writer;
    use sluice::core::codes::INVALID_STRUCTURE;
    use sluice::reflect::handlers::option_writers::{FieldFilterWriter, SortedKeysWriter};

    let json_writer = || JsonWriter::new(Vec::new(), WriterOptions::condensed());
    // A value where a key is expected: found when the sorted map is written out.
    let mut sorted = SortedKeysWriter::new(json_writer(), true);
    sorted.write_map_root(None).expect("recorded");
    sorted.write_i64(1).expect("recorded");
    let error = sorted.write_map_end().expect_err("no key");
    assert_eq!(error.code(), INVALID_STRUCTURE);
    // A name outside any object goes to the writer, which refuses it.
    let mut filtered = FieldFilterWriter::new(
        json_writer(),
        Some(std::sync::Arc::new(|_: &sluice::core::Path, _: &str| true)),
    );
    let error = filtered.write_name("loose").expect_err("no object");
    assert_eq!(error.code(), INVALID_STRUCTURE);
}

#[test]
fn the_table_is_only_copied_when_an_option_needs_rules() {
    use sluice::Typed;
    use std::borrow::Cow;
    let table = builtin::json_serializer();
    let defaults = SerializeOptions::new();
    let borrowed = |cow: &Cow<'_, sluice::reflect::Serializer>| matches!(cow, Cow::Borrowed(_));
    // No versioned type reachable: the table as it is.
    assert!(borrowed(&defaults.table_for(&table, Window::info())));
    // A versioned type anywhere inside: rules are needed for `$version`...
    assert!(!borrowed(
        &defaults.table_for(&table, <Vec<Option<Save>>>::info())
    ));
    // ...unless versions are off.
    let off = SerializeOptions::new().versions(false);
    assert!(borrowed(
        &off.table_for(&table, <Vec<Option<Save>>>::info())
    ));
    assert!(!borrowed(
        &off.clone()
            .omit_defaults(true)
            .table_for(&table, Window::info())
    ));
    assert!(!borrowed(
        &off.type_tags(TypeTags::Never)
            .table_for(&table, Window::info())
    ));
    // Token-level options never need rules.
    let adapters = SerializeOptions::new()
        .sorted_keys(true)
        .field_filter(|_, _| true)
        .float_format(FloatFormat::Fixed(1));
    assert!(borrowed(&adapters.table_for(&table, Window::info())));
}

#[test]
fn trait_objects_are_sorted_alike_with_and_without_the_struct_rules() {
    let lit = Actor {
        name: "lamp".into(),
        at: Point { x: 0, y: 0 },
        components: vec![Box::new(Light {
            range: 2.5,
            color: 7,
        })],
    };
    let write = |options: &SerializeOptions| {
        sluice::json::to_string_using_options(
            &lit,
            options,
            &builtin::json_serializer(),
            &registry(),
        )
        .expect("JSON")
    };
    let expected = r#"{"name":"lamp","at":{"x":0,"y":0},"components":[{"$type":"Light","color":7,"range":2.5}]}"#;
    assert_eq!(write(&SerializeOptions::new().sorted_keys(true)), expected);
    assert_eq!(
        write(
            &SerializeOptions::new()
                .sorted_keys(true)
                .omit_defaults(true)
        ),
        expected
    );
    assert_eq!(
        write(&SerializeOptions::new()),
        r#"{"name":"lamp","at":{"x":0,"y":0},"components":[{"$type":"Light","range":2.5,"color":7}]}"#
    );
}
