//! The math conventions: vectors and colors.

use sluice_core::{Entry, Number, PathSegment, Result, Span, Writer};

use super::{Mark, ReadContext, WriteContext};
use crate::{Reflect, ReflectMut, ReflectRef, ScalarKind, TypeInfo, TypeKind, TypeRegistry, codes};

/// The component names of vectors, in order.
const AXES: [&str; 4] = ["x", "y", "z", "w"];

fn is_float(info: &TypeInfo) -> bool {
    matches!(
        info.kind(),
        TypeKind::Scalar(ScalarKind::F32 | ScalarKind::F64)
    )
}

fn is_number(info: &TypeInfo) -> bool {
    matches!(info.kind(), TypeKind::Scalar(kind) if !matches!(kind, ScalarKind::Bool | ScalarKind::Char | ScalarKind::String))
}

/// The number of components of a vector type: fixed arrays of 2 to 4 floats, and structs
/// marked [`Mark::Vector`] with 2 to 4 numeric fields.
fn vector_len(info: &TypeInfo, registry: &TypeRegistry) -> Option<usize> {
    match info.kind() {
        TypeKind::Array { item, len } if (2..=4).contains(len) && is_float(item()) => Some(*len),
        TypeKind::Struct(s)
            if registry.has_mark(info, Mark::Vector)
                && (2..=4).contains(&s.fields.len())
                && s.fields.iter().all(|f| is_number((f.ty)())) =>
        {
            Some(s.fields.len())
        }
        _ => None,
    }
}

pub(super) fn is_vector(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    vector_len(info, registry).is_some()
}

/// Colors: structs marked [`Mark::Color`] with 3 or 4 float fields (r, g, b, a).
pub(super) fn is_color(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    match info.kind() {
        TypeKind::Struct(s) => {
            registry.has_mark(info, Mark::Color)
                && (3..=4).contains(&s.fields.len())
                && s.fields.iter().all(|f| is_float((f.ty)()))
        }
        _ => false,
    }
}

fn component_count(value: &dyn Reflect) -> usize {
    match value.reflect_ref() {
        ReflectRef::List(list) => list.len(),
        ReflectRef::Struct(s) => s.field_count(),
        _ => 0,
    }
}

fn component(value: &dyn Reflect, index: usize) -> Option<&dyn Reflect> {
    match value.reflect_ref() {
        ReflectRef::List(list) => list.get(index),
        ReflectRef::Struct(s) => s.field(index),
        _ => None,
    }
}

fn component_mut(value: &mut dyn Reflect, index: usize) -> Option<&mut dyn Reflect> {
    match value.reflect_mut() {
        ReflectMut::List(list) => list.get_mut(index),
        ReflectMut::Struct(s) => s.field_mut(index),
        _ => None,
    }
}

/// Sets a numeric component from a float (range checked by the property writer).
fn set_component(ctx: &mut ReadContext<'_, '_>, index: usize, value: f64) -> Result<()> {
    let span = ctx.reader.span();
    let Some(place) = component_mut(ctx.target, index) else {
        return Err(ctx.error(codes::WRONG_TYPE, "no such component"));
    };
    let mut writer = crate::PropertyWriter::new(place);
    match writer.write_number(Number::F64(value)) {
        Ok(()) => Ok(()),
        Err(error) => Err(sluice_core::Error::new(error.code(), error.message()).with_span(span)),
    }
}

fn read_component(ctx: &mut ReadContext<'_, '_>, index: usize) -> Result<()> {
    ctx.recurse(Some(PathSegment::Index(index)), |target| {
        component_mut(target, index)
    })
}

/// Vectors from arrays of any length (missing components are 0, extra ones ignored) and from
/// objects with `x` / `y` / `z` / `w` keys in any case.
pub(super) fn read_vector(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let len = component_count(ctx.target);
    let mut given = [false; 4];
    if ctx.reader.peek()? == Entry::ArrayRoot {
        ctx.reader.read_array_root()?;
        let mut index = 0;
        while ctx.reader.peek()? != Entry::ArrayEnd {
            if index < len {
                read_component(ctx, index)?;
                given[index] = true;
            } else {
                ctx.reader.skip()?;
            }
            index += 1;
        }
        ctx.reader.read_array_end()?;
    } else {
        ctx.reader.read_map_root()?;
        while ctx.reader.peek()? != Entry::MapEnd {
            let name = ctx.reader.read_name()?;
            let Some(index) = AXES[..len]
                .iter()
                .position(|axis| axis.eq_ignore_ascii_case(name))
            else {
                let message = format!(
                    "unknown vector component {name:?} (expected {})",
                    AXES[..len].join(", ")
                );
                return Err(ctx.error(codes::UNKNOWN_FIELD, message));
            };
            if given[index]
                && let Some(error) =
                    ctx.session
                        .duplicate_key(AXES[index], ctx.reader.span(), ctx.path)
            {
                return Err(error);
            }
            let mut path = ctx.path.clone();
            path.push_key(AXES[index]);
            let place = component_mut(ctx.target, index);
            let Some(place) = place else {
                return Err(ctx.error(codes::WRONG_TYPE, "no such component"));
            };
            ctx.session.read_value(ctx.reader, place, &path)?;
            given[index] = true;
        }
        ctx.reader.read_map_end()?;
    }
    for (index, was_given) in given.iter().enumerate().take(len) {
        if !was_given {
            set_component(ctx, index, 0.0)?;
        }
    }
    Ok(())
}

