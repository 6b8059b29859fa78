//! [`Deserializer`]: any reader into a `&mut dyn Reflect`, through a handler table.

use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use sluice_core::error::SpanHint;
use sluice_core::pipe::copy_token;
use sluice_core::{Entry, Error, ErrorCode, Path, PathSegment, PutbackReader, Reader, Result};
use sluice_core::{Span, Token, Writer};
use smallvec::SmallVec;
use uuid::Uuid;

use super::rule_list::{Ranked, RuleList};
use super::{EntrySet, KindKey, PlainRoots, TypeIdMap, TypePredicate, plain_closure};
use crate::writer::FrameStack;
use crate::{PropertyWriter, Reflect, TypeInfo, TypeKind, TypeRegistry, Typed, codes};

/// A reader that can take tokens back, for lookahead by value (the `"$type"` search).
///
/// Handlers see the input through it; [`PutbackReader`] implements it.
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

/// The readers the table loop runs on: the top-level [`PutbackReader`] reads plain parts
/// straight from the reader it wraps whenever nothing was put back, so they cost what a bare
/// `pipe` costs; handlers' recursions read through the [`Lookahead`] they were given.
trait TableReader: Lookahead {
    /// Copies one whole value into `writer` with no table lookup.
    fn copy_plain_value(
        &mut self,
        writer: &mut PropertyWriter<'_>,
        skip_dollar: bool,
    ) -> Result<()>;
}

impl<R: Reader + ?Sized> TableReader for PutbackReader<&mut R> {
    fn copy_plain_value(
        &mut self,
        writer: &mut PropertyWriter<'_>,
        skip_dollar: bool,
    ) -> Result<()> {
        if self.pending() == 0 {
            copy_plain::<_, true>(&mut **self.inner_mut(), writer, skip_dollar)
        } else {
            copy_plain::<_, true>(self, writer, skip_dollar)
        }
    }
}

