//! Any sluice [`Reader`] as a [`serde::Deserializer`].
//!
//! The deserializer asks the reader for what the Rust type wants, so lazy numbers stay
//! exact: a `u64` field is parsed straight from the number text, an `i128` from all of its
//! digits, an `f32` without a detour through `f64`. Only self-describing requests
//! (`deserialize_any`, used by untagged enums, flatten and `serde_json::Value`) choose the
//! type from the number's syntax.
//!
//! Strings are borrowed from the input when they can be: the reader hands out strings tied to
//! its own borrow, but when the deserializer knows the input slice (see
//! [`Deserializer::borrow_from_str`]) a string that lies inside that slice is handed to serde
//! with the input's lifetime, so `&'de str` fields and `Cow<'de, str>` work with zero copies.
//!
//! Errors get the span of the token being read and the data path. The path costs nothing
//! while reading: it is assembled only when an error happens, by the containers the error
//! passes through on its way out (see the `path` module).

mod access;
mod key;
mod path;

use serde::de::{self, DeserializeOwned, Visitor};
use sluice_core::{Entry, Number, NumberHint, Reader, Span};

use crate::error::{Error, Result, codes};
use access::{EnumAccess, MapAccess, SeqAccess};
use key::KeyDeserializer;
use path::{Slot, Trail};

/// The input a deserializer may borrow strings from: its bytes, whether it was given as
/// text or as bytes, and empty when it is not known. One representation for both kinds of
/// input keeps a single borrowing path, so each key reaches serde's field visitor through one
/// call, which the compiler can then inline.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Source<'de>(&'de [u8]);

/// Reads the string token `entry` announced: a key (`Name`) or a string value.
#[inline(always)]
pub(crate) fn read_string_entry<R: Reader>(
    reader: &mut R,
    entry: Entry,
) -> sluice_core::Result<&str> {
    if entry == Entry::Name {
        reader.read_name()
    } else {
        reader.read_str()
    }
}

/// The offset of `part` inside `whole`, when `part` lies entirely within `whole`'s memory.
#[inline]
fn offset_within(whole: &[u8], part: &[u8]) -> Option<usize> {
    // Comparing addresses is safe; re-slicing `whole` at the offset gives the very same
    // bytes, because both are shared borrows of memory nobody can change meanwhile.
    let offset = (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize);
    (offset <= whole.len() && part.len() <= whole.len() - offset).then_some(offset)
}

impl<'de> Source<'de> {
    /// `text` with the input's lifetime, if it is a piece of the input.
    #[inline]
    pub(crate) fn borrow_str(self, text: &str) -> Option<&'de str> {
        let bytes = self.borrow_bytes(text.as_bytes())?;
        // SAFETY: `borrow_bytes` returns the very memory of `text` (the same address and
        // length, checked to lie within the input), so these bytes are `text`'s bytes, which
        // are UTF-8 because `text` is a `&str`. Checking them again with `from_utf8` made
        // reading twitter.json into structs a quarter slower (0.67x of serde_json instead of
        // 0.90x, timed alternately in one process). Tested by
        // `borrowed_strings_with_multibyte_ends_point_into_the_input` and
        // `strings_borrowed_from_a_byte_slice_point_into_it`.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// `bytes` with the input's lifetime, if they are a piece of the input.
    #[inline]
    pub(crate) fn borrow_bytes(self, bytes: &[u8]) -> Option<&'de [u8]> {
        let offset = offset_within(self.0, bytes)?;
        self.0.get(offset..offset + bytes.len())
    }
}

