//! Notes for errors that a switch of [`JsonOptions`] would have avoided.
//!
//! People who write JSON by hand write comments, trailing commas, single quotes and
//! unquoted keys, and a strict reader refuses them. The error says what it found; a note
//! then names the switch that accepts it, and the dialects that have it on (the presets, and
//! the command line's `--relaxed`, `--json5` and `--ndjson`), so the way out is one step
//! away.
//!
//! A note depends only on the refused token, as the error's span holds it (for a `/` and
//! two escapes, also on the bytes after it; see below), so that both input paths (and an
//! `io::Read` in any chunks) give the same notes. A `/` gets one only before a `/` or `*`,
//! where a comment starts: the reader loads that byte on both paths, and a lone `/` is
//! refused by every dialect. Where the token's first byte says it all (`'`, the bracket
//! that closes the container right after a comma), that decides. A number, an unquoted key
//! or a second root value is read again, by a reader over its bytes with the switch on: a
//! number or key gets a note only when that reads it whole (`0x1F` and `Infinity` do, `01`
//! and `0x` do not), a second root value only when it starts a value (`{` and `"a"` do, a
//! stray `]` or `x` does not). An escape gets one unless JSON5 refuses it too (`\1`, `\01`,
//! `\x4`): for `\0` and `\x` that depends on the two bytes after the escape, which the
//! reader loads as JSON5 does, on both paths. A raw control character in a string gets one
//! unless it is a line break. Nothing here runs unless an error has happened.

use sluice_core::Reader;

use crate::input::SliceInput;
use crate::options::JsonOptions;
use crate::reader::JsonReader;
use crate::scan;

/// A switch of [`JsonOptions`] that relaxes the strict grammar, as an error's note names it.
///
/// When the options refuse a token that one of their switches would accept, the error gets
/// a note naming that switch, and [`noted_in`] finds it again: a program can then say it in
/// its own terms (a command line names its flag) or offer to read the input again with the
/// switch on.
///
/// ```
/// use sluice_core::Token;
/// use sluice_json::{JsonOptions, JsonReader, Relaxation};
/// let text = "[1, 2, /* three */ 3]";
/// let mut options = JsonOptions::strict();
/// let err = Token::read_all(&mut JsonReader::from_str(text).with_options(options.clone()))
///     .unwrap_err();
/// let relaxation = Relaxation::noted_in(&err).expect("a comment is noted");
/// assert_eq!(relaxation, Relaxation::Comments);
/// assert_eq!(relaxation.option_name(), "comments");
/// relaxation.enable(&mut options);
/// assert!(Token::read_all(&mut JsonReader::from_str(text).with_options(options)).is_ok());
/// ```
///
/// [`noted_in`]: Relaxation::noted_in
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Relaxation {
    /// [`JsonOptions::comments`].
    Comments,
    /// [`JsonOptions::trailing_commas`].
    TrailingCommas,
    /// [`JsonOptions::multiple_values`].
    MultipleValues,
    /// [`JsonOptions::unquoted_keys`].
    UnquotedKeys,
    /// [`JsonOptions::single_quotes`].
    SingleQuotes,
    /// [`JsonOptions::json5_numbers`].
    Json5Numbers,
    /// [`JsonOptions::json5_escapes`].
    Json5Escapes,
    /// [`JsonOptions::json5_whitespace`].
    Json5Whitespace,
    /// [`JsonOptions::json5_control_characters`].
    Json5ControlCharacters,
}

/// Where a refused token stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Where a value may start (an array item, an object's value, a root).
    Value,
    /// Where a key may start.
    Key,
    /// A closing bracket right after a `,`.
    AfterComma,
    /// After the root value, which the input should end with.
    AfterRoot,
    /// Anywhere else (where a `,`, `:` or closing bracket was expected).
    Other,
}

impl Relaxation {
    /// Every relaxation a note can name.
    pub const ALL: [Relaxation; 9] = [
        Relaxation::Comments,
        Relaxation::TrailingCommas,
        Relaxation::MultipleValues,
        Relaxation::UnquotedKeys,
        Relaxation::SingleQuotes,
        Relaxation::Json5Numbers,
        Relaxation::Json5Escapes,
        Relaxation::Json5Whitespace,
        Relaxation::Json5ControlCharacters,
    ];

