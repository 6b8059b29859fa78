//! MessagePack reader and writer for sluice, with the timestamp extension.
#![warn(missing_docs)]
