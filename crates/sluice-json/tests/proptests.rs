//! Property tests: any value written (condensed or pretty) reads back equal, serde_json
//! reads it as the same value and writes it with the same bytes; any bytes, and written
//! documents with a few bytes edited, are read without a panic, with the same outcome on the
//! slice and `io::Read` paths.

mod common;

use proptest::prelude::*;
use sluice_core::testing::{normalize, read_checked};
use sluice_core::{OwnedNumber, Reader, Token, Value, ValueReader, Writer};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, WriterOptions};

/// `normalize` keeps a non-negative `I128` beyond 64 bits as `I128`, while the same digits
/// read from text become `U128`: compare such values as `U128`.
fn canon(tokens: &[Token]) -> Vec<Token> {
    normalize(tokens)
        .into_iter()
        .map(|t| match t {
            Token::Number(OwnedNumber::I128(v)) if v >= 0 => {
                Token::Number(OwnedNumber::U128(v.unsigned_abs()))
            }
            other => other,
        })
        .collect()
}

fn number() -> impl Strategy<Value = OwnedNumber> {
    prop_oneof![
        any::<i64>().prop_map(OwnedNumber::I64),
        any::<u64>().prop_map(OwnedNumber::U64),
        any::<i128>().prop_map(OwnedNumber::I128),
        any::<u128>().prop_map(OwnedNumber::U128),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(OwnedNumber::F64),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8).prop_map(|m| Value::Map(
                m.into_iter().map(|(k, v)| (Value::String(k), v)).collect()
            )),
        ]
    })
}

/// The tokens of `value` and the text `JsonWriter` writes of them, pretty or condensed,
/// ASCII-only or not.
fn written(value: &Value, pretty: bool, ascii: bool) -> (Vec<Token>, String) {
    let tokens = Token::read_all(&mut ValueReader::new(value)).unwrap();
    let options = WriterOptions {
        escape_non_ascii: ascii,
        ..if pretty {
            WriterOptions::pretty()
        } else {
            WriterOptions::condensed()
        }
    };
    let mut writer = JsonWriter::new(Vec::new(), options);
    Token::write_all(&tokens, &mut writer).unwrap();
    (tokens, writer.into_string().unwrap())
}

/// serde_json's default float parse is not correctly rounded: a written float may come back
/// this many units in the last place away from the value written.
const SERDE_JSON_FLOAT_SLACK: u64 = 2;

/// Whether the float serde_json read, `read`, is `written`, within its rounding.
fn serde_float_is(read: Option<f64>, written: f64) -> bool {
    read.is_some_and(|read| {
        let (a, b) = (read.to_bits(), written.to_bits());
        // The same sign, then near in bits; signs never mix (`-0.0` stays negative).
        (a ^ b) >> 63 == 0 && a.abs_diff(b) <= SERDE_JSON_FLOAT_SLACK
    })
}

