//! [`Serializer`]: a `&dyn Reflect` to any writer, through a handler table.

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use sluice_core::{Error, Path, Result, Writer};
use smallvec::SmallVec;
use uuid::Uuid;

use super::rule_list::{Ranked, RuleList};
use super::{KindKey, PlainRoots, TypeIdMap, TypePredicate, plain_closure};
use crate::emit;
use crate::info::{StructStyle, VariantStyle};
use crate::{PropertyReader, Reflect, ReflectRef, ScalarRef, TypeInfo, TypeRegistry, codes};

/// A custom serialization handler: writes the context's value to its writer.
pub type WriteHandler = Arc<dyn Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync>;

/// What a serialization table does with a value.
#[derive(Clone)]
pub enum WriteAction {
    /// The default shape of [`PropertyReader`]; children go back through the table.
    Plain,
    /// Custom code.
    Custom(WriteHandler),
}

impl std::fmt::Debug for WriteAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteAction::Plain => f.write_str("Plain"),
            WriteAction::Custom(_) => f.write_str("Custom"),
        }
    }
}

#[derive(Clone)]
struct Rule {
    name: Cow<'static, str>,
    priority: i32,
    applies: TypePredicate,
    action: WriteAction,
}

impl Ranked for Rule {
    fn name(&self) -> &str {
        &self.name
    }
    fn priority(&self) -> i32 {
        self.priority
    }
}

/// A serialization handler table (see the [module docs](super) for the lookup order).
///
/// ```
/// use sluice_core::{Value, ValueWriter, Writer};
/// use sluice_reflect::{Reflect, TypeRegistry};
///
/// #[derive(Reflect)]
/// struct Config { name: String, secret: String }
///
/// // Never write secrets: a rule on the type of one field would be too broad, so this one
/// // looks at the struct and writes it itself.
/// let mut table = sluice_reflect::handlers::builtin::json_serializer();
/// table.add_first("hide secrets", |info, _| info.name() == "Config", |ctx| {
///     let config = ctx.value.downcast_ref::<Config>().expect("the rule is for Config");
///     ctx.writer.write_map_root(Some(1))?;
///     ctx.writer.write_name("name")?;
///     ctx.writer.write_str(&config.name)
///         .and_then(|()| ctx.writer.write_map_end())
/// });
/// let mut out = ValueWriter::new();
/// table.serialize(&Config { name: "a".into(), secret: "b".into() }, &mut out, &TypeRegistry::new())?;
/// assert!(out.into_value()?.get("secret").is_none());
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Serializer {
    rules: RuleList<Rule>,
    by_uuid: std::collections::HashMap<Uuid, WriteAction>,
    by_kind: [Option<WriteAction>; KindKey::COUNT],
    plain_roots: PlainRoots,
}

impl std::fmt::Debug for Serializer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Serializer")
            .field("rules", &self.rule_names())
            .field("by_uuid", &self.by_uuid.len())
            .finish_non_exhaustive()
    }
}

impl Default for Serializer {
    fn default() -> Self {
        Serializer::new()
    }
}

impl Serializer {
    /// An empty table: every value is `NoMatchingHandler`.
    #[must_use]
    pub fn new() -> Serializer {
        Serializer {
            rules: RuleList::new(),
            by_uuid: std::collections::HashMap::new(),
            by_kind: Default::default(),
            plain_roots: PlainRoots::default(),
        }
    }

