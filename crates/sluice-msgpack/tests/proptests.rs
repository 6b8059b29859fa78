//! Property tests: any value survives a MessagePack round trip, through both readers, and
//! reading never panics on arbitrary bytes.

mod common;

use proptest::prelude::*;
use sluice_core::testing::normalize;
use sluice_core::{OwnedNumber, Token, Value, ValueReader, ValueWriter, pipe};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};

fn number() -> impl Strategy<Value = OwnedNumber> {
    prop_oneof![
        any::<u64>().prop_map(OwnedNumber::U64),
        any::<i64>().prop_map(OwnedNumber::I64),
        any::<f64>().prop_map(OwnedNumber::F64),
        any::<f32>().prop_map(OwnedNumber::F32),
        (-40i64..300).prop_map(OwnedNumber::I64),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        ".{0,40}".prop_map(Value::String),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::Bytes),
        (any::<i8>(), proptest::collection::vec(any::<u8>(), 0..20))
            .prop_map(|(kind, data)| Value::Ext(kind, data)),
    ];
    leaf.prop_recursive(6, 200, 20, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
            proptest::collection::vec((".{0,8}".prop_map(Value::String), inner.clone()), 0..20)
                .prop_map(Value::Map),
            proptest::collection::vec((inner.clone(), inner), 0..4).prop_map(Value::Map),
        ]
    })
}

fn tokens_of(value: &Value) -> Vec<Token> {
    Token::read_all(&mut ValueReader::new(value)).unwrap()
}

proptest! {
    #[test]
    fn any_value_round_trips(value in value()) {
        let mut writer = MsgPackWriter::new(Vec::new());
        pipe(&mut ValueReader::new(&value), &mut writer).unwrap();
        let bytes = writer.into_inner().unwrap();
        let mut back = ValueWriter::new();
        pipe(&mut MsgPackReader::from_slice(&bytes), &mut back).unwrap();
        let back = back.into_value().unwrap();
        prop_assert_eq!(normalize(&tokens_of(&back)), normalize(&tokens_of(&value)));
        let mut stream = MsgPackReader::from_read(bytes.as_slice());
        prop_assert_eq!(Token::read_all(&mut stream).unwrap(), common::read_tokens(&bytes).unwrap());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        sluice_msgpack::fuzzing::check_msgpack_input(&bytes);
    }
}