/// Whether serde_json, an independent parser, read the written `value` as `read`: strings,
/// booleans and 64-bit integers exactly, floats and the integers beyond 64 bits (which it
/// reads as floats) within its rounding, map entries in any order (keys are unique here).
fn serde_read_the_value(value: &Value, read: &serde_json::Value) -> bool {
    use serde_json::Value as Serde;
    match (value, read) {
        (Value::Null, Serde::Null) => true,
        (Value::Bool(a), Serde::Bool(b)) => a == b,
        (Value::String(a), Serde::String(b)) => a == b,
        (Value::Number(number), Serde::Number(read)) => match *number {
            OwnedNumber::I64(v) => read.as_i64() == Some(v),
            OwnedNumber::U64(v) => read.as_u64() == Some(v),
            OwnedNumber::I128(v) => match (i64::try_from(v), u64::try_from(v)) {
                (Ok(v), _) => read.as_i64() == Some(v),
                (_, Ok(v)) => read.as_u64() == Some(v),
                #[allow(clippy::cast_precision_loss)]
                _ => serde_float_is(read.as_f64(), v as f64),
            },
            OwnedNumber::U128(v) => match u64::try_from(v) {
                Ok(v) => read.as_u64() == Some(v),
                #[allow(clippy::cast_precision_loss)]
                Err(_) => serde_float_is(read.as_f64(), v as f64),
            },
            OwnedNumber::F64(v) => serde_float_is(read.as_f64(), v),
            _ => false,
        },
        (Value::Array(items), Serde::Array(read)) => {
            items.len() == read.len()
                && items
                    .iter()
                    .zip(read)
                    .all(|(item, read)| serde_read_the_value(item, read))
        }
        (Value::Map(entries), Serde::Object(read)) => {
            entries.len() == read.len()
                && entries.iter().all(|(key, item)| match key {
                    Value::String(key) => read
                        .get(key)
                        .is_some_and(|read| serde_read_the_value(item, read)),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// Any serde_json value with finite numbers (objects have sorted, unique keys).
fn serde_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as Serde;
    let leaf = prop_oneof![
        Just(Serde::Null),
        any::<bool>().prop_map(Serde::Bool),
        any::<i64>().prop_map(Serde::from),
        any::<u64>().prop_map(Serde::from),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(Serde::from),
        any::<String>().prop_map(Serde::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Serde::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8)
                .prop_map(|map| Serde::Object(map.into_iter().collect())),
        ]
    })
}

/// Writes `value` with the writer's typed methods (the floats as `f64`).
fn write_serde(value: &serde_json::Value, writer: &mut impl Writer) -> sluice_core::Result<()> {
    use serde_json::Value as Serde;
    match value {
        Serde::Null => writer.write_null(),
        Serde::Bool(v) => writer.write_bool(*v),
        Serde::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(v), _, _) => writer.write_u64(v),
            (_, Some(v), _) => writer.write_i64(v),
            (_, _, Some(v)) => writer.write_f64(v),
            _ => unreachable!("serde_json numbers are u64, i64 or f64"),
        },
        Serde::String(v) => writer.write_str(v),
        Serde::Array(items) => {
            writer.write_array_root(Some(items.len()))?;
            for item in items {
                write_serde(item, writer)?;
            }
            writer.write_array_end()
        }
        Serde::Object(map) => {
            writer.write_map_root(Some(map.len()))?;
            for (key, item) in map {
                writer.write_name(key)?;
                write_serde(item, writer)?;
            }
            writer.write_map_end()
        }
    }
}

/// One edit of a document's bytes: where, and what.
#[derive(Debug, Clone)]
enum Edit {
    Insert(prop::sample::Index, u8),
    Replace(prop::sample::Index, u8),
    Delete(prop::sample::Index),
}

/// Bytes that change a document's structure or tokens: brackets, separators, quotes and
/// escapes, comment starts, number and literal characters, line breaks, and bytes that are
/// no UTF-8 or no token.
const EDIT_BYTES: &[u8] = b"[]{}:,\"\\'/*-+.0159eExtnfN \n\r\t\x00\x1f\x80\xc3\xff#";

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop::sample::select(EDIT_BYTES);
    prop_oneof![
        (any::<prop::sample::Index>(), byte.clone()).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<prop::sample::Index>(), byte).prop_map(|(at, b)| Edit::Replace(at, b)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
    ]
}