    /// Adds a rule at `priority` (higher runs first; among equals, the earlier added first).
    pub fn add_at(
        &mut self,
        priority: i32,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        handler: impl Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Serializer {
        self.add_rule(
            priority,
            name.into(),
            Arc::new(applies),
            WriteAction::Custom(Arc::new(handler)),
        )
    }

    /// Adds a rule with any action at `priority`.
    pub fn add_rule(
        &mut self,
        priority: i32,
        name: Cow<'static, str>,
        applies: TypePredicate,
        action: WriteAction,
    ) -> &mut Serializer {
        self.plain_roots.clear();
        self.rules.insert(Rule {
            name,
            priority,
            applies,
            action,
        });
        self
    }

    /// Adds a rule before every other.
    pub fn add_first(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        handler: impl Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Serializer {
        let priority = self.rules.priority_before_all();
        self.add_at(priority, name, applies, handler)
    }

    /// Adds a rule after every other.
    pub fn add_last(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        handler: impl Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Serializer {
        let priority = self.rules.priority_after_all();
        self.add_at(priority, name, applies, handler)
    }

    /// Removes the rules named `name`; whether one was there.
    pub fn remove(&mut self, name: &str) -> bool {
        self.plain_roots.clear();
        self.rules.remove(name)
    }

    /// Replaces the handler of the rules named `name`; whether one was there.
    pub fn replace(
        &mut self,
        name: &str,
        handler: impl Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> bool {
        self.plain_roots.clear();
        let handler: WriteHandler = Arc::new(handler);
        let mut found = false;
        for rule in self.rules.named_mut(name) {
            rule.action = WriteAction::Custom(Arc::clone(&handler));
            found = true;
        }
        found
    }

    /// The rule names, in the order they are tried.
    #[must_use]
    pub fn rule_names(&self) -> Vec<&str> {
        self.rules.names()
    }

    /// The rule names with their priorities, in the order they are tried.
    #[must_use]
    pub fn rules(&self) -> Vec<(&str, i32)> {
        self.rules.ranked()
    }

    /// Sets the handler for the type with this uuid.
    pub fn on_uuid(&mut self, uuid: Uuid, action: WriteAction) -> &mut Serializer {
        self.plain_roots.clear();
        self.by_uuid.insert(uuid, action);
        self
    }

    /// Sets a custom handler for `T` (by its uuid).
    pub fn on_type<T: crate::Typed>(
        &mut self,
        handler: impl Fn(&mut WriteContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Serializer {
        self.on_uuid(T::info().uuid(), WriteAction::Custom(Arc::new(handler)))
    }

    /// Sets the handler for every type of a kind; `None` removes it.
    pub fn on_kind(&mut self, kind: KindKey, action: Option<WriteAction>) -> &mut Serializer {
        self.plain_roots.clear();
        self.by_kind[kind.index()] = action;
        self
    }

    /// Writes `value` to `writer` and finishes the writer.
    ///
    /// # Errors
    /// Writer and handler errors, `NoMatchingHandler`.
    pub fn serialize<W: Writer>(
        &self,
        value: &dyn Reflect,
        writer: &mut W,
        registry: &TypeRegistry,
    ) -> Result<()> {
        let mut no_user_data = ();
        let mut session = self.session(registry, &mut no_user_data);
        let info = value.type_info();
        let stamp = registry.stamp();
        let plain = match self.plain_roots.get(stamp, info) {
            Some(plain) => plain,
            None => {
                let plain = session.plain_subtree(info);
                self.plain_roots.put(stamp, info, plain);
                plain
            }
        };
        if plain {
            // Nothing in the table applies anywhere in this type: the value's plain shape,
            // written straight (what a bare pipe from a property reader would write).
            emit::write_value(value, writer)?;
            return writer.finish();
        }
        session.value_in(writer, value)?;
        writer.finish()
    }

    fn session<'t>(
        &'t self,
        registry: &'t TypeRegistry,
        user: &'t mut dyn Any,
    ) -> WriteSession<'t> {
        WriteSession {
            table: self,
            registry,
            user,
            cache: TypeIdMap::default(),
            path: SmallVec::new(),
        }
    }

    /// Writes `value` to `writer` (without finishing it), with `user` data handlers can reach
    /// ([`WriteContext::user_data`]).
    ///
    /// # Errors
    /// As [`serialize`](Self::serialize).
    pub fn serialize_with<W: Writer>(
        &self,
        value: &dyn Reflect,
        writer: &mut W,
        registry: &TypeRegistry,
        user: &mut dyn Any,
    ) -> Result<()> {
        self.session(registry, user).value_in(writer, value)
    }
}

/// A writer that can be seen as `&mut dyn Writer` (for handlers): every sized writer, and
/// `dyn Writer` itself.
trait AsDynWriter: Writer {
    fn as_dyn(&mut self) -> &mut dyn Writer;
}

impl<W: Writer> AsDynWriter for W {
    fn as_dyn(&mut self) -> &mut dyn Writer {
        self
    }
}

impl AsDynWriter for dyn Writer + '_ {
    fn as_dyn(&mut self) -> &mut dyn Writer {
        self
    }
}

/// One step of the data path kept while serializing (cheap: no allocation per value).
#[derive(Clone, Copy)]
enum Step {
    Field(&'static str),
    Index(usize),
}

/// The cached answers of a table for one type.
#[derive(Clone, Copy)]
struct CachedAction<'t> {
    action: Option<&'t WriteAction>,
    /// Whether this type and every type it reaches write plain.
    plain_subtree: Option<bool>,
}

/// The state of one serialize call; handlers use it to recurse.
pub struct WriteSession<'t> {
    table: &'t Serializer,
    registry: &'t TypeRegistry,
    user: &'t mut dyn Any,
    cache: TypeIdMap<CachedAction<'t>>,
    path: SmallVec<[Step; 16]>,
}

impl std::fmt::Debug for WriteSession<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteSession")
            .field("cached_types", &self.cache.len())
            .finish_non_exhaustive()
    }
}

