//! The handler-table rules that apply what the registry knows about evolving data.

use sluice_core::error::excerpt;
use sluice_core::pipe::copy_token;
use sluice_core::{
    Entry, Error, Path, PutbackReader, Reader, Result, Span, Token, Value, ValueReader, ValueWriter,
};

use super::tree::{to_value, write_value_into};
use super::{Evolution, Warning, Warnings, codes};
use crate::handlers::{EntrySet, Lookahead, ReadContext, ReadSession, WriteContext, builtin};
use crate::info::{FieldDefault, StructStyle};
use crate::{
    Deserializer, ReflectMut, ReflectRef, Serializer, StructInfo, TypeInfo, TypeKind, TypeRegistry,
    Typed,
};

/// Rule name: types with a [`DataSerializer`](super::DataSerializer), in their text or
/// binary form.
pub const DATA_SERIALIZER: &str = "data-serializer";
/// Rule name: lists of trait objects, dropping elements of deprecated types.
pub const DEPRECATED_ELEMENTS: &str = "deprecated-elements";
/// Rule name: maps with `String` keys of trait objects, dropping entries of deprecated types.
pub const DEPRECATED_ENTRIES: &str = "deprecated-entries";
/// Rule name: structs with versions, events, overlays or default handling.
pub const EVOLVE: &str = "evolve";

/// Priorities of the rules: above every built-in rule, so a versioned type is upgraded
/// before any convention looks at it.
const DATA_SERIALIZER_PRIORITY: i32 = 300;
const DEPRECATED_PRIORITY: i32 = 290;
const EVOLVE_PRIORITY: i32 = 280;

/// How the read rules behave.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Absent fields get their type's default even when they are required (the other side
    /// of [`WriteOptions::omit_defaults`]); otherwise a required absent field is a
    /// `MissingField` error.
    pub fill_defaults: bool,
}

/// The format written, which decides the form of [`DataSerializer`](super::DataSerializer)
/// types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Text forms (JSON).
    Json,
    /// Binary forms (MessagePack `bin`).
    MsgPack,
}

/// How the write rules behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// The format written.
    pub target: Target,
    /// Fields equal to their type's default (as `reflect_default` makes it) are left out.
    pub omit_defaults: bool,
    /// `"$version"` is written for every struct, also at version 0.
    pub always_write_version: bool,
}

impl WriteOptions {
    /// JSON, every field written, `$version` only when not 0.
    #[must_use]
    pub fn json() -> WriteOptions {
        WriteOptions {
            target: Target::Json,
            omit_defaults: false,
            always_write_version: false,
        }
    }

    /// MessagePack, every field written, `$version` only when not 0.
    #[must_use]
    pub fn msgpack() -> WriteOptions {
        WriteOptions {
            target: Target::MsgPack,
            ..WriteOptions::json()
        }
    }
}

/// Adds the rules that read evolving data: [`DATA_SERIALIZER`], [`DEPRECATED_ELEMENTS`],
/// [`DEPRECATED_ENTRIES`] and [`EVOLVE`], above the built-in rules.
///
/// [`EVOLVE`] takes named structs that have versions or read events in the registry (all
/// named structs when overlays are registered or `fill_defaults` is on): it buffers the
/// object as a [`Value`], resolves overlays, reads and removes `"$version"`, runs the
/// upgrade chain, then writes the fields one by one through the table. When the object
/// starts with the current `"$version"` (as written by [`add_write_rules`]) and needs no
/// other change, it is read straight from the input instead. Fields starting with `$` that
/// a struct does not have are skipped (this turns the table's
/// [`skip_dollar_fields`](Deserializer::skip_dollar_fields) on).
pub fn add_read_rules(table: &mut Deserializer, options: ReadOptions) -> &mut Deserializer {
    // `$version` stays in the input of objects read straight from it.
    table.skip_dollar_fields(true);
    table.add_at(
        DATA_SERIALIZER_PRIORITY,
        DATA_SERIALIZER,
        has_data_serializer,
        EntrySet::STRING | EntrySet::BLOB,
        read_data_serializer,
    );
    table.add_at(
        DEPRECATED_PRIORITY,
        DEPRECATED_ELEMENTS,
        is_list_of_deprecatable,
        EntrySet::ARRAY,
        read_list_dropping_deprecated,
    );
    table.add_at(
        DEPRECATED_PRIORITY,
        DEPRECATED_ENTRIES,
        is_map_of_deprecatable,
        EntrySet::MAP,
        read_map_dropping_deprecated,
    );
    table.add_at(
        EVOLVE_PRIORITY,
        EVOLVE,
        move |info, registry| evolves_on_read(info, registry, options),
        EntrySet::MAP,
        move |ctx| read_evolved(ctx, options),
    );
    table
}