/// A written document (condensed or pretty) with up to three edits: many read whole, the
/// rest fail anywhere in them, at any token (random bytes fail at their first byte).
fn edited_document() -> impl Strategy<Value = Vec<u8>> {
    (value(), any::<bool>(), prop::collection::vec(edit(), 0..=3)).prop_map(
        |(value, pretty, edits)| {
            let mut bytes = written(&value, pretty, false).1.into_bytes();
            for edit in edits {
                match edit {
                    Edit::Insert(at, b) => bytes.insert(at.index(bytes.len() + 1), b),
                    Edit::Replace(at, b) if !bytes.is_empty() => {
                        let at = at.index(bytes.len());
                        bytes[at] = b;
                    }
                    Edit::Delete(at) if !bytes.is_empty() => {
                        bytes.remove(at.index(bytes.len()));
                    }
                    Edit::Replace(..) | Edit::Delete(_) => {}
                }
            }
            bytes
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn edited_documents_read_alike_on_both_paths(
        bytes in edited_document(),
        window in 1usize..12,
        chunk in 1usize..8,
    ) {
        // Where random bytes almost all fail at their first byte, these read whole or fail
        // deep inside, where the `io::Read` window has moved and grown.
        for options in [JsonOptions::strict(), JsonOptions::relaxed(), JsonOptions::ndjson(), JsonOptions::json5()] {
            let slice = common::outcome(common::read_slice(&bytes, &options));
            let io = common::outcome(common::read_trickle(&bytes, chunk, &options));
            prop_assert_eq!(&slice, &io);
            let windowed = common::outcome(common::read_windowed(&bytes, chunk, window, &options));
            prop_assert_eq!(slice, windowed);
        }
    }

    #[test]
    fn serde_json_reads_any_written_value_as_the_same_value(value in value(), pretty in any::<bool>(), ascii in any::<bool>()) {
        // The writer's output checked by an independent parser, not by sluice's own reader
        // only: a bug that writer and reader share (an escape, a number's spelling, the
        // pretty layout) would pass the round trip above but not this.
        let (_, text) = written(&value, pretty, ascii);
        if ascii {
            prop_assert!(text.is_ascii(), "{}", text);
        }
        let read: serde_json::Value = serde_json::from_str(&text).map_err(|err| {
            TestCaseError::fail(format!("serde_json refuses {text:?}: {err}"))
        })?;
        prop_assert!(serde_read_the_value(&value, &read), "{:?} written as {} read as {:?}", value, text, read);
    }

    #[test]
    fn escaped_strings_read_the_same_from_text_and_bytes(text in any::<String>(), json5 in any::<bool>()) {
        // Escaped strings copy their raw runs to a buffer: unchecked for `&str` input, checked
        // for bytes. Both must give the original text, whatever characters sit by the escapes.
        let mut writer = JsonWriter::for_string(WriterOptions::condensed());
        writer.write_str(&text).unwrap();
        let mut literal = writer.into_string().unwrap();
        if json5 {
            // A JSON5 identity escape of a non-ASCII character and an escaped U+2028 line
            // continuation right before the closing quote.
            literal.truncate(literal.len() - 1);
            literal.push_str("\\é\\\u{2028}\"");
        }
        let options = if json5 { JsonOptions::json5() } else { JsonOptions::strict() };
        let from_text = JsonReader::from_str(&literal).with_options(options.clone()).read_str().unwrap().to_owned();
        let from_bytes = JsonReader::from_slice(literal.as_bytes()).with_options(options).read_str().unwrap().to_owned();
        let expected = if json5 { format!("{text}é") } else { text };
        prop_assert_eq!(&from_text, &expected);
        prop_assert_eq!(from_bytes, expected);
    }

    #[test]
    fn for_string_output_is_the_checked_output(value in value(), pretty in any::<bool>(), ascii in any::<bool>()) {
        // `for_string` hands its buffer over unchecked: it must be what the checked path
        // (a plain vector sink, validated by `into_string`) produces.
        let tokens = Token::read_all(&mut ValueReader::new(&value)).unwrap();
        let options = WriterOptions {
            escape_non_ascii: ascii,
            ..if pretty { WriterOptions::pretty() } else { WriterOptions::condensed() }
        };
        let mut checked = JsonWriter::new(Vec::new(), options.clone());
        Token::write_all(&tokens, &mut checked).unwrap();
        let mut own = JsonWriter::for_string(options);
        Token::write_all(&tokens, &mut own).unwrap();
        prop_assert_eq!(own.into_string().unwrap(), checked.into_string().unwrap());
    }

    #[test]
    fn floats_of_both_widths_read_back_as_the_same_bits(wide in any::<f64>(), narrow in any::<f32>()) {
        prop_assume!(wide.is_finite() && narrow.is_finite());
        let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
        writer.write_array_root(None).unwrap();
        writer.write_f64(wide).unwrap();
        writer.write_f32(narrow).unwrap();
        writer.write_array_end().unwrap();
        let text = writer.into_string().unwrap();
        let mut reader = JsonReader::from_str(&text);
        reader.read_array_root().unwrap();
        let wide_text = reader.read_number().unwrap().as_text().unwrap().to_owned();
        prop_assert!(wide_text.contains(['.', 'e']), "{}", wide_text);
        prop_assert_eq!(wide_text.parse::<f64>().unwrap().to_bits(), wide.to_bits());
        let narrow_text = reader.read_number().unwrap().as_text().unwrap().to_owned();
        prop_assert_eq!(narrow_text.parse::<f32>().unwrap().to_bits(), narrow.to_bits());
        // Shortest: one digit fewer would not read back (Rust's own formatting is shortest).
        let digits = |t: &str| {
            let mantissa: String = t.chars().take_while(|&c| c != 'e').filter(char::is_ascii_digit).collect();
            mantissa.trim_start_matches('0').trim_end_matches('0').len()
        };
        prop_assert!(digits(&wide_text) <= digits(&format!("{wide:?}")), "{} vs {:?}", wide_text, wide);
    }

    #[test]
    fn any_value_written_reads_back_equal(
        value in value(),
        pretty in any::<bool>(),
        ascii in any::<bool>(),
        window in 1usize..40,
    ) {
        let (tokens, text) = written(&value, pretty, ascii);
        let back = read_checked(&mut JsonReader::from_str(&text)).unwrap();
        prop_assert_eq!(canon(&back), canon(&tokens));
        let io = common::read_trickle(text.as_bytes(), 3, &JsonOptions::strict()).unwrap();
        prop_assert_eq!(&io, &back);
        let windowed = common::read_windowed(text.as_bytes(), 5, window, &JsonOptions::strict()).unwrap();
        prop_assert_eq!(windowed, back);
    }

    #[test]
    fn any_bytes_read_without_panic_and_both_paths_agree(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        window in 1usize..12,
    ) {
        for options in [JsonOptions::strict(), JsonOptions::relaxed(), JsonOptions::ndjson(), JsonOptions::json5()] {
            let slice = common::outcome(common::read_slice(&bytes, &options));
            let io = common::outcome(common::read_trickle(&bytes, 1, &options));
            prop_assert_eq!(&slice, &io);
            let windowed = common::outcome(common::read_windowed(&bytes, 2, window, &options));
            prop_assert_eq!(slice, windowed);
        }
    }

    #[test]
    fn json_like_text_reads_without_panic_and_both_paths_agree(
        text in "[\\[\\]{}:,\"\\\\ 0-9a-fA-FeExu.+\\-/*\n\r\t'INT]{0,48}",
        window in 1usize..12,
    ) {
        for options in [JsonOptions::strict(), JsonOptions::json5()] {
            let slice = common::outcome(common::read_slice(text.as_bytes(), &options));
            let io = common::outcome(common::read_trickle(text.as_bytes(), 1, &options));
            prop_assert_eq!(&slice, &io);
            let windowed = common::outcome(common::read_windowed(text.as_bytes(), 3, window, &options));
            prop_assert_eq!(slice, windowed);
        }
    }

    #[test]
    fn output_is_spelled_as_serde_json_spells_it(value in serde_value(), pretty in any::<bool>()) {
        // Byte for byte: floats in the same shortest form, the same escapes, the same
        // pretty layout (two spaces, `": "`, empty containers as `[]` and `{}`).
        let options = if pretty { WriterOptions::pretty() } else { WriterOptions::condensed() };
        let mut writer = JsonWriter::for_string(options);
        write_serde(&value, &mut writer).unwrap();
        let expected = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        prop_assert_eq!(writer.into_string().unwrap(), expected);
    }

    #[test]
    fn an_f32_is_spelled_as_serde_json_spells_it(value in any::<f32>()) {
        prop_assume!(value.is_finite());
        let mut writer = JsonWriter::for_string(WriterOptions::condensed());
        writer.write_f32(value).unwrap();
        prop_assert_eq!(writer.into_string().unwrap(), serde_json::to_string(&value).unwrap());
    }
}

// The inline override (`inline_next_value`) against a reference model of pretty output.

/// A value of the model with the `inline_next_value()` calls made around it.
#[derive(Debug, Clone)]
enum Shape {
    Null,
    Int(i64),
    Text(String),
    /// The items, then how many requests are made after the last one, before the end.
    Array(Vec<Placed>, u8),
    /// The members (keys `k0`, `k1`, ...), then the requests made before the end.
    Object(Vec<Member>, u8),
}

/// A value and how many requests are made right before it.
#[derive(Debug, Clone)]
struct Placed {
    asks: u8,
    shape: Shape,
}

/// An object member: requests before its key and between key and value; with `flush`,
/// the output is handed to the sink between them.
#[derive(Debug, Clone)]
struct Member {
    before_key: u8,
    flush: bool,
    before_value: u8,
    shape: Shape,
}

/// No request, one, or two in a row.
fn asks() -> impl Strategy<Value = u8> {
    prop_oneof![6 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)]
}

fn shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![
        Just(Shape::Null),
        any::<i64>().prop_map(Shape::Int),
        "[a-z \"\\\\é]{0,4}".prop_map(Shape::Text),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        let placed = (asks(), inner.clone()).prop_map(|(asks, shape)| Placed { asks, shape });
        let member = (asks(), any::<bool>(), asks(), inner).prop_map(
            |(before_key, flush, before_value, shape)| Member {
                before_key,
                flush,
                before_value,
                shape,
            },
        );
        prop_oneof![
            (prop::collection::vec(placed, 0..5), asks())
                .prop_map(|(items, end)| Shape::Array(items, end)),
            (prop::collection::vec(member, 0..5), asks())
                .prop_map(|(members, end)| Shape::Object(members, end)),
        ]
    })
}

