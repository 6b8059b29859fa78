//! Between serde types and sluice's [`Value`] tree.

use serde::de::DeserializeOwned;
use serde::ser::Serialize;
use sluice_core::{Value, ValueReader, ValueWriter};

use crate::Result;

/// Turns `value` into a sluice [`Value`] (numbers stay typed, `f32` stays `f32`).
///
/// ```
/// use sluice_core::Value;
/// #[derive(serde::Serialize)]
/// struct Item {
///     id: u32,
///     tags: Vec<&'static str>,
/// }
/// let value = sluice_serde::to_value(&Item { id: 7, tags: vec!["a"] })?;
/// assert_eq!(value.get("id").and_then(Value::as_u64), Some(7));
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// An error from the `Serialize` implementation.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    let mut writer = ValueWriter::new();
    crate::to_writer(value, &mut writer)?;
    Ok(writer.into_value()?)
}

/// Reads a `T` out of a sluice [`Value`].
///
/// ```
/// use sluice_core::Value;
/// let value = Value::Map(vec![(Value::from("1"), Value::from("one"))]);
/// let map: std::collections::HashMap<u8, String> = sluice_serde::from_value(&value)?;
/// assert_eq!(map[&1], "one");
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A value the type does not accept, with its path.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T> {
    crate::from_reader(ValueReader::new(value))
}
