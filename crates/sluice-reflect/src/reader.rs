//! [`PropertyReader`]: a reflected value read as a stream of tokens.
//!
//! Walks a `&dyn Reflect` and answers the [`Reader`] protocol, so a native value can be piped
//! into any writer: `pipe(&mut PropertyReader::new(&settings), &mut json_writer)`.
//!
//! The shapes, chosen so that JSON output looks like what people write by hand:
//! - named structs: `StructRoot`, then `Name` / value pairs, `StructEnd`; a one-field tuple
//!   struct is its field; other tuple structs and tuples are arrays; unit structs are `Null`;
//! - lists and arrays: `ArrayRoot` ... `ArrayEnd`; sets: `SetRoot` ... `SetEnd`; `()` is `Null`;
//! - maps: `MapRoot`, keys (a `Name` for string keys, else the key's own tokens), values,
//!   `MapEnd`;
//! - options: `OptionRoot`, then `Null` or the value, then `OptionEnd`;
//! - unit enum values and flags: one `Enum` token; a data-carrying variant is externally
//!   tagged: `MapRoot`, `Name(variant)`, payload, `MapEnd`;
//! - numbers are typed (`I8` ... `U128`, `F32`, `F64`); `char` and `Uuid` are strings.

use sluice_core::{Entry, EnumToken, Error, Number, Reader, Result, Span};

use crate::info::{FieldInfo, StructStyle, VariantStyle};
use crate::{Enum, List, Reflect, ReflectRef, ScalarRef, Struct, Tuple};

/// Where the fields of a struct-like frame come from.
#[derive(Clone, Copy)]
enum Fields<'a> {
    Struct(&'a dyn Struct),
    Variant(&'a dyn Enum),
}

impl<'a> Fields<'a> {
    fn get(self, index: usize) -> Option<&'a dyn Reflect> {
        match self {
            Fields::Struct(s) => s.field(index),
            Fields::Variant(e) => e.field(index),
        }
    }
}

/// Where the elements of a sequence frame come from.
#[derive(Clone, Copy)]
enum Items<'a> {
    List(&'a dyn List),
    Tuple(&'a dyn Tuple),
    Fields(Fields<'a>),
}

impl<'a> Items<'a> {
    fn get(self, index: usize) -> Option<&'a dyn Reflect> {
        match self {
            Items::List(l) => l.get(index),
            Items::Tuple(t) => t.get(index),
            Items::Fields(f) => f.get(index),
        }
    }
}

enum Frame<'a> {
    Fields {
        source: Fields<'a>,
        infos: &'static [FieldInfo],
        index: usize,
        name_done: bool,
        end: Entry,
    },
    Seq {
        items: Items<'a>,
        index: usize,
        len: usize,
        end: Entry,
    },
    Map {
        entries: Box<dyn Iterator<Item = (&'a dyn Reflect, &'a dyn Reflect)> + 'a>,
        value: Option<&'a dyn Reflect>,
    },
    Set {
        items: Box<dyn Iterator<Item = &'a dyn Reflect> + 'a>,
    },
    Option {
        value: Option<&'a dyn Reflect>,
        done: bool,
    },
    Tag {
        variant: &'static str,
        enum_value: &'a dyn Enum,
        style: VariantStyle,
        fields: &'static [FieldInfo],
        stage: u8,
    },
}

/// The next token, computed ahead so `peek` has no side effect.
enum Next<'a> {
    Scalar(ScalarRef<'a>),
    Enum {
        type_name: &'static str,
        variant: &'static str,
        value: i64,
        flags: bool,
    },
    Start {
        entry: Entry,
        name: &'static str,
        len: Option<usize>,
    },
    Name(&'a str),
    Null,
    End(Entry),
    Ended,
}

/// Reads a `&dyn Reflect` as tokens (the token shape of each kind of type is tabled in the book's reflection chapter).
///
/// ```
/// use sluice_core::{pipe, Value, ValueWriter};
/// use sluice_reflect::PropertyReader;
/// let value: Vec<Option<u8>> = vec![Some(1), None];
/// let mut writer = ValueWriter::new();
/// pipe(&mut PropertyReader::new(&value), &mut writer)?;
/// assert_eq!(writer.into_value()?, Value::Array(vec![Value::from(1u64), Value::Null]));
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct PropertyReader<'a> {
    stack: Vec<Frame<'a>>,
    next: Next<'a>,
    text: [u8; 36],
    tokens: usize,
}

impl std::fmt::Debug for PropertyReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropertyReader")
            .field("depth", &self.stack.len())
            .field("tokens", &self.tokens)
            .finish_non_exhaustive()
    }
}

