//! [`SerializeOptions`]: per-call toggles of what a [`Serializer`] writes.
//!
//! | option | values (default first) | what is written | formats |
//! |---|---|---|---|
//! | [`omit_defaults`](SerializeOptions::omit_defaults) | `false`, `true` | `true`: struct fields that may be absent on read (`#[reflect(default)]` fields and `Option` fields) are left out when equal to the value in the struct's default | all |
//! | [`type_tags`](SerializeOptions::type_tags) | [`TypeTags::WhenNeeded`], [`Always`](TypeTags::Always), [`Never`](TypeTags::Never) | `"$type": "Name"` first in trait objects only / in every named struct too / nowhere (output that cannot be read back into trait objects) | all |
//! | [`versions`](SerializeOptions::versions) | `true`, `false` | `true`: `"$version": N` after `$type` in named structs whose type has a version other than 0 | all |
//! | [`sorted_keys`](SerializeOptions::sorted_keys) | `false`, `true` | `true`: the entries of every map sorted by key, `$` keys first (structs keep their field order) | all |
//! | [`field_filter`](SerializeOptions::field_filter) | none, a predicate | members of objects (struct fields and string map keys) the predicate rejects are left out with their value; it gets the object's data path and the member's name | all |
//! | [`pretty`](SerializeOptions::pretty) | `false`, `true` | `true`: indented, one member per line | JSON; MessagePack: error |
//! | [`float_format`](SerializeOptions::float_format) | [`FloatFormat::Shortest`], [`Fixed(n)`](FloatFormat::Fixed) | finite floats as the shortest text that reads back to the same bits / with exactly `n` decimals (`1.50`); NaN and infinities as the JSON writer's non-finite rule says | JSON; MessagePack: error unless `Shortest` |
//!
//! Options that change which handler writes a value (`omit_defaults`, `type_tags`,
//! `versions`) become rules of a copy of the table, at the lowest priority for structs (so
//! colors, vectors and rules of your own keep their forms) and in place of the
//! [`POLYMORPHIC`] rule for trait objects. The others are
//! writer adapters ([`option_writers`](super::option_writers)) and see every token, also of
//! values written by handlers. The format helpers of the facade check the format column and
//! answer [`OPTION_NOT_SUPPORTED`] where an option has no meaning.

use std::borrow::Cow;
use std::sync::Arc;

use sluice_core::{Error, ErrorCode, Path, Result, ValueWriter, Writer};

use super::builtin::POLYMORPHIC;
use super::option_writers::{FieldFilter, FieldFilterWriter, FloatFormatWriter, SortedKeysWriter};
use super::{Serializer, WriteContext, plain_closure};
use crate::info::{FieldDefault, StructStyle};
use crate::{Reflect, ReflectRef, TypeInfo, TypeKind, TypeRegistry, codes};

/// An option that has no meaning for the format written (pretty MessagePack, fixed-digit
/// floats in MessagePack).
pub const OPTION_NOT_SUPPORTED: ErrorCode = ErrorCode::new("reflect", "OptionNotSupported");

/// Rule name: structs written under [`SerializeOptions`] (defaults, type tags, versions).
pub const OPTIONS_STRUCT: &str = "options-struct";

/// When `"$type"` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TypeTags {
    /// In trait objects, where reading needs it.
    #[default]
    WhenNeeded,
    /// In trait objects and every named struct.
    Always,
    /// Nowhere.
    Never,
}

/// How finite floats are written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatFormat {
    /// The shortest text that reads back to the same bits (`0.1`, `1e300`).
    #[default]
    Shortest,
    /// Decimal text with exactly this many digits after the point (`Fixed(2)`: `1.50`,
    /// `Fixed(0)`: `2`); no exponent.
    Fixed(u8),
}

