//! The bridge over every kind of sluice reader and writer: relaxed JSON and JSON5 that
//! serde_json cannot read, NDJSON records, MessagePack (borrowing from the slice), token
//! streams with native kinds (structs, options, enums, sets), and the debug dump.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sluice_core::testing::TokenReader;
use sluice_core::{DumpWriter, Reader, Token, Value, ValueReader};
use sluice_json::{JsonOptions, JsonReader, NdjsonReader};
use sluice_msgpack::MsgPackReader;
use sluice_serde::{Deserializer, Serializer};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Config {
    name: String,
    port: u16,
    #[serde(default)]
    tags: Vec<String>,
    limits: BTreeMap<String, f64>,
}

fn expected_config() -> Config {
    Config {
        name: "main".into(),
        port: 8080,
        tags: vec!["a".into(), "b".into()],
        limits: [("cpu".to_owned(), 0.5), ("mem".to_owned(), 2.0)].into(),
    }
}

#[test]
fn relaxed_json_that_serde_json_cannot_read() {
    let text = r#"
        // service configuration
        {
            "name": "main", /* the default one */
            "port": 8080,
            "tags": ["a", "b",],
            "limits": {"cpu": 0.5, "mem": 2.0,},
        }
    "#;
    assert!(serde_json::from_str::<Config>(text).is_err());
    let config: Config = sluice_serde::from_json_str_relaxed(text).unwrap();
    assert_eq!(config, expected_config());
}

#[test]
fn json5_that_serde_json_cannot_read() {
    let text = r"{
        name: 'main',
        port: 0x1F90,
        tags: ['a', 'b'],
        limits: {cpu: .5, mem: +2.,},
    }";
    assert!(serde_json::from_str::<Config>(text).is_err());
    let config: Config = sluice_serde::from_json5_str(text).unwrap();
    assert_eq!(config, expected_config());
}

#[test]
fn ndjson_records_one_by_one_with_line_numbers_in_errors() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Event {
        id: u32,
        kind: String,
    }
    let text = "{\"id\": 1, \"kind\": \"a\"}\n\n{\"id\": 2, \"kind\": \"b\"}\n{\"id\": \"3\", \"kind\": \"c\"}\n";
    let mut records = NdjsonReader::from_str(text);
    let mut events = Vec::new();
    let err = loop {
        let Some(mut record) = records.next_record().unwrap() else {
            panic!("the third record is bad");
        };
        let line = record.line();
        match sluice_serde::from_reader::<Event, _>(&mut record) {
            Ok(event) => events.push((line, event)),
            Err(err) => break (line, err),
        }
    };
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[1],
        (
            3,
            Event {
                id: 2,
                kind: "b".into()
            }
        )
    );
    let (line, err) = err;
    assert_eq!(line, 4);
    assert_eq!(err.code(), sluice_serde::codes::INVALID_TYPE);
    assert_eq!(&text[err.span().unwrap().range()], "\"3\"");
}

#[test]
fn a_stream_of_concatenated_values() {
    let text = "[1, 2] [3] []\n[4]";
    let reader = JsonReader::from_str(text).with_options(JsonOptions::ndjson());
    let values: Vec<Vec<u8>> = Deserializer::new(reader)
        .into_stream()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(values, [vec![1, 2], vec![3], vec![], vec![4]]);
    // It stops at the first error.
    let reader = JsonReader::from_str("[1] [true] [2]").with_options(JsonOptions::ndjson());
    let results: Vec<_> = Deserializer::new(reader).into_stream::<Vec<u8>>().collect();
    assert_eq!(results.len(), 2);
    assert!(results[1].is_err());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    plain: &'a str,
    #[serde(borrow)]
    cow: Cow<'a, str>,
    #[serde(borrow)]
    escaped: Cow<'a, str>,
    #[serde(with = "serde_bytes")]
    bytes: &'a [u8],
}

#[test]
fn borrowed_str_and_cow_from_json() {
    let text =
        r#"{"plain": "zero copy", "cow": "also borrowed", "escaped": "tab\there", "bytes": "raw"}"#;
    let value: Borrowed = sluice_serde::from_json_str(text).unwrap();
    assert_eq!(value.plain, "zero copy");
    assert!(matches!(value.cow, Cow::Borrowed("also borrowed")));
    // An escaped string cannot be borrowed: Cow owns it.
    assert!(matches!(&value.escaped, Cow::Owned(s) if s == "tab\there"));
    assert_eq!(value.bytes, b"raw");
    // The borrowed pieces point into the input.
    let range = text.as_bytes().as_ptr_range();
    assert!(range.contains(&value.plain.as_ptr()));
    // From bytes as well.
    let value: Borrowed = sluice_serde::from_json_slice(text.as_bytes()).unwrap();
    assert_eq!(value.plain, "zero copy");
}

