//! Typed NDJSON records from memory (`ndjson::iter_slice`, `ndjson::iter_str`) against the
//! same bytes as an `io::Read` (`ndjson::iter`): the same values, and the same errors with
//! the same codes, spans, notes and paths, in the same order.

use sluice::Reflect;
use sluice::core::Span;
use sluice::core::testing::Trickle;
use sluice::json::IO_WINDOW;
use sluice::ndjson::{Records, SliceRecords, iter, iter_slice, iter_str};

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Item {
    id: u32,
    name: String,
}

/// An item as compared: the value, or what identifies its error.
type Outcome = Result<Item, (String, Option<Span>, Vec<String>, Option<String>)>;

fn outcomes(items: impl Iterator<Item = sluice::Result<Item>>) -> Vec<Outcome> {
    items
        .map(|item| {
            item.map_err(|error| {
                (
                    error.code().to_string(),
                    error.span(),
                    error.notes().to_vec(),
                    error.path().map(ToString::to_string),
                )
            })
        })
        .collect()
}

/// A record whose name is longer than the window `iter` reads a stream through, so that
/// the window moves inside it.
fn long_record(id: u32) -> String {
    format!(
        "{{\"id\": {id}, \"name\": \"{}\"}}\n",
        "n".repeat(IO_WINDOW + 100)
    )
}

/// Inputs covering the good and the bad lines of NDJSON, as bytes (some are not UTF-8).
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let text = |name: &'static str, text: &str| (name, text.as_bytes().to_vec());
    vec![
        text(
            "good records",
            "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n",
        ),
        text(
            "values that do not fit",
            "{\"id\": -1, \"name\": \"a\"}\n{\"id\": \"2\", \"name\": \"b\"}\n{\"id\": 3}\n{\"id\": 4, \"name\": \"d\", \"x\": 0}\n{\"id\": 5, \"name\": \"e\"}\n",
        ),
        text(
            "a syntax error mid-line",
            "{\"id\": 1, \"name\": \"a\",}\n{\"id\" 2}\n{\"id\": 3, \"name\": \"c\"}\n",
        ),
        text(
            "a value cut by its line feed",
            "{\"id\": 1,\n\"name\": \"a\"}\n{\"id\": 2, \"name\":\n{\"id\": 3, \"name\": \"c\"}\n",
        ),
        text(
            "two values on a line",
            "1 2\n{\"id\": 1, \"name\": \"a\"} {\"id\": 2, \"name\": \"b\"}\n{\"id\": 3, \"name\": \"c\"} ]\n{\"id\": 4, \"name\": \"d\"}\n",
        ),
        text("a bad first token", "]\n{\"id\": 1, \"name\": \"a\"}\nx\n"),
        text(
            "blank lines",
            "\n\n{\"id\": 1, \"name\": \"a\"}\n \n\t\n\n{\"id\": 2, \"name\": \"b\"}\n\n",
        ),
        text(
            "CRLF line ends",
            "{\"id\": 1, \"name\": \"a\"}\r\n{\"id\": 2,\r\n{\"id\": 3, \"name\": \"c\"}\r\n\r\n",
        ),
        text(
            "a BOM at the start",
            "\u{feff}{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n",
        ),
        text(
            "a BOM on a later line",
            "{\"id\": 1, \"name\": \"a\"}\n\u{feff}{\"id\": 2, \"name\": \"b\"}\n",
        ),
        text(
            "the last line without a line feed",
            "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}",
        ),
        text(
            "the last line cut without a line feed",
            "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"na",
        ),
        text("an empty input", ""),
        text("only blank lines", "\n \n\r\n"),
        (
            "invalid UTF-8 in a string",
            b"{\"id\": 1, \"name\": \"\xff\"}\n{\"id\": 2, \"name\": \"b\"}\n".to_vec(),
        ),
        (
            "records longer than the stream's window",
            [
                long_record(1),
                "{\"id\": 2,\n".to_owned(),
                long_record(3),
                "{\"id\": 4, \"name\": \"d\"} 5\n".to_owned(),
            ]
            .concat()
            .into_bytes(),
        ),
    ]
}