/// Per-call toggles of what a serializer writes (see the [module docs](self) for the table).
///
/// ```
/// use sluice_core::{Value, ValueWriter};
/// use sluice_reflect::handlers::{builtin, options::{SerializeOptions, TypeTags}};
/// use sluice_reflect::{Reflect, TypeRegistry};
///
/// #[derive(Reflect)]
/// struct Point { x: i32, y: i32 }
///
/// let options = SerializeOptions::new()
///     .type_tags(TypeTags::Always)
///     .field_filter(|_path, name| name != "y");
/// let mut out = ValueWriter::new();
/// builtin::json_serializer().serialize_with_options(&Point { x: 1, y: 2 }, &mut out, &TypeRegistry::new(), &options)?;
/// let value = out.into_value()?;
/// assert_eq!(value.get("$type").and_then(Value::as_str), Some("Point"));
/// assert!(value.get("y").is_none());
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Clone)]
pub struct SerializeOptions {
    /// Leave out struct fields equal to their default (those that may be absent on read).
    pub omit_defaults: bool,
    /// When `"$type"` is written.
    pub type_tags: TypeTags,
    /// Write `"$version"` for types with a version other than 0 (on by default).
    pub versions: bool,
    /// Sort the entries of maps by key.
    pub sorted_keys: bool,
    /// Keep only the object members this accepts.
    pub field_filter: Option<FieldFilter>,
    /// Indent (JSON only).
    pub pretty: bool,
    /// How floats are written (JSON only, unless `Shortest`).
    pub float_format: FloatFormat,
}

impl Default for SerializeOptions {
    fn default() -> Self {
        SerializeOptions {
            omit_defaults: false,
            type_tags: TypeTags::WhenNeeded,
            versions: true,
            sorted_keys: false,
            field_filter: None,
            pretty: false,
            float_format: FloatFormat::Shortest,
        }
    }
}

impl std::fmt::Debug for SerializeOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SerializeOptions")
            .field("omit_defaults", &self.omit_defaults)
            .field("type_tags", &self.type_tags)
            .field("versions", &self.versions)
            .field("sorted_keys", &self.sorted_keys)
            .field("field_filter", &self.field_filter.is_some())
            .field("pretty", &self.pretty)
            .field("float_format", &self.float_format)
            .finish()
    }
}

impl SerializeOptions {
    /// The defaults: what the plain serialize helpers write, plus `"$version"` in structs of
    /// versioned types.
    #[must_use]
    pub fn new() -> SerializeOptions {
        SerializeOptions::default()
    }

    /// Sets [`omit_defaults`](Self::omit_defaults).
    #[must_use]
    pub fn omit_defaults(mut self, on: bool) -> SerializeOptions {
        self.omit_defaults = on;
        self
    }

    /// Sets [`type_tags`](Self::type_tags).
    #[must_use]
    pub fn type_tags(mut self, tags: TypeTags) -> SerializeOptions {
        self.type_tags = tags;
        self
    }

    /// Sets [`versions`](Self::versions).
    #[must_use]
    pub fn versions(mut self, on: bool) -> SerializeOptions {
        self.versions = on;
        self
    }

    /// Sets [`sorted_keys`](Self::sorted_keys).
    #[must_use]
    pub fn sorted_keys(mut self, on: bool) -> SerializeOptions {
        self.sorted_keys = on;
        self
    }

    /// Sets [`field_filter`](Self::field_filter): `keep(path, name)` gets the data path of
    /// the object (`$.items[2]`) and the member's name.
    #[must_use]
    pub fn field_filter(
        mut self,
        keep: impl Fn(&Path, &str) -> bool + Send + Sync + 'static,
    ) -> SerializeOptions {
        self.field_filter = Some(Arc::new(keep));
        self
    }

    /// Sets [`pretty`](Self::pretty).
    #[must_use]
    pub fn pretty(mut self, on: bool) -> SerializeOptions {
        self.pretty = on;
        self
    }

    /// Sets [`float_format`](Self::float_format).
    #[must_use]
    pub fn float_format(mut self, format: FloatFormat) -> SerializeOptions {
        self.float_format = format;
        self
    }