fn scalar_entry(scalar: ScalarRef<'_>) -> Entry {
    match scalar {
        ScalarRef::Bool(_) => Entry::Bool,
        ScalarRef::I8(_) => Entry::I8,
        ScalarRef::I16(_) => Entry::I16,
        ScalarRef::I32(_) => Entry::I32,
        ScalarRef::I64(_) => Entry::I64,
        ScalarRef::I128(_) => Entry::I128,
        ScalarRef::U8(_) => Entry::U8,
        ScalarRef::U16(_) => Entry::U16,
        ScalarRef::U32(_) => Entry::U32,
        ScalarRef::U64(_) => Entry::U64,
        ScalarRef::U128(_) => Entry::U128,
        ScalarRef::F32(_) => Entry::F32,
        ScalarRef::F64(_) => Entry::F64,
        ScalarRef::Char(_) | ScalarRef::Str(_) | ScalarRef::Uuid(_) => Entry::String,
    }
}

/// Pushes the frame of a container being opened; its start token comes next.
fn begin<'a>(
    stack: &mut Vec<Frame<'a>>,
    entry: Entry,
    name: &'static str,
    len: Option<usize>,
    frame: Frame<'a>,
) -> Next<'a> {
    stack.push(frame);
    Next::Start { entry, name, len }
}

/// The first token of a value (resolving transparent wrappers); containers push their frame.
fn open<'a>(value: &'a dyn Reflect, stack: &mut Vec<Frame<'a>>) -> Next<'a> {
    match value.reflect_ref() {
        ReflectRef::Scalar(scalar) => Next::Scalar(scalar),
        ReflectRef::Struct(s) => {
            let info = s.struct_info();
            let Some(struct_info) = info.as_struct() else {
                return Next::Null;
            };
            match struct_info.style {
                StructStyle::Unit => Next::Null,
                StructStyle::Tuple if struct_info.fields.len() == 1 => match s.field(0) {
                    Some(inner) => open(inner, stack),
                    None => Next::Null,
                },
                StructStyle::Tuple => begin(
                    stack,
                    Entry::ArrayRoot,
                    "",
                    Some(struct_info.fields.len()),
                    Frame::Seq {
                        items: Items::Fields(Fields::Struct(s)),
                        index: 0,
                        len: struct_info.fields.len(),
                        end: Entry::ArrayEnd,
                    },
                ),
                StructStyle::Named => begin(
                    stack,
                    Entry::StructRoot,
                    info.name(),
                    Some(struct_info.fields.len()),
                    Frame::Fields {
                        source: Fields::Struct(s),
                        infos: struct_info.fields,
                        index: 0,
                        name_done: false,
                        end: Entry::StructEnd,
                    },
                ),
            }
        }
        // `()` is "nothing": null, as in JSON documents that hold `null` placeholders.
        ReflectRef::Tuple(t) if t.is_empty() => Next::Null,
        ReflectRef::Tuple(t) => begin(
            stack,
            Entry::ArrayRoot,
            "",
            Some(t.len()),
            Frame::Seq {
                items: Items::Tuple(t),
                index: 0,
                len: t.len(),
                end: Entry::ArrayEnd,
            },
        ),
        ReflectRef::List(l) => begin(
            stack,
            Entry::ArrayRoot,
            "",
            Some(l.len()),
            Frame::Seq {
                items: Items::List(l),
                index: 0,
                len: l.len(),
                end: Entry::ArrayEnd,
            },
        ),
        ReflectRef::Map(m) => begin(
            stack,
            Entry::MapRoot,
            "",
            Some(m.len()),
            Frame::Map {
                entries: m.iter(),
                value: None,
            },
        ),
        ReflectRef::Set(s) => begin(
            stack,
            Entry::SetRoot,
            "",
            Some(s.len()),
            Frame::Set { items: s.iter() },
        ),
        ReflectRef::Option(o) => begin(
            stack,
            Entry::OptionRoot,
            "",
            None,
            Frame::Option {
                value: o.get(),
                done: false,
            },
        ),
        ReflectRef::Enum(e) => open_enum(e, stack),
    }
}

fn open_enum<'a>(e: &'a dyn Enum, stack: &mut Vec<Frame<'a>>) -> Next<'a> {
    let info = e.enum_info();
    let Some(enum_info) = info.as_enum() else {
        return Next::Null;
    };
    if let Some(bits) = e.bits() {
        let variant = enum_info
            .variant_by_discriminant(bits)
            .map_or("", |i| enum_info.variants[i].name);
        return Next::Enum {
            type_name: info.name(),
            variant,
            value: bits,
            flags: true,
        };
    }
    let Some(variant) = enum_info.variants.get(e.variant_index()) else {
        return Next::Null;
    };
    if variant.style == VariantStyle::Unit {
        return Next::Enum {
            type_name: info.name(),
            variant: variant.name,
            value: variant.discriminant,
            flags: false,
        };
    }
    begin(
        stack,
        Entry::MapRoot,
        "",
        Some(1),
        Frame::Tag {
            variant: variant.name,
            enum_value: e,
            style: variant.style,
            fields: variant.fields,
            stage: 0,
        },
    )
}

