//! The variants known to this process: the built-in definitions, then definition files loaded one
//! by one or as a set (a folder), in which a child may come before the parent it inherits.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::definition::{self, DefinitionError, parse_definition_among};
use super::layer::DefinitionHead;
use super::sections::{Section, read_sections};
use crate::core::Variant;

/// The built-in definition files: (file name, text), each parent before the games inheriting it.
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
    /// The first `builtins` variants are the built-in games, which no file replaces.
    builtins: usize,
    /// The sections read from every definition loaded, besides the rules.
    sections: &'static [Section],
}

/// What loading a set of definition files gave: the games added, and one error for each file that
/// was left out.
#[derive(Default)]
pub struct Loaded {
    pub variants: Vec<Arc<Variant>>,
    pub errors: Vec<DefinitionError>,
}

/// A file of a set being loaded, and what its loading has come to.
struct Member {
    file: String,
    /// The text, or why it could not be read.
    text: Result<String, DefinitionError>,
    head: Option<DefinitionHead>,
    state: MemberState,
}

/// A set of definition files being loaded: its members, the chain of members waiting for their
/// parents, the door's check of each variant, and what the loading has given so far.
struct SetLoad<'a> {
    members: Vec<Member>,
    /// The members being loaded, each waiting for the next, its parent.
    chain: Vec<usize>,
    check: &'a dyn Fn(&Variant) -> Result<(), DefinitionError>,
    loaded: Loaded,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MemberState {
    Waiting,
    /// Loading, waiting for its parent: met again, it closes a cycle of `inherit`.
    Open,
    Loaded,
    Failed,
}

impl Registry {
    /// The built-in games, with only what the rules read of their definitions (no door's
    /// section: what the rules, the notation and the search need).
    pub fn builtin() -> Registry {
        Registry::builtin_with(&[])
    }

    /// The built-in games, with these sections read from every definition loaded (a door's own
    /// section, such as `[xboard]`).
    ///
    /// # Panics
    ///
    /// A built-in definition that does not load: a bug of this program, which the tests catch.
    pub fn builtin_with(sections: &'static [Section]) -> Registry {
        let mut registry = Registry {
            variants: Vec::new(),
            builtins: 0,
            sections,
        };
        for (file, text) in BUILTIN {
            match registry.read_definition(text, file) {
                Ok(v) => registry.variants.push(v),
                // A broken built-in is a bug in this program, caught by the tests.
                Err(e) => panic!("built-in variant definition is invalid: {e}"),
            }
        }
        registry.builtins = registry.variants.len();
        registry
    }

    /// Builds the variant of a definition text, with this registry's sections, without adding
    /// it; a file that inherits gets its parent among this registry's games.
    ///
    /// # Errors
    ///
    /// As [`parse_definition_among`](super::definition::parse_definition_among).
    pub fn read_definition(&self, text: &str, file: &str) -> Result<Arc<Variant>, DefinitionError> {
        let variant = parse_definition_among(text, file, &self.variants)?;
        read_sections(&variant, self.sections)?;
        Ok(variant)
    }

    /// Adds the variant defined in `path`; a game loaded from a file before under the same name is
    /// replaced, a built-in game never is (an error).
    ///
    /// # Errors
    ///
    /// The file cannot be read, is not a valid definition, or is named like a game already loaded.
    pub fn load_file(&mut self, path: &Path) -> Result<Arc<Variant>, DefinitionError> {
        self.load_file_checked(path, |_| Ok(()))
    }

    /// Adds the variant defined in `path` if `check` accepts it too (a door reading its own
    /// section of the file, such as `[xboard]`); replaces as `load_file` does.
    ///
    /// # Errors
    ///
    /// As [`Registry::load_file`], and what `check` refuses.
    pub fn load_file_checked(
        &mut self,
        path: &Path,
        check: impl Fn(&Variant) -> Result<(), DefinitionError>,
    ) -> Result<Arc<Variant>, DefinitionError> {
        let file = path.display().to_string();
        let text = read_text(path, &file)?;
        self.add_checked(&text, &file, &check)
    }

    fn add_checked(
        &mut self,
        text: &str,
        file: &str,
        check: &dyn Fn(&Variant) -> Result<(), DefinitionError>,
    ) -> Result<Arc<Variant>, DefinitionError> {
        let v = self.read_definition(text, file)?;
        check(&v)?;
        // A user's "normal" that silently replaced orthodox chess would change every command that
        // names no game: a built-in game keeps its name (a file starts from it with `inherit` under a new name).
        if let Some(builtin) = self.variants[..self.builtins].iter().find(|x| x.name == v.name) {
            let head: Option<DefinitionHead> = toml::from_str(text).ok();
            let line = head
                .and_then(|h| h.name)
                .map(|n| super::layer::line_of(text, n.span.start));
            return Err(DefinitionError {
                file: file.to_string(),
                line,
                message: format!(
                    "name = {:?} is the built-in game {:?} ({}); a file cannot replace it: give the \
                     game another name (inherit = {:?} starts from the built-in one)",
                    v.name, builtin.name, builtin.description, builtin.name
                ),
            });
        }
        self.variants.retain(|x| x.name != v.name);
        self.variants.push(Arc::clone(&v));
        Ok(v)
    }