#[test]
fn borrowed_str_and_bytes_from_msgpack() {
    let original = Borrowed {
        plain: "p",
        cow: Cow::Borrowed("c"),
        escaped: Cow::Borrowed("tab\there"),
        bytes: &[0, 1, 2, 255],
    };
    let bytes = sluice_serde::to_msgpack_vec(&original).unwrap();
    let value: Borrowed = sluice_serde::from_msgpack_slice(&bytes).unwrap();
    assert_eq!(value, original);
    // MessagePack strings never need unescaping: everything is borrowed.
    assert!(matches!(value.escaped, Cow::Borrowed(_)));
    let range = bytes.as_ptr_range();
    assert!(range.contains(&value.bytes.as_ptr()));
}

#[test]
fn msgpack_from_io_read() {
    let bytes = sluice_serde::to_msgpack_vec(&expected_config()).unwrap();
    let config: Config = sluice_serde::from_msgpack_read(&bytes[..]).unwrap();
    assert_eq!(config, expected_config());
}

#[test]
fn json_from_io_read_reads_escapes_and_big_documents() {
    let many: Vec<Config> = (0..2000).map(|_| expected_config()).collect();
    let text = sluice_serde::to_json_string(&many).unwrap();
    assert!(text.len() > sluice_json::IO_WINDOW);
    let back: Vec<Config> = sluice_serde::from_json_read(text.as_bytes()).unwrap();
    assert_eq!(back, many);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Dot,
    Circle(f64),
    Line(i32, i32),
    Rect { w: u32, h: u32 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Drawing {
    title: Option<String>,
    shapes: Vec<Shape>,
    layers: (u8, bool),
    #[serde(with = "serde_bytes")]
    thumbnail: Vec<u8>,
    ids: std::collections::BTreeSet<u16>,
}

fn drawing() -> Drawing {
    Drawing {
        title: None,
        shapes: vec![
            Shape::Dot,
            Shape::Circle(1.5),
            Shape::Line(-1, 1),
            Shape::Rect { w: 2, h: 3 },
        ],
        layers: (2, true),
        thumbnail: vec![1, 2, 3],
        ids: [3, 1].into(),
    }
}

#[test]
fn the_serializer_emits_sluice_tokens() {
    let mut ser = Serializer::new(DumpWriter::new(Vec::new()));
    drawing().serialize(&mut ser).unwrap();
    let dump = String::from_utf8(ser.into_inner().into_inner()).unwrap();
    let expected = "\
<StructRoot> 'Drawing' (5)
|---<Name> 'title'
|---<Null>
|---<Name> 'shapes'
|---<ArrayRoot> (4)
|---|---<String> 'Dot'
|---|---<MapRoot> (1)
|---|---|---<Name> 'Circle'
|---|---|---<F64> 1.5
|---|---<MapEnd>
|---|---<MapRoot> (1)
|---|---|---<Name> 'Line'
|---|---|---<ArrayRoot> (2)
|---|---|---|---<I64> -1
|---|---|---|---<I64> 1
|---|---|---<ArrayEnd>
|---|---<MapEnd>
|---|---<MapRoot> (1)
|---|---|---<Name> 'Rect'
|---|---|---<StructRoot> 'Rect' (2)
|---|---|---|---<Name> 'w'
|---|---|---|---<U64> 2
|---|---|---|---<Name> 'h'
|---|---|---|---<U64> 3
|---|---|---<StructEnd>
|---|---<MapEnd>
|---<ArrayEnd>
|---<Name> 'layers'
|---<ArrayRoot> (2)
|---|---<U64> 2
|---|---<Bool> true
|---<ArrayEnd>
|---<Name> 'thumbnail'
|---<Blob> 3 bytes [01 02 03]
|---<Name> 'ids'
|---<ArrayRoot> (2)
|---|---<U64> 1
|---|---<U64> 3
|---<ArrayEnd>
<StructEnd>
";
    assert_eq!(dump, expected);
}

/// Tokens of native data, as a reflection reader produces them.
fn native_tokens() -> Vec<Token> {
    vec![
        Token::StructRoot("Drawing".into(), Some(5)),
        Token::Name("title".into()),
        Token::OptionRoot,
        Token::String("t".into()),
        Token::OptionEnd,
        Token::Name("shapes".into()),
        Token::SetRoot(Some(2)),
        Token::Enum(Box::new(sluice_core::OwnedEnum {
            type_name: "Shape".into(),
            variant: "Dot".into(),
            value: 0,
            flags: false,
        })),
        Token::MapRoot(Some(1)),
        Token::Name("Rect".into()),
        Token::StructRoot("Rect".into(), Some(2)),
        Token::Name("w".into()),
        Token::Number(sluice_core::OwnedNumber::U64(1)),
        Token::Name("h".into()),
        Token::Number(sluice_core::OwnedNumber::I64(2)),
        Token::StructEnd,
        Token::MapEnd,
        Token::SetEnd,
        Token::Name("layers".into()),
        Token::ArrayRoot(Some(2)),
        Token::Number(sluice_core::OwnedNumber::U64(0)),
        Token::Bool(false),
        Token::ArrayEnd,
        Token::Name("thumbnail".into()),
        Token::Blob(vec![9]),
        Token::Name("ids".into()),
        Token::SetRoot(None),
        Token::SetEnd,
        Token::StructEnd,
    ]
}

#[test]
fn the_deserializer_reads_native_tokens() {
    let drawing: Drawing =
        sluice_serde::from_reader(TokenReader::from_tokens(native_tokens())).unwrap();
    assert_eq!(
        drawing,
        Drawing {
            title: Some("t".into()),
            shapes: vec![Shape::Dot, Shape::Rect { w: 1, h: 2 }],
            layers: (0, false),
            thumbnail: vec![9],
            ids: [].into(),
        }
    );
    // An option holding null is None.
    let tokens = vec![Token::OptionRoot, Token::Null, Token::OptionEnd];
    let value: Option<u8> = sluice_serde::from_reader(TokenReader::from_tokens(tokens)).unwrap();
    assert_eq!(value, None);
    // deserialize_any sees native tokens too (all but the blob, which a JSON value cannot
    // hold).
    let tokens = native_tokens()
        .into_iter()
        .filter(|t| !matches!(t, Token::Blob(_)) && *t != Token::Name("thumbnail".into()));
    let value: serde_json::Value =
        sluice_serde::from_reader(TokenReader::from_tokens(tokens)).unwrap();
    assert_eq!(value["shapes"][0], "Dot");
    assert_eq!(value["shapes"][1]["Rect"]["h"], 2);
    assert_eq!(value["title"], "t");
}

fn enum_token(variant: &str, value: i64) -> Token {
    Token::Enum(Box::new(sluice_core::OwnedEnum {
        type_name: "Key".into(),
        variant: variant.into(),
        value,
        flags: false,
    }))
}

#[test]
fn keys_that_are_not_strings_are_read_as_their_tokens() {
    #[derive(Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Color {
        Red,
        Blue,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Pair {
        a: u8,
        b: u8,
    }
    let map = |keys: Vec<Token>| {
        let mut tokens = vec![Token::MapRoot(Some(keys.len()))];
        for (value, key) in (1..).zip(keys) {
            tokens.extend([key, Token::Number(sluice_core::OwnedNumber::U64(value))]);
        }
        tokens.push(Token::MapEnd);
        TokenReader::from_tokens(tokens)
    };
    let number = |n: u64| Token::Number(sluice_core::OwnedNumber::U64(n));

    // An enum token with a variant name is a text key: an enum, or a struct's field name.
    let colors: BTreeMap<Color, u8> =
        sluice_serde::from_reader(map(vec![enum_token("Blue", 1), enum_token("Red", 0)])).unwrap();
    assert_eq!(
        colors,
        [(Color::Blue, 1), (Color::Red, 2)].into_iter().collect()
    );
    let pair: Pair =
        sluice_serde::from_reader(map(vec![enum_token("b", 1), enum_token("a", 0)])).unwrap();
    assert_eq!(pair, Pair { a: 2, b: 1 });

    // A nameless enum token is its discriminant, a number token is itself.
    let numbers: BTreeMap<i64, u8> =
        sluice_serde::from_reader(map(vec![enum_token("", -5), number(7)])).unwrap();
    assert_eq!(numbers, [(-5, 1), (7, 2)].into_iter().collect());
    // Numbers are a struct's field indexes, as serde's derive accepts them.
    let pair: Pair = sluice_serde::from_reader(map(vec![number(1), number(0)])).unwrap();
    assert_eq!(pair, Pair { a: 2, b: 1 });

    // Any other token is handed to the field visitor as what it is, which refuses it; the
    // path names the entry by its index.
    let err =
        sluice_serde::from_reader::<Pair, _>(map(vec![number(0), Token::Bool(true)])).unwrap_err();
    assert_eq!(err.code(), sluice_serde::codes::INVALID_TYPE);
    assert_eq!(err.path().unwrap().to_string(), "$[1]");
    let err =
        sluice_serde::from_reader::<BTreeMap<Color, u8>, _>(map(vec![Token::Null])).unwrap_err();
    assert_eq!(err.code(), sluice_serde::codes::INVALID_TYPE);
}

#[test]
fn flags_enum_tokens_without_a_single_name_are_their_bits() {
    let token = Token::Enum(Box::new(sluice_core::OwnedEnum {
        type_name: "Flags".into(),
        variant: String::new(),
        value: 5,
        flags: true,
    }));
    let bits: i64 = sluice_serde::from_reader(TokenReader::from_tokens([token])).unwrap();
    assert_eq!(bits, 5);
}

#[test]
fn value_round_trip_keeps_numbers_typed_and_maps_ordered() {
    let value = sluice_serde::to_value(&drawing()).unwrap();
    let Value::Map(entries) = &value else {
        panic!("a struct becomes a map");
    };
    let keys: Vec<_> = entries.iter().filter_map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["title", "shapes", "layers", "thumbnail", "ids"]);
    assert_eq!(value.get("thumbnail"), Some(&Value::Bytes(vec![1, 2, 3])));
    let back: Drawing = sluice_serde::from_value(&value).unwrap();
    assert_eq!(back, drawing());
    // And through any reader over that value.
    let mut de = Deserializer::new(ValueReader::new(&value));
    assert_eq!(Drawing::deserialize(&mut de).unwrap(), drawing());
    de.end().unwrap();
}

#[test]
fn json_and_msgpack_round_trips_of_every_enum_shape() {
    let original = drawing();
    let text = sluice_serde::to_json_string(&original).unwrap();
    assert_eq!(
        text,
        r#"{"title":null,"shapes":["Dot",{"Circle":1.5},{"Line":[-1,1]},{"Rect":{"w":2,"h":3}}],"layers":[2,true],"thumbnail":[1,2,3],"ids":[1,3]}"#
    );
    assert_eq!(
        sluice_serde::from_json_str::<Drawing>(&text).unwrap(),
        original
    );
    let bytes = sluice_serde::to_msgpack_vec(&original).unwrap();
    assert_eq!(
        sluice_serde::from_msgpack_slice::<Drawing>(&bytes).unwrap(),
        original
    );
    // The thumbnail is a bin (Blob) in MessagePack, and reads back as a Vec<u8> too.
    let mut reader = MsgPackReader::from_slice(&bytes);
    let tokens = Token::read_all(&mut reader).unwrap();
    assert!(tokens.contains(&Token::Blob(vec![1, 2, 3])));
    #[derive(Deserialize)]
    struct Plain {
        thumbnail: Vec<u8>,
    }
    let plain: Plain = sluice_serde::from_msgpack_slice(&bytes).unwrap();
    assert_eq!(plain.thumbnail, [1, 2, 3]);
}

#[test]
fn ignored_values_are_skipped_whole() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Small {
        keep: u8,
    }
    let text = r#"{"skip": {"deep": [1, {"x": [true, null, "s\n"]}]}, "keep": 7, "tail": [[[]]]}"#;
    assert_eq!(
        sluice_serde::from_json_str::<Small>(text).unwrap(),
        Small { keep: 7 }
    );
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let bytes = sluice_serde::to_msgpack_vec(&value).unwrap();
    assert_eq!(
        sluice_serde::from_msgpack_slice::<Small>(&bytes).unwrap(),
        Small { keep: 7 }
    );
    let mut reader = JsonReader::from_str(text);
    let _: serde::de::IgnoredAny = sluice_serde::from_reader(&mut reader).unwrap();
    assert_eq!(reader.peek().unwrap(), sluice_core::Entry::Ended);
}

