//! Per-type events around reading and writing.

use std::sync::Arc;

use crate::{Reflect, Typed};

pub(crate) type ReadHook = Arc<dyn Fn(&mut dyn Reflect) + Send + Sync>;
pub(crate) type WriteHook = Arc<dyn Fn(&dyn Reflect) + Send + Sync>;

/// The hooks of one type, in registration order.
#[derive(Default)]
pub(crate) struct Events {
    pub(crate) read_begin: Vec<ReadHook>,
    pub(crate) read_end: Vec<ReadHook>,
    pub(crate) write_begin: Vec<WriteHook>,
    pub(crate) write_end: Vec<WriteHook>,
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events")
            .field("read_begin", &self.read_begin.len())
            .field("read_end", &self.read_end.len())
            .field("write_begin", &self.write_begin.len())
            .field("write_end", &self.write_end.len())
            .finish()
    }
}

impl Events {
    pub(crate) fn has_read(&self) -> bool {
        !self.read_begin.is_empty() || !self.read_end.is_empty()
    }

    pub(crate) fn has_write(&self) -> bool {
        !self.write_begin.is_empty() || !self.write_end.is_empty()
    }
}

pub(crate) fn typed_mut<T: Typed>(hook: impl Fn(&mut T) + Send + Sync + 'static) -> ReadHook {
    Arc::new(move |value: &mut dyn Reflect| {
        // The rules call a type's hooks only with values of that type.
        if let Some(value) = value.downcast_mut::<T>() {
            hook(value);
        }
    })
}

pub(crate) fn typed_ref<T: Typed>(hook: impl Fn(&T) + Send + Sync + 'static) -> WriteHook {
    Arc::new(move |value: &dyn Reflect| {
        if let Some(value) = value.downcast_ref::<T>() {
            hook(value);
        }
    })
}