/// Adds the rules that write evolving data: [`DATA_SERIALIZER`] and [`EVOLVE`] (versions,
/// write events, default omission), above the built-in rules.
pub fn add_write_rules(table: &mut Serializer, options: WriteOptions) -> &mut Serializer {
    table.add_at(
        DATA_SERIALIZER_PRIORITY,
        DATA_SERIALIZER,
        has_data_serializer,
        move |ctx| write_data_serializer(ctx, options.target),
    );
    table.add_at(
        EVOLVE_PRIORITY,
        EVOLVE,
        move |info, registry| evolves_on_write(info, registry, options),
        move |ctx| write_evolved(ctx, options),
    );
    table
}

/// [`builtin::json`] with the read rules (default options).
#[must_use]
pub fn json() -> Deserializer {
    let mut table = builtin::json();
    add_read_rules(&mut table, ReadOptions::default());
    table
}

/// [`builtin::msgpack`] with the read rules (default options).
#[must_use]
pub fn msgpack() -> Deserializer {
    let mut table = builtin::msgpack();
    add_read_rules(&mut table, ReadOptions::default());
    table
}

/// [`builtin::json_serializer`] with the write rules ([`WriteOptions::json`]).
#[must_use]
pub fn json_serializer() -> Serializer {
    let mut table = builtin::json_serializer();
    add_write_rules(&mut table, WriteOptions::json());
    table
}

/// [`builtin::msgpack_serializer`] with the write rules ([`WriteOptions::msgpack`]).
#[must_use]
pub fn msgpack_serializer() -> Serializer {
    let mut table = builtin::msgpack_serializer();
    add_write_rules(&mut table, WriteOptions::msgpack());
    table
}

/// Reads a fresh `T` from `reader` with `table`, and the [`Warnings`] of the load.
///
/// # Errors
/// As [`Deserializer::deserialize`].
pub fn deserialize_with_warnings<T: Typed, R: Reader>(
    table: &Deserializer,
    reader: &mut R,
    registry: &TypeRegistry,
) -> Result<(T, Warnings)> {
    let mut value = T::reflect_default();
    let mut warnings = Warnings::new();
    table.deserialize_into(reader, &mut value, registry, &mut warnings)?;
    Ok((value, warnings))
}

// ---- predicates ----

fn has_data_serializer(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.evolution.serializers.contains_key(&info.type_id())
}

fn named_struct(info: &TypeInfo) -> Option<&StructInfo> {
    info.as_struct().filter(|s| s.style == StructStyle::Named)
}

/// A trait object, or an option of one: a place a deprecated `$type` can stand.
fn holds_trait_object(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    match info.kind() {
        TypeKind::Option { some } => registry.implementors(some()).is_some(),
        _ => registry.implementors(info).is_some(),
    }
}

fn is_list_of_deprecatable(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.evolution.has_deprecations()
        && matches!(info.kind(), TypeKind::List { item } if registry.implementors(item()).is_some())
}

/// Maps with `String` keys whose values are trait objects.
fn is_map_of_deprecatable(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.evolution.has_deprecations()
        && matches!(info.kind(), TypeKind::Map { key, value }
            if matches!(key().kind(), TypeKind::Scalar(crate::ScalarKind::String))
                && registry.implementors(value()).is_some())
}

