//! [`PropertyWriter`]: tokens written into a reflected value.
//!
//! The writer accepts what [`PropertyReader`](crate::PropertyReader) produces, and is lenient
//! where a format cannot say better: a `MapRoot` where a struct is expected, a `String` where
//! a `Name` is expected, a text number for any numeric field (parsed exactly and range
//! checked), an enum variant by its name as a string, `Null` for `None` and a plain value for
//! `Some`, an array for a set, a tuple or a fixed array (length checked), a `Name` as a map key
//! of any scalar key type (`"7"` for a `u32` key).
//!
//! Errors carry a code from [`codes`](crate::codes), the data path (`$.a[2].b`) and the Rust
//! type path (`Settings.distance: Distance`); [`pipe`](sluice_core::pipe) adds the source
//! span (the span of the whole object for a missing field).
//!
//! After an error the target may hold part of the input: the caller gets the error and must
//! not use the value as if it were complete. The one-line helpers of the `sluice` facade
//! write into a fresh value and drop it on error, so they never hand out a half-written value.

use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr::NonNull;

use sluice_core::error::excerpt;
use sluice_core::{
    EnumToken, Error, ErrorCode, Number, NumberHint, Path, Reader, Result, SpanHint, Writer,
    codes as core_codes,
};

use crate::codes;
use crate::info::{EnumInfo, FieldDefault, FieldInfo, StructStyle, VariantStyle};
use crate::{
    Enum, List, Map, Reflect, ReflectMut, ReflectRef, ScalarMut, ScalarRef, Struct, Tuple,
};

/// Who owns the fields of a struct-like frame.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Struct,
    Variant,
}

/// How a sequence frame reaches its elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SeqSource {
    List,
    Tuple,
    StructFields,
    VariantFields,
}

/// The typed view of a struct-like frame's container, taken once when the frame opens so
/// that each field costs one dynamic call, not two.
#[derive(Clone, Copy)]
enum FieldsView {
    Struct(NonNull<dyn Struct>),
    Variant(NonNull<dyn Enum>),
}

/// The typed view of a sequence frame's container (see [`FieldsView`]).
#[derive(Clone, Copy)]
enum SeqView {
    List(NonNull<dyn List>),
    Tuple(NonNull<dyn Tuple>),
    Fields(FieldsView),
}

enum Kind {
    Fields {
        owner: Owner,
        infos: &'static [FieldInfo],
        pending: Option<usize>,
        current: Option<usize>,
        seen: FieldSet,
        view: FieldsView,
    },
    Seq {
        source: SeqSource,
        index: usize,
        fixed: Option<usize>,
        view: SeqView,
    },
    Map {
        key: Box<dyn Reflect>,
        value: Box<dyn Reflect>,
        has_key: bool,
        count: usize,
        map: NonNull<dyn Map>,
    },
    Set {
        item: Box<dyn Reflect>,
        index: usize,
    },
    Option {
        filled: bool,
    },
    Pass {
        filled: bool,
    },
    Tag {
        stage: TagStage,
        style: VariantStyle,
        variant: &'static str,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TagStage {
    Name,
    Payload,
    End,
}

struct Frame {
    /// The container being filled; see the safety notes on [`PropertyWriter`].
    target: NonNull<dyn Reflect>,
    kind: Kind,
}

/// Writes tokens into a `&mut dyn Reflect` (its leniencies are listed in the book's reflection chapter).
///
/// ```
/// use sluice_core::{pipe, Value, ValueReader};
/// use sluice_reflect::PropertyWriter;
/// let input = Value::Array(vec![Value::from(1u64), Value::from(2u64)]);
/// let mut target: Vec<u16> = Vec::new();
/// pipe(&mut ValueReader::new(&input), &mut PropertyWriter::new(&mut target))?;
/// assert_eq!(target, [1, 2]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
//
// Safety design: the writer holds the only access to the target for `'a` (it keeps the
// `&'a mut` as a pointer). Each frame points at the container being filled, reached from its
// parent frame's container (or from a temporary the parent owns in a `Box`, which does not
// move). Only the top frame's container is changed; a frame above it is popped before its
// parent changes again, so no pointer is used after the place it points to moved (a `Vec`
// growing only moves elements whose frames are already gone).
pub struct PropertyWriter<'a> {
    root: NonNull<dyn Reflect>,
    root_written: bool,
    /// The code of the error for a struct field or map key given twice; `None`: the last
    /// one wins.
    duplicate_keys: Option<ErrorCode>,
    stack: Vec<Frame>,
    marker: PhantomData<&'a mut dyn Reflect>,
}

thread_local! {
    /// The frame stack of the last writer [recycled](PropertyWriter::recycle) on this
    /// thread, emptied: a writer made for each of many small values (the records of an
    /// NDJSON stream) takes it rather than allocating one of its own for its first
    /// container.
    static SPARE_STACK: Cell<Vec<Frame>> = const { Cell::new(Vec::new()) };
}

/// Stacks larger than this are freed rather than kept for the next writer.
const SPARE_STACK_MAX: usize = 64;

/// An emptied frame stack kept between writers by its owner (see
/// [`PropertyWriter::with_stack`]): it holds no frames, so it points into no target.
#[derive(Default)]
pub(crate) struct FrameStack(Vec<Frame>);

// SAFETY: the stack is always empty (see `into_stack`): it holds no pointer.
unsafe impl Send for FrameStack {}
// SAFETY: as above.
unsafe impl Sync for FrameStack {}

impl std::fmt::Debug for PropertyWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropertyWriter")
            .field("depth", &self.stack.len())
            .field("root_written", &self.root_written)
            .finish_non_exhaustive()
    }
}

/// The fields of a struct given so far: a bit per field index, the first 64 in a word of
/// their own (no allocation for nearly every struct).
#[derive(Default)]
struct FieldSet {
    low: u64,
    high: Vec<u64>,
}

impl FieldSet {
    /// Marks field `index` as given; false when it was given before.
    #[inline]
    fn insert(&mut self, index: usize) -> bool {
        if index < 64 {
            let bit = 1 << index;
            let fresh = self.low & bit == 0;
            self.low |= bit;
            return fresh;
        }
        let (word, bit) = ((index - 64) / 64, 1 << (index % 64));
        if self.high.len() <= word {
            self.high.resize(word + 1, 0);
        }
        let fresh = self.high[word] & bit == 0;
        self.high[word] |= bit;
        fresh
    }

    fn contains(&self, index: usize) -> bool {
        if index < 64 {
            return self.low & (1 << index) != 0;
        }
        self.high
            .as_slice()
            .get((index - 64) / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }

    /// How many fields were given.
    fn len(&self) -> usize {
        let high: u32 = self.high.iter().map(|word| word.count_ones()).sum();
        (self.low.count_ones() + high) as usize
    }
}

impl FieldsView {
    /// The field at `index`.
    ///
    /// # Safety
    /// The view must point at a live container that nothing else borrows now (the top frame's
    /// container, see the safety design of [`PropertyWriter`]).
    unsafe fn field_mut<'v>(self, index: usize) -> Option<&'v mut dyn Reflect> {
        // SAFETY: guaranteed by the caller.
        unsafe {
            match self {
                FieldsView::Struct(mut s) => s.as_mut().field_mut(index),
                FieldsView::Variant(mut e) => e.as_mut().field_mut(index),
            }
        }
    }

    /// The index of the field named `name` (or an alias); `guess` is tried first, since
    /// input fields usually come in declaration order.
    ///
    /// # Safety
    /// As [`field_mut`](Self::field_mut), for reading.
    unsafe fn field_index(
        self,
        infos: &'static [FieldInfo],
        name: &str,
        guess: usize,
    ) -> Option<usize> {
        // Field names and aliases are unique within a struct (the derive checks it), so a
        // match on the name alone is the answer `field_index` would give.
        if infos.get(guess).is_some_and(|f| same_name(f.name, name)) {
            return Some(guess);
        }
        match self {
            // SAFETY: guaranteed by the caller.
            FieldsView::Struct(s) => unsafe { s.as_ref() }.field_index(name),
            FieldsView::Variant(_) => infos.iter().position(|f| f.matches(name)),
        }
    }
}

/// Whether `a` and `b` are the same name. Names up to 16 bytes are compared with a few
/// loads in line: `==` calls `memcmp`, which costs more than the comparison for the short
/// names fields have, and this runs for every field read.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Two loads that overlap cover every length in their range.
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

/// The `N` bytes of `bytes` from `at` (which the caller keeps in bounds).
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut word = [0; N];
    word.copy_from_slice(&bytes[at..at + N]);
    word
}

