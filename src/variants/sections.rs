//! The sections of a definition file that the rules never read, such as `[xboard]` (how XBoard is
//! told about the game): each is read once, when the definition loads, by the `Section` of the
//! layer that owns it, into that layer's own typed value; the owner finds the value again in
//! `Variant::extensions`. A registry reads the sections it was made with (`Registry::builtin_with`)
//! for every definition it loads, and leaves out a file whose section is wrong, with its error.

use std::sync::Arc;

use super::definition::DefinitionError;
use super::layer::SourceFile;
use super::source::DefinitionSource;
use crate::core::Variant;
use crate::core::variant::Extension;

/// How one layer reads its section of a definition: from the variant built from it and the chain
/// of files it was read from (the root parent first), into a typed value (`Arc::new(value)`).
#[derive(Clone, Copy)]
pub struct Section {
    pub read: fn(&Variant, &[SourceFile]) -> Result<Extension, DefinitionError>,
}

/// Reads every section of a freshly built variant and keeps the values in it.
pub(super) fn read_sections(variant: &Arc<Variant>, sections: &[Section]) -> Result<(), DefinitionError> {
    if sections.is_empty() {
        return Ok(());
    }
    let chain: Vec<&DefinitionSource> = DefinitionSource::of(variant).chain();
    let files: Vec<SourceFile> = chain
        .iter()
        .map(|s| SourceFile {
            file: &s.file,
            text: &s.text,
        })
        .collect();
    let values = sections
        .iter()
        .map(|s| (s.read)(variant, &files))
        .collect::<Result<Vec<Extension>, DefinitionError>>()?;
    // A variant is read here once, just built and not yet shared: its values are not set yet.
    variant.extensions.set(values);
    Ok(())
}