/// What a custom serialization handler sees.
pub struct WriteContext<'c, 't> {
    /// The output.
    pub writer: &'c mut dyn Writer,
    /// The value to write.
    pub value: &'c dyn Reflect,
    /// The type of the value (the table chose the handler by it).
    pub info: &'static TypeInfo,
    /// Registry, user data, path and recursion.
    pub session: &'c mut WriteSession<'t>,
}

impl std::fmt::Debug for WriteContext<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteContext")
            .field("type", &self.info.name())
            .finish_non_exhaustive()
    }
}

impl<'t> WriteContext<'_, 't> {
    /// The registry given to the call.
    #[must_use]
    pub fn registry(&self) -> &'t TypeRegistry {
        self.session.registry
    }

    /// The user data given to the call (`&mut ()` when none was given).
    pub fn user_data(&mut self) -> &mut dyn Any {
        self.session.user
    }

    /// The data path of the value, such as `$.items[2]`.
    #[must_use]
    pub fn path(&self) -> Path {
        self.session.path()
    }

    /// Writes `child` through the table (for handlers of containers); the data path of errors
    /// stays the one of this value.
    ///
    /// # Errors
    /// As [`WriteSession::write_value`].
    pub fn recurse(&mut self, child: &dyn Reflect) -> Result<()> {
        self.session.write_value(self.writer, child)
    }

    /// Writes `child`, the field `name` of this value, through the table (errors get the
    /// field in their data path).
    ///
    /// # Errors
    /// As [`WriteSession::write_value`].
    pub fn recurse_field(&mut self, name: &'static str, child: &dyn Reflect) -> Result<()> {
        self.session.child(self.writer, Step::Field(name), child)
    }

    /// Writes `child`, the element `index` of this value, through the table (errors get the
    /// index in their data path).
    ///
    /// # Errors
    /// As [`WriteSession::write_value`].
    pub fn recurse_index(&mut self, index: usize, child: &dyn Reflect) -> Result<()> {
        self.session.child(self.writer, Step::Index(index), child)
    }

    /// A property reader over the value: its plain tokens, for handlers that pipe them
    /// somewhere or look at them.
    #[must_use]
    pub fn property_reader(&self) -> PropertyReader<'_> {
        PropertyReader::new(self.value)
    }

    /// Writes the value in its plain shape (as if no rule matched), children through the
    /// table: for handlers that only add something around it.
    ///
    /// # Errors
    /// As [`WriteSession::write_value`].
    pub fn write_plain(&mut self) -> Result<()> {
        self.session.write_plain(self.writer, self.value)
    }
}

