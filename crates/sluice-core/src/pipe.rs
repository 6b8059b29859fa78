//! Pumping any [`Reader`] into any [`Writer`].
//!
//! [`pipe`] copies every token until the reader says [`Entry::Ended`]; [`pipe_value`] copies
//! one whole value. Both are generic so a `pipe(JsonReader, MsgPackWriter)` compiles to a
//! tight loop with no dynamic dispatch. [`PipeVisitor`] adds hooks (on peek, before and
//! after each token) that can pass, skip or stop, for rewriting a stream on the way through.
//!
//! Errors from the writer get the span of the token being copied, so a writer that rejects a
//! value (a property writer finding the wrong type) points at that value in the source. A
//! writer error that asks for [`SpanHint::EnclosingContainer`] (a missing field) gets the
//! span of the whole enclosing container instead.

use smallvec::SmallVec;

use crate::error::SpanHint;
use crate::{Entry, Error, Reader, Result, Span, Writer};

/// Copies one token whose entry was peeked as `entry` from `reader` to `writer`.
///
/// Writer errors get the reader's span of the token.
///
/// # Errors
/// The first reader or writer error.
#[inline]
pub fn copy_token<R, W>(reader: &mut R, writer: &mut W, entry: Entry) -> Result<()>
where
    R: Reader + ?Sized,
    W: Writer + ?Sized,
{
    let written = match entry {
        Entry::Null => {
            reader.read_null()?;
            writer.write_null()
        }
        Entry::Bool => {
            let value = reader.read_bool()?;
            writer.write_bool(value)
        }
        Entry::String => {
            let value = reader.read_str()?;
            writer.write_str(value)
        }
        Entry::Name => {
            let value = reader.read_name()?;
            writer.write_name(value)
        }
        Entry::Number(_)
        | Entry::I8
        | Entry::I16
        | Entry::I32
        | Entry::I64
        | Entry::I128
        | Entry::U8
        | Entry::U16
        | Entry::U32
        | Entry::U64
        | Entry::U128
        | Entry::F32
        | Entry::F64 => {
            let value = reader.read_number()?;
            writer.write_number(value)
        }
        Entry::Blob => {
            let value = reader.read_blob()?;
            writer.write_blob(value)
        }
        Entry::Ext => {
            let value = reader.read_ext()?;
            writer.write_ext(value)
        }
        Entry::MapRoot => {
            let len = reader.read_map_root()?;
            writer.write_map_root(len)
        }
        Entry::MapEnd => {
            reader.read_map_end()?;
            writer.write_map_end()
        }
        Entry::ArrayRoot => {
            let len = reader.read_array_root()?;
            writer.write_array_root(len)
        }
        Entry::ArrayEnd => {
            reader.read_array_end()?;
            writer.write_array_end()
        }
        Entry::SetRoot => {
            let len = reader.read_set_root()?;
            writer.write_set_root(len)
        }
        Entry::SetEnd => {
            reader.read_set_end()?;
            writer.write_set_end()
        }
        Entry::StructRoot => {
            let (name, len) = reader.read_struct_root()?;
            writer.write_struct_root(name, len)
        }
        Entry::StructEnd => {
            reader.read_struct_end()?;
            writer.write_struct_end()
        }
        Entry::OptionRoot => {
            reader.read_option_root()?;
            writer.write_option_root()
        }
        Entry::OptionEnd => {
            reader.read_option_end()?;
            writer.write_option_end()
        }
        Entry::Enum => {
            let value = reader.read_enum()?;
            writer.write_enum(value)
        }
        Entry::Ended => return Ok(()),
    };
    written.map_err(|err| err.or_span(reader.span()))
}

/// Start offsets of the open containers, to give "whole container" errors their span.
#[derive(Default)]
struct Containers {
    starts: SmallVec<[usize; 32]>,
}

impl Containers {
    #[inline]
    fn copy<R, W>(&mut self, reader: &mut R, writer: &mut W, entry: Entry) -> Result<()>
    where
        R: Reader + ?Sized,
        W: Writer + ?Sized,
    {
        if entry.is_container_end() {
            let start = self.starts.pop();
            return copy_token(reader, writer, entry).map_err(|err| {
                match (err.span_hint(), start) {
                    (SpanHint::EnclosingContainer, Some(start)) => {
                        let end = reader.span().end;
                        err.with_span(Span::new(start, end))
                    }
                    _ => err,
                }
            });
        }
        let result = copy_token(reader, writer, entry);
        if entry.is_container_start() {
            self.starts.push(reader.span().start);
        }
        result
    }