impl TableReader for &mut (dyn Lookahead + '_) {
    fn copy_plain_value(
        &mut self,
        writer: &mut PropertyWriter<'_>,
        skip_dollar: bool,
    ) -> Result<()> {
        copy_plain::<_, true>(self, writer, skip_dollar)
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

#[derive(Clone)]
struct Rule {
    name: Cow<'static, str>,
    priority: i32,
    applies: TypePredicate,
    entries: EntrySet,
    action: ReadAction,
}

impl Ranked for Rule {
    fn name(&self) -> &str {
        &self.name
    }
    fn priority(&self) -> i32 {
        self.priority
    }
}

/// A deserialization handler table.
///
/// For each value, the table looks at the type of the place the value goes to (and the kind
/// of the next input token) and takes the first of:
///
/// 1. the rules whose predicate accepts the type and whose [`EntrySet`] holds the token, by
///    priority (highest first; among equal priorities, the one added first);
/// 2. the action registered for the type's uuid ([`on_uuid`](Self::on_uuid),
///    [`on_type`](Self::on_type));
/// 3. the action registered for the type's kind ([`on_kind`](Self::on_kind));
/// 4. else the value fails with [`NO_MATCHING_HANDLER`](codes::NO_MATCHING_HANDLER), naming the
///    type and the data path.
///
/// Predicates see only the type (and the registry): each call evaluates them once per type
/// it meets. A type none of whose rules applies and whose children are plain too is read in
/// one tight loop straight into a [`PropertyWriter`], as fast as a bare `pipe`.
///
/// ```
/// use sluice_core::{Reader, Value, ValueReader};
/// use sluice_reflect::{Reflect, TypeRegistry, handlers::{EntrySet, builtin}};
///
/// #[derive(Reflect, Debug, PartialEq)]
/// struct Config { name: String, level: u8 }
///
/// // Levels may be given as words.
/// let mut table = builtin::json();
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
    rules: RuleList<Rule>,
    by_uuid: HashMap<Uuid, ReadAction>,
    by_kind: [Option<ReadAction>; KindKey::COUNT],
    skip_dollar_fields: bool,
    duplicate_keys: Option<ErrorCode>,
    plain_roots: PlainRoots,
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
    /// a [built-in set](super::builtin) unless you want full control.
    #[must_use]
    pub fn new() -> Deserializer {
        Deserializer {
            rules: RuleList::new(),
            by_uuid: HashMap::new(),
            by_kind: Default::default(),
            skip_dollar_fields: false,
            duplicate_keys: None,
            plain_roots: PlainRoots::default(),
        }
    }

    /// Adds a rule at `priority` (higher is tried first; among equals, the earlier added
    /// first). `applies` looks at the type only (its answer is cached per type); `entries`
    /// narrows the rule to inputs starting with those token kinds ([`EntrySet::ALL`] for any).
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
            name,
            Arc::new(applies),
            entries,
            ReadAction::Custom(Arc::new(handler)),
        )
    }

    /// Adds a rule with any action (custom or [`ReadAction::Plain`]) at `priority`.
    pub fn add_rule(
        &mut self,
        priority: i32,
        name: impl Into<Cow<'static, str>>,
        applies: TypePredicate,
        entries: EntrySet,
        action: ReadAction,
    ) -> &mut Deserializer {
        self.plain_roots.clear();
        self.rules.insert(Rule {
            name: name.into(),
            priority,
            applies,
            entries,
            action,
        });
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
        let priority = self.rules.priority_before_all();
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
        let priority = self.rules.priority_after_all();
        self.add_at(priority, name, applies, entries, handler)
    }

    /// Removes the rules named `name`; whether there was one.
    pub fn remove(&mut self, name: &str) -> bool {
        self.plain_roots.clear();
        self.rules.remove(name)
    }

    /// Replaces the handler of the rules named `name`, keeping their predicates, token kinds
    /// and priorities; whether there was one.
    pub fn replace(
        &mut self,
        name: &str,
        handler: impl Fn(&mut ReadContext<'_, '_>) -> Result<()> + Send + Sync + 'static,
    ) -> bool {
        self.plain_roots.clear();
        let handler: ReadHandler = Arc::new(handler);
        let mut found = false;
        for rule in self.rules.named_mut(name) {
            rule.action = ReadAction::Custom(Arc::clone(&handler));
            found = true;
        }
        found
    }

    /// The rule names with their priorities, in the order they are tried.
    #[must_use]
    pub fn rules(&self) -> Vec<(&str, i32)> {
        self.rules.ranked()
    }

    /// The rule names, in the order they are tried.
    #[must_use]
    pub fn rule_names(&self) -> Vec<&str> {
        self.rules.names()
    }

    /// Sets the action for the type with this uuid (tried after the rules).
    pub fn on_uuid(&mut self, uuid: Uuid, action: ReadAction) -> &mut Deserializer {
        self.plain_roots.clear();
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

    /// Sets the action for every type of a kind (tried after rules and uuids); `None`
    /// removes it.
    pub fn on_kind(&mut self, kind: KindKey, action: Option<ReadAction>) -> &mut Deserializer {
        self.plain_roots.clear();
        self.by_kind[kind.index()] = action;
        self
    }

    /// Whether struct fields whose name starts with `$` and that the struct does not have are
    /// skipped (`$type`, `$version`, `$comment`...) rather than `UnknownField` errors.
    pub fn skip_dollar_fields(&mut self, skip: bool) -> &mut Deserializer {
        self.skip_dollar_fields = skip;
        self
    }

    /// Whether a struct field or map key given twice in one object is an error with `code`
    /// (see [`PropertyWriter::check_duplicate_keys`]) or, with `None` (the default), the last
    /// one wins. The built-in handlers that read objects themselves (vectors as `{"x": ..}`,
    /// `$key` / `$value` map entries) check their keys too. For readers that do not check
    /// keys themselves.
    pub fn check_duplicate_keys(&mut self, code: Option<ErrorCode>) -> &mut Deserializer {
        self.duplicate_keys = code;
        self
    }

    /// The code of the duplicate-key error, when keys are checked.
    #[must_use]
    pub fn duplicate_keys(&self) -> Option<ErrorCode> {
        self.duplicate_keys
    }

    /// A property writer over `target` with the table's settings.
    fn writer<'w>(&self, target: &'w mut dyn Reflect) -> PropertyWriter<'w> {
        let mut writer = PropertyWriter::new(target);
        writer.check_duplicate_keys(self.duplicate_keys);
        writer
    }

    /// Reads a fresh `T` from `reader`, which must hold one value, then end.
    ///
    /// # Errors
    /// Reader errors, handler errors, those of [`PropertyWriter`], and `NoMatchingHandler`.
    pub fn deserialize<T: Typed, R: Reader + ?Sized>(
        &self,
        reader: &mut R,
        registry: &TypeRegistry,
    ) -> Result<T> {
        let mut value = T::reflect_default();
        self.deserialize_into(reader, &mut value, registry, &mut ())?;
        Ok(value)
    }

    /// Reads `reader` (one value, then the end) into `target`, with `user` data handlers can
    /// reach ([`ReadContext::user_data`]).
    ///
    /// After an error, `target` may hold part of the input.
    ///
    /// # Errors
    /// As [`deserialize`](Self::deserialize).
    pub fn deserialize_into<R: Reader + ?Sized>(
        &self,
        reader: &mut R,
        target: &mut dyn Reflect,
        registry: &TypeRegistry,
        user: &mut dyn Any,
    ) -> Result<()> {
        let mut session = ReadSession::new(self, registry, user);
        if self.is_plain_in(&mut session, target.type_info()) {
            // Nothing in the table applies anywhere in this type: a bare pipe.
            let mut writer = self.writer(target);
            let copied = copy_plain::<_, false>(reader, &mut writer, self.skip_dollar_fields);
            writer.recycle();
            return copied;
        }
        let mut reader = PutbackReader::new(reader);
        let mut writer = self.writer(target);
        let read = session.run(&mut reader, &mut writer, Run::Stream);
        writer.recycle();
        read
    }
}