#[test]
fn the_slice_iterator_yields_the_items_of_the_stream_iterator() {
    for (name, bytes) in inputs() {
        let streamed = outcomes(iter(&bytes[..]));
        assert_eq!(outcomes(iter_slice(&bytes)), streamed, "{name}");
        // A stream that hands out a few bytes a call moves its window more often.
        let trickled = outcomes(iter(Trickle {
            bytes: &bytes,
            chunk: 7,
        }));
        assert_eq!(trickled, streamed, "{name}, trickled");
        if let Ok(text) = std::str::from_utf8(&bytes) {
            assert_eq!(outcomes(iter_str(text)), streamed, "{name}, as text");
        }
    }
}

#[test]
fn the_slice_iterator_goes_on_after_each_bad_line() {
    let input = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": -1, \"name\": \"b\"}\n{\"id\": 3,\n\
                 {\"id\": 4, \"name\": \"d\"} 5\n]\n{\"id\": 6, \"name\": \"f\"}";
    let items = outcomes(iter_str(input));
    let codes: Vec<Result<u32, &str>> = items
        .iter()
        .map(|item| match item {
            Ok(item) => Ok(item.id),
            Err((code, ..)) => Err(code.as_str()),
        })
        .collect();
    assert_eq!(
        codes,
        [
            Ok(1),
            Err("core/NumberOutOfRange"),
            Err("json/UnexpectedEof"),
            Err("json/TrailingToken"),
            Err("json/UnexpectedToken"),
            Ok(6),
        ]
    );
    // The second value on line 4 is its record's error, at that value, noted with the line.
    let Err((_, span, notes, _)) = &items[3] else {
        panic!("an error on line 4");
    };
    let at = input.find(" 5\n").unwrap() + 1;
    assert_eq!(*span, Some(Span::new(at, at + 1)));
    assert!(
        notes.iter().any(|note| note.contains("line 4")),
        "{notes:?}"
    );
}

#[test]
fn an_empty_input_has_no_records() {
    assert!(iter_slice::<Item>(b"").next().is_none());
    assert!(iter_str::<Item>("\n\n").next().is_none());
}

#[test]
fn both_iterator_types_can_be_named() {
    let input = "[1, 2]\n";
    let streamed: Records<(u8, u8), &[u8]> = iter(input.as_bytes());
    let in_memory: SliceRecords<'_, (u8, u8)> = iter_slice(input.as_bytes());
    assert_eq!(
        streamed.map(Result::unwrap).collect::<Vec<_>>(),
        in_memory.map(Result::unwrap).collect::<Vec<_>>()
    );
}

#[test]
fn the_iterators_can_be_sent_to_and_shared_with_other_threads() {
    // Their reads of `T` keep an emptied frame stack between records, which is declared
    // `Send` and `Sync` by hand (a stack of frames holds pointers into its target).
    fn shared<T: Sync>(_: &T) {}
    let input = "[1, 2]\n[3, 4]\n";
    let streamed = iter::<(u8, u8), _>(std::io::Cursor::new(input.as_bytes().to_vec()));
    let in_memory = iter_slice::<(u8, u8)>(input.as_bytes());
    shared(&streamed);
    shared(&in_memory);
    let (streamed, in_memory) = std::thread::scope(|scope| {
        let streamed = scope.spawn(move || streamed.map(Result::unwrap).collect::<Vec<_>>());
        let in_memory = scope.spawn(move || in_memory.map(Result::unwrap).collect::<Vec<_>>());
        (streamed.join().unwrap(), in_memory.join().unwrap())
    });
    assert_eq!(streamed, [(1, 2), (3, 4)]);
    assert_eq!(in_memory, streamed);
}

#[test]
fn the_iterators_debug_output_names_their_type() {
    let input = "[1, 2]\n";
    assert!(format!("{:?}", iter::<(u8, u8), _>(input.as_bytes())).starts_with("Records"));
    assert!(format!("{:?}", iter_slice::<(u8, u8)>(input.as_bytes())).starts_with("SliceRecords"));
}
