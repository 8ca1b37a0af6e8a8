//! Message framing: every message is a string followed by one NUL byte.
//!
//! Reading is bounded in memory and in time:
//!
//! * a message longer than the reader's limit ([`DEFAULT_MAX_MESSAGE`], 16 MiB, unless set
//!   otherwise) is an error as soon as the limit is passed, without buffering the rest;
//! * [`Connection::recv`] takes a deadline, after which it gives up with
//!   [`FrameError::TimedOut`] (the bytes of a partly received message are kept, so a later call
//!   can still complete it);
//! * bytes that are not UTF-8 are an error value ([`FrameError::NotText`]), never a panic.
//!
//! The protocol says "ASCII"; we accept any UTF-8 (a game text may carry UTF-8 in comments), and
//! everything we send ourselves is ASCII except such a game text, which is sent exactly as read.

use core::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The default bound on the length of one message (without its NUL): 16 MiB, enough for the
/// largest game texts; moves and numbers are far shorter.
pub const DEFAULT_MAX_MESSAGE: usize = 16 << 20;

/// The terminator of every message.
pub const TERMINATOR: u8 = 0;

/// Bytes asked for in one read.
const CHUNK: usize = 64 << 10;

/// Why a message could not be read or written.
#[derive(Debug)]
pub enum FrameError {
    /// The peer closed the connection between two messages.
    Closed,
    /// The peer closed the connection in the middle of a message (its NUL never came).
    Truncated {
        /// Bytes of the unfinished message.
        len: usize,
    },
    /// A message exceeded the limit before its NUL; the connection cannot be used any more
    /// (the reader does not know where the next message starts).
    TooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// No complete message arrived before the deadline.
    TimedOut,
    /// A complete message that is not UTF-8 text (its length is kept for the log).
    NotText {
        /// Length of the message in bytes.
        len: usize,
    },
    /// A message to send contains a NUL byte, which the framing cannot carry.
    ContainsNul,
    /// Any other failure of the connection.
    Io(io::Error),
}

