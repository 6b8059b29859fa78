//! Data overlays: values supplied from outside the stream.

use sluice_core::{Error, Result, Value};

use super::{Evolution, codes};

/// Supplies values for `{"$overlay": "provider-id/token"}` references: a value kept
/// somewhere else (a localisation table, a per-platform file, a secrets store) that the
/// data only names.
///
/// Closures `Fn(&str) -> Option<Value>` are providers.
///
/// ```
/// use sluice_core::Value;
/// use sluice_reflect::{Reflect, TypeRegistry};
/// #[derive(Reflect, Debug, Default, PartialEq)]
/// struct Label { text: String }
///
/// let mut registry = TypeRegistry::new();
/// registry.overlay_provider("strings", |token: &str| {
///     (token == "greeting").then(|| Value::from("Hello"))
/// });
/// let input = Value::Map(vec![(
///     Value::from("text"),
///     Value::Map(vec![(Value::from("$overlay"), Value::from("strings/greeting"))]),
/// )]);
/// let label: Label = sluice_reflect::evolve::json()
///     .deserialize(&mut sluice_core::ValueReader::new(&input), &registry)?;
/// assert_eq!(label.text, "Hello");
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub trait OverlayProvider: Send + Sync {
    /// The value for `token`, or `None` when the provider has none.
    fn provide(&self, token: &str) -> Option<Value>;
}

impl<F: Fn(&str) -> Option<Value> + Send + Sync> OverlayProvider for F {
    fn provide(&self, token: &str) -> Option<Value> {
        self(token)
    }
}

/// The reference inside `value` when it is an overlay (a map whose only key is `$overlay`).
fn reference(value: &Value) -> Option<&Value> {
    match value.as_map()? {
        [(key, reference)] if key.as_str() == Some("$overlay") => Some(reference),
        _ => None,
    }
}

impl Evolution {
    pub(crate) fn has_overlays(&self) -> bool {
        !self.overlays.is_empty()
    }

    /// Replaces every overlay reference in `value` (at any depth) by the provided value.
    pub(crate) fn resolve_overlays(&self, value: &mut Value) -> Result<()> {
        if let Some(reference) = reference(value) {
            let provided = self.provide(reference)?;
            *value = provided;
            return Ok(());
        }
        match value {
            Value::Array(items) => items.iter_mut().try_for_each(|v| self.resolve_overlays(v)),
            Value::Map(entries) => entries
                .iter_mut()
                .try_for_each(|(_, v)| self.resolve_overlays(v)),
            _ => Ok(()),
        }
    }

    fn provide(&self, reference: &Value) -> Result<Value> {
        let text = reference.as_str().ok_or_else(|| {
            Error::new(
                codes::INVALID_OVERLAY,
                format!(
                    "an $overlay reference is a string, found a {}",
                    reference.kind_name()
                ),
            )
        })?;
        let Some((id, token)) = text.split_once('/') else {
            return Err(Error::new(
                codes::INVALID_OVERLAY,
                format!("the $overlay reference `{text}` is not of the form provider-id/token"),
            ));
        };
        let provider = self.overlays.get(id).ok_or_else(|| {
            let mut known: Vec<&str> = self.overlays.keys().map(String::as_str).collect();
            known.sort_unstable();
            Error::new(
                codes::OVERLAY_NOT_FOUND,
                format!("no overlay provider `{id}` (known: {})", known.join(", ")),
            )
        })?;
        provider.provide(token).ok_or_else(|| {
            Error::new(
                codes::OVERLAY_NOT_FOUND,
                format!("the overlay provider `{id}` has no value for `{token}`"),
            )
        })
    }
}