/// A [`serde::Deserializer`] reading from any sluice [`Reader`].
///
/// `'de` is the lifetime of the input the deserializer may borrow strings from; it is only
/// meaningful after [`borrow_from_str`](Deserializer::borrow_from_str) or
/// [`borrow_from_slice`](Deserializer::borrow_from_slice). Without them every string is
/// handed to serde as a transient `&str` (fine for `String`, `Cow<str>`, numbers, enums...),
/// and a `&str` field is a [`CANNOT_BORROW`](crate::codes::CANNOT_BORROW) error.
///
/// Relaxed JSON, read through a [`JsonReader`](sluice_json::JsonReader) with relaxed options:
///
/// ```
/// use serde::Deserialize;
/// use sluice_json::{JsonOptions, JsonReader};
/// use sluice_serde::Deserializer;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Server {
///     host: String,
///     ports: Vec<u16>,
/// }
///
/// let text = "{ // the main one\n  host: 'example.org', ports: [80, 443,], }";
/// let reader = JsonReader::from_str(text).with_options(JsonOptions::json5());
/// let mut de = Deserializer::new(reader);
/// let server = Server::deserialize(&mut de)?;
/// de.end()?;
/// assert_eq!(server, Server { host: "example.org".into(), ports: vec![80, 443] });
/// # Ok::<(), sluice_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'de, R> {
    reader: R,
    source: Source<'de>,
    trail: Trail,
    human_readable: bool,
    /// The span of the last container read whole, from its opening token to its end: an
    /// error that a `Deserialize` impl raises right after it (`try_from`, serde's buffered
    /// content of an internally tagged or untagged enum) is about that container.
    closed: Span,
}

