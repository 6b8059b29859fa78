//! Evolving data: the v1 / v2 / v3 fixtures of `corpus/versioning/` loaded by the current
//! code, deprecation warnings, events, custom serializers, through JSON and MessagePack.

use std::sync::{Arc, Mutex};

use sluice_core::{Error, Value, ValueReader, ValueWriter, pipe};
use sluice_json::{JsonOptions, JsonReader, JsonWriter};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};
use sluice_reflect::evolve::{self, UuidBytes, ValueTree, Warnings, codes};
use sluice_reflect::{Reflect, TypeRegistry, Uuid};

pub trait Item: Reflect + std::fmt::Debug {
    fn label(&self) -> String;
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Sword {
    damage: u32,
}
impl Item for Sword {
    fn label(&self) -> String {
        format!("sword {}", self.damage)
    }
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Potion {
    heal: u32,
}
impl Item for Potion {
    fn label(&self) -> String {
        format!("potion {}", self.heal)
    }
}

sluice_reflect::reflect_trait_object!(Item, default = Sword);

#[derive(Reflect, Debug, Default, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Reflect, Debug, Default, PartialEq)]
#[reflect(version = 3)]
struct Controls {
    invert_y: bool,
    sensitivity: u32,
}

#[derive(Reflect, Debug, Default)]
#[reflect(version = 3)]
struct Character {
    id: Uuid,
    display_name: String,
    health: f32,
    position: Position,
    controls: Controls,
    inventory: Vec<Box<dyn Item>>,
    /// Derived from the inventory; rebuilt after each load.
    #[reflect(skip)]
    labels: Vec<String>,
}

const TORCH: Uuid = Uuid::from_u128(0x7d0f_54aa_1c11_4f57_9a43_65b0_d2c8_e001);

/// The registry of the current (version 3) code, with its history.
fn registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.register::<Character>();
    registry.register_polymorphic::<Box<dyn Item>, Sword>(|s| Box::new(s));
    registry.register_polymorphic::<Box<dyn Item>, Potion>(|p| Box::new(p));
    registry
        .evolve::<Character>()
        // 1 -> 2: `name` became `title`, `hp` a float, the position an object.
        .type_change::<u32, f32>("hp", 1, 2, |hp| hp as f32)
        .name_change(1, 2, "name", "title")
        .converter(2, |data, _| {
            let Some(pos) = data.remove_child("pos") else {
                return Ok(());
            };
            let [x, y]: [f32; 2] = evolve::from_value(&pos)?;
            let position = evolve::to_value(&Position { x, y })?;
            data.add_child("position", position)
        })
        // 2 -> 3: two renames.
        .name_change(2, 3, "title", "display_name")
        .name_change(2, 3, "hp", "health");
    // Controls had no version 2: its one change goes from 1 straight to 3.
    registry.evolve::<Controls>().type_change::<String, u32>(
        "sensitivity",
        1,
        3,
        |word| match word.as_str() {
            "low" => 1,
            "high" => 9,
            _ => 5,
        },
    );
    registry.deprecate("Torch", TORCH);
    registry.on_read_end::<Character>(|c| {
        c.labels = c.inventory.iter().map(|item| item.label()).collect();
    });
    registry
}

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/versioning")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load(text: &str, registry: &TypeRegistry) -> Result<(Character, Warnings), Error> {
    let mut reader = JsonReader::from_str(text).with_options(JsonOptions::relaxed());
    evolve::deserialize_with_warnings(&evolve::json(), &mut reader, registry)
}

fn assert_current(character: &Character) {
    assert_eq!(
        character.id,
        Uuid::parse_str("5f3a6c1e-2b7d-4e0a-9c4b-1d2e3f405162").unwrap()
    );
    assert_eq!(character.display_name, "Ana");
    assert!((character.health - 30.0).abs() < f32::EPSILON);
    assert_eq!(character.position, Position { x: 1.5, y: -2.0 });
    assert_eq!(
        character.controls,
        Controls {
            invert_y: true,
            sensitivity: 9
        }
    );
    assert_eq!(character.labels, ["sword 7", "potion 20"]);
}