    /// Checks that the options have a meaning for a binary format (MessagePack): not
    /// `pretty`, floats `Shortest`.
    ///
    /// # Errors
    /// [`OPTION_NOT_SUPPORTED`] naming the option and `format`.
    pub fn check_binary(&self, format: &str) -> Result<()> {
        if self.pretty {
            return Err(Error::new(
                OPTION_NOT_SUPPORTED,
                format!("{format} has no pretty form (the option `pretty`)"),
            ));
        }
        if let FloatFormat::Fixed(digits) = self.float_format {
            return Err(Error::new(
                OPTION_NOT_SUPPORTED,
                format!(
                    "{format} writes floats as binary numbers, not with {digits} fixed digits (the option `float_format`)"
                ),
            ));
        }
        Ok(())
    }

    /// The choices the struct rules need.
    fn rule_choices(&self) -> RuleChoices {
        RuleChoices {
            omit_defaults: self.omit_defaults,
            type_tags: self.type_tags,
            versions: self.versions,
        }
    }

    /// `table` with the rules these options need for values of type `root`: borrowed when
    /// it needs none (so the table's remembered answers stay in use).
    #[must_use]
    pub fn table_for<'t>(
        &self,
        table: &'t Serializer,
        root: &'static TypeInfo,
    ) -> Cow<'t, Serializer> {
        let choices = self.rule_choices();
        // Versions only matter when a versioned struct can be met (trait objects may hold any).
        let versions = choices.versions
            && plain_closure(root, |info| !(is_named_struct(info) && info.version() != 0))
                .first()
                .is_some_and(|&(_, unversioned)| !unversioned);
        if !choices.omit_defaults && choices.type_tags == TypeTags::WhenNeeded && !versions {
            return Cow::Borrowed(table);
        }
        let mut table = table.clone();
        table.replace(POLYMORPHIC, move |ctx| write_trait_object(ctx, choices));
        table.add_last(
            OPTIONS_STRUCT,
            move |info, _| choices.applies_to(info),
            move |ctx| write_struct(ctx, choices),
        );
        Cow::Owned(table)
    }
}

impl Serializer {
    /// Writes `value` to `writer` under `options` and finishes the writer.
    ///
    /// `pretty` is for the writer's maker to honour (the format helpers of the facade do);
    /// every other option is applied here, for any writer.
    ///
    /// # Errors
    /// As [`serialize`](Serializer::serialize).
    pub fn serialize_with_options<W: Writer>(
        &self,
        value: &dyn Reflect,
        writer: &mut W,
        registry: &TypeRegistry,
        options: &SerializeOptions,
    ) -> Result<()> {
        let table = options.table_for(self, value.type_info());
        let floats = FloatFormatWriter::new(writer, options.float_format);
        let sorted = SortedKeysWriter::new(floats, options.sorted_keys);
        let mut filtered = FieldFilterWriter::new(sorted, options.field_filter.clone());
        table.serialize(value, &mut filtered, registry)
    }
}

/// The options the struct and trait-object rules act on.
#[derive(Debug, Clone, Copy)]
struct RuleChoices {
    omit_defaults: bool,
    type_tags: TypeTags,
    versions: bool,
}

impl RuleChoices {
    fn applies_to(self, info: &'static TypeInfo) -> bool {
        is_named_struct(info)
            && (self.omit_defaults
                || self.type_tags == TypeTags::Always
                || (self.versions && info.version() != 0))
    }
}

fn is_named_struct(info: &TypeInfo) -> bool {
    info.as_struct()
        .is_some_and(|s| s.style == StructStyle::Named)
}

/// Whether a field may be absent on read, so leaving it out reads back the same.
fn may_be_absent(field: &crate::FieldInfo) -> bool {
    field.default == FieldDefault::Default || matches!((field.ty)().kind(), TypeKind::Option { .. })
}

