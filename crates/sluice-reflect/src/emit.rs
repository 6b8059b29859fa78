//! Writing a reflected value straight into a [`Writer`], in the token shapes of
//! [`PropertyReader`].
//!
//! `pipe(&mut PropertyReader::new(value), writer)` pays, per token, for the reader's state
//! machine (computing the next token ahead, a frame stack) and for the pipe's dispatch on the
//! peeked entry. Walking the value recursively and calling the writer directly gives the same
//! tokens, with the same spans on writer errors (the index of the token, as
//! [`PropertyReader::span`](sluice_core::Reader::span) gives them), at a fraction of the cost.
//! Values nested deeper than [`MAX_DEPTH`] go on through a [`PropertyReader`], whose stack is
//! on the heap, so a deep value cannot overflow the call stack.

use sluice_core::pipe::copy_token;
use sluice_core::{Entry, EnumToken, Reader, Result, Span, SpanHint, Writer};

use crate::info::{FieldInfo, StructStyle, VariantStyle};
use crate::{Enum, Map, OptionValue, PropertyReader, Reflect, ReflectRef, ScalarRef, Set, Struct};

/// The nesting depth up to which the emitter recurses. Kept well below the formats' own
/// depth limits: one level is several stack frames (large ones in debug builds), and the
/// emitter runs on whatever stack the caller has, so deeper values continue on the heap.
const MAX_DEPTH: usize = 32;

/// Writes `value` into `writer` as `pipe_value(&mut PropertyReader::new(value), writer)`
/// would, without finishing the writer.
///
/// # Errors
/// The first writer error, with the span of the token (its index in the token stream).
pub(crate) fn write_value<W: Writer + ?Sized>(value: &dyn Reflect, writer: &mut W) -> Result<()> {
    Emitter { writer, tokens: 0 }.value(value, 0)
}

struct Emitter<'w, W: Writer + ?Sized> {
    writer: &'w mut W,
    /// The number of tokens written so far (the index of the next one).
    tokens: usize,
}

