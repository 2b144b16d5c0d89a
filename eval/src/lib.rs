//! Static evaluation.
