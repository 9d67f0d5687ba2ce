//! Before the first game: every file the match is to write (`--pgn`, `--resume`, `--zsg`) can be
//! written. A path in a folder that does not exist or cannot be written is a bad argument (exit
//! 2), not a match played for nothing.

use std::path::{Path, PathBuf};

use super::runner::MatchConfig;

/// Checks the match's output files; the first that cannot be written, as an error naming its flag.
///
/// # Errors
///
/// An output file that cannot be created or appended to.
pub fn check_writable(cfg: &MatchConfig) -> Result<(), String> {
    if let Some(path) = &cfg.pgn {
        // An existing file is opened as the match will append to it; a new one is not made yet (a
        // match refused later leaves no empty PGN behind).
        let opened = if path.exists() {
            std::fs::OpenOptions::new().append(true).open(path).map(|_| ())
        } else {
            probe_folder(path)
        };
        opened.map_err(|e| format!("--pgn: cannot write {}: {e}", path.display()))?;
    }
    if let Some(resume) = &cfg.resume {
        // The state is written to a temporary file beside it, then renamed.
        probe_folder(&resume.path).map_err(|e| format!("--resume: cannot write {}: {e}", resume.path.display()))?;
    }
    if let Some(path) = &cfg.zsg {
        // One save game per game, named after FILE in its folder.
        probe_folder(path).map_err(|e| format!("--zsg: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Creates and removes a file beside `path`: its folder exists and takes new files.
fn probe_folder(path: &Path) -> std::io::Result<()> {
    let probe = probe_path(path);
    std::fs::OpenOptions::new().write(true).create_new(true).open(&probe)?;
    std::fs::remove_file(&probe)
}

fn probe_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".probe-{}", std::process::id()));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_a_missing_folder_or_under_a_file_cannot_be_written() {
        let dir = std::env::temp_dir().join(format!("fb-outputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("m.state");
        assert!(probe_folder(&good).is_ok());
        assert!(!probe_path(&good).exists(), "the probe is removed");
        assert!(probe_folder(&dir.join("missing/m.state")).is_err());
        let file = dir.join("plain");
        std::fs::write(&file, "x").unwrap();
        assert!(probe_folder(&file.join("m.state")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
