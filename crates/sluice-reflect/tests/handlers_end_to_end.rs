//! A mixed game configuration through the built-in sets: relaxed JSON with comments → Rust →
//! MessagePack → Rust → pretty JSON → Rust, equal at each step.

use std::collections::{BTreeMap, BTreeSet};

use sluice_json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};
use sluice_reflect::handlers::{Mark, builtin};
use sluice_reflect::{Flags, Reflect, TypeRegistry, Uuid};

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(flags)]
enum Layer {
    Ground = 1,
    Water = 2,
    Air = 4,
    Space = 8,
    Naval = 3,
}

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
struct Color {
    r: f32,
    g: f32,
    b: f32,
    a: f32,
}

#[derive(Reflect, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Cell {
    x: i32,
    y: i32,
}

trait Component: Reflect {
    fn describe(&self) -> String;
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Health {
    hp: u32,
}

impl Component for Health {
    fn describe(&self) -> String {
        format!("{self:?}")
    }
}

#[derive(Reflect, Debug, Default, PartialEq)]
struct Mesh {
    path: String,
    scale: f32,
}

impl Component for Mesh {
    fn describe(&self) -> String {
        format!("{self:?}")
    }
}

sluice_reflect::reflect_trait_object!(Component, default = Health);

impl PartialEq for Box<dyn Component> {
    fn eq(&self, other: &Self) -> bool {
        self.describe() == other.describe()
    }
}

impl std::fmt::Debug for Box<dyn Component> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

#[derive(Reflect, Debug, PartialEq)]
struct Entity {
    name: String,
    position: Vec3,
    tint: Color,
    mask: Flags<Layer>,
    components: Vec<Box<dyn Component>>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Game {
    title: String,
    version: u32,
    fullscreen: bool,
    id: Uuid,
    clear_color: Color,
    layers: Flags<Layer>,
    spawn: Vec3,
    icon: Vec<u8>,
    tags: BTreeSet<String>,
    zones: BTreeMap<Cell, String>,
    weights: BTreeMap<u32, f32>,
    entities: Vec<Entity>,
}

fn registry() -> TypeRegistry {
    let mut registry = TypeRegistry::new();
    registry.register::<Game>();
    registry.mark::<Vec3>(Mark::Vector);
    registry.mark::<Color>(Mark::Color);
    registry.mark::<Vec<u8>>(Mark::Blob);
    registry.register_polymorphic::<Box<dyn Component>, Health>(|h| Box::new(h));
    registry.register_polymorphic::<Box<dyn Component>, Mesh>(|m| Box::new(m));
    registry
}

#[allow(clippy::cast_possible_truncation)]
fn byte(value: u8) -> f32 {
    (f64::from(value) / 255.0) as f32
}

fn expected() -> Game {
    Game {
        title: "Harbour Run".into(),
        version: 3,
        fullscreen: true,
        id: Uuid::from_u128(0x0f8f_ad5b_d9cb_469f_a165_7086_7728_950e),
        clear_color: Color {
            r: byte(0x1a),
            g: byte(0x2b),
            b: byte(0x3c),
            a: 1.0,
        },
        layers: Flags::from_bits(1 | 2 | 8 | 64),
        spawn: Vec3 {
            x: 10.0,
            y: 2.5,
            z: 0.0,
        },
        icon: vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a],
        tags: ["arcade", "coop", "sea"].map(String::from).into(),
        zones: [
            (Cell { x: 0, y: 0 }, "harbour".into()),
            (Cell { x: 3, y: -2 }, "reef".into()),
        ]
        .into(),
        weights: [(1, 0.5), (20, 2.0)].into(),
        entities: vec![
            Entity {
                name: "boat".into(),
                position: Vec3 {
                    x: 1.0,
                    y: 2.0,
                    z: 3.0,
                },
                tint: Color {
                    r: 1.0,
                    g: byte(0x80),
                    b: 0.0,
                    a: 1.0,
                },
                mask: Flags::from_bits(2),
                components: vec![
                    Box::new(Health { hp: 100 }),
                    Box::new(Mesh {
                        path: "boat.mesh".into(),
                        scale: 1.5,
                    }),
                ],
            },
            Entity {
                name: "gull".into(),
                position: Vec3 {
                    x: 0.0,
                    y: 0.0,
                    z: 30.0,
                },
                tint: Color {
                    r: 1.0,
                    g: 1.0,
                    b: 1.0,
                    a: 1.0,
                },
                mask: Flags::from_bits(4),
                components: Vec::new(),
            },
        ],
    }
}

#[test]
fn a_game_configuration_survives_json_msgpack_and_pretty_json() {
    let registry = registry();
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/handlers/game.jsonc"
    ));

    // Relaxed JSON with comments → Rust, with coercions.
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::relaxed());
    let game: Game = builtin::json_relaxed()
        .deserialize(&mut reader, &registry)
        .unwrap_or_else(|e| panic!("{}", e.with_source_text("game.jsonc", text).render()));
    assert_eq!(game, expected());

    // Rust → MessagePack → Rust.
    let mut writer = MsgPackWriter::new(Vec::new());
    builtin::msgpack_serializer()
        .serialize(&game, &mut writer, &registry)
        .expect("to msgpack");
    let bytes = writer.into_inner().expect("bytes");
    let mut reader = MsgPackReader::from_slice(&bytes);
    let from_msgpack: Game = builtin::msgpack()
        .deserialize(&mut reader, &registry)
        .expect("from msgpack");
    assert_eq!(from_msgpack, game);

    // Rust → pretty JSON (strict) → Rust.
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::pretty());
    builtin::json_serializer()
        .serialize(&from_msgpack, &mut writer, &registry)
        .expect("to pretty json");
    let pretty = writer.into_string().expect("utf-8");
    let mut reader = JsonReader::from_slice(pretty.as_bytes());
    let from_pretty: Game = builtin::json()
        .deserialize(&mut reader, &registry)
        .unwrap_or_else(|e| panic!("{}", e.with_source_text("pretty", &pretty).render()));
    assert_eq!(from_pretty, game);
    // Writing again gives the same text: the output is deterministic.
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::pretty());
    builtin::json_serializer()
        .serialize(&from_pretty, &mut writer, &registry)
        .expect("again");
    assert_eq!(writer.into_string().expect("utf-8"), pretty);

    // The pretty form uses the conventions: one-line vectors, colors and flags, entries for
    // struct keys, sorted sets, base64 bytes, `$type` first.
    for expected in [
        r#""spawn": [10.0, 2.5, 0.0]"#,
        r#""layers": ["Naval", "Space", 64]"#,
        r#""tint": [1.0, 1.0, 1.0, 1.0]"#,
        r#""tags": ["#,
        r#""$key": {"#,
        r#""icon": "iVBORw0KGgo=""#,
        r#""$type": "Mesh""#,
        r#""id": "0f8fad5b-d9cb-469f-a165-70867728950e""#,
    ] {
        assert!(pretty.contains(expected), "{expected} in\n{pretty}");
    }
}

