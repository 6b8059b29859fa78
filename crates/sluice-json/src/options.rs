//! [`JsonOptions`]: what the reader accepts.
//!
//! A plain struct: every relaxation is a switch of its own, and the presets are just
//! starting points (`JsonOptions { comments: true, ..JsonOptions::strict() }`).

/// What to do when an object holds the same key twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicateKeys {
    /// Report [`DUPLICATE_KEY`](crate::codes::DUPLICATE_KEY) at the second occurrence.
    ///
    /// The reader keeps the keys of every open object (dropped when the object closes):
    /// usually a filter test per key, and for objects of more than 64 keys a hash index
    /// whose hash is keyed at random, so no choice of keys makes the check slow. Memory
    /// grows with the keys of the open objects; reading a single huge object from a
    /// stream with bounded memory takes [`DuplicateKeys::LastWins`].
    ///
    /// Keys compare by their text once decoded, however spelled: `"a"`, `"\u0061"`, and in
    /// JSON5 `a`, `'a'`, `'\x61'` and `\u0061` are one key. Each object is checked against
    /// its own keys only: the same key in a sibling object, in the object around it or in one
    /// inside it is no duplicate, and neither is a key of another root value or NDJSON record
    /// (the [`parallel`](crate::parallel) ingestion checks each record as
    /// [`NdjsonReader`](crate::NdjsonReader) does). The check is made wherever the reader
    /// goes, also in a value passed over with [`skip`](sluice_core::Reader::skip), which
    /// checks what it skips: skipping never hides a duplicate, and the error is the one a
    /// read token by token reports.
    ///
    /// ```
    /// use sluice_json::{codes, JsonReader};
    /// use sluice_core::{Reader, Token};
    ///
    /// let mut reader = JsonReader::from_str(r#"{"a": 1, "a": 2}"#);
    /// let err = Token::read_all(&mut reader).unwrap_err();
    /// assert_eq!(err.code(), codes::DUPLICATE_KEY);
    /// // The span is the second `"a"`.
    /// assert_eq!(err.span().map(|s| (s.start, s.end)), Some((9, 12)));
    ///
    /// // Inside a skipped value, spelled another way, after the same key in a sibling.
    /// let text = r#"[{"a": 1}, {"a": 1, "b": [], "\u0061": 2}]"#;
    /// let mut reader = JsonReader::from_str(text);
    /// let err = reader.skip().unwrap_err();
    /// assert_eq!(err.code(), codes::DUPLICATE_KEY);
    /// assert_eq!(err.span().map(|s| (s.start, s.end)), Some((29, 37)));
    /// assert_eq!(err.path().unwrap().to_string(), "$[1].a");
    /// ```
    #[default]
    Error,
    /// Accept duplicates; the last one wins.
    ///
    /// A streaming reader cannot take back a value it already handed out, so "last wins"
    /// means: every occurrence is passed on, in order, and a consumer that stores keys by
    /// insertion (a [`Value`](sluice_core::Value) map set with `insert`, a struct field
    /// written twice) ends up with the last one. The reader compares no keys for it (it
    /// keeps only the current key of each open object, for the data paths of errors), so
    /// this is also the fastest setting.
    ///
    /// ```
    /// use sluice_json::{DuplicateKeys, JsonOptions, JsonReader};
    /// use sluice_core::Token;
    ///
    /// let options = JsonOptions { duplicate_keys: DuplicateKeys::LastWins, ..JsonOptions::strict() };
    /// let mut reader = JsonReader::from_str(r#"{"a": 1, "a": 2}"#).with_options(options);
    /// // `{`, two keys, two values, `}`.
    /// assert_eq!(Token::read_all(&mut reader).unwrap().len(), 6);
    /// ```
    LastWins,
}

