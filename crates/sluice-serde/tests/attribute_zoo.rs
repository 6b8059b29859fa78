//! The serde derive attribute zoo, with serde_json as the oracle: every type is read from
//! strict JSON by both, compared, written by both and compared as text, then round-tripped
//! through MessagePack and a sluice `Value`.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{reads_like_serde_json, round_trips, same_as_serde_json, writes_like_serde_json};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    user_id: u32,
    #[serde(rename = "display-name")]
    display_name: String,
    #[serde(alias = "mail", alias = "e_mail")]
    email: String,
}

#[test]
fn rename_rename_all_and_alias() {
    same_as_serde_json::<Renamed>(r#"{"userId": 7, "display-name": "Ada", "email": "a@b.c"}"#);
    let via_alias =
        same_as_serde_json::<Renamed>(r#"{"userId": 7, "display-name": "Ada", "mail": "x"}"#);
    assert_eq!(via_alias.email, "x");
    same_as_serde_json::<Renamed>(r#"{"e_mail": "y", "display-name": "", "userId": 0}"#);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Level {
    LowPower,
    HighPower,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Kebab {
    max_level: Level,
    levels_seen: Vec<Level>,
}

#[test]
fn rename_all_on_enums_and_kebab_fields() {
    same_as_serde_json::<Kebab>(
        r#"{"max-level": "HIGH_POWER", "levels-seen": ["LOW_POWER", "HIGH_POWER"]}"#,
    );
}

fn default_port() -> u16 {
    8080
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Default)]
#[serde(default)]
struct AllDefault {
    name: String,
    retries: u8,
    tags: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct SomeDefaults {
    host: String,
    #[serde(default = "default_port")]
    port: u16,
    #[serde(default)]
    verbose: bool,
    #[serde(default)]
    nested: AllDefault,
}

#[test]
fn defaults_fill_missing_fields() {
    let value = same_as_serde_json::<SomeDefaults>(r#"{"host": "h"}"#);
    assert_eq!(value.port, 8080);
    same_as_serde_json::<SomeDefaults>(r#"{"host": "h", "port": 1, "nested": {"retries": 3}}"#);
    assert_eq!(
        same_as_serde_json::<AllDefault>("{}"),
        AllDefault::default()
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Pagination {
    limit: u32,
    offset: u32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Flattened {
    id: String,
    #[serde(flatten)]
    page: Pagination,
    #[serde(flatten)]
    extra: BTreeMap<String, serde_json::Value>,
}

#[test]
fn flatten_struct_and_catch_all_map() {
    let value = same_as_serde_json::<Flattened>(
        r#"{"id": "x", "limit": 10, "other": [1, -2, 3.5, null, true], "offset": 20, "deep": {"k": "v"}}"#,
    );
    assert_eq!(
        value.page,
        Pagination {
            limit: 10,
            offset: 20
        }
    );
    assert_eq!(value.extra.len(), 2);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Integer(i64),
    Float(f64),
    Text(String),
    Pair(u8, u8),
    Point { x: i32, y: i32 },
    List(Vec<Untagged>),
    Nothing,
}

#[test]
fn untagged_enums_choose_by_shape() {
    let values = same_as_serde_json::<Vec<Untagged>>(
        r#"[-5, 2.5, "s", [1, 2], {"x": 1, "y": -1}, [3, "t", [null]], null, 18446744073709551615]"#,
    );
    assert_eq!(values[0], Untagged::Integer(-5));
    assert_eq!(values[1], Untagged::Float(2.5));
    assert_eq!(values[3], Untagged::Pair(1, 2));
    assert_eq!(values[6], Untagged::Nothing);
    // u64::MAX does not fit an i64: the next variant that accepts it is the float.
    assert_eq!(values[7], Untagged::Float(18_446_744_073_709_551_615.0));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Internally {
    Circle { radius: f64 },
    Rect { w: u32, h: u32 },
    Wrapped(Pagination),
    Empty,
}

#[test]
fn internally_tagged_enums() {
    let shapes = same_as_serde_json::<Vec<Internally>>(
        r#"[{"type": "Circle", "radius": 0.5},
            {"w": 2, "type": "Rect", "h": 3},
            {"type": "Wrapped", "limit": 1, "offset": 2},
            {"type": "Empty"}]"#,
    );
    assert_eq!(shapes[1], Internally::Rect { w: 2, h: 3 });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacently {
    Unit,
    Newtype(String),
    Tuple(u8, bool),
    Struct { a: Option<u8> },
}

#[test]
fn adjacently_tagged_enums() {
    same_as_serde_json::<Vec<Adjacently>>(
        r#"[{"t": "Unit"}, {"t": "Newtype", "c": "x"}, {"c": [1, true], "t": "Tuple"},
            {"t": "Struct", "c": {"a": null}}, {"t": "Struct", "c": {"a": 9}}]"#,
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum External {
    Unit,
    Newtype(u64),
    Tuple(i8, String),
    Struct {
        flag: bool,
        items: Vec<u8>,
    },
    #[serde(rename = "other name")]
    Renamed,
}

#[test]
fn externally_tagged_enums_of_every_shape() {
    let values = same_as_serde_json::<Vec<External>>(
        r#"["Unit", {"Newtype": 18446744073709551615}, {"Tuple": [-1, "x"]},
            {"Struct": {"flag": true, "items": [1, 2]}}, "other name", {"Unit": null}]"#,
    );
    assert_eq!(values[1], External::Newtype(u64::MAX));
    assert_eq!(values[5], External::Unit);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Optional {
    #[serde(skip_serializing_if = "Option::is_none")]
    nickname: Option<String>,
    maybe: Option<u32>,
    nested: Option<Option<bool>>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    list: Vec<u8>,
}

#[test]
fn options_and_skip_serializing_if() {
    let value = same_as_serde_json::<Optional>(r#"{"maybe": null, "nested": true}"#);
    assert_eq!(value.nickname, None);
    assert_eq!(value.nested, Some(Some(true)));
    same_as_serde_json::<Optional>(r#"{"nickname": "n", "maybe": 4, "nested": null, "list": [1]}"#);
    writes_like_serde_json(&Optional {
        nickname: None,
        maybe: None,
        nested: Some(None),
        list: vec![],
    });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Skipping {
    kept: u8,
    #[serde(skip)]
    never: u8,
    #[serde(skip_serializing)]
    read_only: u8,
    #[serde(skip_deserializing)]
    write_only: u8,
}

#[test]
fn skipped_fields() {
    // No round trip: what is written cannot be read back (read_only is not written).
    let value = reads_like_serde_json::<Skipping>(
        r#"{"kept": 1, "never": 2, "read_only": 3, "write_only": 4}"#,
    );
    assert_eq!(
        (value.kept, value.never, value.read_only, value.write_only),
        (1, 0, 3, 0)
    );
    writes_like_serde_json(&Skipping {
        kept: 1,
        never: 2,
        read_only: 3,
        write_only: 4,
    });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u8,
}

#[test]
fn deny_unknown_fields_accepts_known_ones() {
    same_as_serde_json::<Strict>(r#"{"a": 1}"#);
    assert!(serde_json::from_str::<Strict>(r#"{"a": 1, "b": 2}"#).is_err());
    assert!(sluice_serde::from_json_str::<Strict>(r#"{"a": 1, "b": 2}"#).is_err());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Meters(f64);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Rgb(u8, u8, u8);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Marker;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Shapes {
    length: Meters,
    color: Rgb,
    marker: Marker,
    unit: (),
    pair: (String, i16),
}

#[test]
fn newtype_tuple_and_unit_structs() {
    same_as_serde_json::<Shapes>(
        r#"{"length": 2.5, "color": [255, 0, 128], "marker": null, "unit": null, "pair": ["a", -3]}"#,
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Clone, Copy)]
enum Key {
    North,
    South,
}

#[test]
fn maps_with_numeric_bool_char_and_enum_keys() {
    same_as_serde_json::<HashMap<u32, String>>(r#"{"1": "one", "4294967295": "max"}"#);
    same_as_serde_json::<BTreeMap<i64, bool>>(r#"{"-9223372036854775808": true, "0": false}"#);
    same_as_serde_json::<BTreeMap<u128, u8>>(r#"{"340282366920938463463374607431768211455": 1}"#);
    same_as_serde_json::<BTreeMap<bool, u8>>(r#"{"true": 1, "false": 0}"#);
    same_as_serde_json::<BTreeMap<char, u8>>(r#"{"a": 1, "é": 2}"#);
    same_as_serde_json::<BTreeMap<Key, u8>>(r#"{"North": 1, "South": 2}"#);
    same_as_serde_json::<BTreeMap<String, BTreeMap<u8, Vec<u16>>>>(
        r#"{"outer": {"1": [1, 2], "2": []}}"#,
    );
}

#[test]
fn numeric_keys_are_written_as_names_like_serde_json() {
    let map: BTreeMap<i32, &str> = [(-1, "a"), (10, "b")].into_iter().collect();
    writes_like_serde_json(&map);
    let map: BTreeMap<u64, ()> = [(u64::MAX, ())].into_iter().collect();
    writes_like_serde_json(&map);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Bytes {
    plain: Vec<u8>,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    buf: serde_bytes::ByteBuf,
}

#[test]
fn bytes_as_arrays_in_json_and_blobs_in_msgpack() {
    let value = same_as_serde_json::<Bytes>(r#"{"plain": [1, 2], "blob": [3, 255], "buf": []}"#);
    assert_eq!(value.blob, [3, 255]);
    // In MessagePack, serde_bytes fields are bin (Blob) tokens, plain Vec<u8> an array.
    let bytes = sluice_serde::to_msgpack_vec(&value).unwrap();
    let mut writer = sluice_core::ValueWriter::new();
    sluice_core::pipe(
        &mut sluice_msgpack::MsgPackReader::from_slice(&bytes),
        &mut writer,
    )
    .unwrap();
    let tree = writer.into_value().unwrap();
    assert_eq!(
        tree.get("blob"),
        Some(&sluice_core::Value::Bytes(vec![3, 255]))
    );
    assert!(matches!(
        tree.get("plain"),
        Some(sluice_core::Value::Array(_))
    ));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Everything {
    renamed: Renamed,
    shapes: Vec<Internally>,
    adjacent: Adjacently,
    external: External,
    untagged: Untagged,
    options: Optional,
    map: BTreeMap<u16, Vec<Key>>,
}

#[test]
fn a_document_mixing_everything() {
    let value = Everything {
        renamed: Renamed {
            user_id: 1,
            display_name: "Ada \"the first\"\n".into(),
            email: "ada@example.org".into(),
        },
        shapes: vec![Internally::Circle { radius: 1e-7 }, Internally::Empty],
        adjacent: Adjacently::Tuple(7, false),
        external: External::Struct {
            flag: false,
            items: vec![0, 255],
        },
        untagged: Untagged::List(vec![Untagged::Text("t".into()), Untagged::Nothing]),
        options: Optional {
            nickname: Some("n".into()),
            maybe: None,
            nested: None,
            list: vec![9],
        },
        map: [(1, vec![Key::North]), (65535, vec![])]
            .into_iter()
            .collect(),
    };
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(same_as_serde_json::<Everything>(&text), value);
    round_trips(&value);
}