impl<'de, R: Reader> Deserializer<'de, R> {
    /// A deserializer over `reader`; strings are not borrowed for `'de`.
    #[must_use]
    pub fn new(reader: R) -> Deserializer<'de, R> {
        Deserializer {
            reader,
            source: Source::default(),
            trail: Trail::default(),
            human_readable: true,
            closed: Span::at(usize::MAX),
        }
    }

    /// Lets strings that the reader hands out straight from `input` be borrowed for `'de`.
    ///
    /// `input` must be the text the reader reads (a [`JsonReader::from_str`] over the same
    /// string, say). A string the reader had to unescape lives in its scratch buffer, not in
    /// `input`, and is handed to serde as a transient `&str`. Giving another text is harmless:
    /// nothing is borrowed then.
    ///
    /// [`JsonReader::from_str`]: sluice_json::JsonReader::from_str
    ///
    /// ```
    /// use serde::Deserialize;
    /// use sluice_json::JsonReader;
    /// use sluice_serde::Deserializer;
    ///
    /// #[derive(Deserialize)]
    /// struct User<'a> {
    ///     name: &'a str,
    /// }
    /// let text = r#"{"name": "ada"}"#;
    /// let mut de = Deserializer::new(JsonReader::from_str(text)).borrow_from_str(text);
    /// let user = User::deserialize(&mut de)?;
    /// assert_eq!(user.name, "ada");
    /// # Ok::<(), sluice_serde::Error>(())
    /// ```
    #[must_use]
    pub fn borrow_from_str(mut self, input: &'de str) -> Deserializer<'de, R> {
        self.source = Source(input.as_bytes());
        self
    }

    /// As [`borrow_from_str`](Deserializer::borrow_from_str), for input given as bytes
    /// ([`MsgPackReader::from_slice`](sluice_msgpack::MsgPackReader::from_slice),
    /// [`JsonReader::from_slice`](sluice_json::JsonReader::from_slice)). A borrowed string is
    /// the very text the reader handed out, already checked to be UTF-8 by the reader.
    #[must_use]
    pub fn borrow_from_slice(mut self, input: &'de [u8]) -> Deserializer<'de, R> {
        self.source = Source(input);
        self
    }

    /// Sets what [`is_human_readable`](serde::Deserializer::is_human_readable) answers
    /// (`true` by default). Some types (`IpAddr`, `uuid::Uuid`...) have a compact form for
    /// formats that are not; it must match what the serializer used.
    #[must_use]
    pub fn human_readable(mut self, human_readable: bool) -> Deserializer<'de, R> {
        self.human_readable = human_readable;
        self
    }

    /// The reader.
    pub fn reader_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The reader back.
    pub fn into_reader(self) -> R {
        self.reader
    }

    /// Checks that the reader has nothing more to give ([`Entry::Ended`]).
    ///
    /// # Errors
    /// [`TRAILING_VALUE`](crate::codes::TRAILING_VALUE) at the next value, or any error the
    /// reader meets while looking.
    pub fn end(&mut self) -> Result<()> {
        match self.peek()? {
            Entry::Ended => Ok(()),
            entry => {
                let start = self.reader.span().end;
                let err = Error::new(
                    codes::TRAILING_VALUE,
                    format!("expected the end of the input, found {entry}"),
                );
                // Read the token so its span is known, when it can be read.
                let span = match sluice_core::Token::read(&mut self.reader, entry) {
                    Ok(_) => self.reader.span(),
                    Err(_) => Span::at(start),
                };
                Err(err.or_span(span))
            }
        }
    }

    /// An iterator deserializing one `T` per value until the reader ends: concatenated
    /// JSON, NDJSON read through a [`JsonReader`](sluice_json::JsonReader) with
    /// [`JsonOptions::ndjson`](sluice_json::JsonOptions::ndjson), several MessagePack values
    /// in a row. It stops after the first error.
    ///
    /// ```
    /// use sluice_json::{JsonOptions, JsonReader};
    /// use sluice_serde::Deserializer;
    ///
    /// let text = "{\"id\": 1}\n{\"id\": 2}\n";
    /// let reader = JsonReader::from_str(text).with_options(JsonOptions::ndjson());
    /// let ids: Vec<u32> = Deserializer::new(reader)
    ///     .into_stream::<std::collections::HashMap<String, u32>>()
    ///     .map(|record| record.map(|r| r["id"]))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(ids, [1, 2]);
    /// # Ok::<(), sluice_serde::Error>(())
    /// ```
    #[must_use]
    pub fn into_stream<T: DeserializeOwned>(self) -> StreamDeserializer<'de, R, T> {
        StreamDeserializer {
            de: self,
            failed: false,
            marker: std::marker::PhantomData,
        }
    }

    /// Reads one `T` at the root. An error `T`'s own impl raises there, outside any
    /// container (a scalar newtype's check), gets the span of the value and the path `$`
    /// like every other error.
    pub(crate) fn read_root<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        T::deserialize(&mut *self).map_err(|err| self.fix_if_fresh(err))
    }

    /// Reads one `T` at the root, then checks that nothing follows it: the whole input is
    /// one value, as every `from_*` function reads it.
    pub(crate) fn read_whole<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        let value = self.read_root::<T>()?;
        self.end()?;
        Ok(value)
    }

    /// An error created at the current position (by the reader, by a visitor handed a
    /// scalar, or here): gets the span of the last token read when it has none (the whole
    /// container when that token closed one), and starts its path.
    #[cold]
    #[inline(never)]
    fn fix(&mut self, err: Error) -> Error {
        let last = self.reader.span();
        // Offsets only grow, so a container that ended where the last token ends is the
        // one that token closed, read whole just before the error.
        let span = if last.end == self.closed.end {
            self.closed
        } else {
            last
        };
        let err = err.or_span(span);
        self.trail.start(err)
    }

    #[cold]
    #[inline(never)]
    fn fix_core(&mut self, err: sluice_core::Error) -> Error {
        self.fix(Error::from(err))
    }

    /// An error coming out of the element or value read at `slot` (a container's current
    /// element or key): one raised by the value's own `Deserialize` impl (no span yet) is
    /// fixed here; then, while its path is being traced, `slot` is added to it.
    #[cold]
    #[inline(never)]
    pub(crate) fn trace(&mut self, err: Error, slot: Slot<'de>) -> Error {
        let err = self.fix_if_fresh(err);
        self.trail.add(&err, slot);
        err
    }

    /// [`fix`](Deserializer::fix) for an error that may come from code outside the bridge
    /// (a `Deserialize` impl, a visitor): fresh when it has no span yet; one with a span was
    /// fixed already and may be on its way out, gathering its path.
    #[cold]
    fn fix_if_fresh(&mut self, err: Error) -> Error {
        if err.span().is_none() {
            self.fix(err)
        } else {
            err
        }
    }

    /// An error coming out of the visitor of a whole container, whose current element or
    /// key is `slot`. Tracing it here rather than in every `next_element` / `next_value`
    /// keeps those, the hot path, free of error handling. An error the visitor raised
    /// itself after the container was closed (a missing field) points at the container.
    #[cold]
    #[inline(never)]
    fn fix_container(&mut self, err: Error, start: usize, closed: bool, slot: Slot<'de>) -> Error {
        if closed && err.span().is_none() {
            let span = Span::new(start, self.reader.span().end);
            return self.trail.start(err.or_span(span));
        }
        self.trace(err, slot)
    }

    /// Leaves a container; at the root, an error gets the path its way out gathered.
    #[inline]
    fn leave<T>(&mut self, result: Result<T>) -> Result<T> {
        let root = self.trail.leave();
        match result {
            Err(err) if root => Err(self.trail.finish(err)),
            result => result,
        }
    }

    /// The next entry: the one the reader looked at already ([`Reader::peeked`]), or
    /// [`Reader::peek`]. A reader's `peek` may hold its whole lexer; called from the
    /// deserializer's many places it stays out of line, and the repeated peeks (a value's
    /// kind checked after its container looked for its end) are answered without the call.
    #[inline]
    fn peek(&mut self) -> Result<Entry> {
        if let Some(entry) = self.reader.peeked() {
            return Ok(entry);
        }
        match self.reader.peek() {
            Ok(entry) => Ok(entry),
            Err(err) => Err(self.fix_core(err)),
        }
    }

    /// The error for a token that cannot start a value here (`Ended`, a container end).
    #[cold]
    fn no_value(&mut self, entry: Entry) -> Error {
        let err = Error::from(sluice_core::Error::unexpected("a value", entry));
        let span = Span::at(self.reader.span().end);
        self.fix(err.or_span(span))
    }

    /// Reads a string token (`String` or `Name`) and hands it to `visit` with the input's
    /// lifetime when it can be borrowed.
    #[inline]
    fn visit_string_token<V: Visitor<'de>>(
        &mut self,
        entry: Entry,
        visitor: V,
    ) -> Result<V::Value> {
        let text = match read_string_entry(&mut self.reader, entry) {
            Ok(text) => text,
            Err(err) => return Err(self.fix_core(err)),
        };
        let result = match self.source.borrow_str(text) {
            Some(borrowed) => visitor.visit_borrowed_str(borrowed),
            None => visitor.visit_str(text),
        };
        result.map_err(|err| self.fix(err))
    }

    /// Reads a `Blob` and hands it to the visitor, borrowed when it can be.
    fn visit_blob<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let bytes = match self.reader.read_blob() {
            Ok(bytes) => bytes,
            Err(err) => return Err(self.fix_core(err)),
        };
        let result = match self.source.borrow_bytes(bytes) {
            Some(borrowed) => visitor.visit_borrowed_bytes(borrowed),
            None => visitor.visit_bytes(bytes),
        };
        result.map_err(|err| self.fix(err))
    }

    /// Reads a `Blob` and hands it to a visitor that wants a sequence (`Vec<u8>`,
    /// `[u8; N]`): one `u8` per byte.
    fn visit_blob_as_seq<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let bytes = match self.reader.read_blob() {
            Ok(bytes) => bytes,
            Err(err) => return Err(self.fix_core(err)),
        };
        let mut seq = de::value::SeqDeserializer::<_, Error>::new(bytes.iter().copied());
        let value = visitor.visit_seq(&mut seq);
        let result = value.and_then(|value| seq.end().map(|()| value));
        result.map_err(|err| self.fix(err))
    }

    /// Reads any number and visits it in the type its syntax or wire type says.
    fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        enum Exact {
            I64(i64),
            U64(u64),
            I128(i128),
            U128(u128),
            F32(f32),
            F64(f64),
        }
        let number = match self.reader.read_number() {
            Ok(number) => number,
            Err(err) => return Err(self.fix_core(err)),
        };
        let exact = match number {
            Number::Text(_, NumberHint::Integer) => match number.to_u64() {
                Ok(v) => Ok(Exact::U64(v)),
                Err(_) => number.to_u128().map(Exact::U128),
            },
            Number::Text(_, NumberHint::NegInteger) => match number.to_i64() {
                // `-0`: no integer keeps the sign, a float does (as serde_json reads it,
                // and as `Number::to_typed` does).
                Ok(0) => Ok(Exact::F64(-0.0)),
                Ok(v) => Ok(Exact::I64(v)),
                Err(_) => number.to_i128().map(Exact::I128),
            },
            Number::Text(_, NumberHint::Float) => number.to_f64().map(Exact::F64),
            Number::I64(v) => Ok(Exact::I64(v)),
            Number::U64(v) => Ok(Exact::U64(v)),
            Number::I128(v) => Ok(Exact::I128(v)),
            Number::U128(v) => Ok(Exact::U128(v)),
            Number::F32(v) => Ok(Exact::F32(v)),
            Number::F64(v) => Ok(Exact::F64(v)),
        };
        let result = match exact {
            Ok(Exact::I64(v)) => visitor.visit_i64(v),
            Ok(Exact::U64(v)) => visitor.visit_u64(v),
            Ok(Exact::I128(v)) => visitor.visit_i128(v),
            Ok(Exact::U128(v)) => visitor.visit_u128(v),
            Ok(Exact::F32(v)) => visitor.visit_f32(v),
            Ok(Exact::F64(v)) => visitor.visit_f64(v),
            Err(err) => Err(Error::from(err)),
        };
        result.map_err(|err| self.fix(err))
    }

    /// Reads a map (or struct) opened by `entry` and hands it to the visitor.
    fn visit_map<V: Visitor<'de>>(&mut self, entry: Entry, visitor: V) -> Result<V::Value> {
        let len = if entry == Entry::StructRoot {
            self.reader.read_struct_root().map(|(_, len)| len)
        } else {
            self.reader.read_map_root()
        };
        let len = len.map_err(|err| self.fix_core(err))?;
        let start = self.reader.span().start;
        let end = if entry == Entry::StructRoot {
            Entry::StructEnd
        } else {
            Entry::MapEnd
        };
        self.trail.enter();
        let key_base = self.trail.key_base();
        let mut access = MapAccess::new(self, end, len, key_base);
        let result = visitor.visit_map(&mut access);
        let (closed, key) = (access.closed(), access.key());
        let result = match result {
            Ok(value) if closed => Ok(value),
            Ok(value) => self.map_not_finished(end).map(|()| value),
            Err(err) => Err(self.fix_container(err, start, closed, key)),
        };
        self.closed = Span::new(start, self.reader.span().end);
        self.trail.release_keys(key_base);
        self.leave(result)
    }

    /// Reads an array (or set) opened by `entry` and hands it to the visitor.
    fn visit_seq<V: Visitor<'de>>(&mut self, entry: Entry, visitor: V) -> Result<V::Value> {
        let len = if entry == Entry::SetRoot {
            self.reader.read_set_root()
        } else {
            self.reader.read_array_root()
        };
        let len = len.map_err(|err| self.fix_core(err))?;
        let start = self.reader.span().start;
        let end = if entry == Entry::SetRoot {
            Entry::SetEnd
        } else {
            Entry::ArrayEnd
        };
        self.trail.enter();
        let mut access = SeqAccess::new(self, end, len);
        let result = visitor.visit_seq(&mut access);
        let (closed, read) = (access.closed(), access.read());
        let result = match result {
            Ok(value) if closed => Ok(value),
            Ok(value) => self.seq_end(end, start, read).map(|()| value),
            Err(err) => {
                let current = read.checked_sub(1).map_or(Slot::Empty, Slot::Index);
                Err(self.fix_container(err, start, closed, current))
            }
        };
        self.closed = Span::new(start, self.reader.span().end);
        self.leave(result)
    }

    /// The visitor stopped before the end of the map: fine if the end comes next, else the
    /// map has entries the Rust type did not read.
    fn map_not_finished(&mut self, end: Entry) -> Result<()> {
        if self.peek()? == end {
            return self.read_end(end);
        }
        let err = Error::new(
            codes::INVALID_LENGTH,
            "the map has more entries than the Rust type read",
        );
        Err(self.fix(err.or_span(Span::at(self.reader.span().end))))
    }

    /// The visitor stopped before the end of the sequence (a tuple or an array read all it
    /// takes): the end should come next, checked here, the common case of every `(x, y)`;
    /// anything else means the sequence is too long for the Rust type.
    #[inline]
    fn seq_end(&mut self, end: Entry, start: usize, read: usize) -> Result<()> {
        if self.peek()? == end {
            return self.read_end(end);
        }
        self.seq_too_long(end, start, read)
    }

    /// [`Self::seq_end`] when the end does not come next: skips the rest and reports the
    /// length.
    #[cold]
    #[inline(never)]
    fn seq_too_long(&mut self, end: Entry, start: usize, read: usize) -> Result<()> {
        let mut extra = 0;
        while self.peek()? != end {
            if let Err(err) = self.reader.skip() {
                return Err(self.fix_core(err));
            }
            extra += 1;
        }
        self.read_end(end)?;
        let err = Error::new(
            codes::INVALID_LENGTH,
            format!(
                "the sequence has {} elements, the Rust type takes {read}",
                read + extra
            ),
        );
        let err = err.or_span(Span::new(start, self.reader.span().end));
        Err(self.trail.start(err))
    }

    #[inline]
    fn read_end(&mut self, end: Entry) -> Result<()> {
        let result = match end {
            Entry::MapEnd => self.reader.read_map_end(),
            Entry::StructEnd => self.reader.read_struct_end(),
            Entry::SetEnd => self.reader.read_set_end(),
            _ => self.reader.read_array_end(),
        };
        result.map_err(|err| self.fix_core(err))
    }

    /// Reads an `Option` wrapper of native data: `OptionRoot`, `Null` or a value, `OptionEnd`.
    fn visit_option_root<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if let Err(err) = self.reader.read_option_root() {
            return Err(self.fix_core(err));
        }
        let value = if self.peek()? == Entry::Null {
            if let Err(err) = self.reader.read_null() {
                return Err(self.fix_core(err));
            }
            visitor.visit_none().map_err(|err| self.fix(err))?
        } else {
            visitor.visit_some(&mut *self)?
        };
        match self.reader.read_option_end() {
            Ok(()) => Ok(value),
            Err(err) => Err(self.fix_core(err)),
        }
    }

    /// Reads a unit enum token of native data and visits its variant name (or its value for
    /// a flags combination without a single name).
    fn visit_enum_token<V: Visitor<'de>>(&mut self, visitor: V, as_enum: bool) -> Result<V::Value> {
        let token = match self.reader.read_enum() {
            Ok(token) => token,
            Err(err) => return Err(self.fix_core(err)),
        };
        let result = if token.variant.is_empty() {
            visitor.visit_i64(token.value)
        } else if as_enum {
            visitor.visit_enum(de::value::StrDeserializer::<Error>::new(token.variant))
        } else {
            visitor.visit_str(token.variant)
        };
        result.map_err(|err| self.fix(err))
    }

    /// Reads the token `entry` announced and hands it to the visitor as what it is.
    ///
    /// With `TEXT` false, the string and enum tokens are left out: they are errors, and the
    /// visitor's string methods are never called from this instantiation. Map keys that are
    /// not text go this way ([`NonTextKey`]), so that a derived field visitor keeps a single
    /// call of its `visit_str`, the one for text keys, and the compiler inlines it there.
    pub(crate) fn visit_token<V: Visitor<'de>, const TEXT: bool>(
        &mut self,
        entry: Entry,
        visitor: V,
    ) -> Result<V::Value> {
        match entry {
            Entry::Null => {
                if let Err(err) = self.reader.read_null() {
                    return Err(self.fix_core(err));
                }
                visitor.visit_unit().map_err(|err| self.fix(err))
            }
            Entry::Bool => {
                let value = match self.reader.read_bool() {
                    Ok(value) => value,
                    Err(err) => return Err(self.fix_core(err)),
                };
                visitor.visit_bool(value).map_err(|err| self.fix(err))
            }
            Entry::String | Entry::Name if TEXT => self.visit_string_token(entry, visitor),
            entry if entry.is_number() => self.visit_number(visitor),
            Entry::Blob => self.visit_blob(visitor),
            Entry::MapRoot | Entry::StructRoot => self.visit_map(entry, visitor),
            Entry::ArrayRoot | Entry::SetRoot => self.visit_seq(entry, visitor),
            Entry::OptionRoot => self.visit_option_root(visitor),
            Entry::Enum if TEXT => self.visit_enum_token(visitor, false),
            Entry::Ext => Err(self.unsupported_ext()),
            _ => Err(self.no_value(entry)),
        }
    }

    #[cold]
    fn unsupported_ext(&mut self) -> Error {
        // Read the token, so the error points at it.
        let _ = self.reader.read_ext();
        let err = sluice_core::Error::unsupported("an Ext value", "the serde bridge").with_note(
            "extension values have no serde form; read them with the sluice reader itself",
        );
        self.fix_core(err)
    }
}

