//! The built-in handler sets and the conventions they are made of.
//!
//! Each set is a function returning a table to extend:
//!
//! | set | reads | writes |
//! |---|---|---|
//! | [`pipe`] / [`pipe_serializer`] | plain shapes, nothing else (a verbatim copy) | plain shapes |
//! | [`json`] / [`json_serializer`] | conventions below, strict types | conventions, JSON forms |
//! | [`json_relaxed`] | as [`json`], plus the coercions | — |
//! | [`msgpack`] / [`msgpack_serializer`] | as [`json`] | conventions, MessagePack forms |
//!
//! The rules, in the order they are tried (their names work with `remove` / `replace`):
//!
//! | priority | rule | types | input (reading) | what |
//! |---|---|---|---|---|
//! | 100 | [`POLYMORPHIC`] | trait objects registered with `register_polymorphic` | object | `{"$type": "Circle", ...}`, `$type` anywhere in the object (name, path or uuid) |
//! | 90 | [`BLOB`] | lists of bytes marked [`Mark::Blob`] | string (and bin in MessagePack) | base64 text in JSON, bin in MessagePack |
//! | 86 | [`COLOR`] | structs marked [`Mark::Color`] | array, object, string | `[r,g,b(,a)]`, `{"RGB": ..}`, `{"RGBA8": ..}`, `{"HEX": ..}`, `"#RRGGBB"`...; written `[r,g,b,a]` |
//! | 85 | [`VECTOR`] | `[f32/f64; 2..=4]`, structs marked [`Mark::Vector`] | array, object | any length (missing 0, extra ignored), `{"x": .., "Y": ..}`; written as an array on one line |
//! | 80 | [`FLAGS`] | `Flags<E>` | array | `["Read", "Exec", 16]`; written with combined names first, leftover bits as an integer |
//! | 70 | [`ENUM_NAME`] | unit-only enums | string | variant name, else an integer string (`"5"`) |
//! | 60 | [`KEY_VALUE_MAP`] | maps whose keys are not string-like | array | `[{"$key": k, "$value": v}]` (and O3DE's `Key` / `Value`); MessagePack writes native maps |
//! | 50 | [`SORTED_SET`] | sets (writing only) | — | elements sorted, so output is deterministic |
//! | 40 | [`COERCE`] (relaxed set only) | bool, integers, floats, strings | mismatched scalars | O3DE's coercion table, see [`add_coercions`] |
//!
//! After the rules, every kind is [plain](super::ReadAction::Plain) (uuids read their braced
//! and uppercase forms and write the canonical one there); struct fields starting with `$`
//! that the struct does not have are skipped on read.

use std::cmp::Ordering;
use std::sync::Arc;

use sluice_core::error::excerpt;
use sluice_core::{
    Entry, Error, Number, NumberHint, Reader, Result, Span, Token, Value, ValueReader, ValueWriter,
    Writer, pipe_value,
};

use super::geometry;
use super::{
    Deserializer, EntrySet, KindKey, Lookahead, Mark, ReadAction, ReadContext, Serializer,
    TypePredicate, WriteAction, WriteContext,
};
use crate::info::VariantStyle;
use crate::{
    PropertyWriter, ReflectMut, ReflectRef, ScalarKind, TypeInfo, TypeKind, TypeRegistry, codes,
};
use sluice_core::base64;

/// Rule name: trait objects chosen by `"$type"`.
pub const POLYMORPHIC: &str = "polymorphic";
/// Rule name: byte lists marked as blobs.
pub const BLOB: &str = "blob";
/// Rule name: colors (structs marked [`Mark::Color`]) from their many forms.
pub const COLOR: &str = "color";
/// Rule name: vectors (small float arrays, structs marked [`Mark::Vector`]).
pub const VECTOR: &str = "vector";
/// Rule name: flags as arrays of names.
pub const FLAGS: &str = "flags";
/// Rule name: enums by name with the integer-string fallback.
pub const ENUM_NAME: &str = "enum-name";
/// Rule name: maps with non-string keys as arrays of key / value objects.
pub const KEY_VALUE_MAP: &str = "key-value-map";
/// Rule name: sets written sorted.
pub const SORTED_SET: &str = "sorted-set";
/// Rule name: scalar coercions (relaxed sets only).
pub const COERCE: &str = "coerce";