#[test]
fn human_readable_is_configurable_and_msgpack_helpers_say_no() {
    use std::net::{IpAddr, Ipv4Addr};
    let addr = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    assert_eq!(
        sluice_serde::to_json_string(&addr).unwrap(),
        r#""10.0.0.1""#
    );
    // Compact form in MessagePack, as rmp-serde writes it; and it reads back.
    let bytes = sluice_serde::to_msgpack_vec(&addr).unwrap();
    assert!(!bytes.windows(8).any(|w| w == b"10.0.0.1"));
    assert_eq!(
        sluice_serde::from_msgpack_slice::<IpAddr>(&bytes).unwrap(),
        addr
    );
    // A hand-built pair agrees when both sides say the same.
    let mut ser = Serializer::new(sluice_core::ValueWriter::new()).human_readable(false);
    addr.serialize(&mut ser).unwrap();
    let value = ser.into_inner().into_value().unwrap();
    let mut de = Deserializer::new(ValueReader::new(&value)).human_readable(false);
    assert_eq!(IpAddr::deserialize(&mut de).unwrap(), addr);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Texts<'a> {
    #[serde(borrow)]
    words: Vec<&'a str>,
    #[serde(borrow)]
    by_key: BTreeMap<&'a str, &'a str>,
}

const MULTIBYTE_TEXTS: &str = r#"{"words": ["é", "日本", "😀x", "x😀", "", "aé b"],
                   "by_key": {"ключ": "значение", "": "", "ü": "ß"}}"#;

