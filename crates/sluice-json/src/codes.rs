//! The stable error codes of the JSON reader and writer (category `json`).
//!
//! Tests and programs match on these; messages may change, codes do not. Errors from the
//! core layer (number conversions, [`INVALID_STRUCTURE`](sluice_core::codes::INVALID_STRUCTURE)
//! for writer misuse, I/O) keep their `core/...` codes.

use sluice_core::ErrorCode;

/// Two values in a container without a `,` between them (`[1 2]`, `{"a":1 "b":2}`).
pub const EXPECT_COMMA: ErrorCode = ErrorCode::new("json", "ExpectComma");
/// A key not followed by `:` (`{"a" 1}`).
pub const EXPECT_COLON: ErrorCode = ErrorCode::new("json", "ExpectColon");
/// Something other than a key where an object key must stand (`{1:2}`, `{,}`).
pub const EXPECT_KEY: ErrorCode = ErrorCode::new("json", "ExpectKey");
/// A byte or word that cannot start or continue a value here (`[tru]`, `[}`, `@`).
pub const UNEXPECTED_TOKEN: ErrorCode = ErrorCode::new("json", "UnexpectedToken");
/// A string with no closing quote before the end of the input.
pub const UNCLOSED_STRING: ErrorCode = ErrorCode::new("json", "UnclosedString");
/// A `/* ...` comment with no closing `*/` (in NDJSON, none on the comment's line).
pub const UNCLOSED_COMMENT: ErrorCode = ErrorCode::new("json", "UnclosedComment");
/// A backslash escape that is not valid (`"\x"`, `"\u12G4"`).
pub const INVALID_ESCAPE: ErrorCode = ErrorCode::new("json", "InvalidEscape");
/// A number that breaks the number grammar (`01`, `1.`, `-`, `1e`, `2.e3`).
pub const INVALID_NUMBER: ErrorCode = ErrorCode::new("json", "InvalidNumber");
/// The same key twice in one object: read with [`DuplicateKeys::Error`](crate::DuplicateKeys::Error),
/// or written with [`WriterOptions::reject_duplicate_keys`](crate::WriterOptions::reject_duplicate_keys).
pub const DUPLICATE_KEY: ErrorCode = ErrorCode::new("json", "DuplicateKey");
/// Nesting deeper than [`JsonOptions::max_depth`](crate::JsonOptions::max_depth).
pub const DEPTH_EXCEEDED: ErrorCode = ErrorCode::new("json", "DepthExceeded");
/// Something after the last value (`[1] 2`), or a second record on one NDJSON line.
pub const TRAILING_TOKEN: ErrorCode = ErrorCode::new("json", "TrailingToken");
/// The input ended inside a value, or holds no value at all; in NDJSON, a record's line
/// ended inside its value.
pub const UNEXPECTED_EOF: ErrorCode = ErrorCode::new("json", "UnexpectedEof");
/// Bytes that are not UTF-8 inside a string, a key or a comment.
pub const INVALID_UTF8: ErrorCode = ErrorCode::new("json", "InvalidUtf8");
/// A raw control character (U+0000 to U+001F) inside a string.
pub const CONTROL_CHARACTER: ErrorCode = ErrorCode::new("json", "ControlCharacter");
/// A `\uD800`..`\uDFFF` escape that is not half of a surrogate pair.
pub const LONE_SURROGATE: ErrorCode = ErrorCode::new("json", "LoneSurrogate");
/// A scalar value at the root when [`JsonOptions::scalar_root`](crate::JsonOptions::scalar_root) is off.
pub const SCALAR_ROOT: ErrorCode = ErrorCode::new("json", "ScalarRoot");
/// The writer was given `NaN` or an infinity and
/// [`NonFinite::Error`](crate::NonFinite::Error) is set.
pub const NON_FINITE_NUMBER: ErrorCode = ErrorCode::new("json", "NonFiniteNumber");
/// The writer was given number text that is not in JSON number syntax.
pub const INVALID_NUMBER_TEXT: ErrorCode = ErrorCode::new("json", "InvalidNumberText");
/// The writer's options would make its output invalid JSON (see
/// [`WriterOptions::check`](crate::WriterOptions::check)).
pub const INVALID_WRITER_OPTIONS: ErrorCode = ErrorCode::new("json", "InvalidWriterOptions");