fn field_mut_of(target: &mut dyn Reflect, owner: Owner, index: usize) -> Option<&mut dyn Reflect> {
    match (owner, target.reflect_mut()) {
        (Owner::Struct, ReflectMut::Struct(s)) => s.field_mut(index),
        (Owner::Variant, ReflectMut::Enum(e)) => e.field_mut(index),
        _ => None,
    }
}

/// Follows `Some` (for anything but null) and newtype structs to the place a value goes.
fn resolve(slot: &mut dyn Reflect, is_null: bool) -> &mut dyn Reflect {
    let mut current: *mut dyn Reflect = slot;
    loop {
        // SAFETY: `current` comes from `slot` (or a place inside it) and `slot`'s exclusive
        // borrow is held for the whole function; each step re-borrows the previous place only.
        let place = unsafe { &mut *current };
        let next: Option<*mut dyn Reflect> = match place.reflect_mut() {
            ReflectMut::Option(o) if !is_null => Some(o.get_or_insert_default()),
            ReflectMut::Struct(s) if s.is_newtype() => {
                s.field_mut(0).map(|f| f as *mut dyn Reflect)
            }
            _ => None,
        };
        match next {
            Some(inner) => current = inner,
            // SAFETY: as above; the view borrowed in the match has ended.
            None => return unsafe { &mut *current },
        }
    }
}

/// Like [`resolve`], and also gives the typed view of the place found, with one dynamic
/// call per step instead of two.
fn resolve_view(slot: &mut dyn Reflect, is_null: bool) -> (NonNull<dyn Reflect>, ReflectMut<'_>) {
    let mut current = NonNull::from(slot);
    loop {
        // SAFETY: as in `resolve`: `current` is `slot` or a place inside it, and `slot`'s
        // exclusive borrow is held for the whole function and by the view returned.
        let place = unsafe { &mut *current.as_ptr() };
        current = match place.reflect_mut() {
            ReflectMut::Option(o) if !is_null => NonNull::from(o.get_or_insert_default()),
            ReflectMut::Struct(s) if s.is_newtype() => match s.field_mut(0) {
                Some(field) => NonNull::from(field),
                None => return (current, ReflectMut::Struct(s)),
            },
            view => return (current, view),
        };
    }
}

/// The enum view of an enum place (looking through a `Box`).
fn enum_view(place: &mut dyn Reflect) -> Option<NonNull<dyn Enum>> {
    match place.reflect_mut() {
        ReflectMut::Enum(e) => Some(NonNull::from(e)),
        _ => None,
    }
}

fn describe_found(found: &str) -> String {
    found.to_owned()
}