#[test]
fn every_version_loads_into_the_current_shape() {
    let registry = registry();
    for name in [
        "character.v1.jsonc",
        "character.v2.jsonc",
        "character.v3.jsonc",
    ] {
        let (character, warnings) = load(&fixture(name), &registry).unwrap();
        assert_current(&character);
        let expected_warnings = usize::from(name.contains("v1"));
        assert_eq!(warnings.0.len(), expected_warnings, "{name}");
    }
}

#[test]
fn the_deprecated_item_is_dropped_with_a_warning() {
    let registry = registry();
    let (character, warnings) = load(&fixture("character.v1.jsonc"), &registry).unwrap();
    assert_eq!(character.inventory.len(), 2);
    let [warning] = warnings.0.as_slice() else {
        panic!("one warning expected: {warnings:?}");
    };
    assert_eq!(warning.code, codes::DEPRECATED_DROPPED);
    assert_eq!(warning.path.to_string(), "$.inventory[1]");
    // Without a Warnings of its own, the load leaves them in the registry.
    let v1 = fixture("character.v1.jsonc");
    let mut reader = JsonReader::from_str(&v1).with_options(JsonOptions::relaxed());
    let _: Character = evolve::json().deserialize(&mut reader, &registry).unwrap();
    let left = registry.take_warnings();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].path.to_string(), "$.inventory[1]");
    assert!(registry.take_warnings().is_empty());
}

#[test]
fn deprecated_types_match_by_uuid_too() {
    let registry = registry();
    let text = format!(
        r#"{{"$version": 3, "id": "5f3a6c1e-2b7d-4e0a-9c4b-1d2e3f405162", "display_name": "B",
            "health": 1, "position": {{"x": 0, "y": 0}},
            "controls": {{"$version": 3, "invert_y": false, "sensitivity": 1}},
            "inventory": [{{"$type": "{{{}}}", "hours": 1}}, {{"$type": "Potion", "heal": 2}}]}}"#,
        TORCH.hyphenated().to_string().to_uppercase()
    );
    let (character, warnings) = load(&text, &registry).unwrap();
    assert_eq!(character.labels, ["potion 2"]);
    assert_eq!(warnings.0.len(), 1);
    assert!(registry.is_deprecated("Torch"));
    assert!(!registry.is_deprecated("Sword"));
}

#[test]
fn saving_writes_the_current_version_and_shape() {
    let registry = registry();
    let (character, _) = load(&fixture("character.v1.jsonc"), &registry).unwrap();
    let mut out = JsonWriter::pretty(Vec::new());
    evolve::json_serializer()
        .serialize(&character, &mut out, &registry)
        .unwrap();
    let text = String::from_utf8(out.into_inner().unwrap()).unwrap();
    let mut saved = ValueWriter::new();
    pipe(&mut JsonReader::from_str(&text), &mut saved).unwrap();
    let saved = saved.into_value().unwrap();
    let mut current = ValueWriter::new();
    let v3 = fixture("character.v3.jsonc");
    pipe(
        &mut JsonReader::from_str(&v3).with_options(JsonOptions::relaxed()),
        &mut current,
    )
    .unwrap();
    let current = current.into_value().unwrap();
    assert_eq!(saved.child_names(), current.child_names());
    assert_eq!(saved.get("$version").and_then(Value::as_u64), Some(3));
    assert_eq!(
        saved.find("controls.$version").and_then(Value::as_u64),
        Some(3)
    );
    // Position has version 0: no `$version` written for it.
    assert!(saved.find("position.$version").is_none());
    // And the saved text loads back to the same character.
    let (again, warnings) = load(&text, &registry).unwrap();
    assert_current(&again);
    assert!(warnings.is_empty());
}