    fn depth(&self) -> usize {
        self.starts.len()
    }
}

/// Copies every token from `reader` to `writer` until the reader is [`Entry::Ended`], then
/// calls [`Writer::finish`].
///
/// ```
/// use sluice_core::{pipe, Value, ValueReader, ValueWriter};
/// let value = Value::Map(vec![(Value::from("a"), Value::from(1u64))]);
/// let mut writer = ValueWriter::new();
/// pipe(&mut ValueReader::new(&value), &mut writer)?;
/// assert_eq!(writer.into_value()?, value);
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// # Errors
/// The first reader or writer error, with the span of the token being copied.
pub fn pipe<R, W>(reader: &mut R, writer: &mut W) -> Result<()>
where
    R: Reader + ?Sized,
    W: Writer + ?Sized,
{
    let mut containers = Containers::default();
    loop {
        let entry = reader.peek()?;
        if entry == Entry::Ended {
            return writer.finish();
        }
        containers.copy(reader, writer, entry)?;
    }
}

/// Copies exactly one value (a scalar, or a container and everything in it) from where the
/// reader stands: inside a container, the next item, leaving the rest of the container. At
/// an [`Entry::Name`] it copies the key alone, as [`Reader::skip`] skips it.
///
/// Unlike [`pipe`], it does not call [`Writer::finish`], so several values can be copied
/// into one writer.
///
/// # Errors
/// The first reader or writer error; `Ended`, or a container end where a value should start,
/// is [`UNEXPECTED_ENTRY`](crate::codes::UNEXPECTED_ENTRY).
pub fn pipe_value<R, W>(reader: &mut R, writer: &mut W) -> Result<()>
where
    R: Reader + ?Sized,
    W: Writer + ?Sized,
{
    let mut containers = Containers::default();
    let entry = reader.peek()?;
    if entry == Entry::Ended || entry.is_container_end() {
        return Err(refused_here(reader, "a value", entry));
    }
    containers.copy(reader, writer, entry)?;
    while containers.depth() > 0 {
        let entry = reader.peek()?;
        if entry == Entry::Ended {
            return Err(refused_here(reader, "the end of a container", entry));
        }
        containers.copy(reader, writer, entry)?;
    }
    Ok(())
}

/// The error for the peeked `entry` (an end, or `Ended`) standing where `expected` should:
/// [`UNEXPECTED_ENTRY`](crate::codes::UNEXPECTED_ENTRY) over that token, which stays unread.
///
/// A reader knows the span of a token it has peeked only once a read of it fails (see
/// [`Reader::span`]), so a read the contract says must refuse it without consuming it is
/// made (`entry` is no `Null`): the refusal gives the token's span, and the data path when
/// the reader has one. Failing that, the span of the token read before; an error of another
/// kind from that read is the reader's own (an error in its input) and comes first.
#[cold]
#[inline(never)]
pub(crate) fn refused_here<R: Reader + ?Sized>(
    reader: &mut R,
    expected: &str,
    entry: Entry,
) -> Error {
    let err = Error::unexpected(expected, entry);
    // Only a token that is still there, and that a `read_null` cannot take.
    if entry == Entry::Null || reader.peek().ok() != Some(entry) {
        return err.or_span(reader.span());
    }
    match reader.read_null() {
        Err(refused) if refused.code() == crate::codes::UNEXPECTED_ENTRY => {
            let err = err.with_span(refused.span().unwrap_or_else(|| reader.span()));
            match refused.path() {
                Some(path) => err.with_path(path.clone()),
                None => err,
            }
        }
        Err(other) => other,
        // A reader that breaks the contract: nothing better to point at.
        Ok(()) => err.or_span(reader.span()),
    }
}

/// Skips one whole value by reading its tokens; the default of [`Reader::skip`].
///
/// # Errors
/// As [`pipe_value`].
pub fn skip_value<R: Reader + ?Sized>(reader: &mut R) -> Result<()> {
    pipe_value(reader, &mut crate::NoopWriter::new())
}

/// What a [`PipeVisitor`] hook asks the pipe to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on as usual.
    Pass,
    /// From `on_peek`: drop the whole next value (the reader skips it, nothing is written);
    /// at a [`Entry::Name`], the whole member: the key and its value.
    /// From `before`: the hook has consumed the token itself (and written what it wanted).
    Skip,
    /// End the pipe now, successfully; the writer is left as it is and not finished.
    Stop,
}

