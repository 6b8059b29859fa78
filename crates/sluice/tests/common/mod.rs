//! Types shared by the facade's integration tests.
#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use sluice::Reflect;
use sluice::reflect::Flags;

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum Distance {
    Near,
    Mid = 5,
    Far,
}

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(flags)]
pub enum Access {
    Read = 1,
    Write = 2,
    Exec = 4,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
pub enum Shape {
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Meters(pub f64);

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Pair(pub u8, pub String);

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Unit;

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Inner {
    pub name: String,
    #[reflect(rename = "hp", alias = "health", alias = "HP")]
    pub hit_points: u32,
    #[reflect(default)]
    pub tags: Vec<String>,
    #[reflect(default = "default_speed")]
    pub speed: f32,
    #[reflect(skip)]
    pub cache: u64,
}

pub fn default_speed() -> f32 {
    1.5
}

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Everything {
    pub flag: bool,
    pub i8: i8,
    pub i16: i16,
    pub i32: i32,
    pub i64: i64,
    pub i128: i128,
    pub u8: u8,
    pub u16: u16,
    pub u32: u32,
    pub u64: u64,
    pub u128: u128,
    pub f32: f32,
    pub f64: f64,
    pub ch: char,
    pub text: String,
    pub boxed_text: Box<str>,
    pub list: Vec<Inner>,
    pub deque: VecDeque<i16>,
    pub array: [u8; 3],
    pub tuple: (u8, String, bool),
    pub option_none: Option<u32>,
    pub option_some: Option<Box<Inner>>,
    pub hash: HashMap<String, i32>,
    pub btree: BTreeMap<u32, String>,
    pub tuple_keys: BTreeMap<(u8, u8), bool>,
    pub hash_set: HashSet<String>,
    pub btree_set: BTreeSet<i64>,
    pub id: sluice::reflect::Uuid,
    pub distance: Distance,
    pub access: Flags<Access>,
    pub shapes: Vec<Shape>,
    pub meters: Meters,
    pub pair: Pair,
    pub unit: Unit,
}

pub fn inner(name: &str) -> Inner {
    Inner {
        name: name.into(),
        hit_points: 7,
        tags: vec!["a".into()],
        speed: 2.0,
        cache: 0,
    }
}

pub fn everything() -> Everything {
    let mut access = Flags::empty();
    access.insert(Access::Read);
    access.insert(Access::Exec);
    Everything {
        flag: true,
        i8: -8,
        i16: -16,
        i32: -32,
        i64: i64::MIN,
        i128: i128::MIN,
        u8: 8,
        u16: 16,
        u32: 32,
        u64: u64::MAX,
        u128: u128::MAX,
        f32: 1.25,
        f64: -0.1,
        ch: 'é',
        text: "hello \"world\"".into(),
        boxed_text: "boxed".into(),
        list: vec![inner("a"), inner("b")],
        deque: VecDeque::from(vec![1, -2]),
        array: [1, 2, 3],
        tuple: (9, "nine".into(), false),
        option_none: None,
        option_some: Some(Box::new(inner("boxed"))),
        hash: HashMap::from([("x".into(), 1), ("y".into(), -1)]),
        btree: BTreeMap::from([(1, "one".into()), (2, "two".into())]),
        tuple_keys: BTreeMap::from([((1, 2), true)]),
        hash_set: HashSet::from(["s".into()]),
        btree_set: BTreeSet::from([3, -3]),
        id: sluice::reflect::Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0),
        distance: Distance::Mid,
        access,
        shapes: vec![
            Shape::Empty,
            Shape::Circle(2.5),
            Shape::Segment(-1, 1),
            Shape::Rect { w: 3, h: 4 },
        ],
        meters: Meters(3.5),
        pair: Pair(1, "p".into()),
        unit: Unit,
    }
}