    /// The relaxation that a note of `err` names, if any: the switch that was off and would
    /// have accepted the token the error points at.
    ///
    /// ```
    /// use sluice_core::Token;
    /// use sluice_json::{JsonReader, Relaxation};
    /// let err = Token::read_all(&mut JsonReader::from_str("{name: 1}")).unwrap_err();
    /// assert_eq!(Relaxation::noted_in(&err), Some(Relaxation::UnquotedKeys));
    /// // `01` is no number in any dialect: no switch would help.
    /// let err = Token::read_all(&mut JsonReader::from_str("[01]")).unwrap_err();
    /// assert_eq!(Relaxation::noted_in(&err), None);
    /// ```
    #[must_use]
    pub fn noted_in(err: &sluice_core::Error) -> Option<Relaxation> {
        err.notes().iter().find_map(|text| {
            Relaxation::ALL
                .into_iter()
                .find(|relaxation| *text == relaxation.note())
        })
    }

    /// The name of the switch, as the field of [`JsonOptions`] spells it (`"comments"`).
    ///
    /// ```
    /// use sluice_json::Relaxation;
    /// assert_eq!(Relaxation::Json5Numbers.option_name(), "json5_numbers");
    /// ```
    #[must_use]
    pub fn option_name(self) -> &'static str {
        match self {
            Relaxation::Comments => "comments",
            Relaxation::TrailingCommas => "trailing_commas",
            Relaxation::MultipleValues => "multiple_values",
            Relaxation::UnquotedKeys => "unquoted_keys",
            Relaxation::SingleQuotes => "single_quotes",
            Relaxation::Json5Numbers => "json5_numbers",
            Relaxation::Json5Escapes => "json5_escapes",
            Relaxation::Json5Whitespace => "json5_whitespace",
            Relaxation::Json5ControlCharacters => "json5_control_characters",
        }
    }

    /// What the strict grammar refused, and which dialects accept it, without naming the
    /// switch: the first part of the note, for a program that names the switch its own way.
    ///
    /// ```
    /// use sluice_json::Relaxation;
    /// // A command line's own note, naming its flag rather than the Rust option.
    /// let note = format!("{} (`--relaxed`)", Relaxation::Comments.reason());
    /// assert!(!note.contains("JsonOptions"));
    /// ```
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Relaxation::Comments => {
                "comments are not JSON; the relaxed and JSON5 dialects allow them"
            }
            Relaxation::TrailingCommas => {
                "a comma after the last item is not JSON; the relaxed and JSON5 dialects \
                 allow it"
            }
            Relaxation::MultipleValues => {
                "a JSON text holds one value; several at the root are NDJSON or \
                 concatenated JSON"
            }
            Relaxation::UnquotedKeys => "a key without quotes is JSON5, not JSON",
            Relaxation::SingleQuotes => "a string in single quotes is JSON5, not JSON",
            Relaxation::Json5Numbers => "this number is JSON5, not JSON",
            Relaxation::Json5Escapes => "this escape is JSON5, not JSON",
            Relaxation::Json5Whitespace => "this character is whitespace in JSON5, not in JSON",
            Relaxation::Json5ControlCharacters => {
                "JSON5 strings may hold this control character unescaped, JSON strings may not"
            }
        }
    }

    /// The note the reader adds to an error: the [`reason`](Relaxation::reason) and the
    /// switch, as `JsonOptions::comments`.
    #[must_use]
    pub fn note(self) -> String {
        format!("{} (`JsonOptions::{}`)", self.reason(), self.option_name())
    }

    /// Turns this switch on in `options`.
    pub fn enable(self, options: &mut JsonOptions) {
        *self.switch_mut(options) = true;
    }

    /// Whether this switch is on in `options`.
    ///
    /// ```
    /// use sluice_json::{JsonOptions, Relaxation};
    /// assert!(Relaxation::Comments.is_enabled(&JsonOptions::relaxed()));
    /// assert!(!Relaxation::UnquotedKeys.is_enabled(&JsonOptions::relaxed()));
    /// ```
    #[must_use]
    pub fn is_enabled(self, options: &JsonOptions) -> bool {
        // A copy, so that the fields are named in one table only (`switch_mut`); the
        // options are a few flags and numbers.
        let mut options = options.clone();
        *self.switch_mut(&mut options)
    }

    /// The field of `options` that holds this switch.
    fn switch_mut(self, options: &mut JsonOptions) -> &mut bool {
        match self {
            Relaxation::Comments => &mut options.comments,
            Relaxation::TrailingCommas => &mut options.trailing_commas,
            Relaxation::MultipleValues => &mut options.multiple_values,
            Relaxation::UnquotedKeys => &mut options.unquoted_keys,
            Relaxation::SingleQuotes => &mut options.single_quotes,
            Relaxation::Json5Numbers => &mut options.json5_numbers,
            Relaxation::Json5Escapes => &mut options.json5_escapes,
            Relaxation::Json5Whitespace => &mut options.json5_whitespace,
            Relaxation::Json5ControlCharacters => &mut options.json5_control_characters,
        }
    }

    /// `options` with this switch on.
    fn enabled_in(self, options: &JsonOptions) -> JsonOptions {
        let mut options = options.clone();
        self.enable(&mut options);
        // A value read again alone is a root of its own.
        options.scalar_root = true;
        options
    }

    /// Whether this switch is off in `options`.
    fn is_off(self, options: &JsonOptions) -> bool {
        !self.is_enabled(options)
    }

    /// Whether a reader with this switch on takes `token` as the start of a value: it reads
    /// it whole, or stops for want of the rest (`{`, a string's opening quote), rather than
    /// refusing it as no value at all (`]`, `:`, `x`), which no second value explains.
    fn starts_value(self, options: &JsonOptions, token: &[u8]) -> bool {
        match self.skip_alone(options, token).0 {
            Ok(()) => true,
            Err(err) => err.code() != crate::codes::UNEXPECTED_TOKEN,
        }
    }

    /// `token` read alone as a value, by a reader with this switch on: what its `skip`
    /// gave, and the span it ended at.
    fn skip_alone(
        self,
        options: &JsonOptions,
        token: &[u8],
    ) -> (sluice_core::Result<()>, sluice_core::Span) {
        let mut reader = JsonReader::new(SliceInput::new(token), self.enabled_in(options));
        let skipped = reader.skip();
        (skipped, reader.span())
    }

    /// Whether a reader with this switch on reads `token` whole as a value (or with `key`,
    /// as a key).
    fn reads(self, options: &JsonOptions, token: &[u8], key: bool) -> bool {
        if key {
            let mut document = Vec::with_capacity(token.len() + 1);
            document.push(b'{');
            document.extend_from_slice(token);
            let mut reader = JsonReader::new(SliceInput::new(&document), self.enabled_in(options));
            reader
                .read_map_root()
                .and_then(|_| reader.read_name())
                .is_ok()
                && reader.span().end == document.len()
        } else {
            let (skipped, span) = self.skip_alone(options, token);
            skipped.is_ok() && span == sluice_core::Span::new(0, token.len())
        }
    }
}