type PeekHook<'h> = Box<dyn FnMut(Entry) -> Result<Flow> + 'h>;
type TokenHook<'h> = Box<dyn FnMut(Entry, &mut dyn Reader, &mut dyn Writer) -> Result<Flow> + 'h>;

/// A pipe with hooks.
///
/// - `on_peek(entry)` runs after each peek: [`Flow::Skip`] drops the whole value (at a
///   [`Entry::Name`], the key and its value).
/// - `before(entry, reader, writer)` runs before the token is copied: it may read the token
///   and write something else, then return [`Flow::Skip`].
/// - `after(entry, reader, writer)` runs after the token was copied.
///
/// Any hook may return [`Flow::Stop`]. Dropping a key and its value:
///
/// ```
/// use sluice_core::{Entry, Flow, PipeVisitor, Reader, Value, ValueReader, ValueWriter, Writer};
/// let value = Value::Map(vec![
///     (Value::from("keep"), Value::from(1u64)),
///     (Value::from("secret"), Value::from("hunter2")),
/// ]);
/// let mut writer = ValueWriter::new();
/// PipeVisitor::new()
///     .before(|entry, reader, writer| {
///         if entry != Entry::Name {
///             return Ok(Flow::Pass);
///         }
///         let name = reader.read_name()?.to_owned();
///         if name == "secret" {
///             reader.skip()?; // the value
///         } else {
///             writer.write_name(&name)?;
///         }
///         Ok(Flow::Skip)
///     })
///     .run(&mut ValueReader::new(&value), &mut writer)?;
/// let out = writer.into_value()?;
/// assert!(out.get("secret").is_none());
/// assert!(out.get("keep").is_some());
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Default)]
pub struct PipeVisitor<'h> {
    on_peek: Option<PeekHook<'h>>,
    before: Option<TokenHook<'h>>,
    after: Option<TokenHook<'h>>,
}

impl std::fmt::Debug for PipeVisitor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipeVisitor")
            .field("on_peek", &self.on_peek.is_some())
            .field("before", &self.before.is_some())
            .field("after", &self.after.is_some())
            .finish()
    }
}

impl<'h> PipeVisitor<'h> {
    /// A visitor with no hooks (a plain [`pipe`]).
    #[must_use]
    pub fn new() -> PipeVisitor<'h> {
        PipeVisitor::default()
    }

    /// Sets the hook run after each peek.
    #[must_use]
    pub fn on_peek(mut self, hook: impl FnMut(Entry) -> Result<Flow> + 'h) -> Self {
        self.on_peek = Some(Box::new(hook));
        self
    }

    /// Sets the hook run before each token is copied.
    #[must_use]
    pub fn before(
        mut self,
        hook: impl FnMut(Entry, &mut dyn Reader, &mut dyn Writer) -> Result<Flow> + 'h,
    ) -> Self {
        self.before = Some(Box::new(hook));
        self
    }

    /// Sets the hook run after each token is copied.
    #[must_use]
    pub fn after(
        mut self,
        hook: impl FnMut(Entry, &mut dyn Reader, &mut dyn Writer) -> Result<Flow> + 'h,
    ) -> Self {
        self.after = Some(Box::new(hook));
        self
    }

    /// Runs the pipe until the reader is [`Entry::Ended`] (then finishes the writer) or a hook
    /// stops it.
    ///
    /// # Errors
    /// The first reader, writer or hook error.
    pub fn run<R: Reader, W: Writer>(&mut self, reader: &mut R, writer: &mut W) -> Result<()> {
        loop {
            let entry = reader.peek()?;
            if entry == Entry::Ended {
                return writer.finish();
            }
            if let Some(hook) = &mut self.on_peek {
                match hook(entry)? {
                    Flow::Pass => {}
                    Flow::Skip => {
                        // At a key, its value too: alone, the value would stand where the
                        // next key must (every reader's `skip` takes a key alone).
                        if entry == Entry::Name {
                            reader.skip()?;
                        }
                        reader.skip()?;
                        continue;
                    }
                    Flow::Stop => return Ok(()),
                }
            }
            if let Some(hook) = &mut self.before {
                match hook(entry, reader, writer)? {
                    Flow::Pass => copy_token(reader, writer, entry)?,
                    Flow::Skip => {}
                    Flow::Stop => return Ok(()),
                }
            } else {
                copy_token(reader, writer, entry)?;
            }
            if let Some(hook) = &mut self.after
                && hook(entry, reader, writer)? == Flow::Stop
            {
                return Ok(());
            }
        }
    }
}