fn has_deprecatable_field(info: &'static TypeInfo, registry: &TypeRegistry) -> bool {
    registry.evolution.has_deprecations()
        && named_struct(info).is_some_and(|fields| {
            fields
                .fields
                .iter()
                .any(|f| holds_trait_object((f.ty)(), registry))
        })
}

fn evolves_on_read(info: &'static TypeInfo, registry: &TypeRegistry, options: ReadOptions) -> bool {
    if named_struct(info).is_none() {
        return false;
    }
    let evolution = &registry.evolution;
    let own = evolution
        .of(info)
        .is_some_and(|e| e.versions.is_versioned(info) || e.events.has_read());
    own || info.version() != 0
        || has_deprecatable_field(info, registry)
        || evolution.has_overlays()
        || options.fill_defaults
}

fn evolves_on_write(
    info: &'static TypeInfo,
    registry: &TypeRegistry,
    options: WriteOptions,
) -> bool {
    // A trait object is written by this rule when one of its implementors is, so the
    // implementor keeps its `$version` next to its `$type`.
    if let Some(implementors) = registry.implementors(info) {
        return implementors
            .iter()
            .any(|implementor| evolves_on_write(implementor, registry, options));
    }
    // Other kinds keep the conventions of the table (their events are not called).
    if named_struct(info).is_none() {
        return false;
    }
    let events = registry
        .evolution
        .of(info)
        .is_some_and(|e| e.events.has_write());
    events
        || options.omit_defaults
        || options.always_write_version
        || registry.current_version_of(info) != 0
}

// ---- helpers ----

/// A value read ahead: the tree, its span from the first to the last token, and the spans
/// of the values of its top-level map entries (by key), so errors inside a field point at
/// the field.
struct Buffered {
    value: Value,
    span: Span,
    fields: Vec<(String, Span)>,
}

impl Buffered {
    /// The span of the field `name` as stored, else of the whole value (a converter may
    /// have renamed or built the field).
    fn span_of(&self, name: &str) -> Span {
        self.fields
            .iter()
            .find(|(key, _)| key == name)
            .map_or(self.span, |(_, span)| *span)
    }
}

/// Reads one whole value into a [`Value`], with its spans.
fn buffer(reader: &mut dyn Lookahead) -> Result<Buffered> {
    let mut out = ValueWriter::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut fields = Vec::new();
    // The key of the top-level entry being read, and where its value started.
    let mut pending: Option<(String, Option<usize>)> = None;
    loop {
        let entry = reader.peek()?;
        if entry == Entry::Ended || (depth == 0 && entry.is_container_end()) {
            return Err(Error::unexpected("a value", entry).or_span(reader.span()));
        }
        if depth == 1 && entry == Entry::Name {
            let name = reader.read_name()?.to_owned();
            sluice_core::Writer::write_name(&mut out, &name)?;
            pending = Some((name, None));
            continue;
        }
        if entry.is_container_start() {
            depth += 1;
        } else if entry.is_container_end() {
            depth -= 1;
        }
        copy_token(reader, &mut out, entry)?;
        let span = reader.span();
        let start = *start.get_or_insert(span.start);
        if let Some((_, value_start)) = &mut pending {
            let value_start = *value_start.get_or_insert(span.start);
            // Back at depth 1: the entry's value is complete (a scalar, or a closed container).
            if depth == 1
                && let Some((name, _)) = pending.take()
            {
                fields.push((name, Span::new(value_start, span.end)));
            }
        }
        if depth == 0 {
            return Ok(Buffered {
                value: out.into_value()?,
                span: Span::new(start, span.end),
                fields,
            });
        }
    }
}

/// Reads `value` into `place` through the table. The value is replayed from a buffer, so
/// its errors get `span`, the stored span of the value.
fn read_buffered(
    session: &mut ReadSession<'_>,
    value: &Value,
    place: &mut dyn crate::Reflect,
    path: &Path,
    span: Span,
) -> Result<()> {
    let mut reader = PutbackReader::new(ValueReader::new(value));
    session
        .read_value(&mut reader, place, path)
        .map_err(|error| {
            let error = match error.span() {
                Some(own) if !own.is_empty() => error,
                _ => error.with_span(span),
            };
            locate(error, path, span)
        })
}

