//! Logging: to stderr through env_logger, filtered by `RUST_LOG` (default: warnings), and — when
//! the CECP option `Log_File` names one — every record from `debug` up to that file.
//! Never to stdout: stdout carries protocol only.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use log::{LevelFilter, Log, Metadata, Record};

static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);
static LOGGER: OnceLock<Logger> = OnceLock::new();

struct Logger {
    /// env_logger's own logger, writing to stderr.
    stderr: env_logger::Logger,
}

impl Log for Logger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        self.stderr.enabled(metadata) || (metadata.level() <= log::Level::Debug && has_file())
    }

    fn log(&self, record: &Record) {
        if self.stderr.matches(record) {
            self.stderr.log(record);
        }
        if record.level() <= log::Level::Debug
            && let Ok(mut guard) = LOG_FILE.lock()
            && let Some(f) = guard.as_mut()
        {
            // A failing log file must not take the engine down.
            let line = format!("[{} {}] {}\n", record.level(), record.target(), record.args());
            let _ = f.write_all(line.as_bytes());
        }
    }

    fn flush(&self) {
        self.stderr.flush();
        if let Ok(mut guard) = LOG_FILE.lock()
            && let Some(f) = guard.as_mut()
        {
            let _ = f.flush();
        }
    }
}

/// Installs the logger once; later calls do nothing.
pub fn init() {
    let logger = LOGGER.get_or_init(|| {
        let env = env_logger::Env::default().default_filter_or("warn");
        let stderr = env_logger::Builder::from_env(env)
            .target(env_logger::Target::Stderr)
            .build();
        Logger { stderr }
    });
    if log::set_logger(logger).is_ok() {
        log::set_max_level(LevelFilter::Debug);
    }
}

/// Starts (or, with an empty path, stops) copying log records to a file.
///
/// # Errors
///
/// The file cannot be opened for appending.
pub fn set_file(path: &str) -> std::io::Result<()> {
    let file = if path.trim().is_empty() {
        None
    } else {
        Some(File::options().create(true).append(true).open(path.trim())?)
    };
    if let Ok(mut guard) = LOG_FILE.lock() {
        *guard = file;
    }
    Ok(())
}

/// Is a log file open?
pub fn has_file() -> bool {
    LOG_FILE.lock().map(|g| g.is_some()).unwrap_or(false)
}
