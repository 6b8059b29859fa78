//! The [`Reflect`] trait and its typed views.
//!
//! A reflected value answers two questions at run time: what type it is
//! ([`Reflect::type_info`]) and what is inside it ([`Reflect::reflect_ref`] /
//! [`Reflect::reflect_mut`], an enum of typed views: struct fields, list elements, map
//! entries, a scalar...). Everything is object safe, so readers, writers and handler tables
//! work on `&dyn Reflect` without knowing the concrete type.

use std::any::Any;

use uuid::Uuid;

use crate::TypeInfo;

/// A value whose type and contents can be inspected and changed at run time.
///
/// Implemented for the standard types sluice supports and by `#[derive(Reflect)]`.
/// Object safe: readers and writers work on `&dyn Reflect` / `&mut dyn Reflect`.
///
/// ```
/// use sluice_reflect::{Reflect, ReflectRef, ScalarRef};
/// let value: Vec<u32> = vec![1, 2];
/// let dynamic: &dyn Reflect = &value;
/// assert_eq!(dynamic.type_info().name(), "Vec<u32>");
/// let ReflectRef::List(list) = dynamic.reflect_ref() else { unreachable!() };
/// assert_eq!(list.len(), 2);
/// assert!(matches!(list.get(1).unwrap().reflect_ref(), ReflectRef::Scalar(ScalarRef::U32(2))));
/// ```
pub trait Reflect: Any {
    /// The description of this value's type.
    fn type_info(&self) -> &'static TypeInfo;
    /// The value as `&dyn Any` (for downcasting).
    fn as_any(&self) -> &dyn Any;
    /// The value as `&mut dyn Any` (for downcasting).
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The boxed value as `Box<dyn Any>` (for downcasting by value).
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// A typed view for reading.
    fn reflect_ref(&self) -> ReflectRef<'_>;
    /// A typed view for changing.
    fn reflect_mut(&mut self) -> ReflectMut<'_>;
}

impl dyn Reflect {
    /// Downcasts to a concrete type.
    #[must_use]
    pub fn downcast_ref<T: Reflect>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }

    /// Downcasts to a concrete type, mutably.
    pub fn downcast_mut<T: Reflect>(&mut self) -> Option<&mut T> {
        self.as_any_mut().downcast_mut()
    }

    /// Whether the value is of type `T`.
    #[must_use]
    pub fn is<T: Reflect>(&self) -> bool {
        self.as_any().is::<T>()
    }
}

impl std::fmt::Debug for dyn Reflect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{}>", self.type_info().name())
    }
}

/// The static side of [`Reflect`]: the info and a default value without an instance.
pub trait Typed: Reflect + Sized {
    /// The description of this type.
    fn info() -> &'static TypeInfo;
    /// A fresh value: `Default` where the type has one; for derived types, each field's
    /// `reflect_default` (or its `#[reflect(default)]`).
    fn reflect_default() -> Self;
}

/// A scalar value, by value or borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)]
pub enum ScalarRef<'a> {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(&'a str),
    Uuid(Uuid),
}

impl ScalarRef<'_> {
    /// The number token of a numeric scalar (the widest token of its kind: `I64` for every
    /// signed integer up to 64 bits, `U64` for unsigned ones); `None` for the others.
    ///
    /// ```
    /// use sluice_core::Number;
    /// use sluice_reflect::ScalarRef;
    /// assert!(matches!(ScalarRef::U8(7).as_number(), Some(Number::U64(7))));
    /// assert!(ScalarRef::Bool(true).as_number().is_none());
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn as_number(self) -> Option<sluice_core::Number<'static>> {
        use sluice_core::Number;
        Some(match self {
            ScalarRef::I8(v) => Number::I64(v.into()),
            ScalarRef::I16(v) => Number::I64(v.into()),
            ScalarRef::I32(v) => Number::I64(v.into()),
            ScalarRef::I64(v) => Number::I64(v),
            ScalarRef::I128(v) => Number::I128(v),
            ScalarRef::U8(v) => Number::U64(v.into()),
            ScalarRef::U16(v) => Number::U64(v.into()),
            ScalarRef::U32(v) => Number::U64(v.into()),
            ScalarRef::U64(v) => Number::U64(v),
            ScalarRef::U128(v) => Number::U128(v),
            ScalarRef::F32(v) => Number::F32(v),
            ScalarRef::F64(v) => Number::F64(v),
            ScalarRef::Bool(_) | ScalarRef::Char(_) | ScalarRef::Str(_) | ScalarRef::Uuid(_) => {
                return None;
            }
        })
    }
}

