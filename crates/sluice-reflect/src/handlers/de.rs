//! [`Deserializer`]: any reader into a `&mut dyn Reflect`, through a handler table.

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use sluice_core::error::SpanHint;
use sluice_core::pipe::copy_token;
use sluice_core::{
    Entry, Error, Path, PathSegment, PutbackReader, Reader, Result, Span, Token, Writer,
};
use smallvec::SmallVec;
use uuid::Uuid;

use super::{EntrySet, KindKey, TypeIdMap, TypePredicate};
use crate::{PropertyWriter, Reflect, StructInfo, TypeInfo, TypeKind, TypeRegistry, Typed, codes};

/// A reader that can take tokens back, for lookahead by value (the `"$type"` search).
///
/// Implemented by [`PutbackReader`]; handlers see the input through it.
pub trait Lookahead: Reader {
    /// Pushes `token` back with the span it had: it is the next token read (last in, first
    /// out).
    fn put_back(&mut self, token: Token, span: Span);
}

impl<L: Lookahead + ?Sized> Lookahead for &mut L {
    fn put_back(&mut self, token: Token, span: Span) {
        (**self).put_back(token, span);
    }
}

impl<R: Reader> Lookahead for PutbackReader<R> {
    fn put_back(&mut self, token: Token, span: Span) {
        self.putback_with_span(token, span);
    }
}

/// A custom deserialization handler: reads one whole value from the context's reader into
/// its target.
pub type ReadHandler = Arc<dyn Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync>;

/// What a deserialization table does with a value.
#[derive(Clone)]
pub enum ReadAction {
    /// The default shape of [`PropertyWriter`], token by token; children go back through the
    /// table.
    Plain,
    /// Custom code.
    Custom(ReadHandler),
}

impl std::fmt::Debug for ReadAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadAction::Plain => f.write_str("Plain"),
            ReadAction::Custom(_) => f.write_str("Custom"),
        }
    }
}

struct Rule {
    name: Cow<'static, str>,
    priority: i32,
    applies: TypePredicate,
    entries: EntrySet,
    action: ReadAction,
}

/// A deserialization handler table (see the [module docs](super) for the lookup order).
///
/// ```
/// use std::sync::Arc;
/// use sluice_core::{Reader, Value, ValueReader};
/// use sluice_reflect::{Reflect, TypeRegistry, handlers::{Deserializer, EntrySet}};
///
/// #[derive(Reflect, Debug, PartialEq)]
/// struct Config { name: String, level: u8 }
///
/// // Strings for u8 fields hold their level as a word.
/// let mut table = sluice_reflect::handlers::builtin::json();
/// table.add_first(
///     "level words",
///     |info, _| info.name() == "u8",
///     EntrySet::STRING,
///     |ctx| {
///         let level = match ctx.reader.read_str()? { "high" => 3u8, _ => 1 };
///         *ctx.target.downcast_mut::<u8>().expect("the rule is for u8") = level;
///         Ok(())
///     },
/// );
/// let input = Value::Map(vec![
///     (Value::from("name"), Value::from("x")),
///     (Value::from("level"), Value::from("high")),
/// ]);
/// let config: Config = table.deserialize(&mut ValueReader::new(&input), &TypeRegistry::new())?;
/// assert_eq!(config, Config { name: "x".into(), level: 3 });
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Deserializer {
    rules: Vec<Rule>,
    by_uuid: std::collections::HashMap<Uuid, ReadAction>,
    by_kind: [Option<ReadAction>; 11],
    skip_dollar_fields: bool,
}

impl Clone for Rule {
    fn clone(&self) -> Rule {
        Rule {
            name: self.name.clone(),
            priority: self.priority,
            applies: Arc::clone(&self.applies),
            entries: self.entries,
            action: self.action.clone(),
        }
    }
}

impl std::fmt::Debug for Deserializer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deserializer")
            .field("rules", &self.rule_names())
            .field("by_uuid", &self.by_uuid.len())
            .field("skip_dollar_fields", &self.skip_dollar_fields)
            .finish_non_exhaustive()
    }
}

impl Default for Deserializer {
    fn default() -> Self {
        Deserializer::new()
    }
}

impl Deserializer {
    /// An empty table: no rule, no handler, so every value is `NoMatchingHandler`. Start from
    /// a [built-in set](super::builtin) instead unless you want full control.
    #[must_use]
    pub fn new() -> Deserializer {
        Deserializer {
            rules: Vec::new(),
            by_uuid: std::collections::HashMap::new(),
            by_kind: Default::default(),
            skip_dollar_fields: false,
        }
    }

