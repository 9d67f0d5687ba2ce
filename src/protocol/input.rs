//! The GUI's input, shared by every stdio door: lines of bounded length, read by a tokio task so
//! that input is taken in while a search runs.
//!
//! A line longer than [`MAX_LINE_BYTES`] is not buffered whole: its first bytes are kept for the
//! error reply, the rest up to the newline is read and thrown away. No protocol has a line that
//! long; a GUI (or anyone) sending one must not make the engine grow without bound.

use std::future::Future;
use std::time::Instant;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, BufReader};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// The longest line taken in (bytes, newline excluded).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// How much of an over-long line is kept to name it in the error reply.
const KEPT_OF_LONG_LINE: usize = 32;

/// What the reader delivers.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Input {
    /// A line without its line ending, with the moment it was read (our clock runs from then).
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`], discarded: its first characters and its length.
    TooLong { start: String, bytes: usize },
    /// The GUI closed our input (or reading failed).
    Eof,
}

impl Input {
    /// The one-line description of a discarded line, for a door's error reply: never the whole
    /// line.
    pub fn too_long_text(start: &str, bytes: usize) -> String {
        format!("line of {bytes} bytes starting {start:?}... ignored (at most {MAX_LINE_BYTES})")
    }
}

/// One line being collected, at most `MAX_LINE_BYTES` of it kept.
#[derive(Default)]
struct Pending {
    kept: Vec<u8>,
    bytes: usize,
}

impl Pending {
    fn push(&mut self, chunk: &[u8]) {
        let room = (MAX_LINE_BYTES + 1).saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.bytes = self.bytes.saturating_add(chunk.len());
    }

    fn finish(&mut self) -> Input {
        let pending = std::mem::take(self);
        let mut bytes = pending.bytes;
        let mut kept = pending.kept;
        // `\r\n` line endings: the `\r` is not part of the line.
        if bytes <= MAX_LINE_BYTES + 1 && kept.last() == Some(&b'\r') {
            kept.pop();
            bytes -= 1;
        }
        if bytes > MAX_LINE_BYTES {
            kept.truncate(KEPT_OF_LONG_LINE);
            return Input::TooLong {
                start: String::from_utf8_lossy(&kept).into_owned(),
                bytes,
            };
        }
        Input::Line(String::from_utf8_lossy(&kept).into_owned(), Instant::now())
    }
}

/// Reads `input` line by line into `sink` until end of input (then sends `Eof`) or until nobody
/// listens any more. A last line without a newline is delivered before `Eof`.
pub async fn read_lines<R: AsyncBufRead + Unpin>(mut input: R, sink: UnboundedSender<Input>) {
    let mut line = Pending::default();
    loop {
        let (used, complete) = match input.fill_buf().await {
            Ok([]) | Err(_) => {
                if line.bytes > 0 && sink.send(line.finish()).is_err() {
                    return;
                }
                let _ = sink.send(Input::Eof);
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    line.push(&buf[..at]);
                    (at + 1, true)
                }
                None => {
                    line.push(buf);
                    (buf.len(), false)
                }
            },
        };
        input.consume(used);
        if complete {
            let next = line.finish();
            if let Input::Line(text, _) = &next {
                log::debug!("> {text}");
            }
            if sink.send(next).is_err() {
                return;
            }
        }
    }
}

/// Runs `door` on a single-threaded runtime, with stdin read into its channel by [`read_lines`]:
/// the one reader of every stdio door. Returns once `door` has finished.
///
/// # Errors
///
/// The runtime cannot be started (the text says why).
pub fn serve_stdin<F, Fut>(door: F) -> Result<(), String>
where
    F: FnOnce(UnboundedReceiver<Input>) -> Fut,
    Fut: Future<Output = ()>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))?;
    runtime.block_on(async {
        let (tx, inputs) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(read_lines(BufReader::new(tokio::io::stdin()), tx));
        door(inputs).await;
    });
    // The reader may still wait on stdin: it is not waited for.
    runtime.shutdown_background();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: Vec<u8>) -> Vec<Input> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        runtime.block_on(read_lines(tokio::io::BufReader::new(&bytes[..]), tx));
        let mut got = Vec::new();
        while let Ok(i) = rx.try_recv() {
            got.push(match i {
                Input::Line(text, _) => Input::Line(text, Instant::now()),
                other => other,
            });
        }
        got
    }

    fn lines(inputs: &[Input]) -> Vec<String> {
        inputs
            .iter()
            .map(|i| match i {
                Input::Line(t, _) => t.clone(),
                Input::TooLong { start, bytes } => format!("TOO LONG {bytes} {start}"),
                Input::Eof => "EOF".to_string(),
            })
            .collect()
    }

    #[test]
    fn lines_without_endings_then_eof() {
        let got = read_all(b"uci\r\nisready\n\nquit".to_vec());
        assert_eq!(lines(&got), ["uci", "isready", "", "quit", "EOF"]);
    }

    #[test]
    fn an_overlong_line_is_cut_and_the_next_line_survives() {
        let mut input = vec![b'x'; 3 * MAX_LINE_BYTES + 17];
        input.extend_from_slice(b"\nisready\n");
        let got = read_all(input);
        assert_eq!(
            lines(&got),
            [
                format!("TOO LONG {} {}", 3 * MAX_LINE_BYTES + 17, "x".repeat(KEPT_OF_LONG_LINE)),
                "isready".to_string(),
                "EOF".to_string()
            ]
        );
    }

    #[test]
    fn the_longest_line_allowed_is_kept_whole() {
        let mut input = vec![b'y'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\r\n");
        input.extend(vec![b'z'; MAX_LINE_BYTES + 1]);
        let got = read_all(input);
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[0], Input::Line(t, _) if t.len() == MAX_LINE_BYTES));
        assert!(matches!(&got[1], Input::TooLong { bytes, .. } if *bytes == MAX_LINE_BYTES + 1));
        assert_eq!(got[2], Input::Eof);
    }

    #[test]
    fn the_error_text_never_holds_the_whole_line() {
        let text = Input::too_long_text(&"q".repeat(KEPT_OF_LONG_LINE), 300 << 20);
        assert!(text.len() < 150, "{text}");
        assert!(text.contains(&(300u64 << 20).to_string()));
    }
}