impl<W: Writer + ?Sized> Emitter<'_, W> {
    /// Counts one token and gives a writer error its span.
    #[inline]
    fn token(&mut self, written: Result<()>) -> Result<()> {
        let index = self.tokens;
        self.tokens += 1;
        written.map_err(|error| error.or_span(Span::new(index, index + 1)))
    }

    /// A container end; an error about the whole container spans it from its start token.
    #[inline]
    fn end(&mut self, written: Result<()>, start: usize) -> Result<()> {
        let index = self.tokens;
        self.tokens += 1;
        written.map_err(|error| match error.span_hint() {
            SpanHint::EnclosingContainer => error.with_span(Span::new(start, index + 1)),
            _ => error.or_span(Span::new(index, index + 1)),
        })
    }

    fn null(&mut self) -> Result<()> {
        let written = self.writer.write_null();
        self.token(written)
    }

    /// A child value (or null when there is none). Scalars, most values, are written right
    /// here rather than in a call of their own.
    #[inline(always)]
    fn value_or_null(&mut self, value: Option<&dyn Reflect>, depth: usize) -> Result<()> {
        match value {
            Some(value) => match value.reflect_ref() {
                ReflectRef::Scalar(scalar) => self.scalar(scalar),
                view => self.view(value, view, depth),
            },
            None => self.null(),
        }
    }

    /// A child's typed view (or null when there is none) at `depth`, which the caller has
    /// checked to be below [`MAX_DEPTH`]: the view comes from the container in one call
    /// (`field_ref`, `get_ref`) instead of the child and then its view.
    #[inline(always)]
    #[allow(clippy::needless_pass_by_value)]
    fn child(&mut self, view: Option<ReflectRef<'_>>, depth: usize) -> Result<()> {
        match view {
            Some(ReflectRef::Scalar(scalar)) => self.scalar(scalar),
            Some(view) => self.shape(view, depth),
            None => self.null(),
        }
    }

    fn value(&mut self, value: &dyn Reflect, depth: usize) -> Result<()> {
        self.view(value, value.reflect_ref(), depth)
    }

    /// `value`, whose typed view is `view` (taken by value: it is a pair of pointers, or a
    /// scalar).
    #[allow(clippy::needless_pass_by_value)]
    fn view(&mut self, value: &dyn Reflect, view: ReflectRef<'_>, depth: usize) -> Result<()> {
        if depth >= MAX_DEPTH {
            return self.deep(value);
        }
        self.shape(view, depth)
    }

    /// A value at `depth` (below [`MAX_DEPTH`]) by its typed view.
    #[allow(clippy::needless_pass_by_value)]
    fn shape(&mut self, view: ReflectRef<'_>, depth: usize) -> Result<()> {
        match view {
            ReflectRef::Scalar(scalar) => self.scalar(scalar),
            ReflectRef::Struct(s) => self.structure(s, depth),
            ReflectRef::Tuple(t) => {
                // One dynamic call for the length (`is_empty` would be a second).
                let len = t.len();
                if len == 0 {
                    // `()` is "nothing": null, as the property reader gives it.
                    return self.null();
                }
                let start = self.tokens;
                let written = self.writer.write_array_root(Some(len));
                self.token(written)?;
                if depth + 1 < MAX_DEPTH {
                    for index in 0..len {
                        self.child(t.get_ref(index), depth + 1)?;
                    }
                } else {
                    for index in 0..len {
                        self.value_or_null(t.get(index), depth + 1)?;
                    }
                }
                let written = self.writer.write_array_end();
                self.end(written, start)
            }
            ReflectRef::List(l) => {
                let len = l.len();
                let start = self.tokens;
                let written = self.writer.write_array_root(Some(len));
                self.token(written)?;
                if depth + 1 < MAX_DEPTH {
                    for index in 0..len {
                        self.child(l.get_ref(index), depth + 1)?;
                    }
                } else {
                    for index in 0..len {
                        self.value_or_null(l.get(index), depth + 1)?;
                    }
                }
                let written = self.writer.write_array_end();
                self.end(written, start)
            }
            ReflectRef::Map(m) => self.map(m, depth),
            ReflectRef::Set(set) => self.set(set, depth),
            ReflectRef::Option(o) => self.option(o, depth),
            ReflectRef::Enum(e) => self.enumeration(e, depth),
        }
    }

    // Maps, sets, options and enums are written out of line: `view` stays small, which
    // keeps the cost of its many calls (struct fields, list elements) low.

    #[inline(never)]
    fn map(&mut self, m: &dyn Map, depth: usize) -> Result<()> {
        let start = self.tokens;
        let written = self.writer.write_map_root(Some(m.len()));
        self.token(written)?;
        for (key, item) in m.iter() {
            match key.reflect_ref() {
                ReflectRef::Scalar(ScalarRef::Str(name)) => {
                    let written = self.writer.write_name(name);
                    self.token(written)?;
                }
                ReflectRef::Scalar(scalar) => self.scalar(scalar)?,
                view => self.view(key, view, depth + 1)?,
            }
            self.value_or_null(Some(item), depth + 1)?;
        }
        let written = self.writer.write_map_end();
        self.end(written, start)
    }

    #[inline(never)]
    fn set(&mut self, set: &dyn Set, depth: usize) -> Result<()> {
        let start = self.tokens;
        let written = self.writer.write_set_root(Some(set.len()));
        self.token(written)?;
        for item in set.iter() {
            self.value_or_null(Some(item), depth + 1)?;
        }
        let written = self.writer.write_set_end();
        self.end(written, start)
    }

    #[inline(never)]
    fn option(&mut self, o: &dyn OptionValue, depth: usize) -> Result<()> {
        let start = self.tokens;
        let written = self.writer.write_option_root();
        self.token(written)?;
        self.value_or_null(o.get(), depth + 1)?;
        let written = self.writer.write_option_end();
        self.end(written, start)
    }

    #[inline(always)]
    fn scalar(&mut self, scalar: ScalarRef<'_>) -> Result<()> {
        // The common numbers go through the writer's typed methods, which a format may
        // implement without building a `Number` and matching on it again.
        let written = match scalar {
            ScalarRef::Bool(value) => self.writer.write_bool(value),
            ScalarRef::Str(text) => self.writer.write_str(text),
            ScalarRef::F64(value) => self.writer.write_f64(value),
            ScalarRef::F32(value) => self.writer.write_f32(value),
            ScalarRef::I8(value) => self.writer.write_i64(value.into()),
            ScalarRef::I16(value) => self.writer.write_i64(value.into()),
            ScalarRef::I32(value) => self.writer.write_i64(value.into()),
            ScalarRef::I64(value) => self.writer.write_i64(value),
            ScalarRef::U8(value) => self.writer.write_u64(value.into()),
            ScalarRef::U16(value) => self.writer.write_u64(value.into()),
            ScalarRef::U32(value) => self.writer.write_u64(value.into()),
            ScalarRef::U64(value) => self.writer.write_u64(value),
            ScalarRef::I128(value) => self.writer.write_i128(value),
            ScalarRef::U128(value) => self.writer.write_u128(value),
            ScalarRef::Char(_) | ScalarRef::Uuid(_) => return self.formatted(scalar),
        };
        self.token(written)
    }

    /// A scalar written as text formatted here (a `char`, a `Uuid`); out of line, so its
    /// buffer does not weigh on the frame of every value.
    #[inline(never)]
    fn formatted(&mut self, scalar: ScalarRef<'_>) -> Result<()> {
        let mut buffer = [0; 36];
        let text = match scalar {
            ScalarRef::Char(c) => &*c.encode_utf8(&mut buffer),
            ScalarRef::Uuid(id) => &*id.hyphenated().encode_lower(&mut buffer),
            _ => "",
        };
        let written = self.writer.write_str(text);
        self.token(written)
    }

    fn structure(&mut self, s: &dyn Struct, depth: usize) -> Result<()> {
        let info = s.struct_info();
        let Some(struct_info) = info.as_struct() else {
            return self.null();
        };
        let fields = struct_info.fields;
        match struct_info.style {
            StructStyle::Unit => self.null(),
            // A one-field tuple struct is its field.
            StructStyle::Tuple if fields.len() == 1 => self.value_or_null(s.field(0), depth),
            StructStyle::Tuple => {
                let start = self.tokens;
                let written = self.writer.write_array_root(Some(fields.len()));
                self.token(written)?;
                for index in 0..fields.len() {
                    self.value_or_null(s.field(index), depth + 1)?;
                }
                let written = self.writer.write_array_end();
                self.end(written, start)
            }
            StructStyle::Named => {
                let start = self.tokens;
                let written = self
                    .writer
                    .write_struct_root(info.name(), Some(fields.len()));
                self.token(written)?;
                if depth + 1 < MAX_DEPTH {
                    // Each field's view in one dynamic call.
                    for (index, info) in fields.iter().enumerate() {
                        let written = self.writer.write_name(info.name);
                        self.token(written)?;
                        self.child(s.field_ref(index), depth + 1)?;
                    }
                } else {
                    self.named_fields(fields, |index| s.field(index), depth)?;
                }
                let written = self.writer.write_struct_end();
                self.end(written, start)
            }
        }
    }

    /// `Name` / value pairs of a struct or a struct-like variant.
    fn named_fields<'v>(
        &mut self,
        fields: &'static [FieldInfo],
        field: impl Fn(usize) -> Option<&'v dyn Reflect>,
        depth: usize,
    ) -> Result<()> {
        for (index, info) in fields.iter().enumerate() {
            let written = self.writer.write_name(info.name);
            self.token(written)?;
            self.value_or_null(field(index), depth + 1)?;
        }
        Ok(())
    }

    #[inline(never)]
    fn enumeration(&mut self, e: &dyn Enum, depth: usize) -> Result<()> {
        let info = e.enum_info();
        let Some(enum_info) = info.as_enum() else {
            return self.null();
        };
        if let Some(bits) = e.bits() {
            let variant = enum_info
                .variant_by_discriminant(bits)
                .map_or("", |i| enum_info.variants[i].name);
            let written = self.writer.write_enum(EnumToken {
                type_name: info.name(),
                variant,
                value: bits,
                flags: true,
            });
            return self.token(written);
        }
        let Some(variant) = enum_info.variants.get(e.variant_index()) else {
            return self.null();
        };
        if variant.style == VariantStyle::Unit {
            let written = self.writer.write_enum(EnumToken {
                type_name: info.name(),
                variant: variant.name,
                value: variant.discriminant,
                flags: false,
            });
            return self.token(written);
        }
        // Externally tagged: `{"Variant": payload}`.
        let start = self.tokens;
        let written = self.writer.write_map_root(Some(1));
        self.token(written)?;
        let written = self.writer.write_name(variant.name);
        self.token(written)?;
        let fields = variant.fields;
        match variant.style {
            VariantStyle::Newtype => self.value_or_null(e.field(0), depth + 1)?,
            VariantStyle::Tuple => {
                let inner = self.tokens;
                let written = self.writer.write_array_root(Some(fields.len()));
                self.token(written)?;
                for index in 0..fields.len() {
                    self.value_or_null(e.field(index), depth + 2)?;
                }
                let written = self.writer.write_array_end();
                self.end(written, inner)?;
            }
            VariantStyle::Struct | VariantStyle::Unit => {
                let inner = self.tokens;
                let written = self.writer.write_map_root(Some(fields.len()));
                self.token(written)?;
                self.named_fields(fields, |index| e.field(index), depth + 1)?;
                let written = self.writer.write_map_end();
                self.end(written, inner)?;
            }
        }
        let written = self.writer.write_map_end();
        self.end(written, start)
    }

    /// A value too deep to recurse into: through a property reader (heap stack). Its tokens
    /// are numbered on from this one.
    #[cold]
    #[inline(never)]
    fn deep(&mut self, value: &dyn Reflect) -> Result<()> {
        let mut reader = PropertyReader::new(value);
        let mut starts: Vec<usize> = Vec::new();
        loop {
            let entry = reader.peek()?;
            if entry == Entry::Ended {
                return Ok(());
            }
            // `copy_token` gives writer errors the sub-reader's span, counted from this
            // value: number the token in the whole stream instead.
            let here = Span::new(self.tokens, self.tokens + 1);
            let written = copy_token(&mut reader, self.writer, entry).map_err(|error| {
                if error.span() == Some(reader.span()) {
                    error.with_span(here)
                } else {
                    error
                }
            });
            if entry.is_container_end() {
                let start = starts.pop().unwrap_or(self.tokens);
                self.end(written, start)?;
            } else {
                if entry.is_container_start() {
                    starts.push(self.tokens);
                }
                self.token(written)?;
            }
        }
    }
}
