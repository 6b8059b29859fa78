//! [`Reflect`] for the standard types: scalars, strings, collections, tuples, `Option`,
//! `Box` and `Uuid`.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

use uuid::Uuid;

use crate::info::{GenericInfoCell, ScalarKind, TypeKind, leak_str};
use crate::{
    List, Map, OptionValue, Reflect, ReflectMut, ReflectRef, ScalarMut, ScalarRef, Set, Tuple,
    TypeInfo, Typed,
};

/// The `Any` plumbing every implementation repeats.
macro_rules! any_methods {
    () => {
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn Any {
            self
        }
        fn into_any(self: Box<Self>) -> Box<dyn Any> {
            self
        }
    };
}

macro_rules! scalar {
    ($($ty:ty => $variant:ident, $kind:ident;)*) => {$(
        impl Reflect for $ty {
            fn type_info(&self) -> &'static TypeInfo {
                <$ty as Typed>::info()
            }
            any_methods!();
            fn reflect_ref(&self) -> ReflectRef<'_> {
                ReflectRef::Scalar(ScalarRef::$variant(*self))
            }
            fn reflect_mut(&mut self) -> ReflectMut<'_> {
                ReflectMut::Scalar(ScalarMut::$variant(self))
            }
        }
        impl Typed for $ty {
            fn info() -> &'static TypeInfo {
                static INFO: OnceLock<TypeInfo> = OnceLock::new();
                INFO.get_or_init(|| {
                    TypeInfo::new::<$ty>(stringify!($ty), stringify!($ty), TypeKind::Scalar(ScalarKind::$kind))
                })
            }
            fn reflect_default() -> Self {
                <$ty>::default()
            }
        }
    )*};
}

scalar! {
    bool => Bool, Bool;
    i8 => I8, I8;
    i16 => I16, I16;
    i32 => I32, I32;
    i64 => I64, I64;
    i128 => I128, I128;
    u8 => U8, U8;
    u16 => U16, U16;
    u32 => U32, U32;
    u64 => U64, U64;
    u128 => U128, U128;
    f32 => F32, F32;
    f64 => F64, F64;
    char => Char, Char;
}

impl Reflect for String {
    fn type_info(&self) -> &'static TypeInfo {
        <String as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Scalar(ScalarRef::Str(self))
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Scalar(ScalarMut::String(self))
    }
}

impl Typed for String {
    fn info() -> &'static TypeInfo {
        static INFO: OnceLock<TypeInfo> = OnceLock::new();
        INFO.get_or_init(|| {
            TypeInfo::new::<String>("String", "String", TypeKind::Scalar(ScalarKind::String))
        })
    }
    fn reflect_default() -> Self {
        String::new()
    }
}

impl Reflect for Box<str> {
    fn type_info(&self) -> &'static TypeInfo {
        <Box<str> as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Scalar(ScalarRef::Str(self))
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Scalar(ScalarMut::BoxStr(self))
    }
}

impl Typed for Box<str> {
    fn info() -> &'static TypeInfo {
        static INFO: OnceLock<TypeInfo> = OnceLock::new();
        INFO.get_or_init(|| {
            TypeInfo::new::<Box<str>>("Box<str>", "Box<str>", TypeKind::Scalar(ScalarKind::String))
        })
    }
    fn reflect_default() -> Self {
        Box::from("")
    }
}

impl Reflect for Uuid {
    fn type_info(&self) -> &'static TypeInfo {
        <Uuid as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Scalar(ScalarRef::Uuid(*self))
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Scalar(ScalarMut::Uuid(self))
    }
}

impl Typed for Uuid {
    fn info() -> &'static TypeInfo {
        static INFO: OnceLock<TypeInfo> = OnceLock::new();
        INFO.get_or_init(|| TypeInfo::new::<Uuid>("Uuid", "uuid::Uuid", TypeKind::Uuid))
    }
    fn reflect_default() -> Self {
        Uuid::nil()
    }
}

/// The info of a generic type, built once per monomorphized type.
fn generic_info<T: Typed>(
    name: impl FnOnce() -> String,
    kind: impl FnOnce() -> TypeKind,
) -> &'static TypeInfo {
    static CELL: GenericInfoCell = GenericInfoCell::new();
    CELL.get_or_init::<T>(|| {
        TypeInfo::new::<T>(leak_str(name()), std::any::type_name::<T>(), kind())
    })
}

// ---- Vec<T>, VecDeque<T>, [T; N] ----

impl<T: Typed> Reflect for Vec<T> {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::List(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::List(self)
    }
}

impl<T: Typed> Typed for Vec<T> {
    fn info() -> &'static TypeInfo {
        generic_info::<Self>(
            || format!("Vec<{}>", T::info().name()),
            || TypeKind::List { item: T::info },
        )
    }
    fn reflect_default() -> Self {
        Vec::new()
    }
}

