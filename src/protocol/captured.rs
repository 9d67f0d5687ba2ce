//! A session's output kept in memory, for tests and fuzz targets that drive a door in-process:
//! the session holds one clone as its writer, the harness reads what it wrote through another.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// Everything written so far that has not been taken.
#[derive(Clone, Default)]
pub struct CapturedOutput(Arc<Mutex<Vec<u8>>>);

impl CapturedOutput {
    /// A panic elsewhere must not hide what was written: the bytes stay readable.
    fn bytes(&self) -> MutexGuard<'_, Vec<u8>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The complete lines written since the last take (a line still being written stays).
    pub fn take_lines(&self) -> Vec<String> {
        let mut buf = self.bytes();
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            return Vec::new();
        };
        let text: Vec<u8> = buf.drain(..=end).collect();
        String::from_utf8_lossy(&text).lines().map(str::to_string).collect()
    }

    /// What is written and not taken, left in place.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }

    /// Forgets what is written and not taken.
    pub fn clear(&self) {
        self.bytes().clear();
    }
}

impl Write for CapturedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_still_being_written_is_not_taken() {
        let out = CapturedOutput::default();
        let mut writer = out.clone();
        write!(writer, "pong 1\npong").unwrap();
        assert_eq!(out.take_lines(), ["pong 1"]);
        assert_eq!(out.text(), "pong");
        writeln!(writer, " 2").unwrap();
        assert_eq!(out.take_lines(), ["pong 2"]);
        assert!(out.take_lines().is_empty());
    }
}