/// Forwards a request that needs a number to `deserialize_any` when the token is something
/// else, so the visitor reports the mismatch (`invalid type: string "x", expected u8`).
macro_rules! deserialize_number {
    ($($method:ident => $read:ident, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if !self.peek()?.is_number() {
                return self.deserialize_any(visitor);
            }
            let value = match self.reader.$read() {
                Ok(value) => value,
                Err(err) => return Err(self.fix_core(err)),
            };
            visitor.$visit(value).map_err(|err| self.fix(err))
        }
    )*};
}

impl<'de, R: Reader> de::Deserializer<'de> for &mut Deserializer<'de, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let entry = self.peek()?;
        self.visit_token::<V, true>(entry, visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? != Entry::Bool {
            return self.deserialize_any(visitor);
        }
        let value = match self.reader.read_bool() {
            Ok(value) => value,
            Err(err) => return Err(self.fix_core(err)),
        };
        visitor.visit_bool(value).map_err(|err| self.fix(err))
    }

    deserialize_number! {
        deserialize_i8 => read_i8, visit_i8;
        deserialize_i16 => read_i16, visit_i16;
        deserialize_i32 => read_i32, visit_i32;
        deserialize_i64 => read_i64, visit_i64;
        deserialize_i128 => read_i128, visit_i128;
        deserialize_u8 => read_u8, visit_u8;
        deserialize_u16 => read_u16, visit_u16;
        deserialize_u32 => read_u32, visit_u32;
        deserialize_u64 => read_u64, visit_u64;
        deserialize_u128 => read_u128, visit_u128;
        deserialize_f32 => read_f32, visit_f32;
        deserialize_f64 => read_f64, visit_f64;
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            entry @ (Entry::String | Entry::Name) => self.visit_string_token(entry, visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            Entry::Blob => self.visit_blob(visitor),
            entry @ (Entry::String | Entry::Name) => {
                // As serde_json does: the UTF-8 bytes of the string.
                let text = match read_string_entry(&mut self.reader, entry) {
                    Ok(text) => text,
                    Err(err) => return Err(self.fix_core(err)),
                };
                let result = match self.source.borrow_bytes(text.as_bytes()) {
                    Some(borrowed) => visitor.visit_borrowed_bytes(borrowed),
                    None => visitor.visit_bytes(text.as_bytes()),
                };
                result.map_err(|err| self.fix(err))
            }
            // An array of numbers goes to `visit_seq`, which byte-buffer visitors accept.
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            Entry::Null => {
                if let Err(err) = self.reader.read_null() {
                    return Err(self.fix_core(err));
                }
                visitor.visit_none().map_err(|err| self.fix(err))
            }
            Entry::OptionRoot => self.visit_option_root(visitor),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            entry @ (Entry::ArrayRoot | Entry::SetRoot) => self.visit_seq(entry, visitor),
            Entry::Blob => self.visit_blob_as_seq(visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            entry @ (Entry::MapRoot | Entry::StructRoot) => self.visit_map(entry, visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // `deserialize_any` covers maps, structs and arrays (serde accepts a struct as the
        // sequence of its fields) and reports anything else.
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek()? {
            entry @ (Entry::String | Entry::Name) => {
                let text = match read_string_entry(&mut self.reader, entry) {
                    Ok(text) => text,
                    Err(err) => return Err(self.fix_core(err)),
                };
                let result = match self.source.borrow_str(text) {
                    Some(borrowed) => visitor
                        .visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(borrowed)),
                    None => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(text)),
                };
                result.map_err(|err| self.fix(err))
            }
            Entry::MapRoot => {
                if let Err(err) = self.reader.read_map_root() {
                    return Err(self.fix_core(err));
                }
                let start = self.reader.span().start;
                self.trail.enter();
                let key_base = self.trail.key_base();
                let result = visitor.visit_enum(EnumAccess::new(self, key_base));
                let result = match result {
                    Ok(value) => self.end_enum_map().map(|()| value),
                    Err(err) => Err(self.fix_container(err, start, false, Slot::Empty)),
                };
                self.trail.release_keys(key_base);
                self.leave(result)
            }
            Entry::Enum => self.visit_enum_token(visitor, true),
            _ => self.deserialize_any(visitor),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Err(err) = self.reader.skip() {
            return Err(self.fix_core(err));
        }
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

impl<'de, R: Reader> Deserializer<'de, R> {
    /// After the variant of an enum written as `{"Variant": value}`: the map must end.
    fn end_enum_map(&mut self) -> Result<()> {
        match self.peek()? {
            Entry::MapEnd => self.read_end(Entry::MapEnd),
            _ => {
                // Read the extra key so the error points at it.
                let _ = self.reader.skip();
                let err = Error::new(
                    codes::INVALID_ENUM,
                    "an enum written as a map must have exactly one key, the variant name",
                );
                Err(self.fix(err))
            }
        }
    }
}

/// Deserializes one `T` per value of a reader; see [`Deserializer::into_stream`].
#[derive(Debug)]
pub struct StreamDeserializer<'de, R, T> {
    de: Deserializer<'de, R>,
    failed: bool,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<'de, R: Reader, T: DeserializeOwned> StreamDeserializer<'de, R, T> {
    /// The deserializer back, for example to read what follows an error.
    pub fn into_inner(self) -> Deserializer<'de, R> {
        self.de
    }
}

impl<R: Reader, T: DeserializeOwned> Iterator for StreamDeserializer<'_, R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        match self.de.peek() {
            Ok(Entry::Ended) => None,
            Ok(_) => {
                let value = self.de.read_root::<T>();
                self.failed = value.is_err();
                Some(value)
            }
            Err(err) => {
                self.failed = true;
                Some(Err(err))
            }
        }
    }
}