impl<T: Typed> List for Vec<T> {
    fn len(&self) -> usize {
        self.len()
    }
    fn get(&self, index: usize) -> Option<&dyn Reflect> {
        self.as_slice().get(index).map(|v| v as &dyn Reflect)
    }
    fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        self.as_slice().get(index).map(Reflect::reflect_ref)
    }
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        self.as_mut_slice()
            .get_mut(index)
            .map(|v| v as &mut dyn Reflect)
    }
    fn fixed_len(&self) -> Option<usize> {
        None
    }
    fn push_default(&mut self) -> Option<&mut dyn Reflect> {
        self.push(T::reflect_default());
        self.last_mut().map(|v| v as &mut dyn Reflect)
    }
    fn push_boxed(&mut self, value: Box<dyn Reflect>) -> Result<(), Box<dyn Reflect>> {
        if !value.is::<T>() {
            return Err(value);
        }
        match value.into_any().downcast::<T>() {
            Ok(item) => {
                self.push(*item);
                Ok(())
            }
            Err(_) => unreachable!("type checked above"),
        }
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn reserve(&mut self, additional: usize) {
        // A hint from the input; capped so a lying length cannot exhaust memory.
        Vec::reserve(self, additional.min(1 << 16));
    }
    fn as_bytes(&self) -> Option<&[u8]> {
        (self as &dyn Any)
            .downcast_ref::<Vec<u8>>()
            .map(Vec::as_slice)
    }
}

impl<T: Typed> Reflect for VecDeque<T> {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::List(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::List(self)
    }
}

impl<T: Typed> Typed for VecDeque<T> {
    fn info() -> &'static TypeInfo {
        generic_info::<Self>(
            || format!("VecDeque<{}>", T::info().name()),
            || TypeKind::List { item: T::info },
        )
    }
    fn reflect_default() -> Self {
        VecDeque::new()
    }
}

impl<T: Typed> List for VecDeque<T> {
    fn len(&self) -> usize {
        self.len()
    }
    fn get(&self, index: usize) -> Option<&dyn Reflect> {
        VecDeque::get(self, index).map(|v| v as &dyn Reflect)
    }
    fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        VecDeque::get(self, index).map(Reflect::reflect_ref)
    }
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        VecDeque::get_mut(self, index).map(|v| v as &mut dyn Reflect)
    }
    fn fixed_len(&self) -> Option<usize> {
        None
    }
    fn push_default(&mut self) -> Option<&mut dyn Reflect> {
        self.push_back(T::reflect_default());
        self.back_mut().map(|v| v as &mut dyn Reflect)
    }
    fn push_boxed(&mut self, value: Box<dyn Reflect>) -> Result<(), Box<dyn Reflect>> {
        if !value.is::<T>() {
            return Err(value);
        }
        match value.into_any().downcast::<T>() {
            Ok(item) => {
                self.push_back(*item);
                Ok(())
            }
            Err(_) => unreachable!("type checked above"),
        }
    }
    fn clear(&mut self) {
        VecDeque::clear(self);
    }
    fn reserve(&mut self, additional: usize) {
        VecDeque::reserve(self, additional.min(1 << 16));
    }
}

impl<T: Typed, const N: usize> Reflect for [T; N] {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::List(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::List(self)
    }
}

impl<T: Typed, const N: usize> Typed for [T; N] {
    fn info() -> &'static TypeInfo {
        generic_info::<Self>(
            || format!("[{}; {N}]", T::info().name()),
            || TypeKind::Array {
                item: T::info,
                len: N,
            },
        )
    }
    fn reflect_default() -> Self {
        std::array::from_fn(|_| T::reflect_default())
    }
}

impl<T: Typed, const N: usize> List for [T; N] {
    fn len(&self) -> usize {
        N
    }
    fn get(&self, index: usize) -> Option<&dyn Reflect> {
        self.as_slice().get(index).map(|v| v as &dyn Reflect)
    }
    fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
        self.as_slice().get(index).map(Reflect::reflect_ref)
    }
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        self.as_mut_slice()
            .get_mut(index)
            .map(|v| v as &mut dyn Reflect)
    }
    fn fixed_len(&self) -> Option<usize> {
        Some(N)
    }
    fn push_default(&mut self) -> Option<&mut dyn Reflect> {
        None
    }
    fn push_boxed(&mut self, value: Box<dyn Reflect>) -> Result<(), Box<dyn Reflect>> {
        Err(value)
    }
    fn clear(&mut self) {}
    fn as_bytes(&self) -> Option<&[u8]> {
        (self as &dyn Any)
            .downcast_ref::<[u8; N]>()
            .map(<[u8; N]>::as_slice)
    }
}

// ---- Option<T>, Box<T> ----

impl<T: Typed> Reflect for Option<T> {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Option(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Option(self)
    }
}