/// The target format of a built-in set (decides the form of blobs and of non-string keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    MsgPack,
}

fn all_kinds_plain_de(table: &mut Deserializer) {
    for kind in KindKey::ALL {
        table.on_kind(kind, Some(ReadAction::Plain));
    }
}

fn all_kinds_plain_ser(table: &mut Serializer) {
    for kind in KindKey::ALL {
        table.on_kind(kind, Some(WriteAction::Plain));
    }
}

/// The verbatim set for reading: every kind plain, no rule. Reads exactly what
/// `pipe(reader, PropertyWriter)` reads.
#[must_use]
pub fn pipe() -> Deserializer {
    let mut table = Deserializer::new();
    all_kinds_plain_de(&mut table);
    table
}

/// The verbatim set for writing: every kind plain, no rule. Writes exactly what
/// `pipe(PropertyReader, writer)` writes.
#[must_use]
pub fn pipe_serializer() -> Serializer {
    let mut table = Serializer::new();
    all_kinds_plain_ser(&mut table);
    table
}

fn conventions_de(format: Format) -> Deserializer {
    let mut table = pipe();
    table.skip_dollar_fields(true);
    table.add_at(
        100,
        POLYMORPHIC,
        is_polymorphic,
        EntrySet::MAP,
        read_polymorphic,
    );
    let blob_entries = match format {
        Format::Json => EntrySet::STRING,
        Format::MsgPack => EntrySet::STRING | EntrySet::BLOB,
    };
    table.add_at(90, BLOB, is_blob, blob_entries, read_blob);
    table.add_at(
        86,
        COLOR,
        geometry::is_color,
        EntrySet::ARRAY | EntrySet::MAP | EntrySet::STRING,
        geometry::read_color,
    );
    table.add_at(
        85,
        VECTOR,
        geometry::is_vector,
        EntrySet::ARRAY | EntrySet::MAP,
        geometry::read_vector,
    );
    table.add_at(80, FLAGS, is_flags, EntrySet::ARRAY, read_flags);
    table.add_at(
        70,
        ENUM_NAME,
        is_unit_enum,
        EntrySet::STRING,
        read_enum_name,
    );
    table.add_at(
        60,
        KEY_VALUE_MAP,
        has_complex_keys,
        EntrySet::ARRAY,
        read_key_value_map,
    );
    table
}

/// The JSON set for reading, strict about scalar types (see the [module docs](self)).
#[must_use]
pub fn json() -> Deserializer {
    conventions_de(Format::Json)
}

/// The JSON set for reading with O3DE's coercions (see [`add_coercions`]); floats are not
/// truncated to integers.
#[must_use]
pub fn json_relaxed() -> Deserializer {
    let mut table = json();
    add_coercions(&mut table, false);
    table
}

/// The MessagePack set for reading (as [`json`]; blobs also from bin).
#[must_use]
pub fn msgpack() -> Deserializer {
    conventions_de(Format::MsgPack)
}

fn conventions_ser(format: Format) -> Serializer {
    let mut table = pipe_serializer();
    table.add_at(100, POLYMORPHIC, is_polymorphic, write_polymorphic);
    match format {
        Format::Json => table.add_at(90, BLOB, is_blob, write_blob_base64),
        Format::MsgPack => table.add_at(90, BLOB, is_blob, write_blob_bin),
    };
    table.add_at(86, COLOR, geometry::is_color, geometry::write_components);
    table.add_at(85, VECTOR, geometry::is_vector, geometry::write_components);
    table.add_at(80, FLAGS, is_flags, write_flags);
    if format == Format::Json {
        // MessagePack maps take keys of any shape natively.
        table.add_at(60, KEY_VALUE_MAP, has_complex_keys, write_key_value_map);
    }
    table.add_at(
        50,
        SORTED_SET,
        |info, _| KindKey::of(info) == KindKey::Set,
        write_sorted_set,
    );
    table
}

/// The JSON set for writing (see the [module docs](self)).
#[must_use]
pub fn json_serializer() -> Serializer {
    conventions_ser(Format::Json)
}

/// The MessagePack set for writing: blobs as bin, maps with any keys as native maps.
#[must_use]
pub fn msgpack_serializer() -> Serializer {
    conventions_ser(Format::MsgPack)
}

// ---- predicates ----

