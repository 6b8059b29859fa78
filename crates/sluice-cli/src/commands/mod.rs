//! One module per subcommand.

pub(crate) mod check;
pub(crate) mod convert;
pub(crate) mod dump;
pub(crate) mod fmt;
pub(crate) mod ndjson;
pub(crate) mod pump;
