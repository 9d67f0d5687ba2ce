//! Logging: to stderr, filtered by `RUST_LOG` (default: warnings) with env_logger's filter syntax,
//! and — when the CECP option `Log_File` names one — every record from `debug` up to that file.
//! Never to stdout: stdout carries protocol only.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use env_filter::Filter;
use log::{LevelFilter, Log, Metadata, Record};

static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);
static LOGGER: OnceLock<Logger> = OnceLock::new();

struct Logger {
    stderr_filter: Filter,
}

impl Log for Logger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        self.stderr_filter.enabled(metadata) || (metadata.level() <= log::Level::Debug && has_file())
    }

    fn log(&self, record: &Record) {
        let line = format!("[{} {}] {}\n", record.level(), record.target(), record.args());
        if self.stderr_filter.matches(record) {
            let _ = std::io::stderr().write_all(line.as_bytes());
        }
        if record.level() <= log::Level::Debug
            && let Ok(mut guard) = LOG_FILE.lock()
            && let Some(f) = guard.as_mut()
        {
            // A failing log file must not take the engine down.
            let _ = f.write_all(line.as_bytes());
        }
    }

    fn flush(&self) {
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
        let mut builder = env_filter::Builder::new();
        match std::env::var("RUST_LOG") {
            Ok(spec) => builder.parse(&spec),
            Err(_) => builder.filter_level(LevelFilter::Warn),
        };
        Logger {
            stderr_filter: builder.build(),
        }
    });
    if log::set_logger(logger).is_ok() {
        log::set_max_level(LevelFilter::Debug);
    }
}

/// Starts (or, with an empty path, stops) copying log records to a file.
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