impl<'a> PropertyReader<'a> {
    /// A reader over `value`.
    #[must_use]
    pub fn new(value: &'a dyn Reflect) -> PropertyReader<'a> {
        let mut stack = Vec::new();
        let next = open(value, &mut stack);
        PropertyReader {
            stack,
            next,
            text: [0; 36],
            tokens: 0,
        }
    }

    /// The next token once the current one is consumed.
    ///
    /// A child value is opened after the frame's borrow ends (`next_in` only says which).
    #[inline]
    fn advance(&mut self) {
        self.tokens += 1;
        let Some(frame) = self.stack.last_mut() else {
            self.next = Next::Ended;
            return;
        };
        self.next = match next_in(frame) {
            Step::Ready(next) => next,
            Step::Open(value) => open(value, &mut self.stack),
            Step::Push(entry, len, frame) => begin(&mut self.stack, entry, "", len, frame),
        };
    }

    fn mismatch(&self, expected: &str) -> Error {
        Error::unexpected(expected, self.entry()).with_span(self.span())
    }

    fn entry(&self) -> Entry {
        match &self.next {
            Next::Scalar(s) => scalar_entry(*s),
            Next::Enum { .. } => Entry::Enum,
            Next::Start { entry, .. } | Next::End(entry) => *entry,
            Next::Name(_) => Entry::Name,
            Next::Null => Entry::Null,
            Next::Ended => Entry::Ended,
        }
    }

    fn start(&mut self, expected: Entry) -> Result<(&'static str, Option<usize>)> {
        match &mut self.next {
            Next::Start { entry, name, len } if *entry == expected => {
                // The container's frame is already on the stack (pushed by `open`).
                let (name, len) = (*name, *len);
                self.advance();
                Ok((name, len))
            }
            _ => Err(self.mismatch(expected.name())),
        }
    }

    fn end(&mut self, expected: Entry) -> Result<()> {
        match self.next {
            Next::End(entry) if entry == expected => {
                self.stack.pop();
                self.advance();
                Ok(())
            }
            _ => Err(self.mismatch(expected.name())),
        }
    }
}

/// What comes after the current token of a frame.
enum Step<'a> {
    /// A token that opens nothing.
    Ready(Next<'a>),
    /// The first token of a child value.
    Open(&'a dyn Reflect),
    /// A container without a value of its own (an enum payload): its start and frame.
    Push(Entry, Option<usize>, Frame<'a>),
}

/// The step after the current token of the top frame (struct fields and sequence elements,
/// the common frames, first).
#[inline(always)]
fn next_in<'a>(frame: &mut Frame<'a>) -> Step<'a> {
    match frame {
        Frame::Fields {
            source,
            infos,
            index,
            name_done,
            end,
        } => {
            let Some(info) = infos.get(*index) else {
                return Step::Ready(Next::End(*end));
            };
            if !*name_done {
                *name_done = true;
                return Step::Ready(Next::Name(info.name));
            }
            *name_done = false;
            let field = source.get(*index);
            *index += 1;
            field.map_or(Step::Ready(Next::Null), Step::Open)
        }
        Frame::Seq {
            items,
            index,
            len,
            end,
        } => {
            if *index >= *len {
                return Step::Ready(Next::End(*end));
            }
            let item = items.get(*index);
            *index += 1;
            item.map_or(Step::Ready(Next::Null), Step::Open)
        }
        Frame::Map { entries, value } => {
            if let Some(value) = value.take() {
                return Step::Open(value);
            }
            match entries.next() {
                Some((key, v)) => {
                    *value = Some(v);
                    match key.reflect_ref() {
                        ReflectRef::Scalar(ScalarRef::Str(name)) => Step::Ready(Next::Name(name)),
                        _ => Step::Open(key),
                    }
                }
                None => Step::Ready(Next::End(Entry::MapEnd)),
            }
        }
        Frame::Set { items } => items
            .next()
            .map_or(Step::Ready(Next::End(Entry::SetEnd)), Step::Open),
        Frame::Option { value, done } => {
            if *done {
                return Step::Ready(Next::End(Entry::OptionEnd));
            }
            *done = true;
            value.map_or(Step::Ready(Next::Null), Step::Open)
        }
        Frame::Tag {
            variant,
            enum_value,
            style,
            fields,
            stage,
        } => {
            *stage += 1;
            match *stage {
                1 => Step::Ready(Next::Name(variant)),
                2 => match style {
                    VariantStyle::Newtype => enum_value
                        .field(0)
                        .map_or(Step::Ready(Next::Null), Step::Open),
                    VariantStyle::Tuple => Step::Push(
                        Entry::ArrayRoot,
                        Some(fields.len()),
                        Frame::Seq {
                            items: Items::Fields(Fields::Variant(*enum_value)),
                            index: 0,
                            len: fields.len(),
                            end: Entry::ArrayEnd,
                        },
                    ),
                    VariantStyle::Struct | VariantStyle::Unit => Step::Push(
                        Entry::MapRoot,
                        Some(fields.len()),
                        Frame::Fields {
                            source: Fields::Variant(*enum_value),
                            infos: fields,
                            index: 0,
                            name_done: false,
                            end: Entry::MapEnd,
                        },
                    ),
                },
                _ => Step::Ready(Next::End(Entry::MapEnd)),
            }
        }
    }
}

impl Reader for PropertyReader<'_> {
    fn peek(&mut self) -> Result<Entry> {
        Ok(self.entry())
    }

