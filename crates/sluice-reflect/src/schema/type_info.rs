//! The compact type-info form, in the style of flecs' `type_info`.

use std::any::TypeId;

use sluice_core::Value;

use crate::handlers::Mark;
use crate::info::{FieldInfo, StructStyle, VariantStyle};
use crate::{ScalarKind, TypeInfo, TypeKind, TypeRegistry};

/// The structure of a type as a compact [`Value`], in the style of flecs' `type_info`.
///
/// A named struct is an object of its fields (names as written, after `rename`); every other
/// type is an array whose first element names the kind, followed by its details:
///
/// | Rust type | form |
/// |---|---|
/// | `bool`, `i8` ... `u128`, `f32`, `f64`, `char`, `String` | `["bool"]`, `["i8"]` ... `["string"]` |
/// | `Uuid` | `["uuid"]` |
/// | `struct S { x: f32 }` | `{"x": ["f32"]}` (nested structs expanded) |
/// | `struct S(A, B)` / `(A, B)` | `["tuple", a, b]` |
/// | `struct S(A)` (newtype), `Box<A>` | the form of `A` (written as `A`) |
/// | `struct S;`, `()` | `["null"]` |
/// | unit-only enum | `["enum", "Near", "Far"]` |
/// | enum with data | `["enum", "Empty", {"Circle": ["f64"]}, {"Rect": {"w": ["u16"]}}]` |
/// | flags enum, `Flags<E>` | `["flags", "Read", "Write", "Exec"]` |
/// | `Vec<A>`, `VecDeque<A>` | `["list", a]` |
/// | `[A; N]` | `["array", a, N]` |
/// | `HashSet<A>`, `BTreeSet<A>` | `["set", a]` |
/// | `HashMap<K, V>`, `BTreeMap<K, V>` | `["map", k, v]` |
/// | `Option<A>` | `["option", a]` |
///
/// A type met again inside itself (`struct Node { children: Vec<Node> }`) is not expanded a
/// second time: it appears as `["ref", "Node"]`.
///
/// Aliases, defaults and the exact accepted text are not part of this form; the
/// [`JsonSchema`](super::JsonSchema) has them.
///
/// ```
/// use sluice_core::Value;
/// use sluice_reflect::{Reflect, Typed, schema::type_info};
///
/// #[derive(Reflect)]
/// enum Team { Red, Blue }
///
/// #[derive(Reflect)]
/// struct Player { name: String, team: Team, scores: Vec<u32> }
///
/// let form = type_info(Player::info());
/// let text = |v: &Value| format!("{v:?}");
/// assert_eq!(form.get("team"), Some(&Value::Array(vec!["enum".into(), "Red".into(), "Blue".into()])));
/// assert_eq!(form.get("scores"), Some(&Value::Array(vec!["list".into(), Value::Array(vec!["u32".into()])])));
/// assert!(text(&form).contains("name"));
/// ```
#[must_use]
pub fn type_info(info: &'static TypeInfo) -> Value {
    let mut walk = Walk {
        open: Vec::new(),
        registry: None,
    };
    walk.form(info)
}

/// As [`type_info`], with the marks and polymorphic implementors of `registry`:
///
/// | type | form |
/// |---|---|
/// | a list marked [`Mark::Blob`] | `["blob"]` |
/// | a struct marked [`Mark::Color`] | `["color", component, N]` |
/// | a struct marked [`Mark::Vector`] | `["vector", component, N]` |
/// | a registered trait object (`Box<dyn Shape>`) | `["dyn", {"Circle": {...}, "Square": {...}}]` |
///
/// ```
/// use sluice_core::Value;
/// use sluice_reflect::{Reflect, TypeRegistry, Typed, handlers::Mark, schema::type_info_with};
///
/// #[derive(Reflect, Debug)]
/// struct Rgba { r: f32, g: f32, b: f32, a: f32 }
///
/// let mut registry = TypeRegistry::new();
/// registry.mark::<Rgba>(Mark::Color).mark::<Vec<u8>>(Mark::Blob);
/// let color = type_info_with(Rgba::info(), &registry);
/// assert_eq!(color, Value::Array(vec!["color".into(), Value::Array(vec!["f32".into()]), Value::from(4u64)]));
/// assert_eq!(type_info_with(<Vec<u8>>::info(), &registry), Value::Array(vec!["blob".into()]));
/// ```
#[must_use]
pub fn type_info_with(info: &'static TypeInfo, registry: &TypeRegistry) -> Value {
    let mut walk = Walk {
        open: Vec::new(),
        registry: Some(registry),
    };
    walk.form(info)
}

/// The types being expanded, to stop at recursion.
struct Walk<'r> {
    open: Vec<TypeId>,
    registry: Option<&'r TypeRegistry>,
}