impl<'a> PropertyWriter<'a> {
    /// A writer into `target`. Containers written into are replaced, not appended to.
    pub fn new(target: &'a mut dyn Reflect) -> PropertyWriter<'a> {
        let spare = SPARE_STACK.try_with(Cell::take).unwrap_or_default();
        PropertyWriter::with_stack(target, FrameStack(spare))
    }

    /// A writer into `target` that uses `stack` (an emptied stack: from
    /// [`into_stack`](Self::into_stack), or the thread's spare one) for its frames.
    pub(crate) fn with_stack(target: &'a mut dyn Reflect, stack: FrameStack) -> PropertyWriter<'a> {
        PropertyWriter {
            root: NonNull::from(target),
            root_written: false,
            duplicate_keys: None,
            stack: stack.0,
            marker: PhantomData,
        }
    }

    /// Ends the writer, giving back its frame stack, emptied, for a next writer's
    /// [`with_stack`](Self::with_stack).
    pub(crate) fn into_stack(mut self) -> FrameStack {
        FrameStack(self.take_emptied_stack().unwrap_or_default())
    }

    /// The writer's frame stack, emptied, when it is worth keeping: `None` for one never
    /// grown or grown past [`SPARE_STACK_MAX`], which is freed.
    #[inline]
    fn take_emptied_stack(&mut self) -> Option<Vec<Frame>> {
        let mut stack = std::mem::take(&mut self.stack);
        if stack.capacity() == 0 || stack.capacity() > SPARE_STACK_MAX {
            return None;
        }
        // Emptied first: its frames point into the target this writer is done with.
        stack.clear();
        Some(stack)
    }

    /// Ends the writer, keeping its frame stack, emptied, for the next writer made on this
    /// thread. Not a `Drop`: that would make every writer hold its target's borrow to the
    /// end of its scope.
    pub(crate) fn recycle(mut self) {
        if let Some(stack) = self.take_emptied_stack() {
            let _ = SPARE_STACK.try_with(|spare| spare.set(stack));
        }
    }

    /// Makes a struct field or a map key given twice in one object an error with `code`
    /// (the span is the second key's), or with `None` lets the last one win (the default).
    ///
    /// For readers that do not check keys themselves: a `JsonReader` whose options let the
    /// last key win checks nothing, which reads faster than having it track every key of every
    /// object, while a typed target checks only what it must (a bit per struct field; a
    /// lookup per map key, for maps that answer [`Map::contains_key`]). A field given once by
    /// its name and once by an alias counts as given twice.
    ///
    /// ```
    /// use sluice_core::{pipe, ErrorCode, Value, ValueReader};
    /// use sluice_reflect::{PropertyWriter, Reflect};
    /// #[derive(Reflect, Default)]
    /// struct Point { x: i32, y: i32 }
    /// const TWICE: ErrorCode = ErrorCode::new("example", "Twice");
    /// let input = Value::Map(vec![
    ///     (Value::from("x"), Value::from(1u64)),
    ///     (Value::from("x"), Value::from(2u64)),
    /// ]);
    /// let mut point = Point::default();
    /// let mut writer = PropertyWriter::new(&mut point);
    /// writer.check_duplicate_keys(Some(TWICE));
    /// let error = pipe(&mut ValueReader::new(&input), &mut writer).unwrap_err();
    /// assert_eq!(error.code(), TWICE);
    /// ```
    pub fn check_duplicate_keys(&mut self, code: Option<ErrorCode>) -> &mut Self {
        self.duplicate_keys = code;
        self
    }

    /// Whether a whole value has been written.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.root_written && self.stack.is_empty()
    }

    /// The data path of the value being written, such as `$.items[2].name`.
    #[must_use]
    pub fn path(&self) -> Path {
        let mut path = Path::root();
        for frame in &self.stack {
            match &frame.kind {
                Kind::Fields { infos, current, .. } => {
                    if let Some(info) = current.and_then(|i| infos.get(i)) {
                        path.push_key(info.name);
                    }
                }
                Kind::Seq { index, .. } => path.push_index(index.saturating_sub(1)),
                Kind::Set { index, .. } => path.push_index(*index),
                Kind::Map {
                    key,
                    has_key,
                    count,
                    ..
                } => {
                    if *has_key {
                        path.push_key(key_text(key.as_ref()));
                    } else {
                        path.push_index(*count);
                    }
                }
                Kind::Tag { variant, stage, .. } => {
                    if *stage != TagStage::Name {
                        path.push_key(*variant);
                    }
                }
                Kind::Option { .. } | Kind::Pass { .. } => {}
            }
        }
        path
    }

    /// The Rust type path of the value being written, such as `Settings.distance: Distance`.
    #[must_use]
    pub fn type_path(&self) -> String {
        for frame in self.stack.iter().rev() {
            if let Kind::Fields {
                infos,
                current: Some(index),
                ..
            } = &frame.kind
                && let Some(info) = infos.get(*index)
            {
                // SAFETY: frames point at live places (see the type's safety design); this
                // only reads the type info.
                let owner = own_info(unsafe { frame.target.as_ref() });
                return format!("{}.{}: {}", owner.name(), info.name, (info.ty)().name());
            }
        }
        // SAFETY: the root is valid for 'a; read only.
        own_info(unsafe { self.root.as_ref() }).name().to_owned()
    }

    /// Adds the data path and type path to an error raised here.
    fn locate(&self, error: Error) -> Error {
        let path = self.path();
        let type_path = self.type_path();
        error.with_path(path).with_type_path(type_path)
    }

    fn wrong_type(&self, place: &dyn Reflect, found: &str) -> Error {
        let info = own_info(place);
        self.locate(Error::new(
            codes::WRONG_TYPE,
            format!(
                "expected {} ({}), found {}",
                info.name(),
                info.kind().describe(),
                describe_found(found)
            ),
        ))
    }

    /// The place the next value goes to. The common places (the field whose name came last,
    /// the next element of a list or a tuple) are found here; the rest in `slot_general`.
    #[inline(always)]
    fn slot(&mut self) -> Result<NonNull<dyn Reflect>> {
        let Some(frame) = self.stack.last_mut() else {
            return self.slot_general();
        };
        let place = match &mut frame.kind {
            Kind::Fields {
                pending,
                current,
                view,
                ..
            } if pending.is_some() => {
                let index = pending.take().unwrap_or_default();
                *current = Some(index);
                // SAFETY: the view is of the top frame's container (see the type's safety
                // design).
                unsafe { view.field_mut(index) }
            }
            Kind::Seq {
                index,
                fixed: None,
                view: SeqView::List(list),
                ..
            } => {
                *index += 1;
                // SAFETY: as above.
                unsafe { list.as_mut() }.push_default()
            }
            Kind::Seq {
                index,
                fixed: Some(len),
                view: SeqView::Tuple(tuple),
                ..
            } if *index < *len => {
                let at = *index;
                *index += 1;
                // SAFETY: as above.
                unsafe { tuple.as_mut() }.get_mut(at)
            }
            _ => return self.slot_general(),
        };
        match place {
            Some(place) => Ok(NonNull::from(place)),
            None => Err(self.structure_error("no place for this value")),
        }
    }

    /// [`slot`](Self::slot) for every place.
    #[inline(never)]
    fn slot_general(&mut self) -> Result<NonNull<dyn Reflect>> {
        let Some(frame) = self.stack.last_mut() else {
            if self.root_written {
                return Err(Error::new(
                    core_codes::INVALID_STRUCTURE,
                    "a second value after the complete value",
                ));
            }
            self.root_written = true;
            return Ok(self.root);
        };
        let mut target = frame.target;
        let place: Option<&mut dyn Reflect> = match &mut frame.kind {
            Kind::Fields {
                pending,
                current,
                view,
                ..
            } => match pending.take() {
                Some(index) => {
                    *current = Some(index);
                    // SAFETY: the view is of the top frame's container (see above).
                    unsafe { view.field_mut(index) }
                }
                None => return Err(self.structure_error("expected a field name before a value")),
            },
            Kind::Seq {
                source,
                index,
                fixed,
                view,
            } => {
                debug_assert!(matches!(
                    (*source, *view),
                    (SeqSource::List, SeqView::List(_))
                        | (SeqSource::Tuple, SeqView::Tuple(_))
                        | (
                            SeqSource::StructFields,
                            SeqView::Fields(FieldsView::Struct(_))
                        )
                        | (
                            SeqSource::VariantFields,
                            SeqView::Fields(FieldsView::Variant(_))
                        )
                ));
                let at = *index;
                if let Some(len) = *fixed
                    && at >= len
                {
                    return Err(self.too_many_elements(len));
                }
                *index += 1;
                // SAFETY: the views are of the top frame's container (see above).
                unsafe {
                    match *view {
                        SeqView::List(mut l) if fixed.is_none() => l.as_mut().push_default(),
                        SeqView::List(mut l) => l.as_mut().get_mut(at),
                        SeqView::Tuple(mut t) => t.as_mut().get_mut(at),
                        SeqView::Fields(f) => f.field_mut(at),
                    }
                }
            }
            Kind::Map {
                key,
                value,
                has_key,
                ..
            } => {
                if *has_key {
                    Some(value.as_mut())
                } else {
                    Some(key.as_mut())
                }
            }
            Kind::Set { item, .. } => Some(item.as_mut()),
            Kind::Option { filled } => {
                if *filled {
                    return Err(self.structure_error("an option holds one value"));
                }
                *filled = true;
                // SAFETY: the top frame's container is live and nothing else borrows it now.
                match unsafe { target.as_mut() }.reflect_mut() {
                    ReflectMut::Option(o) => Some(o.get_or_insert_default()),
                    _ => None,
                }
            }
            Kind::Pass { filled } => {
                if *filled {
                    return Err(self.structure_error("an option holds one value"));
                }
                *filled = true;
                // SAFETY: as above.
                Some(unsafe { target.as_mut() })
            }
            Kind::Tag { stage, .. } => {
                if *stage != TagStage::Payload {
                    return Err(self.structure_error(
                        "expected the variant name as the only key of an enum object",
                    ));
                }
                *stage = TagStage::End;
                // SAFETY: as above.
                match unsafe { target.as_mut() }.reflect_mut() {
                    ReflectMut::Enum(e) => e.field_mut(0),
                    _ => None,
                }
            }
        };
        match place {
            Some(place) => Ok(NonNull::from(place)),
            None => Err(self.structure_error("no place for this value")),
        }
    }

    /// An `INVALID_STRUCTURE` error at the current place (kept out of the hot paths).
    #[cold]
    #[inline(never)]
    fn structure_error(&self, message: &'static str) -> Error {
        self.locate(Error::new(core_codes::INVALID_STRUCTURE, message))
    }

    #[cold]
    #[inline(never)]
    fn unknown_field(&self, infos: &'static [FieldInfo], name: &str) -> Error {
        let struct_name = self.stack.last().map_or("", |frame| {
            // SAFETY: the top frame's container is live; read only.
            own_info(unsafe { frame.target.as_ref() }).name()
        });
        let known = crate::info::join_names(infos.iter().map(|f| f.name));
        let message = format!(
            "unknown field `{}` in {struct_name} (known fields: {known})",
            excerpt(name)
        );
        let mut error = self.locate(Error::new(codes::UNKNOWN_FIELD, message));
        error.path_mut().push_key(name);
        error
    }

    /// A key given twice in one object.
    #[cold]
    #[inline(never)]
    fn duplicate_key(&self, code: ErrorCode, key: &str) -> Error {
        // The path already ends with the key (the current field, or the map's key).
        self.locate(Error::new(
            code,
            format!("duplicate key {key:?} in an object"),
        ))
    }

    #[cold]
    #[inline(never)]
    fn too_many_elements(&self, len: usize) -> Error {
        let message = format!("too many elements: expected {len}");
        self.locate(Error::new(codes::LENGTH_MISMATCH, message))
    }

    /// Called after a whole value has been written into the top frame's current place: only
    /// maps and sets have something to do then.
    #[inline]
    fn value_done(&mut self) -> Result<()> {
        match self.stack.last() {
            Some(Frame {
                kind: Kind::Map { .. } | Kind::Set { .. },
                ..
            }) => self.collection_value_done(),
            _ => Ok(()),
        }
    }

    /// [`value_done`](Self::value_done) for a map (a key or value complete) or a set.
    #[inline(never)]
    fn collection_value_done(&mut self) -> Result<()> {
        let Some(frame) = self.stack.last_mut() else {
            return Ok(());
        };
        let ok = match &mut frame.kind {
            Kind::Map {
                key,
                value,
                has_key,
                count,
                map,
            } => {
                if *has_key {
                    *has_key = false;
                    *count += 1;
                    // SAFETY: the top frame's container (viewed as a map) is live; the
                    // temporaries are owned by this frame and no child frame points into
                    // them any more.
                    unsafe { map.as_mut() }.insert_from(key.as_mut(), value.as_mut())
                } else {
                    *has_key = true;
                    if let Some(code) = self.duplicate_keys
                        // SAFETY: as above (read only); the key temporary is complete and no
                        // frame points into it any more.
                        && unsafe { map.as_ref() }.contains_key(key.as_ref())
                    {
                        let text = key_text(key.as_ref());
                        return Err(self.duplicate_key(code, &text));
                    }
                    true
                }
            }
            Kind::Set { item, index } => {
                *index += 1;
                // SAFETY: as above.
                match unsafe { frame.target.as_mut() }.reflect_mut() {
                    ReflectMut::Set(s) => s.insert_from(item.as_mut()),
                    _ => false,
                }
            }
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(self.locate(Error::new(
                core_codes::INVALID_STRUCTURE,
                "could not insert the value",
            )))
        }
    }

    /// Writes a scalar-like token into the next place.
    fn scalar(
        &mut self,
        is_null: bool,
        apply: impl FnOnce(&mut dyn Reflect) -> Result<(), ScalarError>,
    ) -> Result<()> {
        let slot = self.slot()?;
        self.scalar_at(slot, is_null, apply)
    }

    /// Writes a scalar-like token into `slot`, just returned by [`slot`](Self::slot).
    fn scalar_at(
        &mut self,
        mut slot: NonNull<dyn Reflect>,
        is_null: bool,
        apply: impl FnOnce(&mut dyn Reflect) -> Result<(), ScalarError>,
    ) -> Result<()> {
        // SAFETY: `slot` was just reached from the top frame (or the root) and is the only
        // place being changed.
        let place = resolve(unsafe { slot.as_mut() }, is_null);
        match apply(place) {
            Ok(()) => self.value_done(),
            Err(ScalarError::WrongType(found)) => {
                // SAFETY: as above.
                let place = resolve(unsafe { slot.as_mut() }, is_null);
                Err(self.wrong_type(place, found))
            }
            Err(ScalarError::Other(error)) => Err(self.locate(error)),
        }
    }

    fn push(&mut self, target: NonNull<dyn Reflect>, kind: Kind) {
        self.stack.push(Frame { target, kind });
    }

    /// Opens a map-shaped value (`MapRoot` or `StructRoot`).
    fn open_map(&mut self, found: &'static str, len: Option<usize>) -> Result<()> {
        if let Some(Frame {
            target,
            kind:
                Kind::Tag {
                    stage: stage @ TagStage::Payload,
                    style: VariantStyle::Struct,
                    ..
                },
        }) = self.stack.last_mut()
        {
            *stage = TagStage::End;
            let target = *target;
            // SAFETY: the enum of the top frame is live and nothing else borrows it now.
            let Some(view) = enum_view(unsafe { &mut *target.as_ptr() }) else {
                return Err(self.structure_error("not an enum"));
            };
            // SAFETY: as above.
            let fields = variant_fields(unsafe { target.as_ref() });
            self.push(
                target,
                Kind::Fields {
                    owner: Owner::Variant,
                    infos: fields,
                    pending: None,
                    current: None,
                    seen: FieldSet::default(),
                    view: FieldsView::Variant(view),
                },
            );
            return Ok(());
        }
        let mut slot = self.slot()?;
        // SAFETY: see `scalar`.
        let (place_ptr, view) = resolve_view(unsafe { slot.as_mut() }, false);
        let kind = match view {
            ReflectMut::Struct(s) => {
                let info = s.struct_info();
                match info.as_struct() {
                    Some(info) if info.style == StructStyle::Named => Some(Kind::Fields {
                        owner: Owner::Struct,
                        infos: info.fields,
                        pending: None,
                        current: None,
                        seen: FieldSet::default(),
                        view: FieldsView::Struct(NonNull::from(s)),
                    }),
                    _ => None,
                }
            }
            ReflectMut::Map(m) => {
                m.clear();
                let _ = len;
                Some(Kind::Map {
                    key: m.new_key(),
                    value: m.new_value(),
                    has_key: false,
                    count: 0,
                    map: NonNull::from(m),
                })
            }
            ReflectMut::Enum(e) if e.bits().is_none() => {
                let info = e.enum_info();
                match info.as_enum() {
                    Some(enum_info) if !enum_info.is_unit_only() => Some(Kind::Tag {
                        stage: TagStage::Name,
                        style: VariantStyle::Unit,
                        variant: "",
                    }),
                    _ => None,
                }
            }
            _ => None,
        };
        match kind {
            Some(kind) => {
                self.push(place_ptr, kind);
                Ok(())
            }
            // SAFETY: the place is live; the view borrowed above has ended.
            None => Err(self.wrong_type(unsafe { place_ptr.as_ref() }, found)),
        }
    }

    /// Opens an array-shaped value (`ArrayRoot` or `SetRoot`). The element fast path is
    /// inlined into the caller; the rest is out of line.
    #[inline]
    fn open_seq(&mut self, found: &'static str, len: Option<usize>) -> Result<()> {
        match self.open_seq_in_list() {
            Some(Ok(())) => Ok(()),
            Some(Err(item)) => self.open_seq_general(found, len, Some(item)),
            None => self.open_seq_general(found, len, None),
        }
    }

    /// [`open_seq`](Self::open_seq) for every place; `item` is the element just appended to
    /// the top frame's list, if any.
    #[inline(never)]
    fn open_seq_general(
        &mut self,
        found: &'static str,
        len: Option<usize>,
        item: Option<NonNull<dyn Reflect>>,
    ) -> Result<()> {
        if let Some(Frame {
            target,
            kind:
                Kind::Tag {
                    stage: stage @ TagStage::Payload,
                    style: VariantStyle::Tuple,
                    ..
                },
        }) = self.stack.last_mut()
        {
            *stage = TagStage::End;
            let target = *target;
            // SAFETY: the enum of the top frame is live and nothing else borrows it now.
            let Some(view) = enum_view(unsafe { &mut *target.as_ptr() }) else {
                return Err(self.structure_error("not an enum"));
            };
            // SAFETY: as above.
            let fields = variant_fields(unsafe { target.as_ref() });
            self.push(
                target,
                Kind::Seq {
                    source: SeqSource::VariantFields,
                    index: 0,
                    fixed: Some(fields.len()),
                    view: SeqView::Fields(FieldsView::Variant(view)),
                },
            );
            return Ok(());
        }
        let mut slot = match item {
            Some(item) => item,
            None => self.slot()?,
        };
        // SAFETY: see `scalar`.
        let (place_ptr, view) = resolve_view(unsafe { slot.as_mut() }, false);
        let kind = match view {
            ReflectMut::List(l) => {
                let fixed = l.fixed_len();
                if fixed.is_none() {
                    l.clear();
                    if let Some(len) = len {
                        l.reserve(len);
                    }
                }
                Some(Kind::Seq {
                    source: SeqSource::List,
                    index: 0,
                    fixed,
                    view: SeqView::List(NonNull::from(l)),
                })
            }
            ReflectMut::Tuple(t) => Some(Kind::Seq {
                source: SeqSource::Tuple,
                index: 0,
                fixed: Some(t.len()),
                view: SeqView::Tuple(NonNull::from(t)),
            }),
            ReflectMut::Set(s) => {
                s.clear();
                Some(Kind::Set {
                    item: s.new_item(),
                    index: 0,
                })
            }
            ReflectMut::Struct(s) => {
                let count = s.field_count();
                let info = s.struct_info();
                match info.as_struct() {
                    Some(info) if info.style == StructStyle::Tuple => Some(Kind::Seq {
                        source: SeqSource::StructFields,
                        index: 0,
                        fixed: Some(count),
                        view: SeqView::Fields(FieldsView::Struct(NonNull::from(s))),
                    }),
                    _ => None,
                }
            }
            _ => None,
        };
        match kind {
            Some(kind) => {
                self.push(place_ptr, kind);
                Ok(())
            }
            // SAFETY: the place is live; the view borrowed above has ended.
            None => Err(self.wrong_type(unsafe { place_ptr.as_ref() }, found)),
        }
    }

    /// The common case of [`open_seq`](Self::open_seq): a fixed-size tuple or array as the
    /// next element of a growable list (a coordinate pair in a geometry). The element is
    /// appended and its frame pushed with one view lookup; `Some(Ok(()))` when done,
    /// `Some(Err(item))` with the appended element when it is of another kind (the general
    /// path goes on with it), `None` when the top frame is not a growable list.
    #[inline(always)]
    fn open_seq_in_list(&mut self) -> Option<Result<(), NonNull<dyn Reflect>>> {
        let Some(Frame {
            kind:
                Kind::Seq {
                    index,
                    fixed: None,
                    view: SeqView::List(list),
                    ..
                },
            ..
        }) = self.stack.last_mut()
        else {
            return None;
        };
        let mut list = *list;
        // SAFETY: the view is of the top frame's container (see the type's safety design);
        // the element appended is live until the frame pushed for it is popped.
        let item = unsafe { list.as_mut() }.push_default()?;
        *index += 1;
        let item_ptr = NonNull::from(&mut *item);
        let kind = match item.reflect_mut() {
            ReflectMut::Tuple(t) => Kind::Seq {
                source: SeqSource::Tuple,
                index: 0,
                fixed: Some(t.len()),
                view: SeqView::Tuple(NonNull::from(t)),
            },
            ReflectMut::List(l) => match l.fixed_len() {
                fixed @ Some(_) => Kind::Seq {
                    source: SeqSource::List,
                    index: 0,
                    fixed,
                    view: SeqView::List(NonNull::from(l)),
                },
                None => return Some(Err(item_ptr)),
            },
            _ => return Some(Err(item_ptr)),
        };
        self.push(item_ptr, kind);
        Some(Ok(()))
    }

    /// Closes the top frame with `found` (an end token).
    #[inline]
    fn close(&mut self, found: &'static str, map_like: bool) -> Result<()> {
        // The common case first, inlined into the caller (every coordinate pair of a
        // geometry): a sequence that got all its elements.
        if !map_like
            && let Some(Frame {
                kind: Kind::Seq { index, fixed, .. },
                ..
            }) = self.stack.last()
            && fixed.is_none_or(|len| len == *index)
        {
            // A sequence frame owns nothing (pointers and counts): forgetting it skips the
            // drop glue that would look at its kind again.
            if let Some(frame) = self.stack.pop() {
                std::mem::forget(frame);
            }
            return self.value_done();
        }
        self.close_general(found, map_like)
    }

    /// [`close`](Self::close) for every frame.
    #[inline(never)]
    fn close_general(&mut self, found: &'static str, map_like: bool) -> Result<()> {
        let Some(frame) = self.stack.last() else {
            return Err(Error::new(
                core_codes::INVALID_STRUCTURE,
                format!("{found} without an open container"),
            ));
        };
        let fits = match &frame.kind {
            Kind::Fields { .. } | Kind::Map { .. } => map_like,
            Kind::Tag { stage, .. } => map_like && *stage == TagStage::End,
            Kind::Seq { .. } | Kind::Set { .. } => !map_like,
            Kind::Option { .. } | Kind::Pass { .. } => false,
        };
        if !fits {
            return Err(self.locate(Error::new(
                core_codes::INVALID_STRUCTURE,
                format!("{found} does not close the open container"),
            )));
        }
        match &frame.kind {
            Kind::Fields { .. } => self.check_fields()?,
            Kind::Seq {
                index,
                fixed: Some(len),
                ..
            } if index != len => {
                let message = format!("expected {len} elements, found {index}");
                return Err(self.locate(Error::new(codes::LENGTH_MISMATCH, message)));
            }
            _ => {}
        }
        self.stack.pop();
        self.value_done()
    }

    /// At the end of a struct: defaults for absent optional fields, else `MissingField`.
    fn check_fields(&mut self) -> Result<()> {
        let Some(Frame {
            target,
            kind:
                Kind::Fields {
                    owner,
                    infos,
                    seen,
                    current,
                    ..
                },
        }) = self.stack.last_mut()
        else {
            return Ok(());
        };
        // The common case: every field was given.
        if seen.len() == infos.len() {
            return Ok(());
        }
        let mut missing: Vec<&'static str> = Vec::new();
        // SAFETY: the top frame's container is live and no child frame exists.
        let target = unsafe { target.as_mut() };
        for (index, info) in infos.iter().enumerate() {
            if seen.contains(index) {
                continue;
            }
            let defaulted = match info.default {
                FieldDefault::Default => match (*owner, target.reflect_mut()) {
                    (Owner::Struct, ReflectMut::Struct(s)) => s.set_field_default(index),
                    _ => true,
                },
                FieldDefault::Required => {
                    match field_mut_of(target, *owner, index).map(|f| f.reflect_mut()) {
                        Some(ReflectMut::Option(o)) => {
                            o.set_none();
                            true
                        }
                        _ => false,
                    }
                }
            };
            if !defaulted {
                missing.push(info.name);
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        *current = None;
        let owner_name = own_info(target).name();
        let message = if missing.len() == 1 {
            format!("missing field `{}` in {owner_name}", missing[0])
        } else {
            format!(
                "missing fields {} in {owner_name}",
                crate::info::join_names(missing.iter().copied())
            )
        };
        Err(self
            .locate(Error::new(codes::MISSING_FIELD, message))
            .with_span_hint(SpanHint::EnclosingContainer))
    }
}

fn variant_fields(value: &dyn Reflect) -> &'static [FieldInfo] {
    let ReflectRef::Enum(e) = value.reflect_ref() else {
        return &[];
    };
    let Some(info) = e.enum_info().as_enum() else {
        return &[];
    };
    info.variants
        .get(e.variant_index())
        .map_or(&[], |v| v.fields)
}

fn key_text(key: &dyn Reflect) -> String {
    match key.reflect_ref() {
        ReflectRef::Scalar(ScalarRef::Str(s)) => s.to_owned(),
        ReflectRef::Scalar(s) => scalar_text(s),
        _ => String::from("<key>"),
    }
}

fn scalar_text(s: ScalarRef<'_>) -> String {
    match s {
        ScalarRef::Bool(v) => v.to_string(),
        ScalarRef::I8(v) => v.to_string(),
        ScalarRef::I16(v) => v.to_string(),
        ScalarRef::I32(v) => v.to_string(),
        ScalarRef::I64(v) => v.to_string(),
        ScalarRef::I128(v) => v.to_string(),
        ScalarRef::U8(v) => v.to_string(),
        ScalarRef::U16(v) => v.to_string(),
        ScalarRef::U32(v) => v.to_string(),
        ScalarRef::U64(v) => v.to_string(),
        ScalarRef::U128(v) => v.to_string(),
        ScalarRef::F32(v) => v.to_string(),
        ScalarRef::F64(v) => v.to_string(),
        ScalarRef::Char(v) => v.to_string(),
        ScalarRef::Str(v) => v.to_owned(),
        ScalarRef::Uuid(v) => v.to_string(),
    }
}

/// Why a scalar could not be written.
enum ScalarError {
    /// The place has another type; the text says what was found.
    WrongType(&'static str),
    /// A specific error (number out of range, unknown enum name...).
    Other(Error),
}

impl From<Error> for ScalarError {
    fn from(error: Error) -> ScalarError {
        ScalarError::Other(error)
    }
}

/// Sets a numeric scalar from number text in the common shapes, without the general
/// conversion; false when the general path must decide (other syntax, out of range...).
#[inline]
fn set_number_text(scalar: &mut ScalarMut<'_>, text: &str) -> bool {
    macro_rules! fits {
        ($place:expr, $parse:ident) => {
            match crate::num::$parse(text).and_then(|v| v.try_into().ok()) {
                Some(value) => {
                    **$place = value;
                    true
                }
                None => false,
            }
        };
    }
    match scalar {
        ScalarMut::F64(p) => match crate::num::parse_f64(text) {
            Some(value) => {
                **p = value;
                true
            }
            None => false,
        },
        ScalarMut::U8(p) => fits!(p, parse_u64),
        ScalarMut::U16(p) => fits!(p, parse_u64),
        ScalarMut::U32(p) => fits!(p, parse_u64),
        ScalarMut::U64(p) => fits!(p, parse_u64),
        ScalarMut::I8(p) => fits!(p, parse_i64),
        ScalarMut::I16(p) => fits!(p, parse_i64),
        ScalarMut::I32(p) => fits!(p, parse_i64),
        ScalarMut::I64(p) => fits!(p, parse_i64),
        _ => false,
    }
}

/// Sets a numeric scalar; `None` when the scalar is not numeric.
#[inline]
fn set_number(mut scalar: ScalarMut<'_>, number: Number<'_>) -> Option<Result<()>> {
    if let Number::Text(text, _) = number
        && set_number_text(&mut scalar, text)
    {
        return Some(Ok(()));
    }
    let result = match scalar {
        ScalarMut::I8(p) => number.to_i8().map(|v| *p = v),
        ScalarMut::I16(p) => number.to_i16().map(|v| *p = v),
        ScalarMut::I32(p) => number.to_i32().map(|v| *p = v),
        ScalarMut::I64(p) => number.to_i64().map(|v| *p = v),
        ScalarMut::I128(p) => number.to_i128().map(|v| *p = v),
        ScalarMut::U8(p) => number.to_u8().map(|v| *p = v),
        ScalarMut::U16(p) => number.to_u16().map(|v| *p = v),
        ScalarMut::U32(p) => number.to_u32().map(|v| *p = v),
        ScalarMut::U64(p) => number.to_u64().map(|v| *p = v),
        ScalarMut::U128(p) => number.to_u128().map(|v| *p = v),
        ScalarMut::F32(p) => number.to_f32().map(|v| *p = v),
        ScalarMut::F64(p) => number.to_f64().map(|v| *p = v),
        _ => return None,
    };
    Some(result)
}

fn write_number_into(place: &mut dyn Reflect, number: Number<'_>) -> Result<(), ScalarError> {
    match place.reflect_mut() {
        ReflectMut::Scalar(scalar) => match set_number(scalar, number) {
            Some(result) => result?,
            None => return Err(ScalarError::WrongType("a number")),
        },
        ReflectMut::Enum(e) => {
            let value = number.to_i64()?;
            if !e.set_bits(value) {
                let info = e.enum_info();
                let Some(enum_info) = info.as_enum() else {
                    return Err(ScalarError::WrongType("a number"));
                };
                let index = enum_info
                    .variant_by_discriminant(value)
                    .filter(|&i| enum_info.variants[i].style == VariantStyle::Unit)
                    .ok_or_else(|| enum_not_found(info.name(), enum_info, &value.to_string()))?;
                set_variant(place, index);
            }
        }
        _ => return Err(ScalarError::WrongType("a number")),
    }
    Ok(())
}

/// The info of the value at `place`, looking through a `Box` to the struct or enum inside.
fn own_info(place: &dyn Reflect) -> &'static crate::TypeInfo {
    match place.reflect_ref() {
        ReflectRef::Enum(e) => e.enum_info(),
        ReflectRef::Struct(s) => s.struct_info(),
        _ => place.type_info(),
    }
}

fn set_variant(place: &mut dyn Reflect, index: usize) {
    if let ReflectMut::Enum(e) = place.reflect_mut() {
        e.set_variant_index(index);
    }
}

fn enum_not_found(type_name: &str, info: &EnumInfo, found: &str) -> Error {
    Error::new(
        codes::ENUM_NAME_NOT_FOUND,
        format!(
            "no variant named {found:?} in enum {type_name} (expected {})",
            info.variant_names()
        ),
    )
}

/// Sets an enum (plain or flags) from a variant name; flags also take `A | B`.
fn write_enum_name(place: &mut dyn Reflect, name: &str) -> Result<(), ScalarError> {
    let info = own_info(place);
    let Some(enum_info) = info.as_enum() else {
        return Err(ScalarError::WrongType("a String"));
    };
    if enum_info.flags && enum_info.flags_of.is_some() {
        let mut bits = 0;
        for part in name.split('|').map(str::trim).filter(|p| !p.is_empty()) {
            let index = enum_info
                .variant_index(part)
                .ok_or_else(|| enum_not_found(info.name(), enum_info, part))?;
            bits |= enum_info.variants[index].discriminant;
        }
        if let ReflectMut::Enum(e) = place.reflect_mut() {
            e.set_bits(bits);
        }
        return Ok(());
    }
    let index = enum_info
        .variant_index(name)
        .ok_or_else(|| enum_not_found(info.name(), enum_info, name))?;
    if enum_info.variants[index].style != VariantStyle::Unit {
        return Err(ScalarError::Other(Error::new(
            codes::WRONG_TYPE,
            format!(
                "variant {name} of {} carries data: expected {{\"{name}\": ...}}",
                info.name()
            ),
        )));
    }
    set_variant(place, index);
    Ok(())
}

fn write_str_into(place: &mut dyn Reflect, text: &str) -> Result<(), ScalarError> {
    match place.reflect_mut() {
        ReflectMut::Scalar(scalar) => match scalar {
            ScalarMut::String(p) => {
                p.clear();
                p.push_str(text);
            }
            ScalarMut::BoxStr(p) => *p = Box::from(text),
            ScalarMut::Char(p) => {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => *p = c,
                    _ => {
                        return Err(ScalarError::Other(Error::new(
                            codes::WRONG_TYPE,
                            format!("expected one character, found {text:?}"),
                        )));
                    }
                }
            }
            ScalarMut::Uuid(p) => {
                *p = uuid::Uuid::try_parse(text).map_err(|_| {
                    Error::new(codes::INVALID_UUID, format!("invalid uuid {text:?}"))
                })?;
            }
            _ => return Err(ScalarError::WrongType("a String")),
        },
        ReflectMut::Enum(_) => return write_enum_name(place, text),
        _ => return Err(ScalarError::WrongType("a String")),
    }
    Ok(())
}

/// A map key given as a `Name`: strings directly, other scalars parsed from the text.
fn write_key_into(place: &mut dyn Reflect, text: &str) -> Result<(), ScalarError> {
    if let ReflectMut::Scalar(scalar) = place.reflect_mut() {
        match scalar {
            ScalarMut::String(p) => {
                p.clear();
                p.push_str(text);
                return Ok(());
            }
            ScalarMut::Bool(p) => {
                *p = match text {
                    "true" => true,
                    "false" => false,
                    _ => return Err(ScalarError::WrongType("a Name")),
                };
                return Ok(());
            }
            scalar => {
                let hint = NumberHint::of_text(text);
                if let Some(result) = set_number(scalar, Number::Text(text, hint)) {
                    return result.map_err(ScalarError::Other);
                }
            }
        }
    }
    write_str_into(place, text)
}

impl Writer for PropertyWriter<'_> {
    fn write_null(&mut self) -> Result<()> {
        if let Some(Frame {
            target,
            kind: Kind::Option {
                filled: filled @ false,
            },
        }) = self.stack.last_mut()
        {
            *filled = true;
            // SAFETY: the top frame's container (an option) is live.
            if let ReflectMut::Option(o) = unsafe { target.as_mut() }.reflect_mut() {
                o.set_none();
            }
            return Ok(());
        }
        let mut slot = self.slot()?;
        // Fast path: an option or `()` right at the place (what `resolve` would find too,
        // since it does not look into options for null).
        // SAFETY: `slot` was just reached from the top frame and is the only place changed.
        match unsafe { slot.as_mut() }.reflect_mut() {
            ReflectMut::Option(o) => {
                o.set_none();
                return self.value_done();
            }
            ReflectMut::Tuple(t) if t.is_empty() => return self.value_done(),
            _ => {}
        }
        self.scalar_at(slot, true, |place| match place.reflect_mut() {
            ReflectMut::Option(o) => {
                o.set_none();
                Ok(())
            }
            ReflectMut::Tuple(t) if t.is_empty() => Ok(()),
            ReflectMut::Struct(s) if s.field_count() == 0 => Ok(()),
            _ => Err(ScalarError::WrongType("Null")),
        })
    }

