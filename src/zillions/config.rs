//! The plug-in's configuration file (protocol/zillions.md §6): which Zillions games an external
//! XBoard or UCI engine plays, and how to start it. Named by `FAIRYBRIDGE_ZILLIONS_CONFIG`, else
//! `fairybridge.toml` beside the library (Zillions gives a plug-in no command line). Paths in the
//! file (`cmd` with a folder in it, `working_dir`, `variants`, `log`) are relative to the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::tournament::engine::Protocol;

/// The environment variable that names the configuration file.
pub const CONFIG_ENV: &str = "FAIRYBRIDGE_ZILLIONS_CONFIG";
/// The file looked for beside the library when the variable is not set.
pub const CONFIG_FILE: &str = "fairybridge.toml";

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileText {
    log: Option<String>,
    #[serde(default)]
    engine: Vec<EntryText>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryText {
    zillions: String,
    variant: Option<String>,
    cmd: String,
    protocol: String,
    #[serde(default)]
    args: Vec<String>,
    engine_variant: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    #[serde(default)]
    variants: Vec<String>,
    working_dir: Option<String>,
}

/// One `[[engine]]`: the Zillions game it plays and how to run it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineEntry {
    /// The game's name as Zillions passes it to `DLL_StartNewGame` (matched in any case).
    pub zillions: String,
    /// Our game (built-in or from `variants`); `None`: the game Zillions names, as our own
    /// engine finds it.
    pub variant: Option<String>,
    pub cmd: String,
    pub protocol: Protocol,
    pub args: Vec<String>,
    /// The engine's own name of the game (CECP `variant`, UCI `UCI_Variant`).
    pub engine_variant: Option<String>,
    /// CECP `option NAME=VALUE` / UCI `setoption name NAME value VALUE`, in name order.
    pub options: Vec<(String, String)>,
    /// Definition files or folders of our games, for `variant`.
    pub variants: Vec<PathBuf>,
    pub working_dir: Option<PathBuf>,
}

/// The whole file.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Where it was read from.
    pub path: PathBuf,
    /// A file that gets every log record from `debug` up (engine faults, refused moves).
    pub log: Option<PathBuf>,
    pub engines: Vec<EngineEntry>,
}