/// `value` holds the texts of [`MULTIBYTE_TEXTS`], every non-empty piece in `input`'s memory.
fn assert_borrowed_texts(value: &Texts, input: &[u8]) {
    assert_eq!(value.words, ["é", "日本", "😀x", "x😀", "", "aé b"]);
    let expected: BTreeMap<&str, &str> = [("ключ", "значение"), ("", ""), ("ü", "ß")]
        .into_iter()
        .collect();
    assert_eq!(value.by_key, expected);
    let range = input.as_ptr_range();
    let pieces = value
        .words
        .iter()
        .chain(value.by_key.iter().flat_map(|(k, v)| [k, v]));
    for piece in pieces.filter(|piece| !piece.is_empty()) {
        assert!(range.contains(&piece.as_ptr()), "{piece:?} was copied");
    }
}

#[test]
fn borrowed_strings_with_multibyte_ends_point_into_the_input() {
    let value: Texts = sluice_serde::from_json_str(MULTIBYTE_TEXTS).unwrap();
    assert_borrowed_texts(&value, MULTIBYTE_TEXTS.as_bytes());
}

#[test]
fn strings_borrowed_from_a_byte_slice_point_into_it() {
    let json = MULTIBYTE_TEXTS.as_bytes();
    let value: Texts = sluice_serde::from_json_slice(json).unwrap();
    assert_borrowed_texts(&value, json);

    let msgpack = sluice_serde::to_msgpack_vec(&value).unwrap();
    let value: Texts = sluice_serde::from_msgpack_slice(&msgpack).unwrap();
    assert_borrowed_texts(&value, &msgpack);
}