/// Gives an error without a path the value's path, and one without a span the value's span.
fn locate(error: Error, path: &Path, span: Span) -> Error {
    let error = if error.path().is_none() {
        error.with_path(path.clone())
    } else {
        error
    };
    error.or_span(span)
}

/// The `$type` of `value` when it names a deprecated type.
fn deprecated_type<'v>(value: &'v Value, evolution: &Evolution) -> Option<&'v str> {
    let name = value.get("$type")?.as_str()?;
    evolution.is_deprecated(name).then_some(name)
}

fn warn(ctx: &mut ReadContext<'_, '_>, warning: Warning) {
    let registry = ctx.session.registry();
    match ctx.session.user_data().downcast_mut::<Warnings>() {
        Some(warnings) => warnings.0.push(warning),
        None => registry.evolution.push_unclaimed(warning),
    }
}

fn dropped(type_name: &str, path: Path) -> Warning {
    Warning {
        code: codes::DEPRECATED_DROPPED,
        message: format!("dropped a value of the deprecated type {type_name} at {path}"),
        path,
        type_name: type_name.to_owned(),
    }
}

// ---- reading ----

fn read_data_serializer(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let registry = ctx.session.registry();
    let Some(serializer) = registry.evolution.serializers.get(&ctx.info.type_id()) else {
        return Err(ctx.error(crate::codes::NO_MATCHING_HANDLER, "no data serializer"));
    };
    let result = if ctx.reader.peek()? == Entry::Blob {
        let bytes = ctx.reader.read_blob()?;
        (serializer.from_bytes)(bytes, ctx.target)
    } else {
        let text = ctx.reader.read_str()?;
        (serializer.from_text)(text, ctx.target)
    };
    match result {
        Ok(true) => Ok(()),
        Ok(false) => Err(ctx.error(
            crate::codes::WRONG_TYPE,
            format!(
                "the data serializer of {} got another type",
                ctx.info.name()
            ),
        )),
        Err(error) => Err(locate(error, ctx.path, ctx.reader.span())),
    }
}

fn read_list_dropping_deprecated(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let evolution = &ctx.session.registry().evolution;
    ctx.reader.read_array_root()?;
    match ctx.target.reflect_mut() {
        ReflectMut::List(list) => list.clear(),
        _ => return Err(ctx.error(crate::codes::WRONG_TYPE, "a list was expected")),
    }
    let mut index = 0;
    while ctx.reader.peek()? != Entry::ArrayEnd {
        let element = buffer(ctx.reader)?;
        let mut path = ctx.path.clone();
        path.push_index(index);
        index += 1;
        if let Some(name) = deprecated_type(&element.value, evolution) {
            let warning = dropped(name, path);
            warn(ctx, warning);
            continue;
        }
        let ReflectMut::List(list) = ctx.target.reflect_mut() else {
            unreachable!("checked above: the target is a list");
        };
        let Some(slot) = list.push_default() else {
            let error = Error::new(crate::codes::LENGTH_MISMATCH, "a fixed array cannot grow");
            return Err(locate(error, &path, element.span));
        };
        read_buffered(ctx.session, &element.value, slot, &path, element.span)?;
    }
    ctx.reader.read_array_end()
}

fn read_map_dropping_deprecated(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    let evolution = &ctx.session.registry().evolution;
    ctx.reader.read_map_root()?;
    match ctx.target.reflect_mut() {
        ReflectMut::Map(map) => map.clear(),
        _ => return Err(ctx.error(crate::codes::WRONG_TYPE, "a map was expected")),
    }
    while ctx.reader.peek()? != Entry::MapEnd {
        let name = ctx.reader.read_name()?.to_owned();
        let entry = buffer(ctx.reader)?;
        let mut path = ctx.path.clone();
        path.push_key(name.as_str());
        if let Some(type_name) = deprecated_type(&entry.value, evolution) {
            let warning = dropped(type_name, path);
            warn(ctx, warning);
            continue;
        }
        let ReflectMut::Map(map) = ctx.target.reflect_mut() else {
            unreachable!("checked above: the target is a map");
        };
        let mut key = map.new_key();
        let mut value = map.new_value();
        write_value_into(&Value::String(name), &mut *key)
            .map_err(|e| locate(e, &path, entry.span))?;
        read_buffered(ctx.session, &entry.value, &mut *value, &path, entry.span)?;
        let ReflectMut::Map(map) = ctx.target.reflect_mut() else {
            unreachable!("checked above: the target is a map");
        };
        if !map.insert_from(&mut *key, &mut *value) {
            return Err(locate(
                Error::new(crate::codes::WRONG_TYPE, "the entry does not fit the map"),
                &path,
                entry.span,
            ));
        }
    }
    ctx.reader.read_map_end()
}