impl<T: Typed> Typed for Option<T> {
    fn info() -> &'static TypeInfo {
        generic_info::<Self>(
            || format!("Option<{}>", T::info().name()),
            || TypeKind::Option { some: T::info },
        )
    }
    fn reflect_default() -> Self {
        None
    }
}

impl<T: Typed> OptionValue for Option<T> {
    fn get(&self) -> Option<&dyn Reflect> {
        self.as_ref().map(|v| v as &dyn Reflect)
    }
    fn get_mut(&mut self) -> Option<&mut dyn Reflect> {
        self.as_mut().map(|v| v as &mut dyn Reflect)
    }
    fn set_none(&mut self) {
        *self = None;
    }
    fn get_or_insert_default(&mut self) -> &mut dyn Reflect {
        self.get_or_insert_with(T::reflect_default)
    }
}

/// `Box<T>` is transparent: it reads and writes as `T` (its `TypeInfo` says `Box`).
impl<T: Typed> Reflect for Box<T> {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        (**self).reflect_ref()
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        (**self).reflect_mut()
    }
}

impl<T: Typed> Typed for Box<T> {
    fn info() -> &'static TypeInfo {
        generic_info::<Self>(
            || format!("Box<{}>", T::info().name()),
            || TypeKind::Box { inner: T::info },
        )
    }
    fn reflect_default() -> Self {
        Box::new(T::reflect_default())
    }
}

// ---- maps and sets ----

/// Moves the value out of a reflected place of type `T`, leaving a default behind.
fn take<T: Typed>(place: &mut dyn Reflect) -> Option<T> {
    place
        .downcast_mut::<T>()
        .map(|v| std::mem::replace(v, T::reflect_default()))
}

macro_rules! map_impl {
    ($map:ident, $name:literal, [$($bound:tt)*], [$($extra:ident : $extra_bound:path),*]) => {
        impl<K: Typed + $($bound)*, V: Typed $(, $extra: $extra_bound)*> Reflect for $map<K, V $(, $extra)*> {
            fn type_info(&self) -> &'static TypeInfo {
                <Self as Typed>::info()
            }
            any_methods!();
            fn reflect_ref(&self) -> ReflectRef<'_> {
                ReflectRef::Map(self)
            }
            fn reflect_mut(&mut self) -> ReflectMut<'_> {
                ReflectMut::Map(self)
            }
        }

        impl<K: Typed + $($bound)*, V: Typed $(, $extra: $extra_bound)*> Typed for $map<K, V $(, $extra)*> {
            fn info() -> &'static TypeInfo {
                generic_info::<Self>(
                    || format!(concat!($name, "<{}, {}>"), K::info().name(), V::info().name()),
                    || TypeKind::Map { key: K::info, value: V::info },
                )
            }
            fn reflect_default() -> Self {
                $map::default()
            }
        }

        impl<K: Typed + $($bound)*, V: Typed $(, $extra: $extra_bound)*> Map for $map<K, V $(, $extra)*> {
            fn len(&self) -> usize {
                self.len()
            }
            fn iter(&self) -> Box<dyn Iterator<Item = (&dyn Reflect, &dyn Reflect)> + '_> {
                Box::new($map::iter(self).map(|(k, v)| (k as &dyn Reflect, v as &dyn Reflect)))
            }
            fn new_key(&self) -> Box<dyn Reflect> {
                Box::new(K::reflect_default())
            }
            fn new_value(&self) -> Box<dyn Reflect> {
                Box::new(V::reflect_default())
            }
            fn contains_key(&self, key: &dyn Reflect) -> bool {
                key.downcast_ref::<K>().is_some_and(|key| $map::contains_key(self, key))
            }
            fn insert_from(&mut self, key: &mut dyn Reflect, value: &mut dyn Reflect) -> bool {
                if !key.is::<K>() || !value.is::<V>() {
                    return false;
                }
                match (take::<K>(key), take::<V>(value)) {
                    (Some(k), Some(v)) => {
                        self.insert(k, v);
                        true
                    }
                    _ => false,
                }
            }
            fn clear(&mut self) {
                self.clear();
            }
        }
    };
}