/// Reads one `T` from `reader` and checks that nothing follows it.
///
/// Strings are handed to serde as transient `&str` (see [`Deserializer`] for borrowing); use
/// [`from_reader_borrowed`] to deserialize types holding `&str`.
///
/// ```
/// use sluice_core::{Value, ValueReader};
///
/// let value = Value::Array(vec![Value::from(1u64), Value::from(2u64)]);
/// let pair: (u8, i128) = sluice_serde::from_reader(ValueReader::new(&value))?;
/// assert_eq!(pair, (1, 2));
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A reader error, a value the type does not accept, or
/// [`TRAILING_VALUE`](crate::codes::TRAILING_VALUE) when more values follow.
pub fn from_reader<T: DeserializeOwned, R: Reader>(reader: R) -> Result<T> {
    let mut de = Deserializer::new(reader);
    de.read_whole()
}

/// Reads one `T` from `reader`, borrowing strings from `input` (the text `reader` reads), and
/// checks that nothing follows it.
///
/// ```
/// use sluice_msgpack::MsgPackReader;
///
/// let bytes = [0x92, 0xa2, b'h', b'i', 0x07]; // ["hi", 7]
/// let (word, n): (&str, u8) =
///     sluice_serde::from_reader_borrowed(MsgPackReader::from_slice(&bytes), &bytes)?;
/// assert_eq!((word, n), ("hi", 7));
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_reader`]; a `&str` that cannot be borrowed is
/// [`CANNOT_BORROW`](crate::codes::CANNOT_BORROW).
pub fn from_reader_borrowed<'de, T, R>(reader: R, input: &'de [u8]) -> Result<T>
where
    T: de::Deserialize<'de>,
    R: Reader,
{
    let mut de = Deserializer::new(reader).borrow_from_slice(input);
    de.read_whole()
}