fn is_polymorphic(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.polymorphic_base(info).is_some()
}

fn is_blob(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.has_mark(info, Mark::Blob)
}

fn is_flags(info: &'static TypeInfo, _: &TypeRegistry) -> bool {
    info.as_enum()
        .is_some_and(|e| e.flags && e.flags_of.is_some())
}

fn is_unit_enum(info: &'static TypeInfo, _: &TypeRegistry) -> bool {
    info.as_enum().is_some_and(|e| !e.flags && e.is_unit_only())
}

/// Keys with a text form JSON object keys can hold: scalars, uuids and unit-only enums.
fn is_string_like(info: &TypeInfo) -> bool {
    match info.kind() {
        TypeKind::Scalar(_) | TypeKind::Uuid => true,
        TypeKind::Enum(e) => e.is_unit_only(),
        _ => false,
    }
}

fn has_complex_keys(info: &'static TypeInfo, _: &TypeRegistry) -> bool {
    matches!(info.kind(), TypeKind::Map { key, .. } if !is_string_like(key()))
}

// ---- helpers ----

/// Reads one whole value's tokens, with their spans.
fn record_value(reader: &mut dyn Lookahead, out: &mut Vec<(Token, Span)>) -> Result<()> {
    let mut depth = 0usize;
    loop {
        let entry = reader.peek()?;
        if entry == Entry::Ended || (depth == 0 && entry.is_container_end()) {
            return Err(Error::unexpected("a value", entry).or_span(reader.span()));
        }
        let token = Token::read(reader, entry)?;
        out.push((token, reader.span()));
        if entry.is_container_start() {
            depth += 1;
        } else if entry.is_container_end() {
            depth -= 1;
        }
        if depth == 0 {
            return Ok(());
        }
    }
}

/// An error of a property writer over the handler's target alone, made an error about the
/// value (the table adds the value's data path and Rust type path).
fn located(ctx: &ReadContext<'_, '_>, error: &Error) -> Error {
    let span = error.span().unwrap_or_else(|| ctx.reader.span());
    Error::new(error.code(), error.message()).with_span(span)
}

// ---- polymorphism ----

fn read_polymorphic(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let registry = ctx.session.registry();
    let Some((base, implementors)) = registry.polymorphic_base(ctx.info) else {
        return Err(ctx.error(codes::UNKNOWN_TYPE, "not a registered trait object"));
    };
    let reader = &mut *ctx.reader;
    let len = reader.read_map_root()?;
    let start = reader.span();
    let mut buffered = vec![(Token::MapRoot(len.map(|n| n.saturating_sub(1))), start)];
    let (type_name, type_span) = loop {
        match reader.peek()? {
            Entry::MapEnd => {
                reader.read_map_end()?;
                let span = Span::new(start.start, reader.span().end);
                return Err(Error::new(
                    codes::MISSING_TYPE,
                    format!("no \"$type\" key in an object for {}", ctx.info.name()),
                )
                .with_span(span)
                .with_path(ctx.path.clone()));
            }
            _ => {
                let name = reader.read_name()?.to_owned();
                let span = reader.span();
                if name == "$type" {
                    let type_name = reader.read_str()?.to_owned();
                    break (type_name, reader.span());
                }
                buffered.push((Token::Name(name), span));
                record_value(reader, &mut buffered)?;
            }
        }
    };
    let wanted_uuid = uuid::Uuid::try_parse(&type_name).ok();
    let Some(implementor) = implementors.iter().find(|i| {
        i.info.name() == type_name
            || i.info.type_path() == type_name
            || wanted_uuid == Some(i.info.uuid())
    }) else {
        let known = crate::info::join_names(implementors.iter().map(|i| i.info.name()));
        return Err(Error::new(
            codes::UNKNOWN_TYPE,
            format!(
                "unknown type {type_name:?} for {} (known implementors: {known})",
                ctx.info.name()
            ),
        )
        .with_span(type_span)
        .with_path(ctx.path.clone()));
    };
    if !(implementor.assign)(ctx.target) {
        return Err(ctx.error(codes::UNKNOWN_TYPE, "could not construct the implementor"));
    }
    for (token, span) in buffered.into_iter().rev() {
        reader.put_back(token, span);
    }
    let Some(inner) = (base.inner_mut)(ctx.target) else {
        return Err(ctx.error(codes::UNKNOWN_TYPE, "not a registered trait object"));
    };
    ctx.session.read_value(reader, inner, ctx.path)
}