    /// Adds a rule at `priority` (higher runs first; among equals, the earlier added first).
    /// `applies` looks at the type only (its answer is cached per type); `entries` narrows
    /// the rule to inputs starting with those token kinds ([`EntrySet::ALL`] for any).
    pub fn add_at(
        &mut self,
        priority: i32,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        entries: EntrySet,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Deserializer {
        self.add_rule(
            priority,
            name.into(),
            Arc::new(applies),
            entries,
            ReadAction::Custom(Arc::new(handler)),
        )
    }

    /// Adds a rule with any action (custom or [`ReadAction::Plain`]) at `priority`.
    pub fn add_rule(
        &mut self,
        priority: i32,
        name: Cow<'static, str>,
        applies: TypePredicate,
        entries: EntrySet,
        action: ReadAction,
    ) -> &mut Deserializer {
        let at = self
            .rules
            .iter()
            .position(|rule| rule.priority < priority)
            .unwrap_or(self.rules.len());
        self.rules.insert(
            at,
            Rule {
                name,
                priority,
                applies,
                entries,
                action,
            },
        );
        self
    }

    /// Adds a rule before every other (priority one above the highest so far).
    pub fn add_first(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        entries: EntrySet,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Deserializer {
        let priority = self.rules.first().map_or(0, |r| r.priority.saturating_add(1));
        self.add_at(priority, name, applies, entries, handler)
    }

    /// Adds a rule after every other (priority one below the lowest so far).
    pub fn add_last(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        applies: impl Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync + 'static,
        entries: EntrySet,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Deserializer {
        let priority = self.rules.last().map_or(0, |r| r.priority.saturating_sub(1));
        self.add_at(priority, name, applies, entries, handler)
    }

    /// Removes the rules named `name`; whether one was there.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.rules.len();
        self.rules.retain(|rule| rule.name != name);
        self.rules.len() != before
    }

    /// Replaces the handler of the rules named `name` (keeping predicate and priority);
    /// whether one was there.
    pub fn replace(
        &mut self,
        name: &str,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> bool {
        let handler: ReadHandler = Arc::new(handler);
        let mut found = false;
        for rule in self.rules.iter_mut().filter(|rule| rule.name == name) {
            rule.action = ReadAction::Custom(Arc::clone(&handler));
            found = true;
        }
        found
    }

    /// The rule names, in the order they are tried.
    #[must_use]
    pub fn rule_names(&self) -> Vec<&str> {
        self.rules.iter().map(|rule| rule.name.as_ref()).collect()
    }

    /// Sets the handler for the type with this uuid (tried after the rules).
    pub fn on_uuid(&mut self, uuid: Uuid, action: ReadAction) -> &mut Deserializer {
        self.by_uuid.insert(uuid, action);
        self
    }

    /// Sets a custom handler for `T` (by its uuid).
    pub fn on_type<T: Typed>(
        &mut self,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> &mut Deserializer {
        self.on_uuid(T::info().uuid(), ReadAction::Custom(Arc::new(handler)))
    }

    /// Sets the handler for every type of a kind (tried after rules and uuids); `None` removes
    /// it.
    pub fn on_kind(&mut self, kind: KindKey, action: Option<ReadAction>) -> &mut Deserializer {
        self.by_kind[kind.index()] = action;
        self
    }

    /// Whether struct fields whose name starts with `$` and that the struct does not have are
    /// skipped (`$type`, `$version`, comments...) rather than `UnknownField` errors.
    pub fn skip_dollar_fields(&mut self, skip: bool) -> &mut Deserializer {
        self.skip_dollar_fields = skip;
        self
    }

    /// Reads a fresh `T` from `reader` (which must hold one value, then end).
    ///
    /// # Errors
    /// Reader errors, errors of the handlers, and those of [`PropertyWriter`].
    pub fn deserialize<T: Typed, R: Reader>(
        &self,
        reader: &mut R,
        registry: &TypeRegistry,
    ) -> Result<T> {
        let mut value = T::reflect_default();
        self.deserialize_into(reader, &mut value, registry, &mut ())?;
        Ok(value)
    }

    /// Reads `reader` (one value, then the end) into `target`, with `user` data handlers can
    /// downcast (`ctx.session.user_data()`).
    ///
    /// After an error, `target` may hold part of the input.
    ///
    /// # Errors
    /// As [`deserialize`](Self::deserialize).
    pub fn deserialize_into<R: Reader>(
        &self,
        reader: &mut R,
        target: &mut dyn Reflect,
        registry: &TypeRegistry,
        user: &mut dyn Any,
    ) -> Result<()> {
        let mut session = ReadSession {
            table: self,
            registry,
            user,
            cache: TypeIdMap::default(),
        };
        let mut reader = PutbackReader::new(reader);
        let mut writer = PropertyWriter::new(target);
        session.run(&mut reader, &mut writer, false)
    }
}

/// The state of one deserialize call: the table, the registry, user data and the per-type
/// cache. Handlers use it to recurse.
pub struct ReadSession<'t> {
    table: &'t Deserializer,
    registry: &'t TypeRegistry,
    user: &'t mut dyn Any,
    cache: TypeIdMap<SmallVec<[(EntrySet, &'t ReadAction); 2]>>,
}

impl std::fmt::Debug for ReadSession<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadSession")
            .field("cached_types", &self.cache.len())
            .finish_non_exhaustive()
    }
}

/// What a custom handler sees.
///
/// The fields are public so a handler can borrow them separately, for example the target's
/// fields and the reader at once when it recurses.
pub struct ReadContext<'c, 't> {
    /// The input, positioned at the value (nothing of it read yet).
    pub reader: &'c mut dyn Lookahead,
    /// The place to fill; its type is `info`.
    pub target: &'c mut dyn Reflect,
    /// The type about to be written.
    pub info: &'static TypeInfo,
    /// The data path of the value, such as `$.items[2]`.
    pub path: &'c Path,
    /// The registry, user data and recursion.
    pub session: &'c mut ReadSession<'t>,
}

impl std::fmt::Debug for ReadContext<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadContext")
            .field("type", &self.info.name())
            .field("path", &self.path.to_string())
            .finish_non_exhaustive()
    }
}

impl ReadContext<'_, '_> {
    /// An error at the current value: the code, the message, this value's path and the span
    /// of the last token read.
    #[must_use]
    pub fn error(&self, code: sluice_core::ErrorCode, message: impl Into<String>) -> Error {
        Error::new(code, message)
            .with_span(self.reader.span())
            .with_path(self.path.clone())
            .with_type_path(self.info.name())
    }