impl Deserializer {
    /// Whether nothing in the table applies anywhere in a value of type `info`, remembered
    /// per registry state; found, when not remembered, with `session`, whose cache then
    /// keeps the predicates' answers for the read that follows.
    fn is_plain_in(&self, session: &mut ReadSession<'_>, info: &'static TypeInfo) -> bool {
        let stamp = session.registry.stamp();
        if let Some(plain) = self.plain_roots.get(stamp, info) {
            return plain;
        }
        let plain = session.plain_subtree(info);
        self.plain_roots.put(stamp, info, plain);
        plain
    }

    /// A reader of many values of type `T` with this table and `registry`, one after another
    /// (the records of an NDJSON stream): each [`read`](TypedReads::read) gives what
    /// [`deserialize`](Self::deserialize) gives, without repeating per value the work that
    /// depends only on `T` and the table.
    #[must_use]
    pub fn typed_reads<'d, T>(&'d self, registry: &'d TypeRegistry) -> TypedReads<'d, T> {
        TypedReads {
            table: self,
            registry,
            plain: None,
            stack: FrameStack::default(),
            marker: PhantomData,
        }
    }
}

/// Reads values of type `T` one after another with a [`Deserializer`] (see
/// [`Deserializer::typed_reads`]).
///
/// Whether the table applies anywhere in `T` is found once, not for every value, and the
/// writer's frame stack is kept here between values. Both borrows keep the table and the
/// registry unchanged for as long as this lives, so the answer stays true.
///
/// ```
/// use sluice_core::{Value, ValueReader};
/// use sluice_reflect::handlers::builtin;
/// use sluice_reflect::{Reflect, TypeRegistry};
/// #[derive(Reflect, Default, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let (table, registry) = (builtin::pipe(), TypeRegistry::new());
/// let mut reads = table.typed_reads::<Point>(&registry);
/// let mut points = Vec::new();
/// for x in [1u64, 2] {
///     let input = Value::Map(vec![
///         (Value::from("x"), Value::from(x)),
///         (Value::from("y"), Value::from(0u64)),
///     ]);
///     points.push(reads.read(&mut ValueReader::new(&input))?);
/// }
/// assert_eq!(points, [Point { x: 1, y: 0 }, Point { x: 2, y: 0 }]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct TypedReads<'d, T> {
    table: &'d Deserializer,
    registry: &'d TypeRegistry,
    /// Whether nothing in the table applies anywhere in `T`, once known.
    plain: Option<bool>,
    /// The frame stack of the last value's writer, emptied.
    stack: FrameStack,
    marker: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for TypedReads<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedReads")
            .field("plain", &self.plain)
            .finish_non_exhaustive()
    }
}