fn write_polymorphic(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let registry = ctx.session.registry();
    let Some((base, _)) = registry.polymorphic_base(ctx.info) else {
        return ctx.write_plain();
    };
    let Some(inner) = (base.inner)(ctx.value) else {
        return ctx.write_plain();
    };
    let ReflectRef::Struct(s) = inner.reflect_ref() else {
        return Err(Error::new(
            codes::WRONG_TYPE,
            format!(
                "the implementor {} is not a struct",
                inner.type_info().name()
            ),
        ));
    };
    let info = s.struct_info();
    let fields = info.as_struct().map_or(&[][..], |s| s.fields);
    ctx.writer.write_map_root(Some(fields.len() + 1))?;
    ctx.writer.write_name("$type")?;
    ctx.writer.write_str(info.name())?;
    for (index, field) in fields.iter().enumerate() {
        ctx.writer.write_name(field.name)?;
        match s.field(index) {
            Some(value) => ctx.recurse_field(field.name, value)?,
            None => ctx.writer.write_null()?,
        }
    }
    ctx.writer.write_map_end()
}

// ---- blobs ----

fn fill_bytes(ctx: &mut ReadContext<'_, '_>, bytes: &[u8]) -> Result<()> {
    if let Some(vec) = ctx.target.downcast_mut::<Vec<u8>>() {
        vec.clear();
        vec.extend_from_slice(bytes);
        return Ok(());
    }
    let ReflectMut::List(list) = ctx.target.reflect_mut() else {
        return Err(ctx.error(codes::WRONG_TYPE, "a blob needs a list of bytes"));
    };
    if let Some(len) = list.fixed_len()
        && len != bytes.len()
    {
        let message = format!("expected {len} bytes, found {}", bytes.len());
        return Err(ctx.error(codes::LENGTH_MISMATCH, message));
    }
    list.clear();
    for (index, byte) in bytes.iter().enumerate() {
        let slot = if list.fixed_len().is_some() {
            list.get_mut(index)
        } else {
            list.push_default()
        };
        match slot.and_then(|s| s.downcast_mut::<u8>()) {
            Some(slot) => *slot = *byte,
            None => return Err(ctx.error(codes::WRONG_TYPE, "a blob needs a list of u8")),
        }
    }
    Ok(())
}

fn read_blob(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    if ctx.reader.peek()? == Entry::Blob {
        let bytes = ctx.reader.read_blob()?.to_vec();
        return fill_bytes(ctx, &bytes);
    }
    let text = ctx.reader.read_str()?;
    let Some(bytes) = base64::decode(text) else {
        return Err(ctx.error(codes::INVALID_FORM, "invalid base64 text for a blob"));
    };
    fill_bytes(ctx, &bytes)
}

fn bytes_of(ctx: &WriteContext<'_, '_>) -> Result<Vec<u8>> {
    match ctx.value.reflect_ref() {
        ReflectRef::List(list) => match list.as_bytes() {
            Some(bytes) => Ok(bytes.to_vec()),
            None => list
                .iter()
                .map(|b| {
                    b.downcast_ref::<u8>()
                        .copied()
                        .ok_or_else(|| Error::new(codes::WRONG_TYPE, "a blob must be a list of u8"))
                })
                .collect(),
        },
        _ => Err(Error::new(codes::WRONG_TYPE, "a blob must be a list of u8")),
    }
}

fn write_blob_base64(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let bytes = bytes_of(ctx)?;
    ctx.writer.write_str(&base64::encode(&bytes))
}

fn write_blob_bin(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let bytes = bytes_of(ctx)?;
    ctx.writer.write_blob(&bytes)
}

// ---- enums and flags ----

fn read_enum_name(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let Some(info) = ctx.info.as_enum() else {
        return Err(ctx.error(codes::WRONG_TYPE, "not an enum"));
    };
    let text = ctx.reader.read_str()?;
    let index = info.variant_index(text).or_else(|| {
        text.trim()
            .parse::<i64>()
            .ok()
            .and_then(|n| info.variant_by_discriminant(n))
    });
    let Some(index) = index.filter(|&i| info.variants[i].style == VariantStyle::Unit) else {
        let message = format!(
            "no variant named {text:?} in enum {} (expected {})",
            ctx.info.name(),
            info.variant_names()
        );
        return Err(ctx.error(codes::ENUM_NAME_NOT_FOUND, message));
    };
    if let ReflectMut::Enum(e) = ctx.target.reflect_mut() {
        e.set_variant_index(index);
    }
    Ok(())
}