    /// Loads every `*.toml` file of the folder `dir`, as `load_paths` does.
    pub fn load_dir(&mut self, dir: &Path) -> Loaded {
        self.load_paths(&[dir.to_path_buf()], |_| Ok(()))
    }

    /// Loads definition files, and the `*.toml` files of folders (in the order of their names), as
    /// one set: a file that inherits the game of another file of the set is loaded after that
    /// one, wherever it stands; the others in the order given. A file with a mistake, or whose
    /// parent's file has one, is left out with its error (a cycle of `inherit` is one); `check`
    /// is asked about each variant as in `load_file_checked`.
    pub fn load_paths(&mut self, paths: &[PathBuf], check: impl Fn(&Variant) -> Result<(), DefinitionError>) -> Loaded {
        let mut loaded = Loaded::default();
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                match definition_files_in(path) {
                    Ok(found) => files.extend(found),
                    Err(e) => loaded.errors.push(e),
                }
            } else {
                files.push(path.clone());
            }
        }
        let members: Vec<Member> = files
            .iter()
            .map(|path| {
                let file = path.display().to_string();
                let text = read_text(path, &file);
                // A file the head cannot be read from has no parent here; reading it whole
                // reports its mistake.
                let head = text.as_ref().ok().and_then(|t| toml::from_str(t).ok());
                Member {
                    file,
                    text,
                    head,
                    state: MemberState::Waiting,
                }
            })
            .collect();
        let mut set = SetLoad {
            members,
            chain: Vec::new(),
            check: &check,
            loaded,
        };
        for i in 0..set.members.len() {
            self.load_member(i, &mut set);
        }
        set.loaded
    }

    /// Loads member `i` of a set after its parent, if the parent is a member too.
    fn load_member(&mut self, i: usize, set: &mut SetLoad) -> bool {
        match set.members[i].state {
            MemberState::Loaded => return true,
            MemberState::Failed => return false,
            MemberState::Waiting | MemberState::Open => {}
        }
        set.members[i].state = MemberState::Open;
        set.chain.push(i);
        let result = self.load_after_parent(i, set);
        set.chain.pop();
        set.members[i].state = match result {
            Ok(v) => {
                set.loaded.variants.push(v);
                MemberState::Loaded
            }
            Err(e) => {
                set.loaded.errors.push(e);
                MemberState::Failed
            }
        };
        set.members[i].state == MemberState::Loaded
    }

    fn load_after_parent(&mut self, i: usize, set: &mut SetLoad) -> Result<Arc<Variant>, DefinitionError> {
        let name_of = |m: &Member| {
            m.head
                .as_ref()
                .and_then(|h| h.name.as_ref())
                .map(|n| n.value.trim().to_string())
        };
        let inherit = set.members[i].head.as_ref().and_then(|h| h.inherit.clone());
        if let Some(inherit) = inherit {
            let wanted = inherit.value.trim();
            // The parent is another member of that name; a file inheriting its own name
            // redefines a game loaded from a file before (never a built-in one).
            let parent =
                (0..set.members.len()).find(|&j| j != i && name_of(&set.members[j]).as_deref() == Some(wanted));
            if let Some(j) = parent {
                let file = set.members[i].file.clone();
                let line = super::layer::line_of(set.members[i].text.as_deref().unwrap_or(""), inherit.span.start);
                let at = |message: String| DefinitionError {
                    file: file.clone(),
                    line: Some(line),
                    message,
                };
                if set.members[j].state == MemberState::Open {
                    let from = set.chain.iter().position(|&k| k == j).unwrap_or(0);
                    let cycle: Vec<String> = set.chain[from..]
                        .iter()
                        .chain([&j])
                        .map(|&k| {
                            format!(
                                "{} ({})",
                                name_of(&set.members[k]).unwrap_or_default(),
                                set.members[k].file
                            )
                        })
                        .collect();
                    return Err(at(format!(
                        "inherit = {wanted:?}: a cycle of inherit: {}",
                        cycle.join(" -> ")
                    )));
                }
                if !self.load_member(j, set) {
                    return Err(at(format!(
                        "inherit = {wanted:?}: the parent's definition {} could not be loaded",
                        set.members[j].file
                    )));
                }
            }
        }
        let member = &set.members[i];
        let text = member.text.as_ref().map_err(Clone::clone)?;
        self.add_checked(text, &member.file, set.check)
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

/// The text of a definition file.
fn read_text(path: &Path, file: &str) -> Result<String, DefinitionError> {
    let bytes = std::fs::read(path).map_err(|e| DefinitionError {
        file: file.to_string(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    definition::definition_text(bytes, file)
}

/// The `*.toml` files of a folder, in the order of their names.
fn definition_files_in(dir: &Path) -> Result<Vec<PathBuf>, DefinitionError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DefinitionError {
        file: dir.display().to_string(),
        line: None,
        message: format!("cannot read the folder: {e}"),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}