#[test]
fn messagepack_round_trip_with_uuid_as_bytes() {
    let mut registry = registry();
    registry.data_serializer::<Uuid>(UuidBytes);
    let (character, _) = load(&fixture("character.v1.jsonc"), &registry).unwrap();
    let mut out = MsgPackWriter::new(Vec::new());
    evolve::msgpack_serializer()
        .serialize(&character, &mut out, &registry)
        .unwrap();
    let bytes = out.into_inner().unwrap();
    let mut raw = ValueWriter::new();
    pipe(&mut MsgPackReader::from_slice(&bytes), &mut raw).unwrap();
    let raw = raw.into_value().unwrap();
    assert_eq!(raw.get("$version").and_then(Value::as_u64), Some(3));
    assert_eq!(
        raw.get("id"),
        Some(&Value::Bytes(character.id.as_bytes().to_vec()))
    );
    let (back, warnings) = evolve::deserialize_with_warnings::<Character, _>(
        &evolve::msgpack(),
        &mut MsgPackReader::from_slice(&bytes),
        &registry,
    )
    .unwrap();
    assert_current(&back);
    assert!(warnings.is_empty());
    // In JSON the same registry writes the uuid as its string.
    let mut json = ValueWriter::new();
    evolve::json_serializer()
        .serialize(&character, &mut json, &registry)
        .unwrap();
    assert_eq!(
        json.into_value().unwrap().get("id").and_then(Value::as_str),
        Some("5f3a6c1e-2b7d-4e0a-9c4b-1d2e3f405162")
    );
}

#[test]
fn custom_text_forms_report_bad_input_with_code_and_path() {
    let mut registry = registry();
    registry.data_serializer::<Uuid>(UuidBytes);
    let text = fixture("character.v3.jsonc").replace("5f3a6c1e-2b7d", "nope");
    let error = load(&text, &registry).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::INVALID_UUID);
    assert_eq!(error.path().unwrap().to_string(), "$.id");
    let span = error.span().unwrap();
    assert_eq!(
        &text[span.start..span.end],
        "\"nope-4e0a-9c4b-1d2e3f405162\""
    );
}

#[test]
fn a_failing_converter_names_the_type_and_versions() {
    let registry = registry();
    let text = fixture("character.v1.jsonc").replace("[1.5, -2]", "\"here\"");
    let error = load(&text, &registry).unwrap_err();
    assert_eq!(error.code(), codes::CONVERTER_FAILED);
    assert!(error.message().contains("Character"));
    assert!(error.message().contains("version 1") && error.message().contains("version 2"));
    // The span is the whole stored object.
    let span = error.span().unwrap();
    assert_eq!(text[span.start..].chars().next(), Some('{'));
    assert!(text[..span.end].ends_with('}'));

    let nested = fixture("character.v1.jsonc").replace("\"high\"", "7");
    let error = load(&nested, &registry).unwrap_err();
    assert_eq!(error.code(), codes::CONVERTER_FAILED);
    assert_eq!(error.path().unwrap().to_string(), "$.controls");
    assert!(error.message().contains("Controls"));
}

#[test]
fn versions_newer_than_the_code_or_malformed_are_errors() {
    let registry = registry();
    let newer = fixture("character.v3.jsonc").replacen("\"$version\": 3", "\"$version\": 4", 1);
    assert_eq!(
        load(&newer, &registry).unwrap_err().code(),
        codes::VERSION_TOO_NEW
    );
    let bad = fixture("character.v3.jsonc").replacen("\"$version\": 3", "\"$version\": \"3\"", 1);
    let error = load(&bad, &registry).unwrap_err();
    assert_eq!(error.code(), codes::INVALID_VERSION);
    assert!(error.path().unwrap().is_root());
}