fn read_flags(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let Some(info) = ctx.info.as_enum() else {
        return Err(ctx.error(codes::WRONG_TYPE, "not a flags enum"));
    };
    ctx.reader.read_array_root()?;
    let mut bits = 0i64;
    loop {
        match ctx.reader.peek()? {
            Entry::ArrayEnd => break,
            Entry::String => {
                let name = ctx.reader.read_str()?;
                let Some(index) = info.variant_index(name) else {
                    let message = format!(
                        "no flag named {name:?} in {} (expected {})",
                        ctx.info.name(),
                        info.variant_names()
                    );
                    return Err(ctx.error(codes::ENUM_NAME_NOT_FOUND, message));
                };
                bits |= info.variants[index].discriminant;
            }
            e if e.is_number() => bits |= ctx.reader.read_i64()?,
            e => {
                let message = format!("expected a flag name or an integer, found {e}");
                ctx.reader.skip()?;
                return Err(ctx.error(codes::WRONG_TYPE, message));
            }
        }
    }
    ctx.reader.read_array_end()?;
    if let ReflectMut::Enum(e) = ctx.target.reflect_mut() {
        e.set_bits(bits);
    }
    Ok(())
}

/// The names covering `bits`, combined values first (a name covering several bits beats
/// the single names), and the bits no name covers.
#[must_use]
pub fn flag_names(info: &crate::EnumInfo, bits: i64) -> (Vec<&'static str>, i64) {
    let mut variants: Vec<&crate::VariantInfo> = info
        .variants
        .iter()
        .filter(|v| v.discriminant != 0)
        .collect();
    // Most bits first; declaration order among equals.
    variants.sort_by_key(|v| std::cmp::Reverse(v.discriminant.count_ones()));
    let mut left = bits;
    let mut names = Vec::new();
    for variant in variants {
        if left & variant.discriminant == variant.discriminant {
            names.push(variant.name);
            left &= !variant.discriminant;
        }
    }
    (names, left)
}

fn write_flags(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let (Some(info), ReflectRef::Enum(e)) = (ctx.info.as_enum(), ctx.value.reflect_ref()) else {
        return ctx.write_plain();
    };
    let bits = e.bits().unwrap_or(0);
    let (names, left) = flag_names(info, bits);
    let len = names.len() + usize::from(left != 0);
    ctx.writer.inline_next_value();
    ctx.writer.write_array_root(Some(len))?;
    for name in names {
        ctx.writer.write_str(name)?;
    }
    if left != 0 {
        ctx.writer.write_i64(left)?;
    }
    ctx.writer.write_array_end()
}

// ---- maps with non-string keys ----

fn read_key_value_map(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let ReflectMut::Map(map) = ctx.target.reflect_mut() else {
        return Err(ctx.error(codes::WRONG_TYPE, "not a map"));
    };
    map.clear();
    let mut key = map.new_key();
    let mut value = map.new_value();
    ctx.reader.read_array_root()?;
    let mut index = 0usize;
    while ctx.reader.peek()? != Entry::ArrayEnd {
        let mut path = ctx.path.clone();
        path.push_index(index);
        ctx.reader.read_map_root()?;
        let start = ctx.reader.span();
        let (mut has_key, mut has_value) = (false, false);
        while ctx.reader.peek()? != Entry::MapEnd {
            // The entry keys as static text, so the reader is free again for the span.
            let (name, is_key): (&str, bool) = match ctx.reader.read_name()? {
                "$key" => ("$key", true),
                "Key" => ("Key", true),
                "$value" => ("$value", false),
                "Value" => ("Value", false),
                other => {
                    let message = format!(
                        "unknown key {:?} in a map entry (expected $key, $value)",
                        excerpt(other)
                    );
                    return Err(Error::new(codes::UNKNOWN_FIELD, message)
                        .with_span(ctx.reader.span())
                        .with_path(path));
                }
            };
            let name_span = ctx.reader.span();
            let (seen, place) = if is_key {
                (&mut has_key, key.as_mut())
            } else {
                (&mut has_value, value.as_mut())
            };
            if *seen && let Some(error) = ctx.session.duplicate_key(name, name_span, &path) {
                return Err(error);
            }
            let mut entry_path = path.clone();
            entry_path.push_key(name);
            ctx.session.read_value(ctx.reader, place, &entry_path)?;
            *seen = true;
        }
        ctx.reader.read_map_end()?;
        if !(has_key && has_value) {
            let span = Span::new(start.start, ctx.reader.span().end);
            return Err(Error::new(
                codes::MISSING_FIELD,
                "a map entry needs both \"$key\" and \"$value\"",
            )
            .with_span(span)
            .with_path(path));
        }
        if !map.insert_from(key.as_mut(), value.as_mut()) {
            return Err(Error::new(codes::WRONG_TYPE, "could not insert the entry").with_path(path));
        }
        index += 1;
    }
    ctx.reader.read_array_end()
}

