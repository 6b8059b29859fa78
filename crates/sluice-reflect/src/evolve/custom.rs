//! Custom text and binary forms of a type (Lumberyard's `IDataSerializer`).

use std::sync::Arc;

use sluice_core::Result;

use crate::{Reflect, Typed};

/// A type's own text form (used when writing JSON) and binary form (used when writing
/// MessagePack). Reading accepts either form in either format.
///
/// ```
/// use sluice_core::{Error, Result};
/// use sluice_reflect::evolve::DataSerializer;
///
/// /// An RGB color as `"#RRGGBB"` in text and three bytes in binary.
/// struct Hex;
/// impl DataSerializer<[u8; 3]> for Hex {
///     fn to_text(&self, c: &[u8; 3]) -> String { format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2]) }
///     fn from_text(&self, text: &str) -> Result<[u8; 3]> {
///         let bad = || Error::new(sluice_reflect::codes::INVALID_FORM, format!("not a color: {text}"));
///         let digits = text.strip_prefix('#').filter(|d| d.len() == 6).ok_or_else(bad)?;
///         let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).map_err(|_| bad());
///         Ok([byte(0)?, byte(2)?, byte(4)?])
///     }
///     fn to_bytes(&self, c: &[u8; 3]) -> Vec<u8> { c.to_vec() }
///     fn from_bytes(&self, bytes: &[u8]) -> Result<[u8; 3]> {
///         bytes.try_into().map_err(|_| Error::new(sluice_reflect::codes::INVALID_FORM, "3 bytes expected"))
///     }
/// }
/// assert_eq!(Hex.to_text(&[255, 77, 51]), "#FF4D33");
/// ```
// `from_text` / `from_bytes` take `self`: the serializer may carry settings (a format).
#[allow(clippy::wrong_self_convention)]
pub trait DataSerializer<T>: Send + Sync {
    /// The text form.
    fn to_text(&self, value: &T) -> String;
    /// Reads the text form.
    ///
    /// # Errors
    /// When `text` is not a valid text form (best with code
    /// [`INVALID_FORM`](crate::codes::INVALID_FORM)).
    fn from_text(&self, text: &str) -> Result<T>;
    /// The binary form.
    fn to_bytes(&self, value: &T) -> Vec<u8>;
    /// Reads the binary form.
    ///
    /// # Errors
    /// When `bytes` are not a valid binary form.
    fn from_bytes(&self, bytes: &[u8]) -> Result<T>;
}

type ToText = Arc<dyn Fn(&dyn Reflect) -> Option<String> + Send + Sync>;
type ToBytes = Arc<dyn Fn(&dyn Reflect) -> Option<Vec<u8>> + Send + Sync>;
type FromText = Arc<dyn Fn(&str, &mut dyn Reflect) -> Result<bool> + Send + Sync>;
type FromBytes = Arc<dyn Fn(&[u8], &mut dyn Reflect) -> Result<bool> + Send + Sync>;

/// A [`DataSerializer`] over `&dyn Reflect`: `None` / `false` when the value is not a `T`.
#[derive(Clone)]
pub(crate) struct ErasedSerializer {
    pub(crate) to_text: ToText,
    pub(crate) to_bytes: ToBytes,
    pub(crate) from_text: FromText,
    pub(crate) from_bytes: FromBytes,
}

impl ErasedSerializer {
    pub(crate) fn new<T: Typed>(serializer: impl DataSerializer<T> + 'static) -> ErasedSerializer {
        let serializer = Arc::new(serializer);
        let (s1, s2, s3) = (
            Arc::clone(&serializer),
            Arc::clone(&serializer),
            Arc::clone(&serializer),
        );
        ErasedSerializer {
            to_text: Arc::new(move |value| value.downcast_ref::<T>().map(|v| s1.to_text(v))),
            to_bytes: Arc::new(move |value| value.downcast_ref::<T>().map(|v| s2.to_bytes(v))),
            from_text: Arc::new(move |text, place| match place.downcast_mut::<T>() {
                Some(place) => {
                    *place = s3.from_text(text)?;
                    Ok(true)
                }
                None => Ok(false),
            }),
            from_bytes: Arc::new(move |bytes, place| match place.downcast_mut::<T>() {
                Some(place) => {
                    *place = serializer.from_bytes(bytes)?;
                    Ok(true)
                }
                None => Ok(false),
            }),
        }
    }
}

/// The [`DataSerializer`] of [`Uuid`](uuid::Uuid): its hyphenated string in text (braced and
/// uppercase forms read too), its 16 bytes in binary (MessagePack `bin`).
///
/// ```
/// use sluice_reflect::{TypeRegistry, Uuid, evolve::UuidBytes};
/// let mut registry = TypeRegistry::new();
/// registry.data_serializer::<Uuid>(UuidBytes);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct UuidBytes;

fn invalid_uuid(what: &str) -> sluice_core::Error {
    sluice_core::Error::new(crate::codes::INVALID_UUID, format!("not a uuid: {what}"))
}

impl DataSerializer<uuid::Uuid> for UuidBytes {
    fn to_text(&self, value: &uuid::Uuid) -> String {
        value.hyphenated().to_string()
    }

    fn from_text(&self, text: &str) -> Result<uuid::Uuid> {
        uuid::Uuid::parse_str(text).map_err(|_| invalid_uuid(&format!("{text:?}")))
    }

    fn to_bytes(&self, value: &uuid::Uuid) -> Vec<u8> {
        value.as_bytes().to_vec()
    }

    fn from_bytes(&self, bytes: &[u8]) -> Result<uuid::Uuid> {
        uuid::Uuid::from_slice(bytes).map_err(|_| invalid_uuid(&format!("{} bytes", bytes.len())))
    }
}
