//! Shared helpers for the sluice benchmarks.