#[test]
fn unknown_and_missing_fields_keep_their_codes_and_paths() {
    let registry = registry();
    let unknown = fixture("character.v3.jsonc").replace("\"health\"", "\"vigour\"");
    let error = load(&unknown, &registry).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::UNKNOWN_FIELD);
    assert_eq!(error.path().unwrap().to_string(), "$.vigour");
    let missing = fixture("character.v3.jsonc").replace("\"health\": 30.0,", "");
    let error = load(&missing, &registry).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::MISSING_FIELD);
    // A wrong type inside a field is reported at the field.
    let wrong = fixture("character.v3.jsonc").replace("\"x\": 1.5", "\"x\": true");
    let error = load(&wrong, &registry).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::WRONG_TYPE);
    assert_eq!(error.path().unwrap().to_string(), "$.position.x");
    // Current data is read straight from the input: the span is the value itself.
    let span = error.span().unwrap();
    assert_eq!(&wrong[span.start..span.end], "true");
    // Older data goes through a buffer: the span is the stored field it came from.
    let wrong_v2 = fixture("character.v2.jsonc").replace("\"x\": 1.5", "\"x\": true");
    let error = load(&wrong_v2, &registry).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::WRONG_TYPE);
    assert_eq!(error.path().unwrap().to_string(), "$.position.x");
    let span = error.span().unwrap();
    assert_eq!(&wrong_v2[span.start..span.end], r#"{ "x": true, "y": -2 }"#);
}

#[test]
fn events_fire_in_order_around_nested_values() {
    let mut registry = registry();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let record = |what: &'static str| {
        let log = Arc::clone(&log);
        move || log.lock().unwrap().push(what.to_owned())
    };
    let (a, b, c, d) = (
        record("character read begin"),
        record("character read end"),
        record("controls read begin"),
        record("controls read end"),
    );
    registry.on_read_begin::<Character>(move |_| a());
    registry.on_read_end::<Character>(move |_| b());
    registry.on_read_begin::<Controls>(move |_| c());
    registry.on_read_end::<Controls>(move |controls| {
        assert_eq!(controls.sensitivity, 9, "read end sees the loaded value");
        d();
    });
    let (e, f, g, h) = (
        record("character write begin"),
        record("character write end"),
        record("position write begin"),
        record("position write end"),
    );
    registry.on_write_begin::<Character>(move |_| e());
    registry.on_write_end::<Character>(move |_| f());
    registry.on_write_begin::<Position>(move |_| g());
    registry.on_write_end::<Position>(move |_| h());

    let (character, _) = load(&fixture("character.v2.jsonc"), &registry).unwrap();
    // The hook registered first (labels) ran too.
    assert_eq!(character.labels.len(), 2);
    evolve::json_serializer()
        .serialize(&character, &mut ValueWriter::new(), &registry)
        .unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        [
            "character read begin",
            "controls read begin",
            "controls read end",
            "character read end",
            "character write begin",
            "position write begin",
            "position write end",
            "character write end",
        ]
    );
}

#[derive(Reflect, Debug, PartialEq)]
struct AudioSettings {
    volume: u32,
    muted: bool,
    device: String,
    #[reflect(default = "default_rate")]
    rate: u32,
    limit: Option<u32>,
}

fn default_rate() -> u32 {
    48_000
}

#[test]
fn defaults_are_omitted_on_write_and_filled_on_read() {
    let registry = TypeRegistry::new();
    let settings = AudioSettings {
        volume: 80,
        muted: false,
        device: String::new(),
        rate: 0,
        limit: None,
    };
    let mut table = sluice_reflect::handlers::builtin::json_serializer();
    evolve::add_write_rules(
        &mut table,
        evolve::WriteOptions {
            omit_defaults: true,
            ..evolve::WriteOptions::json()
        },
    );
    let mut out = ValueWriter::new();
    table.serialize(&settings, &mut out, &registry).unwrap();
    let written = out.into_value().unwrap();
    // `rate` is 0, not its default 48000 (`reflect_default` uses the attribute), so it stays.
    assert_eq!(written.child_names(), ["volume", "rate"]);

    let mut filling = sluice_reflect::handlers::builtin::json();
    evolve::add_read_rules(
        &mut filling,
        evolve::ReadOptions {
            fill_defaults: true,
        },
    );
    let back: AudioSettings = filling
        .deserialize(&mut ValueReader::new(&written), &registry)
        .unwrap();
    assert_eq!(back, settings);

    // Without filling, the omitted required fields are missing.
    let error = evolve::json()
        .deserialize::<AudioSettings, _>(&mut ValueReader::new(&written), &registry)
        .unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::MISSING_FIELD);
    assert!(error.message().contains("muted") && error.message().contains("device"));

    // An empty object reads as all defaults (`rate` from its attribute).
    let empty = Value::Map(Vec::new());
    let defaults: AudioSettings = filling
        .deserialize(&mut ValueReader::new(&empty), &registry)
        .unwrap();
    assert_eq!(defaults.rate, 48_000);
    assert_eq!(defaults.volume, 0);
}