fn write_key_value_map(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let ReflectRef::Map(map) = ctx.value.reflect_ref() else {
        return ctx.write_plain();
    };
    ctx.writer.write_array_root(Some(map.len()))?;
    for (key, value) in map.iter() {
        ctx.writer.write_map_root(Some(2))?;
        ctx.writer.write_name("$key")?;
        ctx.session.write_value(ctx.writer, key)?;
        ctx.writer.write_name("$value")?;
        ctx.session.write_value(ctx.writer, value)?;
        ctx.writer.write_map_end()?;
    }
    ctx.writer.write_array_end()
}

// ---- sets ----

fn rank(value: &Value) -> u8 {
    match value {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Bytes(_) => 4,
        Value::Ext(..) => 5,
        Value::Array(_) => 6,
        Value::Map(_) => 7,
    }
}

/// A total order on values, for deterministic set output: by kind, then numbers by value,
/// strings and bytes lexicographically, containers element by element.
pub(crate) fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_number(), y.as_number());
            match (x.to_i128(), y.to_i128()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                _ => {
                    let (x, y) = (
                        x.to_f64().unwrap_or(f64::NAN),
                        y.to_f64().unwrap_or(f64::NAN),
                    );
                    x.total_cmp(&y)
                }
            }
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bytes(x), Value::Bytes(y)) => x.cmp(y),
        (Value::Ext(k, x), Value::Ext(l, y)) => k.cmp(l).then_with(|| x.cmp(y)),
        (Value::Array(x), Value::Array(y)) => x
            .iter()
            .zip(y)
            .map(|(x, y)| compare_values(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        (Value::Map(x), Value::Map(y)) => x
            .iter()
            .zip(y)
            .map(|((kx, vx), (ky, vy))| compare_values(kx, ky).then_with(|| compare_values(vx, vy)))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn write_sorted_set(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let ReflectRef::Set(set) = ctx.value.reflect_ref() else {
        return ctx.write_plain();
    };
    let mut items = Vec::with_capacity(set.len());
    for item in set.iter() {
        let mut buffer = ValueWriter::new();
        ctx.session.write_value(&mut buffer, item)?;
        items.push(buffer.into_value()?);
    }
    items.sort_by(compare_values);
    ctx.writer.write_set_root(Some(items.len()))?;
    for item in &items {
        pipe_value(&mut ValueReader::new(item), ctx.writer)?;
    }
    ctx.writer.write_set_end()
}

// ---- coercions ----

fn scalar_kind(info: &TypeInfo) -> Option<ScalarKind> {
    match info.kind() {
        TypeKind::Scalar(kind) => Some(*kind),
        _ => None,
    }
}

fn is_integer_kind(kind: ScalarKind) -> bool {
    matches!(
        kind,
        ScalarKind::I8
            | ScalarKind::I16
            | ScalarKind::I32
            | ScalarKind::I64
            | ScalarKind::I128
            | ScalarKind::U8
            | ScalarKind::U16
            | ScalarKind::U32
            | ScalarKind::U64
            | ScalarKind::U128
    )
}

/// Writes `number` into the target with the exact, range-checked conversions of
/// [`PropertyWriter`].
fn put_number(ctx: &mut ReadContext<'_, '_>, number: Number<'_>) -> Result<()> {
    let span = ctx.reader.span();
    let result = PropertyWriter::new(ctx.target).write_number(number);
    result.map_err(|e| located(ctx, &e).with_span(span))
}

fn read_coerced(ctx: &mut ReadContext<'_, '_>, truncate: bool) -> Result<()> {
    let Some(kind) = scalar_kind(ctx.info) else {
        return Err(ctx.error(codes::WRONG_TYPE, "not a scalar"));
    };
    let entry = ctx.reader.peek()?;
    match kind {
        ScalarKind::Bool => {
            let value = if entry == Entry::String {
                let text = ctx.reader.read_str()?;
                if text.eq_ignore_ascii_case("true") {
                    true
                } else if text.eq_ignore_ascii_case("false") {
                    false
                } else {
                    let message = format!("expected \"true\" or \"false\", found {text:?}");
                    return Err(ctx.error(codes::WRONG_TYPE, message));
                }
            } else {
                match ctx.reader.read_number()?.to_i64() {
                    Ok(0) => false,
                    Ok(1) => true,
                    _ => return Err(ctx.error(codes::WRONG_TYPE, "expected 0 or 1 for a bool")),
                }
            };
            if let Some(slot) = ctx.target.downcast_mut::<bool>() {
                *slot = value;
            }
            Ok(())
        }
        ScalarKind::String | ScalarKind::Char => {
            let text = if entry == Entry::Bool {
                String::from(if ctx.reader.read_bool()? {
                    "True"
                } else {
                    "False"
                })
            } else {
                ctx.reader.read_number()?.to_string()
            };
            let span = ctx.reader.span();
            let result = PropertyWriter::new(ctx.target).write_str(&text);
            result.map_err(|e| located(ctx, &e).with_span(span))
        }
        _ => match entry {
            Entry::Bool => {
                let value = ctx.reader.read_bool()?;
                put_number(ctx, Number::U64(u64::from(value)))
            }
            Entry::String => {
                let text = ctx.reader.read_str()?.trim().to_owned();
                put_number(ctx, Number::Text(&text, NumberHint::of_text(&text)))
            }
            _ => {
                let number = ctx.reader.read_number()?.to_owned_number();
                let number = number.as_number();
                if truncate && is_integer_kind(kind) && number.is_float() {
                    let value = number.to_f64().map_err(|e| located(ctx, &e))?;
                    put_number(ctx, Number::F64(value.trunc()))
                } else {
                    put_number(ctx, number)
                }
            }
        },
    }
}

/// Adds O3DE's coercions as the [`COERCE`] rules (priority 40): bool from `0` / `1` and from
/// `"true"` / `"false"` in any case; integers from `true` / `false`, from numeric strings and
/// (when `truncate_floats`) from floats, truncated toward zero; floats from bools and numeric
/// strings; strings from bools (`"True"` / `"False"`) and from numbers (their text).
///
/// Each rule is narrowed to the input tokens it converts, so well-typed input never reaches
/// it.
pub fn add_coercions(table: &mut Deserializer, truncate_floats: bool) -> &mut Deserializer {
    let handler: super::ReadHandler =
        Arc::new(move |ctx: &mut ReadContext<'_, '_>| read_coerced(ctx, truncate_floats));
    let integer_entries = if truncate_floats {
        EntrySet::BOOL | EntrySet::STRING | EntrySet::NUMBER
    } else {
        EntrySet::BOOL | EntrySet::STRING
    };
    let rules: [(TypePredicate, EntrySet); 4] = [
        (
            Arc::new(|info, _| scalar_kind(info) == Some(ScalarKind::Bool)),
            EntrySet::STRING | EntrySet::NUMBER,
        ),
        (
            Arc::new(|info, _| scalar_kind(info).is_some_and(is_integer_kind)),
            integer_entries,
        ),
        (
            Arc::new(|info, _| {
                matches!(scalar_kind(info), Some(ScalarKind::F32 | ScalarKind::F64))
            }),
            EntrySet::BOOL | EntrySet::STRING,
        ),
        (
            Arc::new(|info, _| scalar_kind(info) == Some(ScalarKind::String)),
            EntrySet::BOOL | EntrySet::NUMBER,
        ),
    ];
    for (applies, entries) in rules {
        table.add_rule(
            40,
            COERCE,
            applies,
            entries,
            ReadAction::Custom(Arc::clone(&handler)),
        );
    }
    table
}