impl Config {
    /// Reads the file at `path`; `Err` is one line naming the file and what is wrong.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or as [`Config::parse`].
    pub fn read(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Config::parse(&text, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads `text`, the contents of the file at `path` (relative paths in it are resolved
    /// against its folder).
    ///
    /// # Errors
    ///
    /// A line that is not a setting of the file (the text names the file and line).
    pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
        let file: FileText = toml::from_str(text).map_err(|e| one_line(&e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut engines: Vec<EngineEntry> = Vec::new();
        for (i, e) in file.engine.into_iter().enumerate() {
            let at = format!("[[engine]] {} ({:?})", i + 1, e.zillions);
            let zillions = e.zillions.trim().to_string();
            if zillions.is_empty() {
                return Err(format!("[[engine]] {}: `zillions` is empty", i + 1));
            }
            if engines.iter().any(|o| o.zillions.eq_ignore_ascii_case(&zillions)) {
                return Err(format!("{at}: a second entry for the same game"));
            }
            if e.cmd.trim().is_empty() {
                return Err(format!("{at}: `cmd` is empty"));
            }
            let protocol = match e.protocol.to_ascii_lowercase().as_str() {
                "uci" => Protocol::Uci,
                "xboard" | "cecp" => Protocol::Cecp,
                _ => return Err(format!("{at}: protocol is \"uci\" or \"xboard\", not {:?}", e.protocol)),
            };
            let mut options = Vec::new();
            for (name, value) in e.options {
                let value = match value {
                    toml::Value::String(s) => s,
                    toml::Value::Integer(n) => n.to_string(),
                    toml::Value::Float(x) => x.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    _ => return Err(format!("{at}: option {name:?} is not a string, number or true/false")),
                };
                options.push((name, value));
            }
            engines.push(EngineEntry {
                zillions,
                variant: e.variant.map(|v| v.trim().to_string()),
                cmd: command_path(dir, e.cmd.trim()),
                protocol,
                args: e.args,
                engine_variant: e.engine_variant.map(|v| v.trim().to_string()),
                options,
                variants: e.variants.iter().map(|v| dir.join(v)).collect(),
                working_dir: e.working_dir.map(|d| dir.join(d)),
            });
        }
        Ok(Config {
            path: path.to_path_buf(),
            log: file.log.map(|l| dir.join(l)),
            engines,
        })
    }

    /// The entry for the game Zillions names (any case).
    pub fn entry(&self, zillions_name: &str) -> Option<&EngineEntry> {
        let name = zillions_name.trim();
        self.engines.iter().find(|e| e.zillions.eq_ignore_ascii_case(name))
    }
}

/// A command with a folder in it is relative to the file; a bare name is looked up in `PATH`.
fn command_path(dir: &Path, cmd: &str) -> String {
    let path = Path::new(cmd);
    if path.is_relative() && path.components().count() > 1 {
        dir.join(path).to_string_lossy().into_owned()
    } else {
        cmd.to_string()
    }
}

/// toml's message on one line (it shows the offending line below its first).
fn one_line(message: &str) -> String {
    message
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Which file to read, and whether it must exist: the one the variable names (it must), else
/// `fairybridge.toml` beside the library (only if it is there). `None`: no file (our engine plays
/// every game).
pub fn config_location(variable: Option<&std::ffi::OsStr>) -> Option<(PathBuf, bool)> {
    if let Some(v) = variable.filter(|v| !v.is_empty()) {
        return Some((PathBuf::from(v), true));
    }
    let beside = library_path()?.parent()?.join(CONFIG_FILE);
    Some((beside, false))
}

/// Reads the configuration Zillions' plug-in uses now: `Ok(None)` when there is none.
///
/// # Errors
///
/// A configuration file that exists but cannot be read or parsed.
pub fn load() -> Result<Option<Config>, String> {
    let variable = std::env::var_os(CONFIG_ENV);
    match config_location(variable.as_deref()) {
        None => Ok(None),
        Some((path, false)) if !path.exists() => Ok(None),
        Some((path, required)) => match Config::read(&path) {
            Err(e) if required => Err(format!("{e} (named by {CONFIG_ENV})")),
            other => other.map(Some),
        },
    }
}

/// The path of the library this code is in (the plug-in's `.so`/`.dll`; the executable when
/// linked into one).
#[cfg(unix)]
pub fn library_path() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let here = library_path as *const () as *const libc::c_void;
    // SAFETY: dladdr only reads the address and fills `info`; dli_fname, when set, is a
    // NUL-terminated string owned by the loader that lives as long as the library.
    unsafe {
        if libc::dladdr(here, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        let name = std::ffi::CStr::from_ptr(info.dli_fname);
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes())))
    }
}

/// The path of the DLL this code is in (`GetModuleHandleExW` from an address of ours, then
/// `GetModuleFileNameW`).
#[cfg(windows)]
pub fn library_path() -> Option<PathBuf> {
    use std::ffi::c_void;
    use std::os::windows::ffi::OsStringExt;
    const FROM_ADDRESS: u32 = 0x4;
    const UNCHANGED_REFCOUNT: u32 = 0x2;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    let mut module: *mut c_void = std::ptr::null_mut();
    let here = library_path as *const () as *const u16;
    let mut buf = vec![0u16; 32_768];
    // SAFETY: with FROM_ADDRESS the name argument is an address inside the module; the module
    // handle is not counted (UNCHANGED_REFCOUNT), and the buffer holds `buf.len()` characters.
    unsafe {
        if GetModuleHandleExW(FROM_ADDRESS | UNCHANGED_REFCOUNT, here, &mut module) == 0 {
            return None;
        }
        let n = GetModuleFileNameW(module, buf.as_mut_ptr(), buf.len() as u32) as usize;
        if n == 0 || n >= buf.len() {
            return None;
        }
        Some(PathBuf::from(std::ffi::OsString::from_wide(&buf[..n])))
    }
}

#[cfg(not(any(unix, windows)))]
pub fn library_path() -> Option<PathBuf> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, Path::new("/zoo/Engines/fairybridge.toml"))
    }

    #[test]
    fn every_key_of_an_entry_is_read_and_paths_are_relative_to_the_file() {
        let c = parse(
            r#"
            log = "bridge.log"
            [[engine]]
            zillions = "Shogi-ish"
            variant = "minishogi"
            cmd = "engines/fsf"
            protocol = "UCI"
            args = ["-q"]
            engine_variant = "minishogi"
            options = { Hash = 16, Ponder = false, "Skill Level" = "3" }
            variants = ["games/minishogi.toml"]
            working_dir = "engines"
            [[engine]]
            zillions = "Chess"
            cmd = "fairymax"
            protocol = "xboard"
            "#,
        )
        .expect("valid");
        assert_eq!(c.log, Some(PathBuf::from("/zoo/Engines/bridge.log")));
        let e = c.entry("shogi-ISH").expect("any case");
        assert_eq!(e.variant.as_deref(), Some("minishogi"));
        assert_eq!(e.cmd, "/zoo/Engines/engines/fsf");
        assert_eq!(e.protocol, Protocol::Uci);
        assert_eq!(e.args, ["-q"]);
        assert_eq!(e.engine_variant.as_deref(), Some("minishogi"));
        let options: Vec<(&str, &str)> = e.options.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(options, [("Hash", "16"), ("Ponder", "false"), ("Skill Level", "3")]);
        assert_eq!(e.variants, [PathBuf::from("/zoo/Engines/games/minishogi.toml")]);
        assert_eq!(e.working_dir, Some(PathBuf::from("/zoo/Engines/engines")));
        let chess = c.entry(" chess ").expect("the second");
        assert_eq!((chess.cmd.as_str(), chess.protocol), ("fairymax", Protocol::Cecp));
        assert_eq!(chess.variant, None);
        assert!(c.entry("Checkers").is_none());
    }

    #[test]
    fn mistakes_are_named() {
        for (text, says) in [
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\n",
                "missing field `protocol`",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\nprotocol = \"uci\"\n",
                "missing field `cmd`",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\nprotocol = \"uci\"\ncomand = 1\n",
                "unknown field `comand`",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\nprotocol = \"cecp2\"\n",
                "protocol is \"uci\" or \"xboard\"",
            ),
            (
                "[[engine]]\nzillions = \"\"\ncmd = \"x\"\nprotocol = \"uci\"\n",
                "`zillions` is empty",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \" \"\nprotocol = \"uci\"\n",
                "`cmd` is empty",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\nprotocol = \"uci\"\noptions = { Hash = [1] }\n",
                "option \"Hash\" is not a string",
            ),
            (
                "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\nprotocol = \"uci\"\n[[engine]]\nzillions = \"CHESS\"\ncmd = \"y\"\nprotocol = \"uci\"\n",
                "a second entry for the same game",
            ),
            ("[[engine]\n", "TOML parse error at line 1"),
            ("engines = 3\n", "unknown field `engines`"),
        ] {
            let e = parse(text).expect_err(text);
            assert!(e.contains(says), "{text:?}: {e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
        assert_eq!(parse("").expect("an empty file").engines, []);
    }

    #[test]
    fn the_file_is_the_variables_or_the_one_beside_the_library() {
        let named = std::ffi::OsStr::new("/somewhere/z.toml");
        assert_eq!(
            config_location(Some(named)),
            Some((PathBuf::from("/somewhere/z.toml"), true))
        );
        let (beside, required) = config_location(None).expect("the library's folder");
        assert!(!required);
        assert_eq!(beside.file_name(), Some(std::ffi::OsStr::new(CONFIG_FILE)));
        // In a test binary, "the library" is the test executable itself.
        let exe = std::env::current_exe().expect("exe");
        assert_eq!(
            beside.parent().map(|p| p.canonicalize().ok()),
            Some(exe.parent().and_then(|p| p.canonicalize().ok()))
        );
        let missing = Config::read(Path::new("/no/such/fairybridge.toml")).expect_err("missing");
        assert!(
            missing.starts_with("/no/such/fairybridge.toml: cannot read"),
            "{missing}"
        );
    }
}