#[test]
fn always_write_version_writes_zero_too() {
    let registry = TypeRegistry::new();
    let mut table = sluice_reflect::handlers::builtin::json_serializer();
    evolve::add_write_rules(
        &mut table,
        evolve::WriteOptions {
            always_write_version: true,
            ..evolve::WriteOptions::json()
        },
    );
    let mut out = ValueWriter::new();
    table
        .serialize(&Position { x: 1.0, y: 2.0 }, &mut out, &registry)
        .unwrap();
    let written = out.into_value().unwrap();
    assert_eq!(written.child_names(), ["$version", "x", "y"]);
    assert_eq!(written.get("$version").and_then(Value::as_u64), Some(0));
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Banner {
    title: String,
    sizes: Vec<u32>,
    position: Position,
}

#[test]
fn overlays_fill_values_from_providers() {
    let mut registry = TypeRegistry::new();
    registry.overlay_provider("strings", |token: &str| {
        (token == "welcome").then(|| Value::from("Welcome back"))
    });
    registry.overlay_provider("numbers", |token: &str| {
        token.parse::<u64>().ok().map(Value::from)
    });
    let text = r#"{
        "title": {"$overlay": "strings/welcome"},
        "sizes": [1, {"$overlay": "numbers/7"}, 3],
        "position": {"$overlay": "layout/center"}
    }"#;
    registry.overlay_provider("layout", |_: &str| {
        evolve::to_value(&Position { x: 0.5, y: 0.5 }).ok()
    });
    let banner: Banner = evolve::json()
        .deserialize(&mut JsonReader::from_str(text), &registry)
        .unwrap();
    assert_eq!(
        banner,
        Banner {
            title: "Welcome back".into(),
            sizes: vec![1, 7, 3],
            position: Position { x: 0.5, y: 0.5 },
        }
    );

    let unknown = text.replace("strings/welcome", "strings/farewell");
    let error = evolve::json()
        .deserialize::<Banner, _>(&mut JsonReader::from_str(&unknown), &registry)
        .unwrap_err();
    assert_eq!(error.code(), codes::OVERLAY_NOT_FOUND);
    let no_provider = text.replace("numbers/7", "colors/red");
    let error = evolve::json()
        .deserialize::<Banner, _>(&mut JsonReader::from_str(&no_provider), &registry)
        .unwrap_err();
    assert_eq!(error.code(), codes::OVERLAY_NOT_FOUND);
    let malformed = text.replace("numbers/7", "seven");
    let error = evolve::json()
        .deserialize::<Banner, _>(&mut JsonReader::from_str(&malformed), &registry)
        .unwrap_err();
    assert_eq!(error.code(), codes::INVALID_OVERLAY);
    assert!(error.span().is_some());
}

#[derive(Reflect, Debug, Default)]
struct Bag {
    items: Vec<Box<dyn Item>>,
}