impl<T: Typed> TypedReads<'_, T> {
    /// Reads a fresh `T` from `reader`, which must hold one value, then end: what
    /// [`Deserializer::deserialize`] gives.
    ///
    /// # Errors
    /// As [`Deserializer::deserialize`].
    pub fn read<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<T> {
        let mut value = T::reflect_default();
        let plain = match self.plain {
            Some(plain) => plain,
            None => {
                let mut no_user = ();
                let mut session = ReadSession::new(self.table, self.registry, &mut no_user);
                let plain = self.table.is_plain_in(&mut session, value.type_info());
                self.plain = Some(plain);
                plain
            }
        };
        if !plain {
            self.table
                .deserialize_into(reader, &mut value, self.registry, &mut ())?;
            return Ok(value);
        }
        let mut writer = PropertyWriter::with_stack(&mut value, std::mem::take(&mut self.stack));
        writer.check_duplicate_keys(self.table.duplicate_keys);
        let copied = copy_plain::<_, false>(reader, &mut writer, self.table.skip_dollar_fields);
        self.stack = writer.into_stack();
        copied.map(|()| value)
    }
}

/// Copies tokens into a property writer with no table lookup: the whole stream, or one value
/// (`one_value`). Unknown fields named `$...` are skipped when `skip_dollar` is set.
///
/// Never inlined: it is the hot loop, and compiled on its own it stays as tight as `pipe`
/// (inlined into the table loop, reading canada.json measured a few percent slower).
#[inline(never)]
fn copy_plain<R: Reader + ?Sized, const ONE_VALUE: bool>(
    reader: &mut R,
    writer: &mut PropertyWriter<'_>,
    skip_dollar: bool,
) -> Result<()> {
    let one_value = ONE_VALUE;
    // Start offsets of the open containers, for errors about a whole object.
    let mut starts: SmallVec<[usize; 32]> = SmallVec::new();
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
                write_name_or_skip_dollar(reader, writer, skip_dollar)?;
                continue;
            }
            _ if entry.is_container_end() => {
                let start = starts.pop();
                copy_end_token(reader, writer, entry)
                    .map_err(|error| whole_container_span(error, start, reader.span()))?;
            }
            _ => {
                copy_value_token(reader, writer, entry)?;
                if entry.is_container_start() {
                    starts.push(reader.span().start);
                    continue;
                }
            }
        }
        if one_value && starts.is_empty() {
            return Ok(());
        }
    }
}

/// [`copy_token`] for a token that starts a value, with the tokens text formats give most
/// (numbers, strings, objects, arrays, booleans, null) dispatched here: one match on the
/// entry instead of a call and a second match. Writer errors get the token's span.
#[inline(always)]
fn copy_value_token<R: Reader + ?Sized>(
    reader: &mut R,
    writer: &mut PropertyWriter<'_>,
    entry: Entry,
) -> Result<()> {
    let written = match entry {
        // The writer asks the reader for the number in the type of its place.
        Entry::Number(_) => writer.write_number_from(reader),
        Entry::String => {
            let text = reader.read_str()?;
            writer.write_str(text)
        }
        Entry::MapRoot => {
            let len = reader.read_map_root()?;
            writer.write_map_root(len)
        }
        Entry::ArrayRoot => {
            let len = reader.read_array_root()?;
            writer.write_array_root(len)
        }
        Entry::Bool => {
            let value = reader.read_bool()?;
            writer.write_bool(value)
        }
        Entry::Null => {
            reader.read_null()?;
            writer.write_null()
        }
        _ => return copy_token(reader, writer, entry),
    };
    written.map_err(|error| error.or_span(reader.span()))
}