fn read_evolved(ctx: &mut ReadContext<'_, '_>, options: ReadOptions) -> Result<()> {
    let registry = ctx.session.registry();
    let own = registry.evolution.of(ctx.info);
    if let Some(own) = own {
        for hook in &own.events.read_begin {
            hook(ctx.target);
        }
    }
    if !streams(ctx, options)? {
        read_buffered_struct(ctx, options)?;
    }
    if let Some(own) = own {
        for hook in &own.events.read_end {
            hook(ctx.target);
        }
    }
    Ok(())
}

/// The fast path: when the object starts with the current `"$version"` (or has none and
/// the type is at version 0) and nothing needs the whole object (overlays, filled
/// defaults, deprecated values in fields), the tokens read to find out are put back and the
/// object is read in its plain shape, straight from the input. Returns whether it did.
fn streams(ctx: &mut ReadContext<'_, '_>, options: ReadOptions) -> Result<bool> {
    let registry = ctx.session.registry();
    let info = ctx.info;
    if options.fill_defaults
        || registry.evolution.has_overlays()
        || has_deprecatable_field(info, registry)
        || ctx.reader.peek()? != Entry::MapRoot
    {
        return Ok(false);
    }
    let current = registry.current_version_of(info);
    let len = ctx.reader.read_map_root()?;
    let mut taken: smallvec::SmallVec<[(Token, Span); 3]> =
        smallvec::smallvec![(Token::MapRoot(len), ctx.reader.span())];
    let mut stored = None;
    if ctx.reader.peek()? == Entry::Name {
        let name = ctx.reader.read_name()?.to_owned();
        let is_version = name == "$version";
        taken.push((Token::Name(name), ctx.reader.span()));
        if is_version && ctx.reader.peek()?.is_number() {
            let number = ctx.reader.read_number()?;
            stored = number.to_u64().ok();
            taken.push((Token::Number(number.to_owned_number()), ctx.reader.span()));
        }
    }
    for (token, span) in taken.into_iter().rev() {
        ctx.reader.put_back(token, span);
    }
    if stored.unwrap_or(0) != u64::from(current) {
        return Ok(false);
    }
    ctx.read_plain()?;
    Ok(true)
}

/// The general path: the object as a `Value`, overlays resolved, upgraded, then written
/// field by field.
fn read_buffered_struct(ctx: &mut ReadContext<'_, '_>, options: ReadOptions) -> Result<()> {
    let registry = ctx.session.registry();
    let evolution = &registry.evolution;
    let info = ctx.info;
    let own = evolution.of(info);
    let mut source = buffer(ctx.reader)?;
    let mut data = std::mem::take(&mut source.value);
    let span = source.span;
    if evolution.has_overlays() {
        evolution
            .resolve_overlays(&mut data)
            .map_err(|e| locate(e, ctx.path, span))?;
    }
    let stored = match data.remove("$version") {
        None => 0,
        Some(version) => version
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                locate(
                    Error::new(
                        codes::INVALID_VERSION,
                        format!("`$version` of {} is not a version number", info.name()),
                    ),
                    ctx.path,
                    span,
                )
            })?,
    };
    match own {
        Some(own) => own.versions.upgrade(&mut data, stored, info, registry),
        None if stored > info.version() => Err(Error::new(
            codes::VERSION_TOO_NEW,
            format!(
                "{} data is at version {stored}, newer than this code reads (version {})",
                info.name(),
                info.version()
            ),
        )),
        None => Ok(()),
    }
    .map_err(|e| locate(e, ctx.path, span))?;
    write_fields(ctx, &data, &source, options)
}