fn ask(writer: &mut JsonWriter<Vec<u8>>, times: u8) {
    for _ in 0..times {
        writer.inline_next_value();
    }
}

/// Writes `shape`, making its requests where it says.
fn drive(shape: &Shape, writer: &mut JsonWriter<Vec<u8>>) -> sluice_core::Result<()> {
    match shape {
        Shape::Null => writer.write_null(),
        Shape::Int(v) => writer.write_i64(*v),
        Shape::Text(text) => writer.write_str(text),
        Shape::Array(items, end) => {
            writer.write_array_root(None)?;
            for item in items {
                ask(writer, item.asks);
                drive(&item.shape, writer)?;
            }
            ask(writer, *end);
            writer.write_array_end()
        }
        Shape::Object(members, end) => {
            writer.write_map_root(None)?;
            for (i, member) in members.iter().enumerate() {
                ask(writer, member.before_key);
                writer.write_name(&format!("k{i}"))?;
                if member.flush {
                    writer.flush()?;
                }
                ask(writer, member.before_value);
                drive(&member.shape, writer)?;
            }
            ask(writer, *end);
            writer.write_map_end()
        }
    }
}

/// The layout options the model follows.
#[derive(Debug, Clone, Copy)]
struct Layout {
    indent: &'static str,
    space_after_colon: bool,
    nested_on_new_line: bool,
}

