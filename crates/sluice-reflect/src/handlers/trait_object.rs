//! The trait-object bridge: `Box<dyn Trait>` as a reflected value.

use std::any::TypeId;
use std::collections::HashSet;
use std::sync::{OnceLock, PoisonError, RwLock};

fn trait_objects() -> &'static RwLock<HashSet<TypeId>> {
    static SET: OnceLock<RwLock<HashSet<TypeId>>> = OnceLock::new();
    SET.get_or_init(Default::default)
}

/// Records that the type `id` is a trait-object box (done by
/// [`reflect_trait_object!`](crate::reflect_trait_object) when its info is built). Handler
/// tables never take the bare-pipe shortcut through such a box: the value inside may be of
/// any implementor. Not needed by hand.
#[doc(hidden)]
pub fn note_trait_object(id: TypeId) {
    trait_objects()
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id);
}

/// Whether `id` was recorded by [`note_trait_object`].
pub(crate) fn is_trait_object(id: TypeId) -> bool {
    trait_objects()
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(&id)
}

/// Makes `Box<dyn Trait>` a reflected type, for traits that have [`Reflect`](crate::Reflect)
/// as a supertrait, so it can be a field and be chosen by `"$type"` through
/// [`TypeRegistry::register_polymorphic`](crate::TypeRegistry::register_polymorphic).
///
/// The box reads and writes as the value inside (its views are the inner value's); its
/// `TypeInfo` is of kind `Box` with the `default` implementor as inner type, and its default
/// value is a boxed default of that implementor.
///
/// ```
/// use sluice_core::{Value, ValueReader, ValueWriter};
/// use sluice_reflect::{Reflect, TypeRegistry, handlers::builtin};
///
/// pub trait Shape: Reflect {
///     fn area(&self) -> f64;
/// }
///
/// #[derive(Reflect, Debug, Default)]
/// struct Circle { r: f64 }
/// impl Shape for Circle { fn area(&self) -> f64 { 3.0 * self.r * self.r } }
///
/// #[derive(Reflect, Debug, Default)]
/// struct Square { side: f64 }
/// impl Shape for Square { fn area(&self) -> f64 { self.side * self.side } }
///
/// sluice_reflect::reflect_trait_object!(Shape, default = Circle);
///
/// #[derive(Reflect)]
/// struct Scene { shapes: Vec<Box<dyn Shape>> }
///
/// let mut registry = TypeRegistry::new();
/// registry.register_polymorphic::<Box<dyn Shape>, Circle>(|c| Box::new(c));
/// registry.register_polymorphic::<Box<dyn Shape>, Square>(|s| Box::new(s));
///
/// let input = Value::Map(vec![(Value::from("shapes"), Value::Array(vec![
///     Value::Map(vec![(Value::from("side"), Value::from(2.0)), (Value::from("$type"), Value::from("Square"))]),
/// ]))]);
/// let scene: Scene = builtin::json().deserialize(&mut ValueReader::new(&input), &registry)?;
/// assert_eq!(scene.shapes[0].area(), 4.0);
///
/// let mut out = ValueWriter::new();
/// builtin::json_serializer().serialize(&scene, &mut out, &registry)?;
/// let out = out.into_value()?;
/// assert_eq!(out.get("shapes").and_then(|s| s.as_array()).and_then(|s| s[0].get("$type")),
///            Some(&Value::from("Square")));
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[macro_export]
macro_rules! reflect_trait_object {
    ($trait:path, default = $default:ty) => {
        impl $crate::Reflect for ::std::boxed::Box<dyn $trait> {
            fn type_info(&self) -> &'static $crate::TypeInfo {
                <Self as $crate::Typed>::info()
            }
            fn as_any(&self) -> &dyn ::std::any::Any {
                self
            }
            fn as_any_mut(&mut self) -> &mut dyn ::std::any::Any {
                self
            }
            fn into_any(self: ::std::boxed::Box<Self>) -> ::std::boxed::Box<dyn ::std::any::Any> {
                self
            }
            fn reflect_ref(&self) -> $crate::ReflectRef<'_> {
                (**self).reflect_ref()
            }
            fn reflect_mut(&mut self) -> $crate::ReflectMut<'_> {
                (**self).reflect_mut()
            }
        }

        impl $crate::Typed for ::std::boxed::Box<dyn $trait> {
            fn info() -> &'static $crate::TypeInfo {
                static INFO: ::std::sync::OnceLock<$crate::TypeInfo> = ::std::sync::OnceLock::new();
                INFO.get_or_init(|| {
                    $crate::handlers::note_trait_object(::std::any::TypeId::of::<Self>());
                    $crate::TypeInfo::new::<Self>(
                        ::std::concat!("Box<dyn ", ::std::stringify!($trait), ">"),
                        ::std::any::type_name::<Self>(),
                        $crate::TypeKind::Box {
                            inner: <$default as $crate::Typed>::info,
                        },
                    )
                })
            }
            fn reflect_default() -> Self {
                ::std::boxed::Box::new(<$default as $crate::Typed>::reflect_default())
            }
        }

        impl $crate::handlers::TraitObjectBox for ::std::boxed::Box<dyn $trait> {
            fn inner(&self) -> &dyn $crate::Reflect {
                &**self
            }
            fn inner_mut(&mut self) -> &mut dyn $crate::Reflect {
                &mut **self
            }
        }
    };
}