impl FrameError {
    /// Whether the connection can still be used after this error: a timeout keeps the partial
    /// message and a non-text message was framed properly; everything else leaves the stream
    /// closed or at an unknown position.
    pub fn connection_usable(&self) -> bool {
        matches!(self, FrameError::TimedOut | FrameError::NotText { .. } | FrameError::ContainsNul)
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Closed => write!(f, "the connection was closed"),
            FrameError::Truncated { len } => {
                write!(
                    f,
                    "the connection was closed in the middle of a message ({len} bytes without the NUL)"
                )
            }
            FrameError::TooLong { limit } => write!(f, "a message exceeded the limit of {limit} bytes"),
            FrameError::TimedOut => write!(f, "no message arrived in time"),
            FrameError::NotText { len } => write!(f, "a message of {len} bytes is not UTF-8 text"),
            FrameError::ContainsNul => write!(f, "a message to send contains a NUL byte"),
            FrameError::Io(e) => write!(f, "connection error: {e}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Whether an I/O error only means "nothing yet" (a read timeout or a non-blocking read).
fn is_wait(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

/// Splits a byte stream into NUL-terminated messages, with a bound on the length of one.
#[derive(Debug)]
pub struct FrameReader<R> {
    inner: R,
    /// Received bytes not yet returned as messages.
    buf: Vec<u8>,
    /// How much of `buf` is known to hold no NUL.
    scanned: usize,
    limit: usize,
}

/// What one read from the source gave.
enum Fill {
    /// New bytes arrived.
    Data,
    /// The source reached its end.
    Eof,
}

impl<R: Read> FrameReader<R> {
    /// A reader of messages of at most `limit` bytes each.
    pub fn new(inner: R, limit: usize) -> Self {
        FrameReader { inner, buf: Vec::new(), scanned: 0, limit }
    }

    /// The source.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next message, reading until it is complete (blocking as the source blocks). A read
    /// timeout of the source gives [`FrameError::TimedOut`] and keeps the partial message.
    pub fn read_message(&mut self) -> Result<Vec<u8>, FrameError> {
        loop {
            if let Some(message) = self.take_buffered()? {
                return Ok(message);
            }
            self.fill()?;
        }
    }

    /// The next message as text.
    pub fn read_text(&mut self) -> Result<String, FrameError> {
        self.read_message().and_then(into_text)
    }

    /// A complete message already received, if there is one; [`FrameError::TooLong`] if the
    /// unfinished message is over the limit.
    fn take_buffered(&mut self) -> Result<Option<Vec<u8>>, FrameError> {
        match self.buf[self.scanned..].iter().position(|&b| b == TERMINATOR) {
            Some(at) => {
                let end = self.scanned + at;
                if end > self.limit {
                    return Err(FrameError::TooLong { limit: self.limit });
                }
                let mut message: Vec<u8> = self.buf.drain(..=end).collect();
                message.pop();
                self.scanned = 0;
                Ok(Some(message))
            }
            None => {
                self.scanned = self.buf.len();
                if self.buf.len() > self.limit {
                    Err(FrameError::TooLong { limit: self.limit })
                } else {
                    Ok(None)
                }
            }
        }
    }

    /// One read from the source. End of input is an error here ([`FrameError::Closed`] or
    /// [`FrameError::Truncated`]); a timeout is [`FrameError::TimedOut`].
    fn fill(&mut self) -> Result<(), FrameError> {
        match self.fill_once() {
            Ok(Fill::Data) => Ok(()),
            Ok(Fill::Eof) if self.buf.is_empty() => Err(FrameError::Closed),
            Ok(Fill::Eof) => Err(FrameError::Truncated { len: self.buf.len() }),
            Err(e) if is_wait(&e) => Err(FrameError::TimedOut),
            Err(e) => Err(FrameError::Io(e)),
        }
    }

    fn fill_once(&mut self) -> io::Result<Fill> {
        let old = self.buf.len();
        // Never buffer more than one byte past the limit of the message being read.
        let room = (self.limit + 1).saturating_sub(old).clamp(1, CHUNK);
        self.buf.resize(old + room, 0);
        let result = loop {
            match self.inner.read(&mut self.buf[old..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let got = *result.as_ref().unwrap_or(&0);
        self.buf.truncate(old + got);
        match result? {
            0 => Ok(Fill::Eof),
            _ => Ok(Fill::Data),
        }
    }
}

/// A message's bytes as text.
pub fn into_text(bytes: Vec<u8>) -> Result<String, FrameError> {
    let len = bytes.len();
    String::from_utf8(bytes).map_err(|_| FrameError::NotText { len })
}

/// Writes one message and its NUL (no flush).
pub fn write_message<W: Write>(out: &mut W, text: &[u8]) -> Result<(), FrameError> {
    if text.contains(&TERMINATOR) {
        return Err(FrameError::ContainsNul);
    }
    out.write_all(text).and_then(|()| out.write_all(&[TERMINATOR])).map_err(FrameError::Io)
}

/// A TCP connection carrying messages, with deadlines on reading and a timeout on writing.
#[derive(Debug)]
pub struct Connection {
    reader: FrameReader<TcpStream>,
    writer: TcpStream,
    /// The peer's address, for logs.
    peer: String,
}

impl Connection {
    /// Wraps a connected stream: messages of at most `max_message` bytes are read; a write that
    /// makes no progress for `write_timeout` fails.
    pub fn new(stream: TcpStream, max_message: usize, write_timeout: Duration) -> io::Result<Self> {
        let peer = stream.peer_addr().map(|a| a.to_string()).unwrap_or_else(|_| "?".into());
        let writer = stream.try_clone()?;
        writer.set_write_timeout(Some(write_timeout.max(Duration::from_millis(1))))?;
        // Small messages (moves) must leave at once.
        let _ = writer.set_nodelay(true);
        Ok(Connection { reader: FrameReader::new(stream, max_message), writer, peer })
    }

    /// The peer's address as text.
    pub fn peer(&self) -> &str {
        &self.peer
    }

    /// Sends one message.
    pub fn send(&mut self, text: &str) -> Result<(), FrameError> {
        self.send_bytes(text.as_bytes())
    }

    /// Sends one message given as bytes (a game text is sent exactly as read).
    pub fn send_bytes(&mut self, text: &[u8]) -> Result<(), FrameError> {
        write_message(&mut self.writer, text)?;
        self.writer.flush().map_err(FrameError::Io)
    }

    /// The next message as text, waiting until `deadline` at most (`None`: as long as it takes).
    pub fn recv(&mut self, deadline: Option<Instant>) -> Result<String, FrameError> {
        self.recv_bytes(deadline).and_then(into_text)
    }

    /// The next message as bytes, waiting until `deadline` at most (`None`: as long as it takes).
    pub fn recv_bytes(&mut self, deadline: Option<Instant>) -> Result<Vec<u8>, FrameError> {
        loop {
            if let Some(message) = self.reader.take_buffered()? {
                return Ok(message);
            }
            let timeout = match deadline {
                None => None,
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => Some(left.max(Duration::from_millis(1))),
                    _ => return Err(FrameError::TimedOut),
                },
            };
            self.reader.get_ref().set_read_timeout(timeout).map_err(FrameError::Io)?;
            match self.reader.fill() {
                // The loop checks the deadline again (a timeout may end early, e.g. on a signal).
                Ok(()) | Err(FrameError::TimedOut) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Takes every complete message that has already arrived, without waiting. Returns them and
    /// whether the peer has closed the connection (or it failed) meanwhile.
    pub fn drain(&mut self) -> (Vec<Vec<u8>>, Option<FrameError>) {
        let mut messages = Vec::new();
        let stream = self.reader.get_ref();
        if let Err(e) = stream.set_nonblocking(true) {
            return (messages, Some(FrameError::Io(e)));
        }
        let error = loop {
            match self.reader.take_buffered() {
                Ok(Some(m)) => {
                    messages.push(m);
                    continue;
                }
                Ok(None) => {}
                Err(e) => break Some(e),
            }
            match self.reader.fill() {
                Ok(()) => {}
                Err(FrameError::TimedOut) => break None,
                Err(e) => break Some(e),
            }
        };
        let restored = self.reader.get_ref().set_nonblocking(false);
        match (error, restored) {
            (Some(e), _) => (messages, Some(e)),
            (None, Err(e)) => (messages, Some(FrameError::Io(e))),
            (None, Ok(())) => (messages, None),
        }
    }

    /// Closes both directions (errors ignored: the peer may be gone already).
    pub fn shutdown(&self) {
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8], limit: usize) -> FrameReader<&[u8]> {
        FrameReader::new(bytes, limit)
    }

    #[test]
    fn splits_messages_at_nul() {
        let mut r = reader(b"5.000000\0game text\0\x001\0", 100);
        assert_eq!(r.read_text().unwrap(), "5.000000");
        assert_eq!(r.read_text().unwrap(), "game text");
        assert_eq!(r.read_text().unwrap(), "");
        assert_eq!(r.read_text().unwrap(), "1");
        assert!(matches!(r.read_text(), Err(FrameError::Closed)));
    }

    #[test]
    fn missing_nul_at_eof_is_truncated() {
        let mut r = reader(b"ready\0half a mes", 100);
        assert_eq!(r.read_text().unwrap(), "ready");
        assert!(matches!(r.read_text(), Err(FrameError::Truncated { len: 10 })));
    }

    #[test]
    fn over_long_message_is_an_error_without_reading_it_all() {
        let long = vec![b'1'; 10_000];
        let mut r = reader(&long, 16);
        assert!(matches!(r.read_message(), Err(FrameError::TooLong { limit: 16 })));
        // At most one byte past the limit was buffered.
        assert!(r.buf.len() <= 17, "{}", r.buf.len());
        // Exactly the limit is fine, one more is not, with or without the NUL in the same read.
        let mut ok = vec![b'a'; 16];
        ok.push(0);
        assert_eq!(reader(&ok, 16).read_message().unwrap().len(), 16);
        let mut too_long = vec![b'a'; 17];
        too_long.push(0);
        assert!(matches!(reader(&too_long, 16).read_message(), Err(FrameError::TooLong { .. })));
    }

    #[test]
    fn non_utf8_is_an_error_value() {
        let mut r = reader(b"\xff\xfe\0ok\0", 100);
        assert!(matches!(r.read_text(), Err(FrameError::NotText { len: 2 })));
        assert_eq!(r.read_text().unwrap(), "ok");
    }

    #[test]
    fn one_byte_at_a_time() {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                match (self.0.split_first(), out.first_mut()) {
                    (Some((&b, rest)), Some(slot)) => {
                        *slot = b;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let mut r = FrameReader::new(Trickle(b"1 2 3 4\0reset\0"), 100);
        assert_eq!(r.read_text().unwrap(), "1 2 3 4");
        assert_eq!(r.read_text().unwrap(), "reset");
        assert!(matches!(r.read_text(), Err(FrameError::Closed)));
    }

    #[test]
    fn writing_rejects_nul() {
        let mut out = Vec::new();
        write_message(&mut out, b"1 2").unwrap();
        assert_eq!(out, b"1 2\0");
        assert!(matches!(write_message(&mut out, b"a\0b"), Err(FrameError::ContainsNul)));
    }
}