/// Vectors and colors as arrays of their components, on one line.
pub(super) fn write_components(ctx: &mut WriteContext<'_, '_>) -> Result<()> {
    let len = component_count(ctx.value);
    ctx.writer.inline_next_value();
    ctx.writer.write_array_root(Some(len))?;
    for index in 0..len {
        match component(ctx.value, index) {
            Some(value) => ctx.recurse_index(index, value)?,
            None => ctx.writer.write_null()?,
        }
    }
    ctx.writer.write_array_end()
}

/// Reads numbers up to the end of an array (after its root), checking each with `check`.
fn read_numbers(ctx: &mut ReadContext<'_, '_>, start: Span, integers: bool) -> Result<Vec<f64>> {
    let mut values = Vec::with_capacity(4);
    loop {
        let entry = ctx.reader.peek()?;
        if entry == Entry::ArrayEnd {
            break;
        }
        if !entry.is_number() {
            ctx.reader.skip()?;
            return Err(ctx.error(
                codes::WRONG_TYPE,
                format!("expected a number, found {entry}"),
            ));
        }
        let value = if integers {
            f64::from(ctx.reader.read_u8()?) / 255.0
        } else {
            ctx.reader.read_f64()?
        };
        values.push(value);
    }
    ctx.reader.read_array_end()?;
    if !(3..=4).contains(&values.len()) {
        let span = Span::new(start.start, ctx.reader.span().end);
        let message = format!("a color has 3 or 4 components, found {}", values.len());
        return Err(ctx.error(codes::LENGTH_MISMATCH, message).with_span(span));
    }
    Ok(values)
}

/// `FF4D33` or `FF4D33CC` (the `#` already removed) as components in 0..=1.
fn hex_components(text: &str) -> Option<Vec<f64>> {
    if !(text.len() == 6 || text.len() == 8) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| {
            u8::from_str_radix(&text[at..at + 2], 16)
                .ok()
                .map(|byte| f64::from(byte) / 255.0)
        })
        .collect()
}

/// Colors from `[r, g, b]`, `[r, g, b, a]`, `{"RGB": [...]}`, `{"RGBA": [...]}`,
/// `{"RGB8": [...]}`, `{"RGBA8": [...]}`, `{"HEX": "FF4D33"}`, `{"HEXA": "FF4D33CC"}` and
/// `"#RRGGBB[AA]"`. Alpha is 1 when not given.
pub(super) fn read_color(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let components = match ctx.reader.peek()? {
        Entry::ArrayRoot => {
            ctx.reader.read_array_root()?;
            let start = ctx.reader.span();
            read_numbers(ctx, start, false)?
        }
        Entry::String => {
            let text = ctx.reader.read_str()?;
            let parsed = text.strip_prefix('#').and_then(hex_components);
            match parsed {
                Some(values) => values,
                None => {
                    let message = format!("expected \"#RRGGBB\" or \"#RRGGBBAA\", found {text:?}");
                    return Err(ctx.error(codes::INVALID_FORM, message));
                }
            }
        }
        _ => {
            ctx.reader.read_map_root()?;
            let start = ctx.reader.span();
            if ctx.reader.peek()? == Entry::MapEnd {
                ctx.reader.read_map_end()?;
                let span = Span::new(start.start, ctx.reader.span().end);
                return Err(ctx
                    .error(codes::INVALID_FORM, "an empty object is not a color")
                    .with_span(span));
            }
            let form = ctx.reader.read_name()?.to_ascii_uppercase();
            let values = match form.as_str() {
                "RGB" | "RGBA" | "RGB8" | "RGBA8" => {
                    ctx.reader.read_array_root()?;
                    let array_start = ctx.reader.span();
                    let values = read_numbers(ctx, array_start, form.ends_with('8'))?;
                    let expected = if form.starts_with("RGBA") { 4 } else { 3 };
                    if values.len() != expected {
                        let span = Span::new(array_start.start, ctx.reader.span().end);
                        let message =
                            format!("{form} needs {expected} components, found {}", values.len());
                        return Err(ctx.error(codes::LENGTH_MISMATCH, message).with_span(span));
                    }
                    values
                }
                "HEX" | "HEXA" => {
                    let text = ctx.reader.read_str()?;
                    let expected = if form == "HEXA" { 8 } else { 6 };
                    match hex_components(text).filter(|_| text.len() == expected) {
                        Some(values) => values,
                        None => {
                            let message =
                                format!("{form} needs {expected} hex digits, found {text:?}");
                            return Err(ctx.error(codes::INVALID_FORM, message));
                        }
                    }
                }
                _ => {
                    let message = format!(
                        "unknown color form {form:?} (expected RGB, RGBA, RGB8, RGBA8, HEX or HEXA)"
                    );
                    return Err(ctx.error(codes::INVALID_FORM, message));
                }
            };
            if ctx.reader.peek()? != Entry::MapEnd {
                ctx.reader.read_name()?;
                return Err(ctx.error(codes::INVALID_FORM, "a color object has one key"));
            }
            ctx.reader.read_map_end()?;
            values
        }
    };
    let len = component_count(ctx.target);
    for index in 0..len {
        let value = components.get(index).copied().unwrap_or(1.0);
        set_component(ctx, index, value)?;
    }
    Ok(())
}