    fn write_bool(&mut self, value: bool) -> Result<()> {
        let mut slot = self.slot()?;
        // SAFETY: `slot` was just reached from the top frame and is the only place changed.
        if let ReflectMut::Scalar(ScalarMut::Bool(place)) = unsafe { slot.as_mut() }.reflect_mut() {
            *place = value;
            return self.value_done();
        }
        self.scalar_at(slot, false, |place| match place.reflect_mut() {
            ReflectMut::Scalar(ScalarMut::Bool(p)) => {
                *p = value;
                Ok(())
            }
            _ => Err(ScalarError::WrongType("a Bool")),
        })
    }

    fn write_str(&mut self, value: &str) -> Result<()> {
        if matches!(
            self.stack.last(),
            Some(Frame {
                kind: Kind::Fields { pending: None, .. }
                    | Kind::Tag {
                        stage: TagStage::Name,
                        ..
                    },
                ..
            })
        ) || matches!(
            self.stack.last(),
            Some(Frame {
                kind: Kind::Map { has_key: false, .. },
                ..
            })
        ) {
            // A string where a name is expected (formats that have no separate key token).
            return self.write_name(value);
        }
        let mut slot = self.slot()?;
        // Fast path for a plain `String` field.
        // SAFETY: `slot` was just reached from the top frame and is the only place changed.
        if let ReflectMut::Scalar(ScalarMut::String(text)) = unsafe { slot.as_mut() }.reflect_mut()
        {
            if text.capacity() < value.len() {
                // One allocation of the exact size (a fresh field has no capacity).
                *text = String::from(value);
            } else {
                text.clear();
                text.push_str(value);
            }
            return self.value_done();
        }
        self.scalar_at(slot, false, |place| write_str_into(place, value))
    }