/// The text pretty output with `layout` must give `shape`, `depth` levels deep. The rule for one line: a value asked for (a request at its own level since
/// the value before it: right before it, or before its key) is on one line with everything
/// in it, and so is everything inside a one-line value; a request before a container's end
/// asked for a value that never came, and lapses with the container.
fn expected(shape: &Shape, inline: bool, depth: usize, layout: Layout, out: &mut String) {
    let indent = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&layout.indent.repeat(depth));
    };
    let (open, close, len) = match shape {
        Shape::Null => return out.push_str("null"),
        Shape::Int(v) => return out.push_str(&v.to_string()),
        Shape::Text(text) => return out.push_str(&serde_json::to_string(text).unwrap()),
        Shape::Array(items, _) => ('[', ']', items.len()),
        Shape::Object(members, _) => ('{', '}', members.len()),
    };
    out.push(open);
    for i in 0..len {
        if i > 0 {
            out.push(',');
        }
        if inline {
            if i > 0 {
                out.push(' ');
            }
        } else {
            indent(out, depth + 1);
        }
        match shape {
            Shape::Array(items, _) => {
                let item = &items[i];
                expected(&item.shape, inline || item.asks > 0, depth + 1, layout, out);
            }
            Shape::Object(members, _) => {
                let member = &members[i];
                let value_inline = inline || member.before_key + member.before_value > 0;
                out.push_str(&format!("\"k{i}\":"));
                let container = matches!(member.shape, Shape::Array(..) | Shape::Object(..));
                if layout.nested_on_new_line && container && !value_inline {
                    indent(out, depth + 1);
                } else if layout.space_after_colon {
                    out.push(' ');
                }
                expected(&member.shape, value_inline, depth + 1, layout, out);
            }
            _ => unreachable!("only containers have items"),
        }
    }
    if len > 0 && !inline {
        indent(out, depth);
    }
    out.push(close);
}