#[test]
fn trait_object_implementors_keep_their_version() {
    // Potion's `amount` became `heal` in its version 1; an old bag has no `$version` there.
    let mut registry = registry();
    registry
        .evolve::<Potion>()
        .name_change(0, 1, "amount", "heal");
    let old = r#"{"items": [{"$type": "Potion", "amount": 5}, {"damage": 2, "$type": "Sword"}]}"#;
    let bag: Bag = evolve::json()
        .deserialize(&mut JsonReader::from_str(old), &registry)
        .unwrap();
    let labels: Vec<String> = bag.items.iter().map(|i| i.label()).collect();
    assert_eq!(labels, ["potion 5", "sword 2"]);

    let mut out = ValueWriter::new();
    evolve::json_serializer()
        .serialize(&bag, &mut out, &registry)
        .unwrap();
    let saved = out.into_value().unwrap();
    let potion = saved.find("items[0]").unwrap();
    assert_eq!(potion.child_names(), ["$type", "$version", "heal"]);
    assert_eq!(potion.get("$version").and_then(Value::as_u64), Some(1));
    // Sword is unversioned: the polymorphic convention's own form.
    assert_eq!(
        saved.find("items[1]").unwrap().child_names(),
        ["$type", "damage"]
    );

    // Saved data reads back without running the rename again.
    let again: Bag = evolve::json()
        .deserialize(&mut ValueReader::new(&saved), &registry)
        .unwrap();
    assert_eq!(again.items[0].label(), "potion 5");
}

#[test]
fn every_version_loads_from_messagepack_too() {
    // The fixtures turned into MessagePack: `$version` is a map entry there as well.
    let registry = registry();
    for name in [
        "character.v1.jsonc",
        "character.v2.jsonc",
        "character.v3.jsonc",
    ] {
        let text = fixture(name);
        let mut bytes = MsgPackWriter::new(Vec::new());
        pipe(
            &mut JsonReader::from_str(&text).with_options(JsonOptions::relaxed()),
            &mut bytes,
        )
        .unwrap();
        let bytes = bytes.into_inner().unwrap();
        let (character, warnings) = evolve::deserialize_with_warnings::<Character, _>(
            &evolve::msgpack(),
            &mut MsgPackReader::from_slice(&bytes),
            &registry,
        )
        .unwrap();
        assert_current(&character);
        assert_eq!(warnings.0.len(), usize::from(name.contains("v1")), "{name}");
    }
}

#[derive(Reflect, Debug)]
struct Loadout {
    main: Box<dyn Item>,
    spare: Option<Box<dyn Item>>,
    count: u32,
}

#[test]
fn a_deprecated_value_in_a_field_leaves_the_default() {
    let registry = registry();
    let text = r#"{"main": {"$type": "Torch", "hours": 1},
                   "spare": {"$type": "Torch"},
                   "count": 2}"#;
    let (loadout, warnings) = evolve::deserialize_with_warnings::<Loadout, _>(
        &evolve::json(),
        &mut JsonReader::from_str(text),
        &registry,
    )
    .unwrap();
    assert_eq!(loadout.main.label(), "sword 0");
    assert!(loadout.spare.is_none());
    assert_eq!(loadout.count, 2);
    let paths: Vec<String> = warnings.iter().map(|w| w.path.to_string()).collect();
    assert_eq!(paths, ["$.main", "$.spare"]);
    assert!(warnings.iter().all(|w| w.type_name == "Torch"));
}

#[test]
fn read_begin_sees_the_previous_contents() {
    let mut registry = registry();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen_in_hook = Arc::clone(&seen);
    registry.on_read_begin::<Controls>(move |controls| {
        seen_in_hook.lock().unwrap().push(controls.sensitivity);
    });
    let mut controls = Controls {
        invert_y: false,
        sensitivity: 4,
    };
    let input = r#"{"$version": 3, "invert_y": true, "sensitivity": 6}"#;
    evolve::json()
        .deserialize_into(
            &mut JsonReader::from_str(input),
            &mut controls,
            &registry,
            &mut (),
        )
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), [4]);
    assert_eq!(controls.sensitivity, 6);
}