/// Writes the entries of `data` into the struct `ctx.target`, each field through the table.
fn write_fields(
    ctx: &mut ReadContext<'_, '_>,
    data: &Value,
    stored: &Buffered,
    options: ReadOptions,
) -> Result<()> {
    let span = stored.span;
    let info = ctx.info;
    let evolution = &ctx.session.registry().evolution;
    let Some(struct_info) = info.as_struct() else {
        return Err(ctx.error(crate::codes::WRONG_TYPE, "a struct was expected"));
    };
    let Some(entries) = data.as_map() else {
        return Err(locate(
            ctx.error(
                crate::codes::WRONG_TYPE,
                format!(
                    "expected an object for {}, found a {}",
                    info.name(),
                    data.kind_name()
                ),
            ),
            ctx.path,
            span,
        ));
    };
    let mut seen = vec![false; struct_info.fields.len()];
    for (key, value) in entries {
        let Some(name) = key.as_str() else {
            return Err(locate(
                ctx.error(crate::codes::WRONG_TYPE, "struct keys are strings"),
                ctx.path,
                span,
            ));
        };
        let mut path = ctx.path.clone();
        path.push_key(name);
        let ReflectMut::Struct(target) = ctx.target.reflect_mut() else {
            return Err(ctx.error(crate::codes::WRONG_TYPE, "a struct was expected"));
        };
        let Some(index) = target.field_index(name) else {
            if name.starts_with('$') {
                continue;
            }
            let message = format!(
                "unknown field `{}` in {} (known fields: {})",
                excerpt(name),
                info.name(),
                struct_info.field_names()
            );
            return Err(Error::new(crate::codes::UNKNOWN_FIELD, message)
                .with_path(path)
                .with_type_path(info.name())
                .with_span(span));
        };
        seen[index] = true;
        if let Some(type_name) = deprecated_type(value, evolution) {
            let warning = dropped(type_name, path);
            warn(ctx, warning);
            continue;
        }
        let ReflectMut::Struct(target) = ctx.target.reflect_mut() else {
            unreachable!("checked above: the target is a struct");
        };
        let Some(field) = target.field_mut(index) else {
            continue;
        };
        read_buffered(ctx.session, value, field, &path, stored.span_of(name))?;
    }
    fill_missing(ctx, struct_info, &seen, span, options)
}