    fn write_name(&mut self, name: &str) -> Result<()> {
        let Some(frame) = self.stack.last_mut() else {
            return self.scalar(false, |place| write_str_into(place, name));
        };
        match &mut frame.kind {
            Kind::Fields {
                infos,
                pending,
                current,
                seen,
                view,
                ..
            } if pending.is_none() => {
                let guess = current.map_or(0, |c| c + 1);
                // SAFETY: the view is of the top frame's container, live and not borrowed.
                let found = unsafe { view.field_index(infos, name, guess) };
                match found {
                    Some(index) => {
                        *pending = Some(index);
                        if !seen.insert(index)
                            && let Some(code) = self.duplicate_keys
                        {
                            *current = Some(index);
                            return Err(self.duplicate_key(code, name));
                        }
                        Ok(())
                    }
                    None => {
                        *current = None;
                        let infos = *infos;
                        Err(self.unknown_field(infos, name))
                    }
                }
            }
            Kind::Map { has_key: false, .. } => {
                self.scalar(false, |place| write_key_into(place, name))
            }
            Kind::Tag {
                stage: stage @ TagStage::Name,
                style,
                variant,
            } => {
                // SAFETY: the top frame's container (an enum) is live.
                let target = unsafe { frame.target.as_mut() };
                let info = own_info(target);
                let Some(enum_info) = info.as_enum() else {
                    return Err(Error::new(core_codes::INVALID_STRUCTURE, "not an enum"));
                };
                let Some(index) = enum_info.variant_index(name) else {
                    let error = enum_not_found(info.name(), enum_info, name);
                    return Err(self.locate(error));
                };
                let found = &enum_info.variants[index];
                *stage = TagStage::Payload;
                *style = found.style;
                *variant = found.name;
                set_variant(target, index);
                if found.style == VariantStyle::Unit {
                    // A unit variant has no payload: `{"Unit": ...}` must close right away.
                    *stage = TagStage::End;
                }
                Ok(())
            }
            _ => self.scalar(false, |place| write_str_into(place, name)),
        }
    }

    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        let mut slot = self.slot()?;
        // Fast path for the common case, a plain numeric field: one dispatch, no resolving.
        // SAFETY: `slot` was just reached from the top frame and is the only place changed.
        if let ReflectMut::Scalar(scalar) = unsafe { slot.as_mut() }.reflect_mut()
            && let Some(result) = set_number(scalar, number)
        {
            return match result {
                Ok(()) => self.value_done(),
                Err(error) => Err(self.locate(error)),
            };
        }
        self.scalar_at(slot, false, |place| write_number_into(place, number))
    }

    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.scalar(false, |place| {
            if let Some(bytes) = place.downcast_mut::<Vec<u8>>() {
                bytes.clear();
                bytes.extend_from_slice(value);
                return Ok(());
            }
            match place.reflect_mut() {
                ReflectMut::List(list) if list.fixed_len() == Some(value.len()) => {
                    for (index, byte) in value.iter().enumerate() {
                        match list.get_mut(index).and_then(|b| b.downcast_mut::<u8>()) {
                            Some(slot) => *slot = *byte,
                            None => return Err(ScalarError::WrongType("a Blob")),
                        }
                    }
                    Ok(())
                }
                _ => Err(ScalarError::WrongType("a Blob")),
            }
        })
    }

    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open_map("a map", len)
    }

    fn write_map_end(&mut self) -> Result<()> {
        self.close("MapEnd", true)
    }

    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open_seq("an array", len)
    }

    fn write_array_end(&mut self) -> Result<()> {
        self.close("ArrayEnd", false)
    }

    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open_seq("a set", len)
    }

    fn write_set_end(&mut self) -> Result<()> {
        self.close("SetEnd", false)
    }

    fn write_struct_root(&mut self, _name: &str, len: Option<usize>) -> Result<()> {
        self.open_map("a struct", len)
    }

    fn write_struct_end(&mut self) -> Result<()> {
        self.close("StructEnd", true)
    }

    fn write_option_root(&mut self) -> Result<()> {
        let mut slot = self.slot()?;
        // SAFETY: see `scalar`; newtypes are followed but `Some` is not, so the option
        // itself is the target.
        let place = resolve(unsafe { slot.as_mut() }, true);
        let is_option = matches!(place.reflect_mut(), ReflectMut::Option(_));
        let target = NonNull::from(place);
        let kind = if is_option {
            Kind::Option { filled: false }
        } else {
            Kind::Pass { filled: false }
        };
        self.push(target, kind);
        Ok(())
    }

    fn write_option_end(&mut self) -> Result<()> {
        match self.stack.last() {
            Some(Frame {
                kind: Kind::Option { filled: true } | Kind::Pass { filled: true },
                ..
            }) => {
                self.stack.pop();
                self.value_done()
            }
            _ => Err(self.locate(Error::new(
                core_codes::INVALID_STRUCTURE,
                "OptionEnd does not close a filled option",
            ))),
        }
    }

    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        self.scalar(false, |place| match place.reflect_mut() {
            ReflectMut::Enum(e) => {
                if value.flags && e.set_bits(value.value) {
                    return Ok(());
                }
                if value.variant.is_empty() {
                    write_number_into(place, Number::I64(value.value))
                } else {
                    write_enum_name(place, value.variant)
                }
            }
            ReflectMut::Scalar(ScalarMut::String(_) | ScalarMut::BoxStr(_))
                if !value.variant.is_empty() =>
            {
                write_str_into(place, value.variant)
            }
            ReflectMut::Scalar(_) => write_number_into(place, Number::I64(value.value)),
            _ => Err(ScalarError::WrongType("an Enum")),
        })
    }

    fn finish(&mut self) -> Result<()> {
        if self.is_complete() {
            Ok(())
        } else {
            Err(Error::new(
                core_codes::INVALID_STRUCTURE,
                "the input ended before the value was complete",
            ))
        }
    }
}