fn write_struct(ctx: &mut WriteContext<'_, '_>, choices: RuleChoices) -> Result<()> {
    let value = ctx.value;
    let tag = choices.type_tags == TypeTags::Always;
    write_fields(ctx, value, Form::Struct { tag }, choices)
}

fn write_trait_object(ctx: &mut WriteContext<'_, '_>, choices: RuleChoices) -> Result<()> {
    let registry = ctx.registry();
    let Some((base, _)) = registry.polymorphic_base(ctx.info) else {
        return ctx.write_plain();
    };
    let Some(inner) = (base.inner)(ctx.value) else {
        return ctx.write_plain();
    };
    let tag = choices.type_tags != TypeTags::Never;
    write_fields(ctx, inner, Form::TraitObject { tag }, choices)
}

/// How [`write_fields`] frames the fields.
#[derive(Clone, Copy)]
enum Form {
    /// A struct object, `$type` first when `tag`.
    Struct { tag: bool },
    /// A map, as the polymorphic convention writes trait objects (so that options acting on
    /// maps treat them the same with and without these rules), `$type` first when `tag`.
    TraitObject { tag: bool },
}

/// Writes the named struct `value` (the context's value or the implementor inside a trait
/// object) as an object: `$type`, `$version`, then the fields kept.
fn write_fields(
    ctx: &mut WriteContext<'_, '_>,
    value: &dyn Reflect,
    form: Form,
    choices: RuleChoices,
) -> Result<()> {
    let (Form::Struct { tag } | Form::TraitObject { tag }) = form;
    let ReflectRef::Struct(s) = value.reflect_ref() else {
        return Err(Error::new(
            codes::WRONG_TYPE,
            format!("{} is not a struct", value.type_info().name()),
        ));
    };
    let info = s.struct_info();
    let fields = info.as_struct().map_or(&[][..], |s| s.fields);
    let defaults = choices.omit_defaults.then(|| info.construct());
    let mut keep = Vec::with_capacity(fields.len());
    for (index, field) in fields.iter().enumerate() {
        let omitted = match (&defaults, s.field(index)) {
            (Some(defaults), Some(current)) if may_be_absent(field) => {
                match defaults.reflect_ref() {
                    ReflectRef::Struct(d) => match d.field(index) {
                        Some(default) => same_output(ctx, current, default)?,
                        None => false,
                    },
                    _ => false,
                }
            }
            _ => false,
        };
        keep.push(!omitted);
    }
    let version = if choices.versions { info.version() } else { 0 };
    let len =
        usize::from(tag) + usize::from(version != 0) + keep.iter().filter(|&&kept| kept).count();
    match form {
        Form::Struct { .. } => ctx.writer.write_struct_root(info.name(), Some(len))?,
        Form::TraitObject { .. } => ctx.writer.write_map_root(Some(len))?,
    }
    if tag {
        ctx.writer.write_name("$type")?;
        ctx.writer.write_str(info.name())?;
    }
    if version != 0 {
        ctx.writer.write_name("$version")?;
        ctx.writer.write_u64(u64::from(version))?;
    }
    for ((index, field), kept) in fields.iter().enumerate().zip(keep) {
        if !kept {
            continue;
        }
        ctx.writer.write_name(field.name)?;
        match s.field(index) {
            Some(child) => ctx.recurse_field(field.name, child)?,
            None => ctx.writer.write_null()?,
        }
    }
    match form {
        Form::Struct { .. } => ctx.writer.write_struct_end(),
        Form::TraitObject { .. } => ctx.writer.write_map_end(),
    }
}

/// Whether two values write the same tokens through the table.
fn same_output(
    ctx: &mut WriteContext<'_, '_>,
    current: &dyn Reflect,
    default: &dyn Reflect,
) -> Result<bool> {
    let mut a = ValueWriter::new();
    ctx.session.write_value(&mut a, current)?;
    let mut b = ValueWriter::new();
    ctx.session.write_value(&mut b, default)?;
    Ok(a.into_value()? == b.into_value()?)
}