#[test]
fn write_errors_name_the_field() {
    let registry = registry();
    let character = Character {
        health: f32::NAN,
        ..Character::default()
    };
    let mut out = JsonWriter::condensed(Vec::new());
    let error = evolve::json_serializer()
        .serialize(&character, &mut out, &registry)
        .unwrap_err();
    assert_eq!(error.path().unwrap().to_string(), "$.health");
    let character = Character {
        position: Position {
            x: 0.0,
            y: f32::INFINITY,
        },
        ..Character::default()
    };
    let error = evolve::json_serializer()
        .serialize(
            &character,
            &mut JsonWriter::condensed(Vec::new()),
            &registry,
        )
        .unwrap_err();
    // At least the field of the versioned struct (how deep the table's own path goes
    // inside a plain value is the table's business).
    assert!(error.path().unwrap().to_string().starts_with("$.position"));
}

#[derive(Reflect, Debug, Default)]
struct Armory {
    racks: std::collections::BTreeMap<String, Box<dyn Item>>,
}

#[test]
fn a_deprecated_value_in_a_map_loses_its_entry() {
    let registry = registry();
    let text =
        r#"{"racks": {"left": {"$type": "Torch"}, "right": {"$type": "Potion", "heal": 4}}}"#;
    let (armory, warnings) = evolve::deserialize_with_warnings::<Armory, _>(
        &evolve::json(),
        &mut JsonReader::from_str(text),
        &registry,
    )
    .unwrap();
    let keys: Vec<&str> = armory.racks.keys().map(String::as_str).collect();
    assert_eq!(keys, ["right"]);
    assert_eq!(armory.racks["right"].label(), "potion 4");
    let paths: Vec<String> = warnings.iter().map(|w| w.path.to_string()).collect();
    assert_eq!(paths, ["$.racks.left"]);
}

#[test]
fn registries_with_history_stay_shareable_across_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let registry = registry();
    shareable(&registry);
    let loaded = std::thread::scope(|scope| {
        let handles: Vec<_> = ["character.v1.jsonc", "character.v2.jsonc"]
            .into_iter()
            .map(|name| {
                let registry = &registry;
                scope.spawn(move || {
                    load(&fixture(name), registry).map(|(c, w)| (c.labels, w.0.len()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().unwrap())
            .collect::<Vec<_>>()
    });
    assert_eq!(
        loaded[0],
        (vec!["sword 7".to_owned(), "potion 20".to_owned()], 1)
    );
    assert_eq!(
        loaded[1],
        (vec!["sword 7".to_owned(), "potion 20".to_owned()], 0)
    );
}

#[test]
fn tables_see_history_registered_between_calls() {
    let table = evolve::json();
    let serializer = evolve::json_serializer();
    let mut registry = TypeRegistry::new();
    registry.register::<Banner>();
    let text = r#"{"title": "t", "sizes": [], "position": {"x": 1, "y": 2}}"#;
    let before: Banner = table
        .deserialize(&mut JsonReader::from_str(text), &registry)
        .unwrap();
    assert_eq!(before.position, Position { x: 1.0, y: 2.0 });
    let mut out = ValueWriter::new();
    serializer.serialize(&before, &mut out, &registry).unwrap();
    assert!(
        out.into_value()
            .unwrap()
            .find("position.$version")
            .is_none()
    );

    // Version 1 of Position swapped the axes of the unversioned data.
    registry.version::<Position>(1, |data, _| {
        let x = data.remove_child("x").unwrap_or_default();
        let y = data.remove_child("y").unwrap_or_default();
        data.add_child("x", y)?;
        data.add_child("y", x)
    });
    let after: Banner = table
        .deserialize(&mut JsonReader::from_str(text), &registry)
        .unwrap();
    assert_eq!(after.position, Position { x: 2.0, y: 1.0 });
    let mut out = ValueWriter::new();
    serializer.serialize(&after, &mut out, &registry).unwrap();
    assert_eq!(
        out.into_value()
            .unwrap()
            .find("position.$version")
            .and_then(Value::as_u64),
        Some(1)
    );
}
