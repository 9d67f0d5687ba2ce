//! The definition file a variant was built from, kept for the layers that read it again: a
//! definition that inherits this one is laid over its keys, the evaluation reads its `[eval]`
//! section, `fairybridge tune` rewrites it. The rules never read it: it travels with the variant
//! among its `extensions`, a value of this layer's type.

use std::sync::{Arc, LazyLock};

use crate::core::Variant;

/// One definition file's name and text; a file that inherits another's definition keeps its
/// parent's source too.
#[derive(Clone, Debug, Default)]
pub struct DefinitionSource {
    pub file: String,
    pub text: Arc<str>,
    pub parent: Option<Arc<DefinitionSource>>,
}

/// The source of a variant built by hand, from no file: empty.
static NONE: LazyLock<DefinitionSource> = LazyLock::new(DefinitionSource::default);

impl DefinitionSource {
    /// The definition `variant` was built from (empty for a variant built from no file).
    pub fn of(variant: &Variant) -> &DefinitionSource {
        variant.extensions.get::<DefinitionSource>().unwrap_or(&NONE)
    }

    /// This file and the ones it inherits, the root parent first.
    pub fn chain(&self) -> Vec<&DefinitionSource> {
        let mut chain = vec![self];
        while let Some(parent) = chain.last().and_then(|s| s.parent.as_deref()) {
            chain.push(parent);
        }
        chain.reverse();
        chain
    }
}
