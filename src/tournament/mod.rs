//! Engine-vs-engine matches refereed by our own rules core.

pub mod stats;