/// A reader over JSON that hands out every string as an empty `&str` pointing between the
/// two bytes of the `é` at the start of `input`: legal for a reader (an empty string may
/// point anywhere), and the bridge must borrow it as an empty string without ever slicing
/// `input` as text there.
struct EmptyStringsInsideACharacter<'a> {
    json: JsonReader<sluice_json::SliceInput<'a>>,
    input: &'a str,
}

impl Reader for EmptyStringsInsideACharacter<'_> {
    fn peek(&mut self) -> sluice_core::Result<sluice_core::Entry> {
        self.json.peek()
    }
    fn span(&self) -> sluice_core::Span {
        self.json.span()
    }
    fn read_null(&mut self) -> sluice_core::Result<()> {
        self.json.read_null()
    }
    fn read_bool(&mut self) -> sluice_core::Result<bool> {
        self.json.read_bool()
    }
    // Clippy's `&self.input[1..1]` would panic: 1 is not a character boundary.
    #[allow(clippy::string_from_utf8_as_bytes)]
    fn read_str(&mut self) -> sluice_core::Result<&str> {
        self.json.read_str()?;
        Ok(std::str::from_utf8(&self.input.as_bytes()[1..1]).expect("empty"))
    }
    fn read_name(&mut self) -> sluice_core::Result<&str> {
        self.json.read_name()
    }
    fn read_number(&mut self) -> sluice_core::Result<sluice_core::Number<'_>> {
        self.json.read_number()
    }
    fn read_map_root(&mut self) -> sluice_core::Result<Option<usize>> {
        self.json.read_map_root()
    }
    fn read_map_end(&mut self) -> sluice_core::Result<()> {
        self.json.read_map_end()
    }
    fn read_array_root(&mut self) -> sluice_core::Result<Option<usize>> {
        self.json.read_array_root()
    }
    fn read_array_end(&mut self) -> sluice_core::Result<()> {
        self.json.read_array_end()
    }
}

#[test]
fn an_empty_string_pointing_inside_a_character_is_borrowed_as_empty() {
    let input = "é";
    let reader = EmptyStringsInsideACharacter {
        json: JsonReader::from_str(r#"["a", "b"]"#),
        input,
    };
    let mut de = Deserializer::new(reader).borrow_from_str(input);
    let words = <Vec<&str>>::deserialize(&mut de).unwrap();
    assert_eq!(words, ["", ""]);
}