/// [`copy_value_token`] for container ends.
#[inline(always)]
fn copy_end_token<R: Reader + ?Sized>(
    reader: &mut R,
    writer: &mut PropertyWriter<'_>,
    entry: Entry,
) -> Result<()> {
    let written = match entry {
        Entry::MapEnd => {
            reader.read_map_end()?;
            writer.write_map_end()
        }
        Entry::ArrayEnd => {
            reader.read_array_end()?;
            writer.write_array_end()
        }
        _ => return copy_token(reader, writer, entry),
    };
    written.map_err(|error| error.or_span(reader.span()))
}

fn whole_container_span(error: Error, start: Option<usize>, end: Span) -> Error {
    match (error.span_hint(), start) {
        (SpanHint::EnclosingContainer, Some(start)) => error.with_span(Span::new(start, end.end)),
        _ => error,
    }
}

/// The type a plain `info` passes the value on to: the inside of an `Option` (unless the
/// value is null) or of a newtype struct.
fn transparent_inner(info: &'static TypeInfo, entry: Entry) -> Option<&'static TypeInfo> {
    match info.kind() {
        TypeKind::Option { some } if entry != Entry::Null => Some(some()),
        TypeKind::Struct(s) if s.is_newtype() => Some((s.fields[0].ty)()),
        _ => None,
    }
}

/// What the table does with one value.
enum Choice<'t> {
    /// The type and everything in it read plain: one tight loop.
    PlainSubtree,
    /// The first matching action.
    Action(&'t ReadAction),
    /// Nothing applies: `NoMatchingHandler`.
    Nothing,
}

/// The element type of a container of type `info` opened with `entry`, when it is the same
/// for every element (lists, arrays, sets), so the loop need not ask the writer each time.
fn element_type(info: &'static TypeInfo, entry: Entry) -> Option<&'static TypeInfo> {
    match (info.kind(), entry) {
        (
            TypeKind::List { item } | TypeKind::Array { item, .. } | TypeKind::Set { item },
            Entry::ArrayRoot | Entry::SetRoot,
        ) => Some(item()),
        _ => None,
    }
}

/// How much a run of the table loop reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Up to the end of the input, then finish the writer.
    Stream,
    /// One whole value.
    Value,
    /// One whole value, the first one in its plain shape whatever the table says.
    PlainValue,
}

/// The cached answers of a table for one type.
#[derive(Default)]
struct Cached<'t> {
    /// Which action applies for which input tokens, in order.
    actions: SmallVec<[(EntrySet, &'t ReadAction); 2]>,
    /// Whether this type and every type it reaches read plain whatever the input.
    plain_subtree: Option<bool>,
}

/// The state of one deserialize call: the table, the registry, user data and the per-type
/// cache of predicate answers. Handlers recurse through it.
pub struct ReadSession<'t> {
    table: &'t Deserializer,
    registry: &'t TypeRegistry,
    user: &'t mut dyn Any,
    cache: TypeIdMap<Cached<'t>>,
    /// The data path of the target of the current run (runs nest when handlers recurse).
    base: Path,
}

impl<'t> ReadSession<'t> {
    /// A session of `table` over `registry`, with `user` for the handlers, at the root path
    /// and with nothing cached yet.
    fn new(
        table: &'t Deserializer,
        registry: &'t TypeRegistry,
        user: &'t mut dyn Any,
    ) -> ReadSession<'t> {
        ReadSession {
            table,
            registry,
            user,
            cache: TypeIdMap::default(),
            base: Path::root(),
        }
    }
}

impl std::fmt::Debug for ReadSession<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadSession")
            .field("cached_types", &self.cache.len())
            .field("base", &self.base.to_string())
            .finish_non_exhaustive()
    }
}