/// The reader's options. [`JsonOptions::default()`] is [`JsonOptions::strict()`].
///
/// | switch | strict | relaxed | ndjson | json5 |
/// |---|---|---|---|---|
/// | `comments` (`//`, `/* */`) | no | yes | no | yes |
/// | `trailing_commas` | no | yes | no | yes |
/// | `multiple_values` | no | no | yes | no |
/// | `scalar_root` | yes | yes | yes | yes |
/// | `unquoted_keys` | no | no | no | yes |
/// | `single_quotes` | no | no | no | yes |
/// | `json5_numbers` | no | no | no | yes |
/// | `json5_escapes` | no | no | no | yes |
/// | `json5_whitespace` | no | no | no | yes |
/// | `json5_control_characters` | no | no | no | yes |
/// | `max_depth` | 128 | 128 | 128 | 128 |
/// | `duplicate_keys` | `Error` | `Error` | `Error` | `Error` |
///
/// ```
/// use sluice_json::{JsonOptions, JsonReader};
/// use sluice_core::Reader;
/// let options = JsonOptions { comments: true, ..JsonOptions::strict() };
/// let mut reader = JsonReader::from_str("// answer\n42").with_options(options);
/// assert_eq!(reader.read_u8()?, 42);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonOptions {
    /// `// line` and `/* block */` comments wherever whitespace may stand. In NDJSON
    /// records (see [`NdjsonReader`](crate::NdjsonReader)) a block comment must end on the
    /// line it opens.
    pub comments: bool,
    /// A `,` after the last item of an array or object (`[1, 2,]`).
    pub trailing_commas: bool,
    /// Several values at the root, one after the other (concatenated JSON; NDJSON).
    /// Whitespace (and comments, when allowed) may stand between them, and must where two
    /// values would run together (`1 2`, `true false`: `12` is one number); after or
    /// before a bracket, brace or quote nothing is needed (`[1][2]`, `"a""b"`, `1[2]`).
    /// An input with no value at all (empty, or only whitespace and comments) is zero
    /// values, where a single root is [`UNEXPECTED_EOF`](crate::codes::UNEXPECTED_EOF).
    ///
    /// ```
    /// use sluice_core::{Entry, Reader};
    /// use sluice_json::{codes, JsonOptions, JsonReader};
    /// let mut reader = JsonReader::from_str(" \n").with_options(JsonOptions::ndjson());
    /// assert_eq!(reader.peek()?, Entry::Ended);
    /// reader.finish()?;
    /// let mut reader = JsonReader::from_str(" \n").with_options(JsonOptions::strict());
    /// assert_eq!(reader.peek().unwrap_err().code(), codes::UNEXPECTED_EOF);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub multiple_values: bool,
    /// Any value at the root (RFC 8259). When off, the root must be an object or an array
    /// (the older RFC 4627 rule) and a scalar root is [`SCALAR_ROOT`](crate::codes::SCALAR_ROOT).
    pub scalar_root: bool,
    /// JSON5 identifier keys (`{name: 1}`), as ECMAScript 5.1's `IdentifierName`: a first
    /// character that is `$`, `_` or a letter (general category Lu, Ll, Lt, Lm, Lo or Nl;
    /// not a digit), then those, combining marks (Mn, Mc), decimal digits (Nd), connector
    /// punctuation (Pc), U+200C and U+200D. `\uXXXX` escapes of such characters are decoded
    /// (`{\u0061: 1}` is the key `a`).
    pub unquoted_keys: bool,
    /// JSON5 single-quoted strings and keys. A `'` inside one is written `\u0027`, or
    /// `\'` with [`json5_escapes`](Self::json5_escapes) (`'it''s'` is no escape:
    /// the string ends at the second `'`).
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{codes, JsonOptions, JsonReader};
    /// fn read(text: &str, options: &JsonOptions) -> sluice_core::Result<String> {
    ///     let mut reader = JsonReader::from_str(text).with_options(options.clone());
    ///     reader.read_str().map(str::to_owned)
    /// }
    /// let quotes = JsonOptions { single_quotes: true, ..JsonOptions::strict() };
    /// assert_eq!(read(r#"'say "hi"'"#, &quotes)?, r#"say "hi""#);
    /// assert_eq!(read(r"'it\u0027s'", &quotes)?, "it's");
    /// assert_eq!(read(r"'it\'s'", &quotes).unwrap_err().code(), codes::INVALID_ESCAPE);
    /// assert_eq!(read(r"'it\'s'", &JsonOptions::json5())?, "it's");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub single_quotes: bool,
    /// JSON5 numbers: hexadecimal integers (`0x1F`), a leading `+`, a leading or trailing
    /// decimal point (`.5`, `5.`), `Infinity` and `NaN`, each with an optional sign (`-0x10`,
    /// `+.5`, `-Infinity`, `-NaN`). The reader hands them out as typed numbers or as
    /// normalized JSON number text, never as JSON5 text. `-NaN` is a NaN with its sign bit
    /// set, which arithmetic ignores and a value written from the token keeps.
    pub json5_numbers: bool,
    /// JSON5 string escapes: escaped line breaks (a `\` before LF, CR, CR LF, U+2028 or
    /// U+2029 continues the string, the break left out), `\'`, `\v`, `\0` (not before a
    /// digit: `\01` is no octal escape but [`INVALID_ESCAPE`](crate::codes::INVALID_ESCAPE)),
    /// `\xHH`, and any other character escaping to itself (a control character too; the
    /// digits 1 to 9 excepted).
    pub json5_escapes: bool,
    /// JSON5 whitespace beyond JSON's: vertical tab, form feed, U+00A0, U+FEFF, U+2028,
    /// U+2029 and every other Unicode space separator (category Zs: U+1680, U+2000 to
    /// U+200A, U+202F, U+205F, U+3000). With `comments`, a line comment then also ends at
    /// U+2028 and U+2029, line terminators in ECMAScript.
    pub json5_whitespace: bool,
    /// JSON5 strings may hold control characters unescaped (a tab, U+0000 to U+001F), all
    /// but the line breaks LF and CR, which still need `\n`, `\r` or an escaped line break.
    /// JSON requires every control character escaped; without this switch a raw one is
    /// [`CONTROL_CHARACTER`](crate::codes::CONTROL_CHARACTER).
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{codes, JsonOptions, JsonReader};
    /// let read = |text: &str, options: JsonOptions| -> sluice_core::Result<String> {
    ///     JsonReader::from_str(text).with_options(options).read_str().map(str::to_owned)
    /// };
    /// assert_eq!(read("'a\tb'", JsonOptions::json5())?, "a\tb");
    /// assert_eq!(read("\"a\tb\"", JsonOptions::strict()).unwrap_err().code(), codes::CONTROL_CHARACTER);
    /// assert_eq!(read("'a\nb'", JsonOptions::json5()).unwrap_err().code(), codes::CONTROL_CHARACTER);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub json5_control_characters: bool,
    /// Deepest nesting of arrays and objects; one more is
    /// [`DEPTH_EXCEEDED`](crate::codes::DEPTH_EXCEEDED). The reader is iterative, so any
    /// limit is safe for reading, piping and skipping; it only bounds memory. A tree built
    /// from the tokens is another matter: [`Value`](sluice_core::Value) and native types
    /// are cloned, compared and dropped recursively, so raise the limit only as far as a
    /// tree of that depth fits the thread's stack.
    pub max_depth: usize,
    /// What to do with a key seen twice in one object.
    pub duplicate_keys: DuplicateKeys,
}