    /// Reads one value from the reader into the target through the table again, skipping the
    /// rules up to and including the one that chose this handler is NOT done: use this only
    /// after changing the target's type (as the `$type` handler does) or for children.
    ///
    /// # Errors
    /// As [`ReadSession::read_value`].
    pub fn recurse_into(&mut self, child: &mut dyn Reflect, segment: Option<PathSegment>) -> Result<()> {
        let mut path = self.path.clone();
        if let Some(segment) = segment {
            match segment {
                PathSegment::Key(key) => path.push_key(key),
                PathSegment::Index(index) => path.push_index(index),
            }
        }
        self.session.read_value(self.reader, child, &path)
    }
}

impl<'t> ReadSession<'t> {
    /// The registry given to the call.
    #[must_use]
    pub fn registry(&self) -> &'t TypeRegistry {
        self.registry
    }

    /// The user data given to the call (`&mut ()` when none was given).
    pub fn user_data(&mut self) -> &mut dyn Any {
        self.user
    }

    /// Reads one whole value from `reader` into `target` through the table (the recursion
    /// of handlers for children). `path` is the data path of `target`, put in front of the
    /// paths of errors.
    ///
    /// # Errors
    /// Reader, handler and [`PropertyWriter`] errors.
    pub fn read_value(
        &mut self,
        reader: &mut dyn Lookahead,
        target: &mut dyn Reflect,
        path: &Path,
    ) -> Result<()> {
        let mut writer = PropertyWriter::new(target);
        let mut reader = reader;
        self.run(&mut reader, &mut writer, true).map_err(|mut error| {
            if !path.is_root() {
                let outer = path.segments().to_vec();
                error.path_mut().prepend(&outer);
            }
            error
        })
    }