macro_rules! set_impl {
    ($set:ident, $name:literal, [$($bound:tt)*], [$($extra:ident : $extra_bound:path),*]) => {
        impl<T: Typed + $($bound)* $(, $extra: $extra_bound)*> Reflect for $set<T $(, $extra)*> {
            fn type_info(&self) -> &'static TypeInfo {
                <Self as Typed>::info()
            }
            any_methods!();
            fn reflect_ref(&self) -> ReflectRef<'_> {
                ReflectRef::Set(self)
            }
            fn reflect_mut(&mut self) -> ReflectMut<'_> {
                ReflectMut::Set(self)
            }
        }

        impl<T: Typed + $($bound)* $(, $extra: $extra_bound)*> Typed for $set<T $(, $extra)*> {
            fn info() -> &'static TypeInfo {
                generic_info::<Self>(
                    || format!(concat!($name, "<{}>"), T::info().name()),
                    || TypeKind::Set { item: T::info },
                )
            }
            fn reflect_default() -> Self {
                $set::default()
            }
        }

        impl<T: Typed + $($bound)* $(, $extra: $extra_bound)*> Set for $set<T $(, $extra)*> {
            fn len(&self) -> usize {
                self.len()
            }
            fn iter(&self) -> Box<dyn Iterator<Item = &dyn Reflect> + '_> {
                Box::new($set::iter(self).map(|v| v as &dyn Reflect))
            }
            fn new_item(&self) -> Box<dyn Reflect> {
                Box::new(T::reflect_default())
            }
            fn insert_from(&mut self, item: &mut dyn Reflect) -> bool {
                match take::<T>(item) {
                    Some(value) => {
                        self.insert(value);
                        true
                    }
                    None => false,
                }
            }
            fn clear(&mut self) {
                self.clear();
            }
        }
    };
}

map_impl!(HashMap, "HashMap", [Eq + Hash], [S: HashBuilder]);
map_impl!(BTreeMap, "BTreeMap", [Ord], []);
set_impl!(HashSet, "HashSet", [Eq + Hash], [S: HashBuilder]);
set_impl!(BTreeSet, "BTreeSet", [Ord], []);

/// The hasher bound of reflected hash maps and sets: any `BuildHasher` with a `Default`.
pub trait HashBuilder: BuildHasher + Default + 'static {}
impl<S: BuildHasher + Default + 'static> HashBuilder for S {}

// ---- tuples ----

macro_rules! tuple_impl {
    ($len:literal: $($name:ident $index:tt),*) => {
        impl<$($name: Typed),*> Reflect for ($($name,)*) {
            fn type_info(&self) -> &'static TypeInfo {
                <Self as Typed>::info()
            }
            any_methods!();
            fn reflect_ref(&self) -> ReflectRef<'_> {
                ReflectRef::Tuple(self)
            }
            fn reflect_mut(&mut self) -> ReflectMut<'_> {
                ReflectMut::Tuple(self)
            }
        }

        impl<$($name: Typed),*> Typed for ($($name,)*) {
            fn info() -> &'static TypeInfo {
                generic_info::<Self>(
                    || {
                        let names: Vec<&str> = vec![$(<$name as Typed>::info().name()),*];
                        format!("({})", names.join(", "))
                    },
                    || TypeKind::Tuple { items: Box::leak(vec![$(<$name as Typed>::info as crate::TypeRef),*].into_boxed_slice()) },
                )
            }
            #[allow(clippy::unused_unit)]
            fn reflect_default() -> Self {
                ($($name::reflect_default(),)*)
            }
        }

        impl<$($name: Typed),*> Tuple for ($($name,)*) {
            fn len(&self) -> usize {
                $len
            }
            fn get(&self, index: usize) -> Option<&dyn Reflect> {
                match index {
                    $($index => Some(&self.$index as &dyn Reflect),)*
                    _ => None,
                }
            }
            fn get_ref(&self, index: usize) -> Option<ReflectRef<'_>> {
                match index {
                    $($index => Some(Reflect::reflect_ref(&self.$index)),)*
                    _ => None,
                }
            }
            fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
                match index {
                    $($index => Some(&mut self.$index as &mut dyn Reflect),)*
                    _ => None,
                }
            }
        }
    };
}

tuple_impl!(1: A 0);
tuple_impl!(2: A 0, B 1);
tuple_impl!(3: A 0, B 1, C 2);
tuple_impl!(4: A 0, B 1, C 2, D 3);
tuple_impl!(5: A 0, B 1, C 2, D 3, E 4);
tuple_impl!(6: A 0, B 1, C 2, D 3, E 4, F 5);
tuple_impl!(7: A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_impl!(8: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_impl!(9: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_impl!(10: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_impl!(11: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_impl!(12: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

impl Reflect for () {
    fn type_info(&self) -> &'static TypeInfo {
        <() as Typed>::info()
    }
    any_methods!();
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Tuple(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Tuple(self)
    }
}

impl Typed for () {
    fn info() -> &'static TypeInfo {
        static INFO: OnceLock<TypeInfo> = OnceLock::new();
        INFO.get_or_init(|| TypeInfo::new::<()>("()", "()", TypeKind::Tuple { items: &[] }))
    }
    fn reflect_default() -> Self {}
}

impl Tuple for () {
    fn len(&self) -> usize {
        0
    }
    fn get(&self, _: usize) -> Option<&dyn Reflect> {
        None
    }
    fn get_mut(&mut self, _: usize) -> Option<&mut dyn Reflect> {
        None
    }
}