/// Every prefix of the configuration, and the configuration with each structural character
/// replaced in turn, reads to a value or to an error: handlers never panic on bad input, and
/// their errors carry a span inside the text.
#[test]
fn damaged_configurations_are_errors_not_panics() {
    let registry = registry();
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/handlers/game.jsonc"
    ));
    let table = builtin::json_relaxed();
    let read = |input: &[u8]| {
        let mut reader = JsonReader::new(SliceInput::new(input), JsonOptions::relaxed());
        table.deserialize::<Game, _>(&mut reader, &registry)
    };
    let mut errors = 0;
    for end in 0..text.len() {
        if !text.is_char_boundary(end) {
            continue;
        }
        if let Err(error) = read(&text.as_bytes()[..end]) {
            errors += 1;
            if let Some(span) = error.span() {
                assert!(span.end <= end, "{error:?} beyond the input");
            }
        }
    }
    assert!(errors > 0);
    // The same for every prefix of the MessagePack form.
    let game = read(text.as_bytes()).expect("the whole text");
    let mut writer = MsgPackWriter::new(Vec::new());
    builtin::msgpack_serializer()
        .serialize(&game, &mut writer, &registry)
        .expect("to msgpack");
    let bytes = writer.into_inner().expect("bytes");
    for end in 0..bytes.len() {
        let mut reader = MsgPackReader::from_slice(&bytes[..end]);
        let result = builtin::msgpack().deserialize::<Game, _>(&mut reader, &registry);
        assert!(
            result.is_err(),
            "a prefix of {end} bytes is not a whole value"
        );
    }
    for (at, byte) in text.bytes().enumerate() {
        if !b"{}[],:\"".contains(&byte) {
            continue;
        }
        for replacement in [b'0', b'"', b'{', b']'] {
            let mut damaged = text.as_bytes().to_vec();
            damaged[at] = replacement;
            if let Err(error) = read(&damaged)
                && let Some(span) = error.span()
            {
                assert!(span.end <= damaged.len(), "{error:?}");
            }
        }
    }
}
