use crate::testing::{Features, normalize, read_checked, sample_tokens};
use crate::{
    Entry, NumberHint, Reader, Token, Value, ValueReader, ValueWriter, Writer, codes, pipe,
};

fn nested(depth: usize) -> Value {
    let mut value = Value::Null;
    for i in 0..depth {
        value = if i % 2 == 0 {
            Value::Array(vec![value])
        } else {
            Value::Map(vec![(Value::from("k"), value)])
        };
    }
    value
}

fn copy(value: &Value) -> Value {
    let mut writer = ValueWriter::new();
    pipe(&mut ValueReader::new(value), &mut writer).unwrap();
    writer.into_value().unwrap()
}

#[test]
fn pipe_of_a_value_reproduces_it_exactly() {
    let value = Value::Map(vec![
        (
            Value::from("text"),
            Value::number_text("1.50", NumberHint::Float),
        ),
        (
            Value::from("big"),
            Value::number_text("123456789012345678901234567890", NumberHint::Integer),
        ),
        (Value::from("nan"), Value::from(f64::NAN)),
        (Value::from("negzero"), Value::from(-0.0)),
        (Value::from("bytes"), Value::Bytes(vec![0, 255])),
        (Value::from("ext"), Value::Ext(-1, vec![1, 2, 3, 4])),
        (Value::from(7u64), Value::from("non-string key")),
        (Value::Array(vec![]), Value::from("container key")),
        (Value::from("deep"), nested(50)),
    ]);
    assert_eq!(copy(&value), value);
}

#[test]
fn map_keys_keep_their_order() {
    let value = Value::Map(vec![
        (Value::from("z"), Value::Null),
        (Value::from("a"), Value::Null),
        (Value::from("m"), Value::Null),
    ]);
    let keys: Vec<_> = copy(&value)
        .as_map()
        .unwrap()
        .iter()
        .map(|(k, _)| k.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn value_reader_honours_the_reader_contract() {
    let mut writer = ValueWriter::new();
    let tokens = sample_tokens(Features::ALL);
    Token::write_all(&tokens, &mut writer).unwrap();
    let value = writer.into_value().unwrap();
    let read = read_checked(&mut ValueReader::new(&value)).unwrap();
    assert_eq!(normalize(&read), normalize(&tokens));
}

#[test]
fn a_wrong_read_reports_the_path_and_consumes_nothing() {
    let value = Value::Map(vec![(
        Value::from("items"),
        Value::Array(vec![Value::from(1u64), Value::from("two")]),
    )]);
    let mut reader = ValueReader::new(&value);
    reader.read_map_root().unwrap();
    reader.read_name().unwrap();
    reader.read_array_root().unwrap();
    reader.read_u8().unwrap();
    let err = reader.read_u8().unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
    assert_eq!(err.path().unwrap().to_string(), "$.items[1]");
    assert_eq!(reader.peek().unwrap(), Entry::String);
}

#[test]
fn out_of_range_numbers_in_a_value_carry_their_path() {
    let value = Value::Array(vec![Value::from(300u64)]);
    let mut reader = ValueReader::new(&value);
    reader.read_array_root().unwrap();
    let err = reader.read_u8().unwrap_err();
    assert_eq!(err.code(), codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(err.path().unwrap().to_string(), "$[0]");
}

#[test]
fn skip_jumps_over_a_whole_container() {
    let value = Value::Array(vec![nested(10), Value::from(true)]);
    let mut reader = ValueReader::new(&value);
    reader.read_array_root().unwrap();
    reader.skip().unwrap();
    assert!(reader.read_bool().unwrap());
    reader.read_array_end().unwrap();
    assert_eq!(reader.peek().unwrap(), Entry::Ended);
}

#[test]
fn value_writer_rejects_broken_structure() {
    let mut writer = ValueWriter::new();
    assert_eq!(
        writer.write_name("k").unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
    assert_eq!(
        writer.write_map_end().unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
    writer.write_map_root(None).unwrap();
    writer.write_name("k").unwrap();
    assert_eq!(
        writer.write_map_end().unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
    writer.write_null().unwrap();
    assert_eq!(
        writer.write_array_end().unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
    writer.write_map_end().unwrap();
    assert!(writer.finish().is_ok());

    let mut open = ValueWriter::new();
    open.write_array_root(None).unwrap();
    assert_eq!(
        open.into_value().unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
}

#[test]
fn several_top_level_values_are_kept_in_order() {
    let mut writer = ValueWriter::new();
    writer.write_u64(1).unwrap();
    writer.write_str("two").unwrap();
    assert_eq!(
        writer.into_values().unwrap(),
        vec![Value::from(1u64), Value::from("two")]
    );
    let mut writer = ValueWriter::new();
    writer.write_u64(1).unwrap();
    writer.write_u64(2).unwrap();
    assert_eq!(
        writer.into_value().unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
}

#[test]
fn native_tokens_are_lowered_into_plain_values() {
    let mut writer = ValueWriter::new();
    writer.write_struct_root("P", Some(2)).unwrap();
    writer.write_name("set").unwrap();
    writer.write_set_root(None).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_set_end().unwrap();
    writer.write_name("opt").unwrap();
    writer.write_option_root().unwrap();
    writer.write_null().unwrap();
    writer.write_option_end().unwrap();
    writer.write_struct_end().unwrap();
    let value = writer.into_value().unwrap();
    assert_eq!(
        value.get("set"),
        Some(&Value::Array(vec![Value::from(1u64)]))
    );
    assert_eq!(value.get("opt"), Some(&Value::Null));
}

#[test]
fn insert_replaces_in_place_and_remove_takes_out() {
    let mut value = Value::Map(vec![
        (Value::from("a"), Value::from(1u64)),
        (Value::from("b"), Value::from(2u64)),
    ]);
    assert_eq!(
        value.insert("a", Value::from(9u64)),
        Some(Value::from(1u64))
    );
    assert_eq!(value.as_map().unwrap()[0].1, Value::from(9u64));
    assert_eq!(value.remove("b"), Some(Value::from(2u64)));
    assert_eq!(value.as_map().unwrap().len(), 1);
    assert_eq!(Value::Null.clone().insert("x", Value::Null), None);
}

#[test]
fn depth_of_thousands_does_not_overflow_the_stack() {
    let value = nested(5000);
    let copied = copy(&value);
    // Compare without recursion-heavy Drop of a deep tree on a small stack: count depth.
    let mut depth = 0;
    let mut cursor = &copied;
    loop {
        cursor = match cursor {
            Value::Array(items) => &items[0],
            Value::Map(entries) => &entries[0].1,
            _ => break,
        };
        depth += 1;
    }
    assert_eq!(depth, 5000);
    std::mem::forget(copied);
    std::mem::forget(value);
}