/// Reads an integer as `i64` and narrows it to `T`; out of range is the error
/// `Number::to_*` gives for that value (`convert` is that conversion).
#[inline(always)]
fn narrow_i64<T: TryFrom<i64>>(
    read: Result<i64>,
    convert: fn(Number<'static>) -> Result<T>,
) -> Result<T> {
    let value = read?;
    match T::try_from(value) {
        Ok(value) => Ok(value),
        Err(_) => convert(Number::I64(value)),
    }
}

impl PropertyWriter<'_> {
    /// Reads the next number from `reader` and writes it into the next place, like
    /// [`write_number`](Writer::write_number) with [`Reader::read_number`], but a place that
    /// is a plain numeric scalar (also inside an `Option` or a newtype struct) asks the
    /// reader for the number in its own type ([`Reader::read_f64`], [`Reader::read_u64`],
    /// ...), so a reader that reads values while it scans converts each number once, where
    /// number text would be walked again here. `i8` to `i32` and `u8` to `u32` are read as
    /// `i64` and narrowed; every other place (strings, enums, 128-bit integers) gets the
    /// number as [`write_number`](Writer::write_number) does.
    ///
    /// Values and error codes are those of [`write_number`](Writer::write_number) given the
    /// same token (out of range, not an integer...); errors carry the number's span.
    ///
    /// ```
    /// use sluice_core::{Reader, Writer};
    /// use sluice_json::{JsonOptions, JsonReader, SliceInput};
    /// use sluice_reflect::PropertyWriter;
    /// let mut reader = JsonReader::new(SliceInput::new(b"[1.5, 2]"), JsonOptions::default());
    /// let mut target: Vec<f64> = Vec::new();
    /// let mut writer = PropertyWriter::new(&mut target);
    /// writer.write_array_root(reader.read_array_root()?)?;
    /// writer.write_number_from(&mut reader)?;
    /// writer.write_number_from(&mut reader)?;
    /// reader.read_array_end()?;
    /// writer.write_array_end()?;
    /// drop(writer);
    /// assert_eq!(target, [1.5, 2.0]);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// When the next token is not a number, no value may come next, the place does not take
    /// a number, or the number does not fit the place.
    //
    // Always inlined: it runs once per number in the typed copy loop, and a call of its own
    // cost more than its body for a plain `f64` (measured on canada.json).
    #[inline(always)]
    pub fn write_number_from<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<()> {
        let mut slot = match self.slot() {
            Ok(slot) => slot,
            Err(error) => {
                // Consume the number first, so the error points at it as `write_number`'s
                // would.
                reader.read_number()?;
                return Err(error.or_span(reader.span()));
            }
        };
        // SAFETY: `slot` was just reached from the top frame (or the root) and is the only
        // place being changed; a number is not null, so options are filled.
        let (_, view) = resolve_view(unsafe { slot.as_mut() }, false);
        let ReflectMut::Scalar(scalar) = view else {
            return self.write_number_from_general(slot, reader);
        };
        let written = match scalar {
            ScalarMut::F64(place) => reader.read_f64().map(|v| *place = v),
            ScalarMut::F32(place) => reader.read_f32().map(|v| *place = v),
            ScalarMut::I64(place) => reader.read_i64().map(|v| *place = v),
            ScalarMut::U64(place) => reader.read_u64().map(|v| *place = v),
            ScalarMut::I32(place) => {
                narrow_i64(reader.read_i64(), Number::to_i32).map(|v| *place = v)
            }
            ScalarMut::U32(place) => {
                narrow_i64(reader.read_i64(), Number::to_u32).map(|v| *place = v)
            }
            ScalarMut::U16(place) => {
                narrow_i64(reader.read_i64(), Number::to_u16).map(|v| *place = v)
            }
            ScalarMut::I16(place) => {
                narrow_i64(reader.read_i64(), Number::to_i16).map(|v| *place = v)
            }
            ScalarMut::U8(place) => {
                narrow_i64(reader.read_i64(), Number::to_u8).map(|v| *place = v)
            }
            ScalarMut::I8(place) => {
                narrow_i64(reader.read_i64(), Number::to_i8).map(|v| *place = v)
            }
            _ => return self.write_number_from_general(slot, reader),
        };
        match written {
            Ok(()) => self.value_done(),
            Err(error) => Err(self.locate(error).or_span(reader.span())),
        }
    }

    /// [`write_number_from`](Self::write_number_from) for places that take the number as
    /// it comes (enums, strings for the error, 128-bit integers).
    #[inline(never)]
    fn write_number_from_general<R: Reader + ?Sized>(
        &mut self,
        slot: NonNull<dyn Reflect>,
        reader: &mut R,
    ) -> Result<()> {
        let number = reader.read_number()?;
        let written = self.scalar_at(slot, false, |place| write_number_into(place, number));
        written.map_err(|error| error.or_span(reader.span()))
    }
}