fn fill_missing(
    ctx: &mut ReadContext<'_, '_>,
    struct_info: &StructInfo,
    seen: &[bool],
    span: Span,
    options: ReadOptions,
) -> Result<()> {
    let info = ctx.info;
    let mut defaults = None;
    let mut missing = Vec::new();
    let ReflectMut::Struct(target) = ctx.target.reflect_mut() else {
        return Ok(());
    };
    for (index, field_info) in struct_info.fields.iter().enumerate() {
        if seen[index] {
            continue;
        }
        let filled = match field_info.default {
            FieldDefault::Default => target.set_field_default(index),
            FieldDefault::Required => match target.field_mut(index).map(|f| f.reflect_mut()) {
                Some(ReflectMut::Option(option)) => {
                    option.set_none();
                    true
                }
                _ => false,
            },
        };
        if filled || !options.fill_defaults {
            if !filled {
                missing.push(field_info.name);
            }
            continue;
        }
        let defaults = defaults.get_or_insert_with(|| info.construct());
        let ReflectRef::Struct(default_struct) = defaults.reflect_ref() else {
            missing.push(field_info.name);
            continue;
        };
        match (default_struct.field(index), target.field_mut(index)) {
            (Some(default), Some(place)) => to_value(default)
                .and_then(|value| write_value_into(&value, place))
                .map_err(|e| locate(e, ctx.path, span))?,
            _ => missing.push(field_info.name),
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let message = format!(
        "missing field{} {} in {}",
        if missing.len() == 1 { "" } else { "s" },
        missing
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(", "),
        info.name()
    );
    Err(Error::new(crate::codes::MISSING_FIELD, message)
        .with_path(ctx.path.clone())
        .with_type_path(info.name())
        .with_span(span))
}

// ---- writing ----

fn write_data_serializer(ctx: &mut WriteContext<'_, '_>, target: Target) -> Result<()> {
    let registry = ctx.session.registry();
    let serializer = registry.evolution.serializers.get(&ctx.info.type_id());
    let wrong = || {
        Error::new(
            crate::codes::WRONG_TYPE,
            format!("no data serializer for {}", ctx.info.name()),
        )
    };
    let serializer = serializer.ok_or_else(wrong)?;
    match target {
        Target::Json => {
            let text = (serializer.to_text)(ctx.value).ok_or_else(wrong)?;
            ctx.writer.write_str(&text)
        }
        Target::MsgPack => {
            let bytes = (serializer.to_bytes)(ctx.value).ok_or_else(wrong)?;
            ctx.writer.write_blob(&bytes)
        }
    }
}

fn write_evolved(ctx: &mut WriteContext<'_, '_>, options: WriteOptions) -> Result<()> {
    let registry = ctx.session.registry();
    if let Some((base, _)) = registry.polymorphic_base(ctx.info) {
        return match (base.inner)(ctx.value) {
            Some(inner) => write_struct(ctx, inner, true, options),
            None => ctx.write_plain(),
        };
    }
    let value = ctx.value;
    write_struct(ctx, value, false, options)
}

/// Writes `value` (a named struct, else its plain shape) with its events, its `$type` when
/// `tagged`, its `$version` and the fields the options keep.
fn write_struct(
    ctx: &mut WriteContext<'_, '_>,
    value: &dyn crate::Reflect,
    tagged: bool,
    options: WriteOptions,
) -> Result<()> {
    let registry = ctx.session.registry();
    let info = value.type_info();
    let own = registry.evolution.of(info);
    if let Some(own) = own {
        for hook in &own.events.write_begin {
            hook(value);
        }
    }
    match (named_struct(info), value.reflect_ref()) {
        (Some(struct_info), ReflectRef::Struct(fields)) => {
            let version = registry.current_version_of(info);
            let with_version = version != 0 || options.always_write_version;
            let defaults = options.omit_defaults.then(|| info.construct());
            let mut kept = Vec::with_capacity(struct_info.fields.len());
            for (index, field_info) in struct_info.fields.iter().enumerate() {
                let Some(field) = fields.field(index) else {
                    continue;
                };
                let default_field = match &defaults {
                    Some(defaults) => match defaults.reflect_ref() {
                        ReflectRef::Struct(d) => d.field(index),
                        _ => None,
                    },
                    None => None,
                };
                if let Some(default_field) = default_field
                    && to_value(field)? == to_value(default_field)?
                {
                    continue;
                }
                kept.push((field_info.name, field));
            }
            let len = kept.len() + usize::from(with_version) + usize::from(tagged);
            if tagged {
                // The form of the polymorphic convention: a map led by `$type`.
                ctx.writer.write_map_root(Some(len))?;
                ctx.writer.write_name("$type")?;
                ctx.writer.write_str(info.name())?;
            } else {
                ctx.writer.write_struct_root(info.name(), Some(len))?;
            }
            if with_version {
                ctx.writer.write_name("$version")?;
                ctx.writer.write_u64(u64::from(version))?;
            }
            for (name, field) in kept {
                ctx.writer.write_name(name)?;
                ctx.recurse_field(name, field)?;
            }
            if tagged {
                ctx.writer.write_map_end()?;
            } else {
                ctx.writer.write_struct_end()?;
            }
        }
        _ if tagged => {
            return Err(Error::new(
                crate::codes::WRONG_TYPE,
                format!("the implementor {} is not a named struct", info.name()),
            ));
        }
        _ => ctx.write_plain()?,
    }
    if let Some(own) = own {
        for hook in &own.events.write_end {
            hook(value);
        }
    }
    Ok(())
}