fn tagged(kind: &str, rest: impl IntoIterator<Item = Value>) -> Value {
    let mut items = vec![Value::from(kind)];
    items.extend(rest);
    Value::Array(items)
}

fn scalar_name(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::String => "string",
        other => other.describe(),
    }
}

impl Walk<'_> {
    fn form(&mut self, info: &'static TypeInfo) -> Value {
        // Only user types (structs and enums) can refer back to themselves.
        let nominal = matches!(info.kind(), TypeKind::Struct(_) | TypeKind::Enum(_));
        if nominal {
            if self.open.contains(&info.type_id()) {
                return tagged("ref", [Value::from(info.name())]);
            }
            self.open.push(info.type_id());
        }
        let form = self.expand(info);
        if nominal {
            self.open.pop();
        }
        form
    }

    /// The form of a type a registered convention writes in its own shape, if any.
    fn marked(&mut self, info: &'static TypeInfo) -> Option<Value> {
        let registry = self.registry?;
        if let Some(implementors) = registry.implementors(info) {
            let forms = implementors
                .into_iter()
                .map(|implementor| (Value::from(implementor.name()), self.form(implementor)))
                .collect();
            return Some(tagged("dyn", [Value::Map(forms)]));
        }
        if registry.has_mark(info, Mark::Blob) {
            return Some(tagged("blob", []));
        }
        let fields = info.as_struct()?.fields;
        let first = fields.first()?;
        for (mark, kind) in [(Mark::Color, "color"), (Mark::Vector, "vector")] {
            if registry.has_mark(info, mark) {
                let component = self.form((first.ty)());
                return Some(tagged(
                    kind,
                    [component, Value::from(len_value(fields.len()))],
                ));
            }
        }
        None
    }

    fn expand(&mut self, info: &'static TypeInfo) -> Value {
        if let Some(form) = self.marked(info) {
            return form;
        }
        match info.kind() {
            TypeKind::Scalar(kind) => tagged(scalar_name(*kind), []),
            TypeKind::Uuid => tagged("uuid", []),
            TypeKind::Struct(s) => match s.style {
                StructStyle::Unit => tagged("null", []),
                StructStyle::Tuple if s.is_newtype() => self.form((s.fields[0].ty)()),
                StructStyle::Tuple => self.tuple(s.fields),
                StructStyle::Named => self.fields(s.fields),
            },
            TypeKind::Enum(e) => {
                let kind = if e.flags { "flags" } else { "enum" };
                let variants: Vec<Value> = e
                    .variants
                    .iter()
                    .map(|v| match v.style {
                        VariantStyle::Unit => Value::from(v.name),
                        VariantStyle::Newtype => {
                            let payload = self.form((v.fields[0].ty)());
                            Value::Map(vec![(Value::from(v.name), payload)])
                        }
                        VariantStyle::Tuple => {
                            let payload = self.tuple(v.fields);
                            Value::Map(vec![(Value::from(v.name), payload)])
                        }
                        VariantStyle::Struct => {
                            let payload = self.fields(v.fields);
                            Value::Map(vec![(Value::from(v.name), payload)])
                        }
                    })
                    .collect();
                tagged(kind, variants)
            }
            TypeKind::List { item } => tagged("list", [self.form(item())]),
            TypeKind::Array { item, len } => {
                let item = self.form(item());
                tagged("array", [item, Value::from(len_value(*len))])
            }
            TypeKind::Set { item } => tagged("set", [self.form(item())]),
            TypeKind::Map { key, value } => {
                let key = self.form(key());
                tagged("map", [key, self.form(value())])
            }
            TypeKind::Option { some } => tagged("option", [self.form(some())]),
            TypeKind::Box { inner } => self.form(inner()),
            TypeKind::Tuple { items: [] } => tagged("null", []),
            TypeKind::Tuple { items } => {
                let items: Vec<Value> = items.iter().map(|t| self.form(t())).collect();
                tagged("tuple", items)
            }
        }
    }

    fn fields(&mut self, fields: &'static [FieldInfo]) -> Value {
        Value::Map(
            fields
                .iter()
                .map(|f| (Value::from(f.name), self.form((f.ty)())))
                .collect(),
        )
    }

    fn tuple(&mut self, fields: &'static [FieldInfo]) -> Value {
        let items: Vec<Value> = fields.iter().map(|f| self.form((f.ty)())).collect();
        tagged("tuple", items)
    }
}

/// An array length as a JSON number (lengths beyond `u64` do not exist in practice).
pub(super) fn len_value(len: usize) -> u64 {
    u64::try_from(len).unwrap_or(u64::MAX)
}