impl<'t> WriteSession<'t> {
    /// The registry given to the call.
    #[must_use]
    pub fn registry(&self) -> &'t TypeRegistry {
        self.registry
    }

    /// The user data given to the call (`&mut ()` when none was given).
    pub fn user_data(&mut self) -> &mut dyn Any {
        self.user
    }

    /// The data path of the value being written, such as `$.items[2]`.
    #[must_use]
    pub fn path(&self) -> Path {
        let mut path = Path::root();
        for step in &self.path {
            match *step {
                Step::Field(name) => path.push_key(name),
                Step::Index(index) => path.push_index(index),
            }
        }
        path
    }

    fn cached(&mut self, info: &'static TypeInfo) -> &mut CachedAction<'t> {
        let table = self.table;
        let registry = self.registry;
        self.cache
            .entry(info.type_id())
            .or_insert_with(|| CachedAction {
                action: table
                    .rules
                    .iter()
                    .find(|rule| (rule.applies)(info, registry))
                    .map(|rule| &rule.action)
                    .or_else(|| table.by_uuid.get(&info.uuid()))
                    .or_else(|| table.by_kind[KindKey::of(info).index()].as_ref()),
                plain_subtree: None,
            })
    }

    fn action(&mut self, info: &'static TypeInfo) -> Option<&'t WriteAction> {
        self.cached(info).action
    }

    /// Whether `info` and every type it reaches write plain.
    fn plain_subtree(&mut self, info: &'static TypeInfo) -> bool {
        if let Some(known) = self.cached(info).plain_subtree {
            return known;
        }
        let graph = plain_closure(info, |info| {
            matches!(self.cached(info).action, Some(WriteAction::Plain))
        });
        for (info, plain) in graph {
            self.cached(info).plain_subtree = Some(plain);
        }
        self.cached(info).plain_subtree.unwrap_or(false)
    }

    /// Writes one value through the table.
    ///
    /// # Errors
    /// Writer and handler errors; `NoMatchingHandler` (with the path) when nothing applies.
    pub fn write_value(&mut self, writer: &mut dyn Writer, value: &dyn Reflect) -> Result<()> {
        self.value_in(writer, value)
    }

    /// Writes `value` in the shape [`PropertyReader`] gives it, each child through the table.
    ///
    /// # Errors
    /// Writer and handler errors.
    pub fn write_plain(&mut self, writer: &mut dyn Writer, value: &dyn Reflect) -> Result<()> {
        self.plain_in(writer, value)
    }

    /// [`write_value`](Self::write_value) for any writer: generic, so that plain parts are
    /// piped without dynamic dispatch when the writer's type is known.
    fn value_in<W: AsDynWriter + ?Sized>(
        &mut self,
        writer: &mut W,
        value: &dyn Reflect,
    ) -> Result<()> {
        let info = value.type_info();
        if self.plain_subtree(info) {
            return emit::write_value(value, writer).map_err(|e| self.locate(e));
        }
        match self.action(info) {
            Some(WriteAction::Plain) => self.plain_in(writer, value),
            Some(WriteAction::Custom(handler)) => {
                let result = handler(&mut WriteContext {
                    writer: writer.as_dyn(),
                    value,
                    info,
                    session: self,
                });
                result.map_err(|e| self.locate(e))
            }
            None => Err(self.locate(Error::new(
                codes::NO_MATCHING_HANDLER,
                format!(
                    "no handler for {} ({}) at {}",
                    info.name(),
                    info.kind().describe(),
                    self.path()
                ),
            ))),
        }
    }

    fn locate(&self, error: Error) -> Error {
        if error.path().is_some() {
            error
        } else {
            error.with_path(self.path())
        }
    }

    fn child<W: AsDynWriter + ?Sized>(
        &mut self,
        writer: &mut W,
        step: Step,
        value: &dyn Reflect,
    ) -> Result<()> {
        self.path.push(step);
        let result = self.value_in(writer, value);
        self.path.pop();
        result
    }

    fn plain_in<W: AsDynWriter + ?Sized>(
        &mut self,
        writer: &mut W,
        value: &dyn Reflect,
    ) -> Result<()> {
        match value.reflect_ref() {
            ReflectRef::Scalar(_) => emit::write_value(value, writer),
            ReflectRef::Struct(s) => {
                let info = s.struct_info();
                let Some(struct_info) = info.as_struct() else {
                    return writer.write_null();
                };
                match struct_info.style {
                    StructStyle::Unit => writer.write_null(),
                    StructStyle::Tuple if struct_info.fields.len() == 1 => match s.field(0) {
                        Some(inner) => self.value_in(writer, inner),
                        None => writer.write_null(),
                    },
                    StructStyle::Tuple => {
                        writer.write_array_root(Some(struct_info.fields.len()))?;
                        for index in 0..struct_info.fields.len() {
                            if let Some(field) = s.field(index) {
                                self.child(writer, Step::Index(index), field)?;
                            }
                        }
                        writer.write_array_end()
                    }
                    StructStyle::Named => {
                        writer.write_struct_root(info.name(), Some(struct_info.fields.len()))?;
                        for (index, field_info) in struct_info.fields.iter().enumerate() {
                            writer.write_name(field_info.name)?;
                            match s.field(index) {
                                Some(field) => {
                                    self.child(writer, Step::Field(field_info.name), field)?;
                                }
                                None => writer.write_null()?,
                            }
                        }
                        writer.write_struct_end()
                    }
                }
            }
            ReflectRef::Tuple(t) if t.is_empty() => writer.write_null(),
            ReflectRef::Tuple(t) => {
                writer.write_array_root(Some(t.len()))?;
                for index in 0..t.len() {
                    if let Some(item) = t.get(index) {
                        self.child(writer, Step::Index(index), item)?;
                    }
                }
                writer.write_array_end()
            }
            ReflectRef::List(l) => {
                writer.write_array_root(Some(l.len()))?;
                for index in 0..l.len() {
                    if let Some(item) = l.get(index) {
                        self.child(writer, Step::Index(index), item)?;
                    }
                }
                writer.write_array_end()
            }
            ReflectRef::Map(m) => {
                writer.write_map_root(Some(m.len()))?;
                for (index, (key, item)) in m.iter().enumerate() {
                    match key.reflect_ref() {
                        ReflectRef::Scalar(ScalarRef::Str(name)) => writer.write_name(name)?,
                        _ => self.child(writer, Step::Index(index), key)?,
                    }
                    self.child(writer, Step::Index(index), item)?;
                }
                writer.write_map_end()
            }
            ReflectRef::Set(s) => {
                writer.write_set_root(Some(s.len()))?;
                for (index, item) in s.iter().enumerate() {
                    self.child(writer, Step::Index(index), item)?;
                }
                writer.write_set_end()
            }
            ReflectRef::Option(o) => {
                writer.write_option_root()?;
                match o.get() {
                    Some(inner) => self.value_in(writer, inner)?,
                    None => writer.write_null()?,
                }
                writer.write_option_end()
            }
            ReflectRef::Enum(e) => {
                let info = e.enum_info();
                let variant = info
                    .as_enum()
                    .filter(|_| e.bits().is_none())
                    .and_then(|enum_info| enum_info.variants.get(e.variant_index()));
                let Some(variant) = variant.filter(|v| v.style != VariantStyle::Unit) else {
                    // Unit variants and flags: one enum token.
                    return emit::write_value(value, writer);
                };
                writer.write_map_root(Some(1))?;
                writer.write_name(variant.name)?;
                self.path.push(Step::Field(variant.name));
                let result = (|| match variant.style {
                    VariantStyle::Newtype => match e.field(0) {
                        Some(inner) => self.value_in(writer, inner),
                        None => writer.write_null(),
                    },
                    VariantStyle::Tuple => {
                        writer.write_array_root(Some(variant.fields.len()))?;
                        for index in 0..variant.fields.len() {
                            if let Some(field) = e.field(index) {
                                self.child(writer, Step::Index(index), field)?;
                            }
                        }
                        writer.write_array_end()
                    }
                    VariantStyle::Struct | VariantStyle::Unit => {
                        writer.write_map_root(Some(variant.fields.len()))?;
                        for (index, field_info) in variant.fields.iter().enumerate() {
                            writer.write_name(field_info.name)?;
                            match e.field(index) {
                                Some(field) => {
                                    self.child(writer, Step::Field(field_info.name), field)?;
                                }
                                None => writer.write_null()?,
                            }
                        }
                        writer.write_map_end()
                    }
                })();
                self.path.pop();
                result?;
                writer.write_map_end()
            }
        }
    }
}