    /// The actions for `info`, in order, computed once per type and call.
    fn actions(&mut self, info: &'static TypeInfo) -> &SmallVec<[(EntrySet, &'t ReadAction); 2]> {
        let table = self.table;
        let registry = self.registry;
        self.cache.entry(info.type_id()).or_insert_with(|| {
            let mut actions = SmallVec::new();
            for rule in &table.rules {
                if (rule.applies)(info, registry) {
                    actions.push((rule.entries, &rule.action));
                    if rule.entries.is_all() {
                        return actions;
                    }
                }
            }
            if let Some(action) = table.by_uuid.get(&info.uuid()) {
                actions.push((EntrySet::ALL, action));
                return actions;
            }
            if let Some(action) = &table.by_kind[KindKey::of(info).index()] {
                actions.push((EntrySet::ALL, action));
            }
            actions
        })
    }

    fn select(&mut self, info: &'static TypeInfo, entry: Entry) -> Option<&'t ReadAction> {
        self.actions(info)
            .iter()
            .find(|(entries, _)| entries.contains(entry))
            .map(|(_, action)| *action)
    }

    /// The loop: tokens go to the property writer, except values a custom handler claims.
    /// With `one_value`, stops after one whole value; else runs to the end of the input.
    fn run<L: Lookahead>(
        &mut self,
        reader: &mut L,
        writer: &mut PropertyWriter<'_>,
        one_value: bool,
    ) -> Result<()> {
        // Open containers: where each started (for whole-object spans) and, for named
        // structs, their fields (for the `$` rule).
        let mut open: SmallVec<[(usize, Option<&'static StructInfo>); 16]> = SmallVec::new();
        loop {
            let entry = reader.peek()?;
            match entry {
                Entry::Ended => {
                    if one_value {
                        return Err(Error::unexpected("a value", entry).or_span(reader.span()));
                    }
                    return writer.finish();
                }
                Entry::Name => {
                    if self.table.skip_dollar_fields
                        && let Some((_, Some(fields))) = open.last()
                    {
                        let name = reader.read_name()?;
                        if name.starts_with('$') && fields.field_index(name).is_none() {
                            reader.skip()?;
                        } else {
                            writer.write_name(name).map_err(|e| e.or_span(reader.span()))?;
                        }
                    } else {
                        copy_token(reader, writer, entry)?;
                    }
                    continue;
                }
                e if e.is_container_end() => {
                    let start = open.pop().map(|(start, _)| start);
                    copy_token(reader, writer, entry).map_err(|err| {
                        match (err.span_hint(), start) {
                            (SpanHint::EnclosingContainer, Some(start)) => {
                                let end = reader.span().end;
                                err.with_span(Span::new(start, end))
                            }
                            _ => err,
                        }
                    })?;
                }
                Entry::OptionRoot => {
                    copy_token(reader, writer, entry)?;
                    open.push((reader.span().start, None));
                    continue;
                }
                _ => {
                    let Some(info) = writer.next_value_info(entry == Entry::Null) else {
                        // The writer explains why no value may stand here.
                        copy_token(reader, writer, entry)?;
                        continue;
                    };
                    match self.select(info, entry) {
                        Some(ReadAction::Plain) => {
                            copy_token(reader, writer, entry)?;
                            if entry.is_container_start() {
                                let fields = match (entry, info.kind()) {
                                    (
                                        Entry::MapRoot | Entry::StructRoot,
                                        TypeKind::Struct(fields),
                                    ) => Some(fields),
                                    _ => None,
                                };
                                open.push((reader.span().start, fields));
                                continue;
                            }
                        }
                        Some(ReadAction::Custom(handler)) => {
                            writer
                                .write_value_with(info, |target, path| {
                                    handler(&mut ReadContext {
                                        reader,
                                        target,
                                        info,
                                        path,
                                        session: self,
                                    })
                                })
                                .map_err(|e| e.or_span(reader.span()))?;
                        }
                        None => {
                            let span = reader.span();
                            let kind = info.kind().describe();
                            return Err(writer
                                .write_value_with(info, |_, path| {
                                    Err::<(), _>(
                                        Error::new(
                                            codes::NO_MATCHING_HANDLER,
                                            format!(
                                                "no handler for {} ({kind}) at {path}",
                                                info.name()
                                            ),
                                        )
                                        .with_path(path.clone()),
                                    )
                                })
                                .map_or_else(|e| e, |()| Error::custom("unreachable"))
                                .or_span(span));
                        }
                    }
                }
            }
            if one_value && open.is_empty() {
                return Ok(());
            }
        }
    }
}

