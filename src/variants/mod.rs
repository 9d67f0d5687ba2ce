//! The games fairybridge plays: built-in definitions embedded in the binary, plus definition files
//! loaded at start-up.

pub mod definition;
pub mod shuffle;

use std::sync::Arc;

use crate::core::Variant;
pub use definition::{DefinitionError, parse_definition};

/// The built-in definition files: (file name, text).
const BUILTIN: &[(&str, &str)] = &[
    ("normal.toml", include_str!("../../fixtures/variants/normal.toml")),
    (
        "wildcastle.toml",
        include_str!("../../fixtures/variants/wildcastle.toml"),
    ),
    ("pillage.toml", include_str!("../../fixtures/variants/pillage.toml")),
    ("wildrose.toml", include_str!("../../fixtures/variants/wildrose.toml")),
    ("wreckage.toml", include_str!("../../fixtures/variants/wreckage.toml")),
    (
        "crazyhouse.toml",
        include_str!("../../fixtures/variants/crazyhouse.toml"),
    ),
];

/// The variants known to this process.
#[derive(Clone)]
pub struct Registry {
    variants: Vec<Arc<Variant>>,
}

impl Registry {
    /// The built-in games.
    pub fn builtin() -> Registry {
        let variants = BUILTIN
            .iter()
            .map(|(file, text)| match parse_definition(text, file) {
                Ok(v) => v,
                // A broken built-in is a bug in this program, caught by the tests.
                Err(e) => panic!("built-in variant definition is invalid: {e}"),
            })
            .collect();
        Registry { variants }
    }

    /// Adds the variant defined in `path`; a variant with the same name is replaced.
    pub fn load_file(&mut self, path: &std::path::Path) -> Result<Arc<Variant>, DefinitionError> {
        self.load_file_checked(path, |_| Ok(()))
    }

    /// Adds the variant defined in `path` if `check` accepts it too (a door reading its own
    /// section of the file, such as `[xboard]`); a variant with the same name is replaced.
    pub fn load_file_checked(
        &mut self,
        path: &std::path::Path,
        check: impl Fn(&Variant) -> Result<(), DefinitionError>,
    ) -> Result<Arc<Variant>, DefinitionError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| DefinitionError {
            file: file.clone(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
        let text = definition::definition_text(bytes, &file)?;
        let v = parse_definition(&text, &file)?;
        check(&v)?;
        self.variants.retain(|x| x.name != v.name);
        self.variants.push(Arc::clone(&v));
        Ok(v)
    }

    pub fn get(&self, name: &str) -> Option<Arc<Variant>> {
        self.variants.iter().find(|v| v.name == name).cloned()
    }

    pub fn names(&self) -> Vec<&str> {
        self.variants.iter().map(|v| v.name.as_str()).collect()
    }

    pub fn all(&self) -> &[Arc<Variant>] {
        &self.variants
    }
}