impl JsonOptions {
    /// RFC 8259 exactly (the default): one value of any kind at the root, nothing else.
    ///
    /// One choice goes beyond the RFC: duplicate keys are an error by default
    /// ([`DuplicateKeys::Error`]). RFC 8259 only says names SHOULD be unique; set
    /// [`DuplicateKeys::LastWins`] to accept every document the RFC accepts.
    ///
    /// ```
    /// use sluice_core::Token;
    /// use sluice_json::{codes, JsonOptions, JsonReader};
    /// let read = |text| {
    ///     Token::read_all(&mut JsonReader::from_str(text).with_options(JsonOptions::strict()))
    /// };
    /// assert_eq!(read("\"a scalar root\"")?.len(), 1);
    /// assert_eq!(read("[1, 2,]").unwrap_err().code(), codes::UNEXPECTED_TOKEN);
    /// assert_eq!(read("[1] // note").unwrap_err().code(), codes::TRAILING_TOKEN);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub const fn strict() -> JsonOptions {
        JsonOptions {
            comments: false,
            trailing_commas: false,
            multiple_values: false,
            scalar_root: true,
            unquoted_keys: false,
            single_quotes: false,
            json5_numbers: false,
            json5_escapes: false,
            json5_whitespace: false,
            json5_control_characters: false,
            max_depth: 128,
            duplicate_keys: DuplicateKeys::Error,
        }
    }

    /// What people write in config files: comments and trailing commas, any root value.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{JsonOptions, JsonReader};
    /// let text = "{\n  // seconds\n  \"timeout\": 30, /* was 10 */\n}";
    /// let mut reader = JsonReader::from_str(text).with_options(JsonOptions::relaxed());
    /// reader.read_map_root()?;
    /// assert_eq!(reader.read_name()?, "timeout");
    /// assert_eq!(reader.read_u32()?, 30);
    /// reader.read_map_end()?;
    /// reader.finish()?;
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub const fn relaxed() -> JsonOptions {
        JsonOptions {
            comments: true,
            trailing_commas: true,
            ..JsonOptions::strict()
        }
    }

    /// Several values at the root, one after the other (NDJSON, JSON Lines, concatenated
    /// JSON). [`NdjsonReader`](crate::NdjsonReader) also requires a line feed between
    /// records; a plain [`JsonReader`](crate::JsonReader) with this preset accepts any
    /// whitespace between values, or none where they do not run together (see
    /// [`JsonOptions::multiple_values`]).
    ///
    /// ```
    /// use sluice_core::{Entry, Reader};
    /// use sluice_json::{JsonOptions, JsonReader};
    /// let text = "1\n[2] {\"a\":3}";
    /// let mut reader = JsonReader::from_str(text).with_options(JsonOptions::ndjson());
    /// let mut roots = 0;
    /// while reader.peek()? != Entry::Ended {
    ///     reader.skip()?;
    ///     roots += 1;
    /// }
    /// assert_eq!(roots, 3);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub const fn ndjson() -> JsonOptions {
        JsonOptions {
            multiple_values: true,
            ..JsonOptions::strict()
        }
    }

    /// JSON5: every JSON5 switch, comments and trailing commas.
    ///
    /// ```
    /// use sluice_core::{pipe, Writer};
    /// use sluice_json::{JsonOptions, JsonReader, JsonWriter, NonFinite, WriterOptions};
    /// let text = "{unquoted: 'single', hex: 0xFF, half: .5, inf: -Infinity, list: [1, 2,],}";
    /// let mut reader = JsonReader::from_str(text).with_options(JsonOptions::json5());
    /// let options = WriterOptions { non_finite: NonFinite::Json5, ..WriterOptions::condensed() };
    /// let mut writer = JsonWriter::new(Vec::new(), options);
    /// pipe(&mut reader, &mut writer)?;
    /// assert_eq!(
    ///     writer.into_string()?,
    ///     r#"{"unquoted":"single","hex":255,"half":0.5,"inf":-Infinity,"list":[1,2]}"#
    /// );
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub const fn json5() -> JsonOptions {
        JsonOptions {
            comments: true,
            trailing_commas: true,
            unquoted_keys: true,
            single_quotes: true,
            json5_numbers: true,
            json5_escapes: true,
            json5_whitespace: true,
            json5_control_characters: true,
            ..JsonOptions::strict()
        }
    }
}

impl Default for JsonOptions {
    fn default() -> JsonOptions {
        JsonOptions::strict()
    }
}