/// The value serde_json must read from the output of `shape`.
fn serde_of(shape: &Shape) -> serde_json::Value {
    use serde_json::Value as Serde;
    match shape {
        Shape::Null => Serde::Null,
        Shape::Int(v) => Serde::from(*v),
        Shape::Text(text) => Serde::from(text.as_str()),
        Shape::Array(items, _) => items.iter().map(|item| serde_of(&item.shape)).collect(),
        Shape::Object(members, _) => Serde::Object(
            members
                .iter()
                .enumerate()
                .map(|(i, member)| (format!("k{i}"), serde_of(&member.shape)))
                .collect(),
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn inline_requests_put_on_one_line_exactly_the_values_the_model_says(
        roots in prop::collection::vec((asks(), shape()), 1..4),
        after_last in asks(),
        nested_on_new_line in any::<bool>(),
        space_after_colon in any::<bool>(),
        tab in any::<bool>(),
    ) {
        let layout = Layout {
            indent: if tab { "\t" } else { "  " },
            space_after_colon,
            nested_on_new_line,
        };
        let options = WriterOptions {
            indent: layout.indent.to_owned(),
            space_after_colon,
            nested_on_new_line,
            multiple_values: true,
            ..WriterOptions::pretty()
        };
        let mut writer = JsonWriter::new(Vec::new(), options);
        let mut model = String::new();
        for (i, (asks, shape)) in roots.iter().enumerate() {
            if i > 0 {
                model.push('\n');
            }
            ask(&mut writer, *asks);
            drive(shape, &mut writer).unwrap();
            expected(shape, *asks > 0, 0, layout, &mut model);
        }
        // Asked for a root value that never comes.
        ask(&mut writer, after_last);
        let text = writer.into_string().unwrap();
        prop_assert_eq!(&text, &model);
        let read = serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| TestCaseError::fail(format!("serde_json refuses {text:?}: {err}")))?;
        let values: Vec<_> = roots.iter().map(|(_, shape)| serde_of(shape)).collect();
        prop_assert_eq!(read, values);
    }
}