/// A scalar place to write to.
#[derive(Debug)]
#[allow(missing_docs)]
pub enum ScalarMut<'a> {
    Bool(&'a mut bool),
    I8(&'a mut i8),
    I16(&'a mut i16),
    I32(&'a mut i32),
    I64(&'a mut i64),
    I128(&'a mut i128),
    U8(&'a mut u8),
    U16(&'a mut u16),
    U32(&'a mut u32),
    U64(&'a mut u64),
    U128(&'a mut u128),
    F32(&'a mut f32),
    F64(&'a mut f64),
    Char(&'a mut char),
    String(&'a mut String),
    BoxStr(&'a mut Box<str>),
    Uuid(&'a mut Uuid),
}

/// A typed view of a reflected value, for reading.
#[allow(missing_docs)]
pub enum ReflectRef<'a> {
    Scalar(ScalarRef<'a>),
    Struct(&'a dyn Struct),
    Tuple(&'a dyn Tuple),
    List(&'a dyn List),
    Map(&'a dyn Map),
    Set(&'a dyn Set),
    Option(&'a dyn OptionValue),
    Enum(&'a dyn Enum),
}

/// A typed view of a reflected value, for changing.
#[allow(missing_docs)]
pub enum ReflectMut<'a> {
    Scalar(ScalarMut<'a>),
    Struct(&'a mut dyn Struct),
    Tuple(&'a mut dyn Tuple),
    List(&'a mut dyn List),
    Map(&'a mut dyn Map),
    Set(&'a mut dyn Set),
    Option(&'a mut dyn OptionValue),
    Enum(&'a mut dyn Enum),
}

impl std::fmt::Debug for ReflectRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReflectRef::Scalar(s) => write!(f, "Scalar({s:?})"),
            ReflectRef::Struct(_) => f.write_str("Struct"),
            ReflectRef::Tuple(_) => f.write_str("Tuple"),
            ReflectRef::List(_) => f.write_str("List"),
            ReflectRef::Map(_) => f.write_str("Map"),
            ReflectRef::Set(_) => f.write_str("Set"),
            ReflectRef::Option(_) => f.write_str("Option"),
            ReflectRef::Enum(_) => f.write_str("Enum"),
        }
    }
}

impl std::fmt::Debug for ReflectMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReflectMut::Scalar(s) => write!(f, "Scalar({s:?})"),
            ReflectMut::Struct(_) => f.write_str("Struct"),
            ReflectMut::Tuple(_) => f.write_str("Tuple"),
            ReflectMut::List(_) => f.write_str("List"),
            ReflectMut::Map(_) => f.write_str("Map"),
            ReflectMut::Set(_) => f.write_str("Set"),
            ReflectMut::Option(_) => f.write_str("Option"),
            ReflectMut::Enum(_) => f.write_str("Enum"),
        }
    }
}

/// A struct: fields by index and by name.
pub trait Struct: 'static {
    /// The struct's type info (also reached through a `Box`, whose own info says `Box`).
    fn struct_info(&self) -> &'static TypeInfo;
    /// The number of reflected fields.
    fn field_count(&self) -> usize;
    /// The field at `index`.
    fn field(&self, index: usize) -> Option<&dyn Reflect>;
    /// The typed view of the field at `index`: `field(index)` and its `reflect_ref` in one
    /// call (derived structs answer it without a dynamic call for the field).
    fn field_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        self.field(index).map(Reflect::reflect_ref)
    }
    /// The field at `index`, mutably.
    fn field_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// The index of the field named `name` (or an alias of it).
    fn field_index(&self, name: &str) -> Option<usize>;
    /// Sets the field at `index` to its `#[reflect(default)]` value; false when it has none.
    fn set_field_default(&mut self, index: usize) -> bool;
    /// Whether this is a one-field tuple struct, read and written as its field.
    fn is_newtype(&self) -> bool {
        false
    }
}

impl dyn Struct + '_ {
    /// The field named `name` (or an alias of it).
    #[must_use]
    pub fn field_by_name(&self, name: &str) -> Option<&dyn Reflect> {
        self.field(self.field_index(name)?)
    }

    /// The field named `name` (or an alias of it), mutably.
    pub fn field_by_name_mut(&mut self, name: &str) -> Option<&mut dyn Reflect> {
        let index = self.field_index(name)?;
        self.field_mut(index)
    }
}

/// A tuple: elements by index (fixed length).
pub trait Tuple: 'static {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether the tuple is `()`.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The element at `index`.
    fn get(&self, index: usize) -> Option<&dyn Reflect>;
    /// The typed view of the element at `index`: `get(index)` and its `reflect_ref` in one
    /// call (the built-in tuples answer it without a dynamic call for the element).
    ///
    /// ```
    /// use sluice_reflect::{ReflectRef, ScalarRef, Tuple};
    /// let pair = (1.5f64, "x".to_string());
    /// assert!(matches!(pair.get_ref(0), Some(ReflectRef::Scalar(ScalarRef::F64(v))) if v == 1.5));
    /// assert!(pair.get_ref(2).is_none());
    /// ```
    fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        self.get(index).map(Reflect::reflect_ref)
    }
    /// The element at `index`, mutably.
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
}

/// A sequence: `Vec<T>`, `VecDeque<T>` (growable) or `[T; N]` (fixed).
pub trait List: 'static {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The element at `index`.
    fn get(&self, index: usize) -> Option<&dyn Reflect>;
    /// The typed view of the element at `index`: `get(index)` and its `reflect_ref` in one
    /// call (the built-in lists answer it without a dynamic call for the element).
    ///
    /// ```
    /// use sluice_reflect::{List, ReflectRef, ScalarRef};
    /// let list = vec![7u32, 8];
    /// assert!(matches!(list.get_ref(1), Some(ReflectRef::Scalar(ScalarRef::U32(8)))));
    /// assert!(list.get_ref(2).is_none());
    /// ```
    fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        self.get(index).map(Reflect::reflect_ref)
    }
    /// The element at `index`, mutably.
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// The fixed length of an array, `None` for growable lists.
    fn fixed_len(&self) -> Option<usize>;
    /// Appends a default element and returns it; `None` for fixed arrays.
    fn push_default(&mut self) -> Option<&mut dyn Reflect>;
    /// Appends a value of the element type; gives it back when it has another type or the
    /// list is fixed.
    ///
    /// # Errors
    /// The value itself, when it could not be pushed.
    fn push_boxed(&mut self, value: Box<dyn Reflect>) -> Result<(), Box<dyn Reflect>>;
    /// Removes every element (fixed arrays keep their elements).
    fn clear(&mut self);
    /// Reserves room for `additional` more elements (a hint).
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
    /// The elements as `u8` when this is a list of bytes (`Vec<u8>`, `[u8; N]`).
    fn as_bytes(&self) -> Option<&[u8]> {
        None
    }
}

impl<'a> dyn List + 'a {
    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Reflect> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// A map with reflected keys and values.
pub trait Map: 'static {
    /// The number of entries.
    fn len(&self) -> usize;
    /// Whether the map is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The entries (in the map's own order).
    fn iter(&self) -> Box<dyn Iterator<Item = (&dyn Reflect, &dyn Reflect)> + '_>;
    /// A fresh default key (a place to build a key in).
    fn new_key(&self) -> Box<dyn Reflect>;
    /// A fresh default value (a place to build a value in).
    fn new_value(&self) -> Box<dyn Reflect>;
    /// Whether the map has an entry for `key` (false for a key of another type). Readers
    /// that reject duplicate keys ask it once per key; the default answers false, so a map
    /// that keeps it is not checked.
    fn contains_key(&self, key: &dyn Reflect) -> bool {
        let _ = key;
        false
    }
    /// Moves `key` and `value` into the map (leaving defaults behind, so the places can be
    /// reused); false when either has the wrong type.
    fn insert_from(&mut self, key: &mut dyn Reflect, value: &mut dyn Reflect) -> bool;
    /// Removes every entry.
    fn clear(&mut self);
}

/// A set of reflected values.
pub trait Set: 'static {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether the set is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements (in the set's own order).
    fn iter(&self) -> Box<dyn Iterator<Item = &dyn Reflect> + '_>;
    /// A fresh default element.
    fn new_item(&self) -> Box<dyn Reflect>;
    /// Moves `item` into the set (leaving a default behind); false when it has the wrong type.
    fn insert_from(&mut self, item: &mut dyn Reflect) -> bool;
    /// Removes every element.
    fn clear(&mut self);
}

/// `Option<T>`.
pub trait OptionValue: 'static {
    /// The value inside `Some`.
    fn get(&self) -> Option<&dyn Reflect>;
    /// The value inside `Some`, mutably.
    fn get_mut(&mut self) -> Option<&mut dyn Reflect>;
    /// Sets `None`.
    fn set_none(&mut self);
    /// Sets `Some(default)` (keeping an existing `Some` value) and returns the inside.
    fn get_or_insert_default(&mut self) -> &mut dyn Reflect;
}

/// An enum: the current variant, its payload fields, and changing the variant.
pub trait Enum: 'static {
    /// The enum's type info (also reached through a `Box`, whose own info says `Box`).
    fn enum_info(&self) -> &'static TypeInfo;
    /// The index of the current variant in [`EnumInfo::variants`](crate::EnumInfo::variants).
    fn variant_index(&self) -> usize;
    /// Switches to the variant at `index` with a default payload (keeps the payload when
    /// already that variant); false when the index is out of range.
    fn set_variant_index(&mut self, index: usize) -> bool;
    /// The payload field at `index` of the current variant.
    fn field(&self, index: usize) -> Option<&dyn Reflect>;
    /// The payload field at `index` of the current variant, mutably.
    fn field_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// For a flags value ([`Flags`](crate::Flags)): the bits. Plain enums answer `None`.
    fn bits(&self) -> Option<i64> {
        None
    }
    /// For a flags value: sets the bits; false for plain enums.
    fn set_bits(&mut self, bits: i64) -> bool {
        let _ = bits;
        false
    }
}