/// `error` with the note naming `relaxation`, the switch that would have avoided it, if any.
pub(crate) fn noted(
    error: sluice_core::Error,
    relaxation: Option<Relaxation>,
) -> sluice_core::Error {
    match relaxation {
        Some(relaxation) => error.with_note(relaxation.note()),
        None => error,
    }
}

/// The switch, off in `options`, that would accept `token` (the bytes of a refused token, as
/// its error's span holds them) where it stands, at `place`. `next` is the byte after a `/`,
/// if the input has one (the reader loads it for that token only): a `/` starts a comment
/// only before `/` or `*`, and a lone one is refused by every dialect.
pub(crate) fn for_token(
    options: &JsonOptions,
    place: Place,
    token: &[u8],
    next: Option<u8>,
) -> Option<Relaxation> {
    let first = *token.first()?;
    let relaxation = match (place, first) {
        (_, b'/') if matches!(next, Some(b'/' | b'*')) => Relaxation::Comments,
        (_, b'/') => return None,
        // A no-break space pasted into a file, a vertical tab, a line separator.
        _ if scan::json5_space_len(token) == Some(token.len()) => Relaxation::Json5Whitespace,
        (Place::AfterComma, b']' | b'}') => Relaxation::TrailingCommas,
        (Place::AfterRoot, _) => Relaxation::MultipleValues,
        (Place::Key | Place::Value, b'\'') => Relaxation::SingleQuotes,
        (Place::Key, _) => Relaxation::UnquotedKeys,
        (Place::Value, _) => Relaxation::Json5Numbers,
        _ => return None,
    };
    // Off first: the reader that reads the token again has it on, and gives its own errors
    // no note of it.
    let accepted = relaxation.is_off(options)
        && match relaxation {
            Relaxation::UnquotedKeys => relaxation.reads(options, token, true),
            Relaxation::Json5Numbers => relaxation.reads(options, token, false),
            Relaxation::MultipleValues => relaxation.starts_value(options, token),
            _ => true,
        };
    accepted.then_some(relaxation)
}

