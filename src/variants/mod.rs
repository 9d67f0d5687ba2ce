//! The games fairybridge plays: built-in definitions embedded in the binary, plus definition files
//! loaded at start-up.

pub mod definition;
mod layer;
mod registry;
mod sections;
pub mod shuffle;
mod source;

pub use definition::{DefinitionError, parse_definition, parse_definition_among};
pub use layer::SourceFile;
pub use registry::{Loaded, Registry};
pub use sections::Section;
pub use source::DefinitionSource;

/// Orthodox chess's name: the game every command plays unless told another, and the name XBoard
/// gives it too (UCI and Zillions call it chess and standard).
pub const NORMAL: &str = "normal";
