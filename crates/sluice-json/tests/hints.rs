//! An error that a switch of `JsonOptions` would have avoided carries a note naming that
//! switch: comments, trailing commas, several roots and JSON5 syntax refused by stricter
//! options. The note never changes the error's code or span, both input paths give the same
//! notes, and an error that no switch avoids gets none.

mod common;

use common::{read_slice, read_trickle};
use sluice_core::{Error, Span};
use sluice_json::{JsonOptions, NdjsonReader, Relaxation, codes};

/// The notes of `error` that name a switch of `JsonOptions`.
fn switch_notes(error: &Error) -> Vec<&str> {
    error
        .notes()
        .iter()
        .map(String::as_str)
        .filter(|note| note.contains("JsonOptions::"))
        .collect()
}

/// Documents refused by the strict options: the error's code and span, and the switch
/// named in the note.
#[rustfmt::skip]
const AVOIDABLE: &[(&str, &str, usize, usize, Relaxation)] = &[
    ("{\"a\": 1 // why\n}", "ExpectComma", 8, 9, Relaxation::Comments),
    ("/* header */ [1]", "UnexpectedToken", 0, 1, Relaxation::Comments),
    ("[1] // the end", "TrailingToken", 4, 5, Relaxation::Comments),
    ("[1, 2,]", "UnexpectedToken", 6, 7, Relaxation::TrailingCommas),
    ("[1, 2,\n  ]", "UnexpectedToken", 9, 10, Relaxation::TrailingCommas),
    (r#"{"a": 1,}"#, "ExpectKey", 8, 9, Relaxation::TrailingCommas),
    ("{} {}", "TrailingToken", 3, 4, Relaxation::MultipleValues),
    ("1\n2", "TrailingToken", 2, 3, Relaxation::MultipleValues),
    ("[1] \"a\"", "TrailingToken", 4, 7, Relaxation::MultipleValues),
    ("[1]\n-2", "TrailingToken", 4, 6, Relaxation::MultipleValues),
    ("{}\nnull", "TrailingToken", 3, 7, Relaxation::MultipleValues),
    ("{name: 1}", "ExpectKey", 1, 5, Relaxation::UnquotedKeys),
    (r#"{"a": 1, _b: 2}"#, "ExpectKey", 9, 11, Relaxation::UnquotedKeys),
    ("{'a': 1}", "ExpectKey", 1, 2, Relaxation::SingleQuotes),
    ("['x', 'y']", "UnexpectedToken", 1, 2, Relaxation::SingleQuotes),
    ("[+1]", "UnexpectedToken", 1, 3, Relaxation::Json5Numbers),
    ("[.5]", "UnexpectedToken", 1, 3, Relaxation::Json5Numbers),
    ("[5.]", "InvalidNumber", 1, 3, Relaxation::Json5Numbers),
    ("[0x1F]", "InvalidNumber", 1, 5, Relaxation::Json5Numbers),
    ("[Infinity]", "UnexpectedToken", 1, 9, Relaxation::Json5Numbers),
    ("[-NaN]", "InvalidNumber", 1, 5, Relaxation::Json5Numbers),
    (r#"["it\'s"]"#, "InvalidEscape", 4, 6, Relaxation::Json5Escapes),
    (r#"["\x41"]"#, "InvalidEscape", 2, 4, Relaxation::Json5Escapes),
    (r#"["a\0"]"#, "InvalidEscape", 3, 5, Relaxation::Json5Escapes),
    (r#"["\0 1"]"#, "InvalidEscape", 2, 4, Relaxation::Json5Escapes),
    ("[\"a\\\nb\"]", "InvalidEscape", 3, 5, Relaxation::Json5Escapes),
    ("{\"a\":\u{a0}1}", "UnexpectedToken", 5, 7, Relaxation::Json5Whitespace),
    ("[1,\u{2028}2]", "UnexpectedToken", 3, 6, Relaxation::Json5Whitespace),
    // A byte order mark anywhere but at the start.
    (" \u{feff}[]", "UnexpectedToken", 1, 4, Relaxation::Json5Whitespace),
    // A tab pasted into a string, another control character.
    ("[\"a\tb\"]", "ControlCharacter", 3, 4, Relaxation::Json5ControlCharacters),
    ("{\"\u{1}\": 1}", "ControlCharacter", 2, 3, Relaxation::Json5ControlCharacters),
];

#[test]
fn an_error_a_switch_avoids_names_that_switch_and_keeps_its_code_and_span() {
    for &(document, code, start, end, relaxation) in AVOIDABLE {
        let error = read_slice(document.as_bytes(), &JsonOptions::strict()).unwrap_err();
        assert_eq!(error.code().id(), code, "{document:?}");
        assert_eq!(error.span(), Some(Span::new(start, end)), "{document:?}");
        assert_eq!(
            Relaxation::noted_in(&error),
            Some(relaxation),
            "{document:?}: {error:?}"
        );
        // One note names a switch, in the words a program reading them can search for.
        let notes = switch_notes(&error);
        let switch = relaxation.option_name();
        assert_eq!(notes.len(), 1, "{document:?}: {notes:?}");
        assert!(
            notes[0].contains(&format!("`JsonOptions::{switch}`")),
            "{document:?}: {notes:?}"
        );
        // And the switch named does avoid it.
        let mut options = JsonOptions::strict();
        relaxation.enable(&mut options);
        if let Err(error) = read_slice(document.as_bytes(), &options) {
            panic!("{document:?} with {switch}: {error:?}");
        }
    }
}

#[test]
fn both_input_paths_give_the_same_notes() {
    for &(document, ..) in AVOIDABLE {
        let slice = read_slice(document.as_bytes(), &JsonOptions::strict()).unwrap_err();
        for chunk in [1, 2, 3, 7] {
            let io = read_trickle(document.as_bytes(), chunk, &JsonOptions::strict()).unwrap_err();
            assert_eq!(
                (io.code(), io.span(), io.notes()),
                (slice.code(), slice.span(), slice.notes()),
                "{document:?} in reads of {chunk}"
            );
        }
    }
}

#[test]
fn the_bytes_after_a_slash_or_an_escape_decide_its_note_alike_on_both_input_paths() {
    for document in [
        r#"["\01"]"#,
        r#"["\0a"]"#,
        r#"["\x4"]"#,
        r#"["\x4f"]"#,
        r#"["\xg"]"#,
        "[1 /x]",
        "[1 //x\n]",
        "[1 /*x*/]",
        "[1 /",
        "[1] /* end */",
        "[1] /",
    ] {
        let slice = read_slice(document.as_bytes(), &JsonOptions::strict()).unwrap_err();
        for chunk in [1, 2, 3] {
            let io = read_trickle(document.as_bytes(), chunk, &JsonOptions::strict()).unwrap_err();
            assert_eq!(
                (io.code(), io.span(), io.notes()),
                (slice.code(), slice.span(), slice.notes()),
                "{document:?} in reads of {chunk}"
            );
        }
    }
}

#[test]
fn an_error_no_switch_avoids_gets_no_note() {
    // Refused by JSON5, which has every switch on.
    let json5_refused: &[&str] = &[
        "[01]",
        "[1.2.3]",
        "[0x]",
        "[Inf]",
        "[,]",
        "{1: 2}",
        "{-: 2}",
        r#"["\1"]"#,
        r#"["\01"]"#,
        r#"["\x4"]"#,
        r#"["\x4g"]"#,
        r#"{"a" 1}"#,
        "[1 2]",
        "['a\nb']",
    ];
    // Refused by the strict options, and no switch alone would take them.
    let strict_refused: &[&str] = &[
        "[01]",
        "[0x]",
        "[Inf]",
        "[,]",
        "{1: 2}",
        "{-: 2}",
        r#"["\1"]"#,
        // JSON5 takes `\0` and `\x` only with what follows them right.
        r#"["\01"]"#,
        r#"["\x4"]"#,
        r#"["\x4g"]"#,
        r#"["\xg4"]"#,
        "[1 2]",
        // A raw line break, which JSON5 strings cannot hold either.
        "[\"a\nb\"]",
        "[\"a\rb\"]",
        // After the root, what starts no value: no second value explains it.
        "[1] ]",
        "{} }",
        "[1] ,",
        "1 :",
        "[1] x",
        "[1] tru",
        // A comma before the other kind of closing bracket: no trailing comma.
        "{\"a\": 1,]",
        "[1,}",
        "[[1,}]",
        // A `/` that starts no comment, wherever it stands, or at the end of the input.
        "[1 /x]",
        "[1, /x]",
        "/x",
        "{\"a\": / 1}",
        "{/a: 1}",
        "[1] /",
        "[1 /",
    ];
    for (options, documents) in [
        (JsonOptions::json5(), json5_refused),
        (JsonOptions::strict(), strict_refused),
    ] {
        for document in documents {
            let error = read_slice(document.as_bytes(), &options).unwrap_err();
            assert_eq!(
                switch_notes(&error),
                Vec::<&str>::new(),
                "{document:?}: {error:?}"
            );
            assert_eq!(Relaxation::noted_in(&error), None, "{document:?}");
        }
    }
}

#[test]
fn an_escape_in_an_unquoted_key_names_no_switch() {
    // JSON5 identifier keys take `\u` escapes only, whatever `json5_escapes` says.
    let options = JsonOptions {
        unquoted_keys: true,
        ..JsonOptions::strict()
    };
    let error = read_slice(br"{a\x41: 1}", &options).unwrap_err();
    assert_eq!(error.code(), codes::INVALID_ESCAPE);
    assert_eq!(error.span(), Some(Span::new(2, 4)));
    assert_eq!(switch_notes(&error), Vec::<&str>::new());
    // In a string the same escape names it.
    let error = read_slice(br#"{"a\x41": 1}"#, &options).unwrap_err();
    assert_eq!(switch_notes(&error).len(), 1);
}

#[test]
fn options_that_have_the_switch_on_name_none() {
    // The relaxed preset takes comments and trailing commas, so a JSON5 key is what it
    // names in a document that has all three.
    let document = "{// note\n  name: 1,}";
    let error = read_slice(document.as_bytes(), &JsonOptions::relaxed()).unwrap_err();
    assert_eq!(error.code(), codes::EXPECT_KEY);
    assert_eq!(switch_notes(&error).len(), 1);
    assert_eq!(Relaxation::noted_in(&error), Some(Relaxation::UnquotedKeys));
}

#[test]
fn an_ndjson_record_gets_the_note_too() {
    // The NDJSON preset reads several values and no comments.
    let mut reader = NdjsonReader::from_str("{\"id\": 1}\n{\"id\": 2} // second\n");
    let mut errors = Vec::new();
    while let Some(result) = reader.next_record().transpose() {
        match result.and_then(|mut record| {
            sluice_core::Reader::skip(&mut record)?;
            record.finish()
        }) {
            Ok(()) => {}
            Err(error) => {
                errors.push(error);
                break;
            }
        }
    }
    let [error] = errors.as_slice() else {
        panic!("{errors:?}");
    };
    assert_eq!(error.code(), codes::TRAILING_TOKEN);
    assert_eq!(error.span(), Some(Span::new(20, 21)));
    assert_eq!(switch_notes(error).len(), 1, "{error:?}");
    assert_eq!(Relaxation::noted_in(error), Some(Relaxation::Comments));
}

#[test]
fn every_relaxation_names_the_switch_it_turns_on() {
    // Each turns on exactly one switch, the field its name spells, off in the strict preset.
    let fields = |options: &JsonOptions| {
        [
            ("comments", options.comments),
            ("trailing_commas", options.trailing_commas),
            ("multiple_values", options.multiple_values),
            ("unquoted_keys", options.unquoted_keys),
            ("single_quotes", options.single_quotes),
            ("json5_numbers", options.json5_numbers),
            ("json5_escapes", options.json5_escapes),
            ("json5_whitespace", options.json5_whitespace),
            ("json5_control_characters", options.json5_control_characters),
        ]
    };
    let mut named = Vec::new();
    for relaxation in Relaxation::ALL {
        let mut options = JsonOptions::strict();
        assert!(!relaxation.is_enabled(&options), "{relaxation:?}");
        relaxation.enable(&mut options);
        assert!(relaxation.is_enabled(&options), "{relaxation:?}");
        let on: Vec<&str> = fields(&options)
            .into_iter()
            .filter(|&(_, on)| on)
            .map(|(name, _)| name)
            .collect();
        assert_eq!(on, [relaxation.option_name()], "{relaxation:?}");
        // The note starts with the reason and ends with the switch.
        let note = relaxation.note();
        assert!(note.starts_with(relaxation.reason()), "{note}");
        assert!(
            note.ends_with(&format!("(`JsonOptions::{}`)", relaxation.option_name())),
            "{note}"
        );
        named.push(relaxation.option_name());
    }
    // Every switch of the table once.
    let all: Vec<&str> = fields(&JsonOptions::strict())
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(named, all);
}