/// The switch, off in `options`, that would accept the escape `escape` (a backslash and the
/// character after it) that a string refused; `after` holds up to two of the bytes that
/// follow it, as far as the input has them (the reader loads them for `\0` and `\x`, as
/// JSON5 does).
pub(crate) fn for_escape(options: &JsonOptions, escape: &[u8], after: &[u8]) -> Option<Relaxation> {
    let relaxation = Relaxation::Json5Escapes;
    // JSON5 escapes every character to itself but the digits 1 to 9 (no octal escapes), and
    // `\0` only when no digit follows; `\x` takes two hexadecimal digits. `\u` with bad
    // digits never comes here.
    let json5 = match escape.get(1) {
        Some(b'1'..=b'9') => false,
        Some(b'0') => !after.first().is_some_and(u8::is_ascii_digit),
        Some(b'x') => after.len() == 2 && after.iter().all(u8::is_ascii_hexdigit),
        _ => true,
    };
    (relaxation.is_off(options) && json5).then_some(relaxation)
}

/// The switch, off in `options`, that would accept the raw control character `byte` in a
/// string: all but the line breaks, which JSON5 strings cannot hold raw either.
pub(crate) fn for_control_character(options: &JsonOptions, byte: u8) -> Option<Relaxation> {
    let relaxation = Relaxation::Json5ControlCharacters;
    (relaxation.is_off(options) && byte != b'\n' && byte != b'\r').then_some(relaxation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict() -> JsonOptions {
        JsonOptions::strict()
    }

    #[test]
    fn a_comment_start_is_hinted_only_when_comments_are_off() {
        for next in [b'/', b'*'] {
            for place in [Place::Value, Place::Key, Place::AfterRoot, Place::Other] {
                assert_eq!(
                    for_token(&strict(), place, b"/", Some(next)),
                    Some(Relaxation::Comments)
                );
            }
            assert_eq!(
                for_token(&JsonOptions::relaxed(), Place::Other, b"/", Some(next)),
                None
            );
        }
    }

    #[test]
    fn a_slash_that_starts_no_comment_is_hinted_as_nothing() {
        // No dialect reads `/x` or a `/` at the end of the input, not even as a second root.
        for next in [None, Some(b'x'), Some(b' '), Some(b'1')] {
            for place in [Place::Value, Place::Key, Place::AfterRoot, Place::Other] {
                assert_eq!(for_token(&strict(), place, b"/", next), None, "{next:?}");
            }
        }
    }

    #[test]
    fn a_closing_bracket_after_a_comma_is_a_trailing_comma() {
        for close in [b"]", b"}"] {
            assert_eq!(
                for_token(&strict(), Place::AfterComma, close, None),
                Some(Relaxation::TrailingCommas)
            );
            assert_eq!(
                for_token(&JsonOptions::relaxed(), Place::AfterComma, close, None),
                None
            );
        }
        // Right after `[` it is no trailing comma's fault.
        assert_eq!(for_token(&strict(), Place::Value, b"]", None), None);
    }

    #[test]
    fn a_token_no_value_starts_with_is_no_second_root_value() {
        for token in [&b"]"[..], b"}", b",", b":", b"x", b"tru"] {
            assert_eq!(
                for_token(&strict(), Place::AfterRoot, token, None),
                None,
                "{}",
                String::from_utf8_lossy(token)
            );
        }
        // A quote, a digit, a literal: the start of a second value.
        for token in [&b"\""[..], b"[", b"-", b"7", b"null"] {
            assert_eq!(
                for_token(&strict(), Place::AfterRoot, token, None),
                Some(Relaxation::MultipleValues),
                "{}",
                String::from_utf8_lossy(token)
            );
        }
    }

    #[test]
    fn a_second_root_value_is_hinted_as_several_values() {
        assert_eq!(
            for_token(&strict(), Place::AfterRoot, b"{", None),
            Some(Relaxation::MultipleValues)
        );
        assert_eq!(
            for_token(&JsonOptions::ndjson(), Place::AfterRoot, b"{", None),
            None
        );
    }

    #[test]
    fn an_unquoted_key_is_hinted_only_when_json5_reads_it() {
        for key in [&b"name"[..], b"_id", b"$ref", "caf\u{e9}".as_bytes()] {
            assert_eq!(
                for_token(&strict(), Place::Key, key, None),
                Some(Relaxation::UnquotedKeys),
                "{}",
                String::from_utf8_lossy(key)
            );
        }
        assert_eq!(
            for_token(&strict(), Place::Key, b"'", None),
            Some(Relaxation::SingleQuotes)
        );
        for refused in [&b"1"[..], b"-"] {
            assert_eq!(for_token(&strict(), Place::Key, refused, None), None);
        }
        assert_eq!(
            for_token(&JsonOptions::json5(), Place::Key, b"name", None),
            None
        );
    }

    #[test]
    fn a_json5_number_is_hinted_only_when_json5_reads_it() {
        for number in [&b"+1"[..], b".5", b"5.", b"0x1F", b"Infinity", b"-NaN"] {
            assert_eq!(
                for_token(&strict(), Place::Value, number, None),
                Some(Relaxation::Json5Numbers),
                "{}",
                String::from_utf8_lossy(number)
            );
        }
        assert_eq!(
            for_token(&strict(), Place::Value, b"'", None),
            Some(Relaxation::SingleQuotes)
        );
        // Not numbers in JSON5 either.
        for refused in [&b"01"[..], b"0x", b"Inf", b"1.2.3"] {
            assert_eq!(
                for_token(&strict(), Place::Value, refused, None),
                None,
                "{}",
                String::from_utf8_lossy(refused)
            );
        }
        let numbers_on = JsonOptions {
            json5_numbers: true,
            ..strict()
        };
        assert_eq!(for_token(&numbers_on, Place::Value, b"+1", None), None);
    }

    #[test]
    fn json5_whitespace_is_hinted_wherever_it_stands() {
        for space in ["\u{a0}", "\u{b}", "\u{2028}", "\u{3000}", "\u{feff}"] {
            for place in [Place::Value, Place::Key, Place::Other] {
                assert_eq!(
                    for_token(&strict(), place, space.as_bytes(), None),
                    Some(Relaxation::Json5Whitespace),
                    "{space:?}"
                );
            }
        }
        // Not a space, or more than the one character.
        assert_eq!(
            for_token(&strict(), Place::Other, "\u{a1}".as_bytes(), None),
            None
        );
        assert_eq!(
            for_token(&strict(), Place::Other, "\u{a0}x".as_bytes(), None),
            None
        );
        assert_eq!(
            for_token(
                &JsonOptions::json5(),
                Place::Value,
                "\u{a0}".as_bytes(),
                None
            ),
            None
        );
    }

    #[test]
    fn an_escape_is_hinted_unless_json5_refuses_it_too() {
        // The escape, up to two bytes after it, and whether JSON5 takes it: not `\1` to `\9`,
        // nor `\0` before a digit, nor `\x` without two hexadecimal digits.
        let cases: [(&[u8], &[u8], bool); 11] = [
            (br"\'", b"", true),
            (br"\x", b"4f", true),
            (br"\v", b"", true),
            (br"\0", b"", true),
            (br"\0", b"a1", true),
            (b"\\\n", b"12", true),
            (br"\1", b"", false),
            (br"\9", b"", false),
            (br"\0", b"12", false),
            (br"\x", b"4", false),
            (br"\x", b"4g", false),
        ];
        for (escape, after, json5) in cases {
            assert_eq!(
                for_escape(&strict(), escape, after),
                json5.then_some(Relaxation::Json5Escapes),
                "{} {after:?}",
                String::from_utf8_lossy(escape)
            );
        }
        assert_eq!(for_escape(&JsonOptions::json5(), br"\v", b""), None);
    }

    #[test]
    fn a_raw_control_character_is_hinted_unless_it_breaks_the_line() {
        for byte in (0..0x20).filter(|&b| b != b'\n' && b != b'\r') {
            assert_eq!(
                for_control_character(&strict(), byte),
                Some(Relaxation::Json5ControlCharacters),
                "{byte:#x}"
            );
            assert_eq!(for_control_character(&JsonOptions::json5(), byte), None);
        }
        assert_eq!(for_control_character(&strict(), b'\n'), None);
        assert_eq!(for_control_character(&strict(), b'\r'), None);
    }
}