    /// Native values have no byte positions: the span is the index of the last token read.
    fn span(&self) -> Span {
        Span::new(self.tokens.saturating_sub(1), self.tokens)
    }

    fn read_null(&mut self) -> Result<()> {
        match self.next {
            Next::Null => {
                self.advance();
                Ok(())
            }
            _ => Err(self.mismatch("Null")),
        }
    }

    fn read_bool(&mut self) -> Result<bool> {
        match self.next {
            Next::Scalar(ScalarRef::Bool(value)) => {
                self.advance();
                Ok(value)
            }
            _ => Err(self.mismatch("Bool")),
        }
    }

    fn read_str(&mut self) -> Result<&str> {
        match self.next {
            Next::Scalar(ScalarRef::Str(text)) | Next::Name(text) => {
                self.advance();
                Ok(text)
            }
            Next::Scalar(ScalarRef::Char(c)) => {
                self.advance();
                let len = c.encode_utf8(&mut self.text).len();
                Ok(std::str::from_utf8(&self.text[..len]).unwrap_or_default())
            }
            Next::Scalar(ScalarRef::Uuid(id)) => {
                self.advance();
                Ok(id.hyphenated().encode_lower(&mut self.text))
            }
            _ => Err(self.mismatch("String")),
        }
    }

    fn read_name(&mut self) -> Result<&str> {
        match self.next {
            Next::Name(_)
            | Next::Scalar(ScalarRef::Str(_) | ScalarRef::Char(_) | ScalarRef::Uuid(_)) => {
                self.read_str()
            }
            _ => Err(self.mismatch("Name")),
        }
    }

    fn read_number(&mut self) -> Result<Number<'_>> {
        let number = match self.next {
            Next::Scalar(scalar) => match scalar.as_number() {
                Some(number) => number,
                None => return Err(self.mismatch("Number")),
            },
            _ => return Err(self.mismatch("Number")),
        };
        self.advance();
        Ok(number)
    }

    fn read_map_root(&mut self) -> Result<Option<usize>> {
        self.start(Entry::MapRoot).map(|(_, len)| len)
    }

    fn read_map_end(&mut self) -> Result<()> {
        self.end(Entry::MapEnd)
    }

    fn read_array_root(&mut self) -> Result<Option<usize>> {
        self.start(Entry::ArrayRoot).map(|(_, len)| len)
    }

    fn read_array_end(&mut self) -> Result<()> {
        self.end(Entry::ArrayEnd)
    }

    fn read_set_root(&mut self) -> Result<Option<usize>> {
        self.start(Entry::SetRoot).map(|(_, len)| len)
    }

    fn read_set_end(&mut self) -> Result<()> {
        self.end(Entry::SetEnd)
    }

    fn read_struct_root(&mut self) -> Result<(&str, Option<usize>)> {
        self.start(Entry::StructRoot)
    }

    fn read_struct_end(&mut self) -> Result<()> {
        self.end(Entry::StructEnd)
    }

    fn read_option_root(&mut self) -> Result<()> {
        self.start(Entry::OptionRoot).map(|_| ())
    }

    fn read_option_end(&mut self) -> Result<()> {
        self.end(Entry::OptionEnd)
    }

    fn read_enum(&mut self) -> Result<EnumToken<'_>> {
        match self.next {
            Next::Enum {
                type_name,
                variant,
                value,
                flags,
            } => {
                self.advance();
                Ok(EnumToken {
                    type_name,
                    variant,
                    value,
                    flags,
                })
            }
            _ => Err(self.mismatch("Enum")),
        }
    }
}
