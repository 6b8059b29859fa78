//! `PropertyReader` / `PropertyWriter` against `Value` and token streams.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use sluice_core::{Token, Value, ValueReader, ValueWriter, pipe, testing::TokenReader};
use sluice_reflect::{Flags, PropertyReader, PropertyWriter, Reflect, Typed};

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
enum Distance {
    Near,
    Mid = 5,
    Far,
}

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(flags)]
enum Access {
    Read = 1,
    Write = 2,
    Exec = 4,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
enum Shape {
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Meters(f64);

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Pair(u8, String);

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Unit;

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Inner {
    name: String,
    #[reflect(rename = "hp", alias = "health", alias = "HP")]
    hit_points: u32,
    #[reflect(default)]
    tags: Vec<String>,
    #[reflect(default = "default_speed")]
    speed: f32,
    #[reflect(skip)]
    cache: u64,
}

fn default_speed() -> f32 {
    1.5
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Everything {
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    i128: i128,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    u128: u128,
    f32: f32,
    f64: f64,
    ch: char,
    text: String,
    boxed_text: Box<str>,
    list: Vec<Inner>,
    deque: VecDeque<i16>,
    array: [u8; 3],
    tuple: (u8, String, bool),
    option_none: Option<u32>,
    option_some: Option<Box<Inner>>,
    hash: HashMap<String, i32>,
    btree: BTreeMap<u32, String>,
    tuple_keys: BTreeMap<(u8, u8), bool>,
    hash_set: HashSet<String>,
    btree_set: BTreeSet<i64>,
    id: uuid::Uuid,
    distance: Distance,
    access: Flags<Access>,
    shapes: Vec<Shape>,
    meters: Meters,
    pair: Pair,
    unit: Unit,
}

fn inner(name: &str) -> Inner {
    Inner {
        name: name.into(),
        hit_points: 7,
        tags: vec!["a".into()],
        speed: 2.0,
        cache: 0,
    }
}

fn everything() -> Everything {
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
        id: uuid::Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0),
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

fn copy<T: Typed>(value: &T) -> T {
    let mut out = T::reflect_default();
    pipe(
        &mut PropertyReader::new(value),
        &mut PropertyWriter::new(&mut out),
    )
    .expect("copy");
    out
}

#[test]
fn property_reader_into_property_writer_copies_exactly() {
    let value = everything();
    assert_eq!(copy(&value), value);
}

#[test]
fn a_value_tree_round_trip_gives_the_same_value() {
    let value = everything();
    let mut writer = ValueWriter::new();
    pipe(&mut PropertyReader::new(&value), &mut writer).expect("to value");
    let tree = writer.into_value().expect("tree");
    let mut back = Everything::reflect_default();
    pipe(
        &mut ValueReader::new(&tree),
        &mut PropertyWriter::new(&mut back),
    )
    .expect("from value");
    assert_eq!(back, value);
}

#[test]
fn tokens_have_the_documented_shapes() {
    let value = (Some(3u8), None::<u8>, Distance::Near, Shape::Circle(1.0));
    let tokens = Token::read_all(&mut PropertyReader::new(&value)).expect("tokens");
    let shown: Vec<String> = tokens.iter().map(|t| format!("{t:?}")).collect();
    let expected = [
        "ArrayRoot(Some(4))",
        "OptionRoot",
        "Number(U64(3))",
        "OptionEnd",
        "OptionRoot",
        "Null",
        "OptionEnd",
        "Enum(OwnedEnum { type_name: \"Distance\", variant: \"Near\", value: 0, flags: false })",
        "MapRoot(Some(1))",
        "Name(\"Circle\")",
        "Number(F64(1.0))",
        "MapEnd",
        "ArrayEnd",
    ];
    assert_eq!(shown, expected);
}

#[test]
fn struct_tokens_carry_the_type_name_and_names() {
    let tokens = Token::read_all(&mut PropertyReader::new(&inner("x"))).expect("tokens");
    assert_eq!(tokens[0], Token::StructRoot("Inner".into(), Some(4)));
    assert_eq!(tokens[1], Token::Name("name".into()));
    assert_eq!(tokens[3], Token::Name("hp".into()));
    assert_eq!(tokens.last(), Some(&Token::StructEnd));
}

#[test]
fn writer_accepts_lenient_forms() {
    // Map for a struct, String for Name, text numbers, alias, enum by name, missing defaults.
    let tokens = vec![
        Token::MapRoot(None),
        Token::String("name".into()),
        Token::String("orc".into()),
        Token::Name("health".into()),
        Token::Number(sluice_core::OwnedNumber::Text(
            "12".into(),
            sluice_core::NumberHint::Integer,
        )),
        Token::MapEnd,
    ];
    let mut out = Inner::reflect_default();
    pipe(
        &mut TokenReader::from_tokens(tokens),
        &mut PropertyWriter::new(&mut out),
    )
    .expect("write");
    assert_eq!(out.name, "orc");
    assert_eq!(out.hit_points, 12);
    assert_eq!(out.speed, 1.5, "default fn applied");
    assert!(out.tags.is_empty());
}

#[test]
fn option_accepts_null_and_plain_values_and_enum_names() {
    let input = Value::Array(vec![Value::Null, Value::from(4u64), Value::from("Far")]);
    let mut out: (Option<u8>, Option<u8>, Distance) = (Some(1), None, Distance::Near);
    pipe(
        &mut ValueReader::new(&input),
        &mut PropertyWriter::new(&mut out),
    )
    .expect("write");
    assert_eq!(out, (None, Some(4), Distance::Far));
}

#[test]
fn flags_read_from_names_and_bits() {
    let input = Value::Array(vec![Value::from("Read | Write"), Value::from(4u64)]);
    let mut out: (Flags<Access>, Flags<Access>) = Default::default();
    pipe(
        &mut ValueReader::new(&input),
        &mut PropertyWriter::new(&mut out),
    )
    .expect("write");
    assert_eq!(out.0.bits(), 3);
    assert!(out.1.contains(Access::Exec));
}

#[test]
fn containers_are_replaced_not_appended() {
    let input = Value::Array(vec![Value::from(1u64)]);
    let mut out = vec![5u8, 6, 7];
    pipe(
        &mut ValueReader::new(&input),
        &mut PropertyWriter::new(&mut out),
    )
    .expect("write");
    assert_eq!(out, [1]);
}

#[test]
#[allow(clippy::type_complexity)]
fn deep_nesting_of_depth_100_round_trips() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Node {
        value: u32,
        next: Option<Box<Node>>,
    }
    let mut node = Node {
        value: 0,
        next: None,
    };
    for value in 1..100 {
        node = Node {
            value,
            next: Some(Box::new(node)),
        };
    }
    let back = copy(&node);
    assert_eq!(back, node);
    let nested: Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<u8>>>>>>>>>> =
        vec![vec![vec![vec![vec![vec![vec![vec![vec![vec![1]]]]]]]]]];
    assert_eq!(copy(&nested), nested);
}

#[test]
fn registry_finds_reached_types_by_name_and_uuid() {
    let mut registry = sluice_reflect::TypeRegistry::new();
    registry.register::<Everything>();
    for name in [
        "Everything",
        "Inner",
        "Distance",
        "Shape",
        "Vec<Inner>",
        "Flags<Access>",
        "Access",
        "u128",
    ] {
        let info = registry
            .get_by_name(name)
            .unwrap_or_else(|| panic!("{name} registered"));
        assert_eq!(
            registry
                .get_by_uuid(info.uuid())
                .map(sluice_reflect::TypeInfo::name),
            Some(info.name())
        );
    }
    assert!(registry.get_by_name("Unregistered").is_none());
    assert!(registry.contains::<Meters>());
}

#[test]
fn uuid_and_version_attributes_are_kept() {
    #[derive(Reflect)]
    #[reflect(uuid = "6a1f0c5e-2b9d-4d8e-9c1a-3e5f7a9b0d2c", version = 3)]
    struct Tagged {
        x: u8,
    }
    let info = <Tagged as Typed>::info();
    assert_eq!(
        info.uuid().to_string(),
        "6a1f0c5e-2b9d-4d8e-9c1a-3e5f7a9b0d2c"
    );
    assert_eq!(info.version(), 3);
    let derived = <Inner as Typed>::info().uuid();
    assert_eq!(
        derived,
        sluice_reflect::uuid_from_type_path(<Inner as Typed>::info().type_path())
    );
    assert_eq!(derived.get_version_num(), 5);
}

#[test]
fn generic_structs_get_their_own_info() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Wrapper<T> {
        item: T,
    }
    assert_eq!(<Wrapper<u8> as Typed>::info().name(), "Wrapper<u8>");
    assert_eq!(<Wrapper<String> as Typed>::info().name(), "Wrapper<String>");
    let value = Wrapper { item: vec![1u16] };
    assert_eq!(copy(&value), value);
}

#[test]
fn large_collections_copy() {
    let big: Vec<u32> = (0..1_000_000).collect();
    assert_eq!(copy(&big), big);
    let map: HashMap<u32, u32> = (0..100_000).map(|i| (i, i * 2)).collect();
    assert_eq!(copy(&map), map);
}

// ---- a plain serializer writes what a pipe from a property reader writes ----

/// The token dump of `value` through a bare pipe from a property reader, and through the
/// plain serializer table (which writes the value straight, without a reader).
fn dumps(value: &dyn Reflect) -> (String, String) {
    let mut piped = sluice_core::DumpWriter::new(Vec::new());
    pipe(&mut PropertyReader::new(value), &mut piped).expect("pipe");
    let mut written = sluice_core::DumpWriter::new(Vec::new());
    sluice_reflect::handlers::builtin::pipe_serializer()
        .serialize(value, &mut written, &sluice_reflect::TypeRegistry::new())
        .expect("serialize");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("dump is text");
    (text(piped.into_inner()), text(written.into_inner()))
}

#[test]
fn the_plain_serializer_writes_the_property_reader_tokens() {
    let (piped, written) = dumps(&everything());
    assert!(piped.lines().count() > 100, "{piped}");
    assert_eq!(written, piped);
    for value in [
        &() as &dyn Reflect,
        &Unit,
        &Meters(1.0),
        &Shape::Rect { w: 1, h: 2 },
        &Some(Some(3u8)),
        &Option::<u8>::None,
        &'x',
        // `()` inside lists and tuples (null), next to non-empty tuples.
        &vec![(), ()],
        &((), (1u8, 2.5f64), ()),
    ] {
        let (piped, written) = dumps(value);
        assert_eq!(written, piped);
    }
}

/// A list nested `depth` times around a string.
#[derive(Reflect, Debug, Clone, PartialEq)]
struct Nest {
    inner: Vec<Nest>,
    label: String,
}

fn nest(depth: usize) -> Nest {
    let mut value = Nest {
        inner: Vec::new(),
        label: "bottom".into(),
    };
    for level in 0..depth {
        value = Nest {
            inner: vec![value],
            label: level.to_string(),
        };
    }
    value
}

#[test]
fn the_plain_serializer_writes_deep_values_like_the_property_reader() {
    // 300 structs in 300 lists: deeper than the serializer recurses, so the bottom goes
    // through a property reader.
    let value = nest(300);
    let (piped, written) = dumps(&value);
    assert!(piped.lines().count() > 1200);
    assert_eq!(written, piped);
}

/// A writer that fails on the `fail_at`-th token, with a span hint for a whole container on
/// container ends, to compare the spans the serializer and a pipe give.
struct FailAt {
    tokens: usize,
    fail_at: usize,
}

impl FailAt {
    fn step(&mut self, end: bool) -> sluice_core::Result<()> {
        self.tokens += 1;
        if self.tokens - 1 != self.fail_at {
            return Ok(());
        }
        let error = sluice_core::Error::custom("fail here");
        Err(if end {
            error.with_span_hint(sluice_core::SpanHint::EnclosingContainer)
        } else {
            error
        })
    }
}

impl sluice_core::Writer for FailAt {
    fn write_null(&mut self) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_bool(&mut self, _: bool) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_str(&mut self, _: &str) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_name(&mut self, _: &str) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_number(&mut self, _: sluice_core::Number<'_>) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_blob(&mut self, _: &[u8]) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_map_root(&mut self, _: Option<usize>) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_map_end(&mut self) -> sluice_core::Result<()> {
        self.step(true)
    }
    fn write_array_root(&mut self, _: Option<usize>) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_array_end(&mut self) -> sluice_core::Result<()> {
        self.step(true)
    }
    fn write_set_root(&mut self, _: Option<usize>) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_set_end(&mut self) -> sluice_core::Result<()> {
        self.step(true)
    }
    fn write_struct_root(&mut self, _: &str, _: Option<usize>) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_struct_end(&mut self) -> sluice_core::Result<()> {
        self.step(true)
    }
    fn write_option_root(&mut self) -> sluice_core::Result<()> {
        self.step(false)
    }
    fn write_option_end(&mut self) -> sluice_core::Result<()> {
        self.step(true)
    }
    fn write_enum(&mut self, _: sluice_core::EnumToken<'_>) -> sluice_core::Result<()> {
        self.step(false)
    }
}

#[test]
fn writer_errors_get_the_same_spans_as_through_a_pipe() {
    let shallow = everything();
    let deep = nest(140);
    for value in [&shallow as &dyn Reflect, &deep] {
        let tokens = Token::read_all(&mut PropertyReader::new(value))
            .expect("tokens")
            .len();
        for fail_at in (0..tokens).step_by(7).chain([tokens - 1]) {
            let mut piped = FailAt { tokens: 0, fail_at };
            let expected = pipe(&mut PropertyReader::new(value), &mut piped).unwrap_err();
            let mut written = FailAt { tokens: 0, fail_at };
            let found = sluice_reflect::handlers::builtin::pipe_serializer()
                .serialize(value, &mut written, &sluice_reflect::TypeRegistry::new())
                .unwrap_err();
            assert_eq!(found.span(), expected.span(), "token {fail_at}");
        }
    }
}

// ---- structs with more than 64 fields ----

macro_rules! wide_struct {
    ($($field:ident),*) => {
        #[derive(Reflect, Debug, Default, PartialEq)]
        struct Wide {
            $($field: u8,)*
        }
    };
}

wide_struct!(
    f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18,
    f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37,
    f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56,
    f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69
);

/// An object with a value for each field index in `indices` (`fNN: NN`).
fn wide_input(indices: impl Iterator<Item = usize>) -> Value {
    Value::Map(
        indices
            .map(|i| (Value::from(format!("f{i:02}")), Value::from(i as u64)))
            .collect(),
    )
}

#[test]
fn fields_past_the_64th_are_tracked_for_duplicates_and_missing_fields() {
    const TWICE: sluice_core::ErrorCode = sluice_core::ErrorCode::new("test", "Twice");
    let read = |input: &Value| {
        let mut wide = Wide::default();
        let mut writer = PropertyWriter::new(&mut wide);
        writer.check_duplicate_keys(Some(TWICE));
        pipe(&mut ValueReader::new(input), &mut writer).map(|()| wide)
    };
    let wide = read(&wide_input(0..70)).expect("every field once");
    assert_eq!((wide.f00, wide.f63, wide.f64, wide.f69), (0, 63, 64, 69));
    let error = read(&wide_input((0..70).chain([66]))).unwrap_err();
    assert_eq!(error.code(), TWICE);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.f66")
    );
    let error = read(&wide_input((0..70).filter(|&i| i != 67))).unwrap_err();
    assert_eq!(error.code(), sluice_reflect::codes::MISSING_FIELD);
    assert!(error.message().contains("f67"), "{}", error.message());
    // Without the check, the last value wins.
    let Value::Map(mut entries) = wide_input(0..70) else {
        unreachable!("wide_input gives a map")
    };
    entries.push((Value::from("f66"), Value::from(200u64)));
    entries.push((Value::from("f05"), Value::from(100u64)));
    let mut wide = Wide::default();
    let input = Value::Map(entries);
    pipe(
        &mut ValueReader::new(&input),
        &mut PropertyWriter::new(&mut wide),
    )
    .expect("last wins");
    assert_eq!((wide.f05, wide.f66), (100, 200));
}
