//! Property tests: generated values survive value → JSON → value and value → MessagePack →
//! value unchanged, for every supported type.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use common::{Access, Distance, Shape};
use proptest::prelude::*;
use sluice::Reflect;
use sluice::reflect::{Flags, Uuid};

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Scalars {
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    f32: f32,
    f64: f64,
    ch: char,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Wide {
    i128: i128,
    u128: u128,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Collections {
    text: String,
    boxed: Box<str>,
    list: Vec<Option<u16>>,
    deque: VecDeque<String>,
    array: [i32; 4],
    tuple: (u8, String, bool, f64),
    hash: HashMap<String, i64>,
    btree: BTreeMap<u32, Vec<u8>>,
    signed_keys: BTreeMap<i16, bool>,
    hash_set: HashSet<String>,
    btree_set: BTreeSet<i64>,
    boxed_struct: Option<Box<Scalars>>,
    id: Uuid,
    distance: Distance,
    access: Flags<Access>,
    shapes: Vec<Shape>,
}

fn scalars() -> impl Strategy<Value = Scalars> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
        ),
        (any::<u8>(), any::<u16>(), any::<u32>(), any::<u64>()),
        (
            any::<f32>().prop_filter("finite", |f| f.is_finite()),
            any::<f64>().prop_filter("finite", |f| f.is_finite()),
            any::<char>(),
        ),
    )
        .prop_map(
            |((flag, i8, i16, i32, i64), (u8, u16, u32, u64), (f32, f64, ch))| Scalars {
                flag,
                i8,
                i16,
                i32,
                i64,
                u8,
                u16,
                u32,
                u64,
                f32,
                f64,
                ch,
            },
        )
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Empty),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Shape::Circle),
        (any::<i32>(), any::<i32>()).prop_map(|(a, b)| Shape::Segment(a, b)),
        (any::<u16>(), any::<u16>()).prop_map(|(w, h)| Shape::Rect { w, h }),
    ]
}

fn collections() -> impl Strategy<Value = Collections> {
    let text = "\\PC{0,12}";
    (
        (
            text,
            text,
            prop::collection::vec(any::<Option<u16>>(), 0..8),
            prop::collection::vec_deque(text, 0..4),
            any::<[i32; 4]>(),
            (
                any::<u8>(),
                text,
                any::<bool>(),
                any::<f64>().prop_filter("finite", |f| f.is_finite()),
            ),
        ),
        (
            prop::collection::hash_map(text, any::<i64>(), 0..5),
            prop::collection::btree_map(
                any::<u32>(),
                prop::collection::vec(any::<u8>(), 0..4),
                0..5,
            ),
            prop::collection::btree_map(any::<i16>(), any::<bool>(), 0..5),
            prop::collection::hash_set(text, 0..5),
            prop::collection::btree_set(any::<i64>(), 0..5),
        ),
        (
            prop::option::of(scalars().prop_map(Box::new)),
            any::<u128>().prop_map(Uuid::from_u128),
            prop_oneof![
                Just(Distance::Near),
                Just(Distance::Mid),
                Just(Distance::Far)
            ],
            any::<i64>().prop_map(Flags::from_bits),
            prop::collection::vec(shape(), 0..5),
        ),
    )
        .prop_map(
            |(
                (text, boxed, list, deque, array, tuple),
                (hash, btree, signed_keys, hash_set, btree_set),
                (boxed_struct, id, distance, access, shapes),
            )| Collections {
                text,
                boxed: boxed.into(),
                list,
                deque,
                array,
                tuple,
                hash,
                btree,
                signed_keys,
                hash_set,
                btree_set,
                boxed_struct,
                id,
                distance,
                access,
                shapes,
            },
        )
}

fn through_json<T: sluice::Typed + std::fmt::Debug + PartialEq>(value: &T) -> T {
    let text = sluice::json::to_string(value).expect("to json");
    let back = sluice::json::from_str(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render()));
    let pretty = sluice::json::to_string_pretty(value).expect("to pretty json");
    let again: T = sluice::json::from_str(&pretty).expect("from pretty json");
    assert_eq!(again, back);
    back
}

fn through_msgpack<T: sluice::Typed>(value: &T) -> T {
    let bytes = sluice::msgpack::to_vec(value).expect("to msgpack");
    sluice::msgpack::from_slice(&bytes).unwrap_or_else(|e| panic!("{}", e.render()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn scalars_round_trip(value in scalars()) {
        prop_assert_eq!(&through_json(&value), &value);
        prop_assert_eq!(&through_msgpack(&value), &value);
    }

    #[test]
    fn wide_integers_round_trip_through_json(i128 in any::<i128>(), u128 in any::<u128>()) {
        let value = Wide { i128, u128 };
        prop_assert_eq!(&through_json(&value), &value);
    }

    #[test]
    fn wide_integers_in_64_bit_range_round_trip_through_msgpack(i in any::<i64>(), u in any::<u64>()) {
        let value = Wide { i128: i.into(), u128: u.into() };
        prop_assert_eq!(&through_msgpack(&value), &value);
    }

    #[test]
    fn collections_round_trip(value in collections()) {
        prop_assert_eq!(&through_json(&value), &value);
        prop_assert_eq!(&through_msgpack(&value), &value);
    }

    #[test]
    fn tuples_up_to_twelve_round_trip(
        a in any::<(u8, i16, u32, i64, bool, char)>(),
        b in any::<(u64, i8, u16, i32, bool, char)>(),
    ) {
        let value = (a.0, a.1, a.2, a.3, a.4, a.5, b.0, b.1, b.2, b.3, b.4, b.5);
        prop_assert_eq!(through_json(&value), value);
        prop_assert_eq!(through_msgpack(&value), value);
    }
}

#[test]
fn depth_100_round_trips_through_both_formats() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Node {
        label: u32,
        next: Option<Box<Node>>,
    }
    // 100 nested objects: within the JSON reader's default depth limit (128).
    let mut node = Node {
        label: 0,
        next: None,
    };
    for label in 1..100 {
        node = Node {
            label,
            next: Some(Box::new(node)),
        };
    }
    assert_eq!(through_json(&node), node);
    assert_eq!(through_msgpack(&node), node);
}

#[test]
fn a_million_elements_round_trip_through_both_formats() {
    let list: Vec<u32> = (0..1_000_000).map(|i| i * 7).collect();
    assert_eq!(through_msgpack(&list), list);
    let text = sluice::json::to_string(&list).expect("json");
    let back: Vec<u32> = sluice::json::from_str(&text).expect("back");
    assert_eq!(back, list);
    let map: BTreeMap<u32, u8> = (0..1_000_000u32).map(|i| (i, (i % 251) as u8)).collect();
    assert_eq!(through_msgpack(&map), map);
}