/// What a custom deserialization handler sees.
///
/// The fields are public so a handler can borrow them separately (the reader and a part of
/// the target at once, to recurse).
pub struct ReadContext<'c, 't> {
    /// The input, positioned at the value (nothing of it read yet).
    pub reader: &'c mut dyn Lookahead,
    /// The place to fill; its type is `info`.
    pub target: &'c mut dyn Reflect,
    /// The type about to be written.
    pub info: &'static TypeInfo,
    /// The data path of the value, such as `$.items[2]`.
    pub path: &'c Path,
    /// The registry, user data, cache and recursion.
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

impl<'t> ReadContext<'_, 't> {
    /// The registry given to the call.
    #[must_use]
    pub fn registry(&self) -> &'t TypeRegistry {
        self.session.registry
    }

    /// The user data given to the call (`&mut ()` when none was given).
    pub fn user_data(&mut self) -> &mut dyn Any {
        self.session.user
    }

    /// A property writer over the target, for handlers that feed it tokens.
    pub fn property_writer(&mut self) -> PropertyWriter<'_> {
        self.session.table.writer(&mut *self.target)
    }

    /// An error about the current value: the code, the message and the span of the last
    /// token read. The table adds this value's data path and Rust type path.
    #[must_use]
    pub fn error(&self, code: ErrorCode, message: impl Into<String>) -> Error {
        Error::new(code, message).with_span(self.reader.span())
    }

    /// Reads the next whole value through the table into the part of the target `pick`
    /// chooses (a field, an element...); `segment` extends the data path for errors.
    ///
    /// # Errors
    /// Those of the value read; `WrongType` when `pick` finds no place.
    pub fn recurse(
        &mut self,
        segment: Option<PathSegment>,
        pick: impl FnOnce(&mut dyn Reflect) -> Option<&mut dyn Reflect>,
    ) -> Result<()> {
        let mut path = self.path.clone();
        match segment {
            Some(PathSegment::Key(key)) => path.push_key(key),
            Some(PathSegment::Index(index)) => path.push_index(index),
            None => {}
        }
        let Some(child) = pick(&mut *self.target) else {
            return Err(self.error(codes::WRONG_TYPE, "no place for this part of the value"));
        };
        self.session.read_value(self.reader, child, &path)
    }

    /// Reads the value in its plain shape, as if no rule matched it (its children still go
    /// through the table): for handlers that only look before or after.
    ///
    /// # Errors
    /// Those of the value read.
    pub fn read_plain(&mut self) -> Result<()> {
        let path = self.path.clone();
        self.session
            .run_nested(self.reader, self.target, &path, Run::PlainValue)
    }
}

impl<'t> ReadSession<'t> {
    /// The error for a key given twice in one object (`key`, at the reader's span), when the
    /// table checks duplicate keys ([`Deserializer::check_duplicate_keys`]).
    pub(crate) fn duplicate_key(&self, key: &str, span: Span, path: &Path) -> Option<Error> {
        let code = self.table.duplicate_keys?;
        let mut path = path.clone();
        path.push_key(key);
        Some(
            Error::new(code, format!("duplicate key {key:?} in an object"))
                .with_span(span)
                .with_path(path),
        )
    }