/// Looks through `Box<T>` kinds to the type whose view a container frame uses.
fn through_box(mut info: &'static crate::TypeInfo) -> &'static crate::TypeInfo {
    while let crate::TypeKind::Box { inner } = info.kind() {
        info = inner();
    }
    info
}

/// Follows `Some` and newtype structs in the value until the place has the type `expected`.
fn resolve_to(slot: &mut dyn Reflect, expected: std::any::TypeId) -> Option<&mut dyn Reflect> {
    let mut current: *mut dyn Reflect = slot;
    loop {
        // SAFETY: as in `resolve`: `current` is `slot` or a place inside it, and `slot`'s
        // exclusive borrow is held for the whole function.
        let place = unsafe { &mut *current };
        if place.type_info().type_id() == expected {
            return Some(place);
        }
        let next: *mut dyn Reflect = match place.reflect_mut() {
            ReflectMut::Option(o) => o.get_or_insert_default(),
            ReflectMut::Struct(s) if s.is_newtype() => s.field_mut(0)?,
            _ => return None,
        };
        current = next;
    }
}

/// Hooks for handler tables: learn the type of the next place, and write a whole value into
/// it with custom code (see `handlers::Deserializer`).
impl PropertyWriter<'_> {
    /// The declared type of the place the next value goes to (an `Option`, a newtype struct
    /// or a `Box` is answered as itself), without changing anything. `None` when no value may
    /// come next (a field name is expected, or the value is complete).
    #[must_use]
    pub fn next_value_info(&self) -> Option<&'static crate::TypeInfo> {
        let Some(frame) = self.stack.last() else {
            if self.root_written {
                return None;
            }
            // SAFETY: the root is valid for 'a and nothing borrows it mutably now.
            return Some(unsafe { self.root.as_ref() }.type_info());
        };
        // SAFETY: the top frame's container is live; this only reads type information.
        let target = unsafe { frame.target.as_ref() };
        let slot = match &frame.kind {
            Kind::Fields {
                pending: Some(index),
                infos,
                ..
            } => (infos.get(*index)?.ty)(),
            Kind::Seq { source, index, .. } => match source {
                SeqSource::List => match through_box(target.type_info()).kind() {
                    crate::TypeKind::List { item } | crate::TypeKind::Array { item, .. } => item(),
                    _ => return None,
                },
                SeqSource::Tuple => match through_box(target.type_info()).kind() {
                    crate::TypeKind::Tuple { items } => items.get(*index)?(),
                    _ => return None,
                },
                SeqSource::StructFields => (own_info(target).as_struct()?.fields.get(*index)?.ty)(),
                SeqSource::VariantFields => (variant_fields(target).get(*index)?.ty)(),
            },
            Kind::Map { has_key, .. } => match through_box(target.type_info()).kind() {
                crate::TypeKind::Map { key, value } => {
                    if *has_key {
                        value()
                    } else {
                        key()
                    }
                }
                _ => return None,
            },
            Kind::Set { .. } => match through_box(target.type_info()).kind() {
                crate::TypeKind::Set { item } => item(),
                _ => return None,
            },
            Kind::Option { filled: false } => match through_box(target.type_info()).kind() {
                crate::TypeKind::Option { some } => some(),
                _ => return None,
            },
            Kind::Pass { filled: false } => target.type_info(),
            Kind::Tag {
                stage: TagStage::Payload,
                style: VariantStyle::Newtype,
                ..
            } => (variant_fields(target).first()?.ty)(),
            _ => return None,
        };
        Some(slot)
    }

    /// Writes one whole value into the next place with `write`, which receives the place of
    /// type `expected` (the type [`next_value_info`](Self::next_value_info) answered, or one
    /// inside it through `Some` and newtype structs) and the data path of the value. Errors without a path get this value's path and type path.
    ///
    /// # Errors
    /// When no value may come next, the place does not have the type `expected`, or `write`
    /// fails.
    pub fn write_value_with<T>(
        &mut self,
        expected: &'static crate::TypeInfo,
        write: impl FnOnce(&mut dyn Reflect, &Path) -> Result<T>,
    ) -> Result<T> {
        let mut slot = self.slot()?;
        let path = self.path();
        // SAFETY: `slot` was just reached from the top frame (or the root) and is the only
        // place being changed while `write` runs.
        let Some(place) = resolve_to(unsafe { slot.as_mut() }, expected.type_id()) else {
            return Err(self.locate(Error::new(
                core_codes::INVALID_STRUCTURE,
                format!("the next place is not a {}", expected.name()),
            )));
        };
        match write(place, &path) {
            Ok(value) => {
                self.value_done()?;
                Ok(value)
            }
            Err(error) if error.path().is_none() => {
                let type_path = self.type_path();
                Err(error.with_path(path).with_type_path(type_path))
            }
            Err(error) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::same_name;

    #[test]
    fn names_compare_equal_only_when_every_byte_is_the_same_at_every_length() {
        let long = "abcdefghijklmnopqrstuvwxyz";
        for n in 0..long.len() {
            let name = &long[..n];
            assert!(same_name(name, name), "{name}");
            // A different length never matches, even as a prefix.
            assert!(!same_name(name, &long[..n + 1]), "{name}");
            // One byte changed at any position is another name.
            for at in 0..n {
                let mut other = name.as_bytes().to_vec();
                other[at] = b'_';
                let other = String::from_utf8(other).expect("ASCII");
                assert!(!same_name(name, &other), "{name} against {other}");
            }
        }
    }
}