    /// The registry given to the call.
    #[must_use]
    pub fn registry(&self) -> &'t TypeRegistry {
        self.registry
    }

    /// The user data given to the call (`&mut ()` when none was given).
    pub fn user_data(&mut self) -> &mut dyn Any {
        self.user
    }

    /// Reads one whole value from `reader` into `target` through the table: the recursion
    /// of handlers for children. `path` is the data path of `target`.
    ///
    /// # Errors
    /// Reader, handler and [`PropertyWriter`] errors, with their full data path.
    pub fn read_value(
        &mut self,
        reader: &mut dyn Lookahead,
        target: &mut dyn Reflect,
        path: &Path,
    ) -> Result<()> {
        self.run_nested(reader, target, path, Run::Value)
    }

    fn run_nested(
        &mut self,
        mut reader: &mut dyn Lookahead,
        target: &mut dyn Reflect,
        path: &Path,
        run: Run,
    ) -> Result<()> {
        let outer = std::mem::replace(&mut self.base, path.clone());
        let mut writer = self.table.writer(target);
        let result = self.run(&mut reader, &mut writer, run);
        self.base = outer;
        result
    }

    fn cached(&mut self, info: &'static TypeInfo) -> &mut Cached<'t> {
        let table = self.table;
        let registry = self.registry;
        self.cache.entry(info.type_id()).or_insert_with(|| {
            let mut cached = Cached::default();
            for rule in &table.rules {
                if (rule.applies)(info, registry) {
                    cached.actions.push((rule.entries, &rule.action));
                    if rule.entries.is_all() {
                        return cached;
                    }
                }
            }
            if let Some(action) = table.by_uuid.get(&info.uuid()) {
                cached.actions.push((EntrySet::ALL, action));
            } else if let Some(action) = &table.by_kind[KindKey::of(info).index()] {
                cached.actions.push((EntrySet::ALL, action));
            }
            cached
        })
    }

    fn locally_plain(&mut self, info: &'static TypeInfo) -> bool {
        let cached = self.cached(info);
        matches!(cached.actions.as_slice(), [(entries, ReadAction::Plain)] if entries.is_all())
    }

    /// Whether `info` and every type it reaches read plain for any input.
    fn plain_subtree(&mut self, info: &'static TypeInfo) -> bool {
        if let Some(known) = self.cached(info).plain_subtree {
            return known;
        }
        let graph = plain_closure(info, |info| self.locally_plain(info));
        for (info, plain) in graph {
            self.cached(info).plain_subtree = Some(plain);
        }
        self.cached(info).plain_subtree.unwrap_or(false)
    }

    /// What to do with a value of type `info` starting with `entry`: one cache lookup once the
    /// type is known.
    fn choose(&mut self, info: &'static TypeInfo, entry: Entry) -> Choice<'t> {
        let cached = self.cached(info);
        if cached.plain_subtree.is_none() {
            self.plain_subtree(info);
            return self.choose(info, entry);
        }
        if cached.plain_subtree == Some(true) {
            return Choice::PlainSubtree;
        }
        match cached
            .actions
            .iter()
            .find(|(entries, _)| entries.contains(entry))
        {
            Some((_, action)) => Choice::Action(action),
            None => Choice::Nothing,
        }
    }

    /// Puts the base path of this run in front of an error the property writer raised.
    fn writer_error(&self, mut error: Error) -> Error {
        if !self.base.is_root() && error.path().is_some() {
            error.path_mut().prepend(self.base.segments());
        }
        error
    }

    fn absolute(&self, relative: &Path) -> Path {
        let mut path = relative.clone();
        path.prepend(self.base.segments());
        path
    }

    /// The table loop: tokens go to the property writer; each value is looked up in the
    /// table first, and values a custom handler claims go to it whole.
    fn run<L: TableReader>(
        &mut self,
        reader: &mut L,
        writer: &mut PropertyWriter<'_>,
        run: Run,
    ) -> Result<()> {
        let skip_dollar = self.table.skip_dollar_fields;
        let one_value = run != Run::Stream;
        let mut force_plain = run == Run::PlainValue;
        // The open containers: where each started (for errors about a whole object) and, for
        // lists and sets, their element type.
        let mut starts: SmallVec<[(usize, Option<&'static TypeInfo>); 16]> = SmallVec::new();
        loop {
            let entry = reader.peek()?;
            match entry {
                Entry::Ended => {
                    if one_value {
                        return Err(Error::unexpected("a value", entry).or_span(reader.span()));
                    }
                    return writer.finish().map_err(|e| self.writer_error(e));
                }
                Entry::Name => {
                    write_name_or_skip_dollar(reader, writer, skip_dollar)
                        .map_err(|e| self.writer_error(e))?;
                    continue;
                }
                _ if entry.is_container_end() => {
                    let start = starts.pop().map(|(start, _)| start);
                    copy_token(reader, writer, entry).map_err(|error| {
                        self.writer_error(whole_container_span(error, start, reader.span()))
                    })?;
                }
                Entry::OptionRoot => {
                    copy_token(reader, writer, entry).map_err(|e| self.writer_error(e))?;
                    starts.push((reader.span().start, None));
                    continue;
                }
                _ => {
                    let known = starts.last().and_then(|(_, element)| *element);
                    let Some(mut info) = known.or_else(|| writer.next_value_info()) else {
                        // No value may stand here: the writer explains why.
                        copy_token(reader, writer, entry).map_err(|e| self.writer_error(e))?;
                        continue;
                    };
                    let mut plain = std::mem::take(&mut force_plain);
                    loop {
                        let action = if plain {
                            &ReadAction::Plain
                        } else {
                            match self.choose(info, entry) {
                                Choice::PlainSubtree => {
                                    reader
                                        .copy_plain_value(writer, skip_dollar)
                                        .map_err(|e| self.writer_error(e))?;
                                    break;
                                }
                                Choice::Action(action) => action,
                                Choice::Nothing => {
                                    return Err(self.no_handler(reader, writer, info));
                                }
                            }
                        };
                        match action {
                            ReadAction::Custom(handler) => {
                                self.call(reader, writer, info, handler)?;
                                break;
                            }
                            ReadAction::Plain => {
                                // `Some` and newtypes are transparent: the table looks at the
                                // type inside too.
                                if let Some(inner) = transparent_inner(info, entry) {
                                    info = inner;
                                    plain = false;
                                    continue;
                                }
                                copy_token(reader, writer, entry)
                                    .map_err(|e| self.writer_error(e))?;
                                if entry.is_container_start() {
                                    starts.push((reader.span().start, element_type(info, entry)));
                                }
                                break;
                            }
                        }
                    }
                }
            }
            if one_value && starts.is_empty() {
                return Ok(());
            }
        }
    }

    /// Runs a custom handler on the next value.
    fn call<L: Lookahead>(
        &mut self,
        reader: &mut L,
        writer: &mut PropertyWriter<'_>,
        info: &'static TypeInfo,
        handler: &ReadHandler,
    ) -> Result<()> {
        let outcome = writer.write_value_with(info, |target, relative| {
            let path = self.absolute(relative);
            let result = handler(&mut ReadContext {
                reader: &mut *reader,
                target,
                info,
                path: &path,
                session: self,
            });
            // Errors of the handler get this value's place unless they already have one.
            Ok(result.map_err(|error| {
                let error = error.or_span(reader.span());
                if error.path().is_some() {
                    error
                } else {
                    error.with_path(path)
                }
            }))
        });
        match outcome {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) if error.type_path().is_none() => {
                Err(error.with_type_path(writer.type_path()))
            }
            Ok(Err(error)) => Err(error),
            Err(error) => Err(self.writer_error(error.or_span(reader.span()))),
        }
    }

    fn no_handler<L: Lookahead>(
        &self,
        reader: &mut L,
        writer: &mut PropertyWriter<'_>,
        info: &'static TypeInfo,
    ) -> Error {
        // The span of the value itself: read its first token (the call fails anyway).
        let span = match reader.peek() {
            Ok(entry) if Token::read(reader, entry).is_ok() => reader.span(),
            _ => reader.span(),
        };
        let outcome = writer.write_value_with(info, |_, relative| {
            let path = self.absolute(relative);
            Ok(Error::new(
                codes::NO_MATCHING_HANDLER,
                format!(
                    "no handler for {} ({}) at {path}",
                    info.name(),
                    info.kind().describe()
                ),
            )
            .with_path(path)
            .with_type_path(info.name()))
        });
        match outcome {
            Ok(error) => error.or_span(span),
            Err(error) => self.writer_error(error.or_span(span)),
        }
    }
}

/// Reads a field name and hands it to `writer`; with `skip_dollar`, a `$` name the struct does
/// not know is skipped together with its value instead of failing.
#[inline(always)]
fn write_name_or_skip_dollar<R: Reader + ?Sized>(
    reader: &mut R,
    writer: &mut PropertyWriter<'_>,
    skip_dollar: bool,
) -> Result<()> {
    let name = reader.read_name()?;
    match writer.write_name(name) {
        Ok(()) => Ok(()),
        Err(error)
            if skip_dollar && error.code() == codes::UNKNOWN_FIELD && name.starts_with('$') =>
        {
            reader.skip()
        }
        Err(error) => Err(error.or_span(reader.span())),
    }
}
