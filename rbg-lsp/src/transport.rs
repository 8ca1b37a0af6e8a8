//! Framing of JSON-RPC messages on a byte stream (`Content-Length: n\r\n\r\n` then n bytes),
//! tolerant of garbage.
//!
//! lsp-server's own stdio transport ends the connection at the first malformed message and
//! allocates whatever length a header claims; a server must instead answer an error and keep
//! serving. So frames are read here: a header line that is not `Name: value` is skipped, a
//! body longer than [`MAX_MESSAGE_BYTES`] is read past and refused, and a body that is not a
//! JSON-RPC message is reported to the caller, which answers it with an error.

use std::io::{self, BufRead, Read, Write};

use lsp_server::Message;

/// The largest message accepted (documents of many megabytes still fit).
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line read (longer ones are garbage, skipped).
const MAX_HEADER_LINE: u64 = 4096;

/// What one frame held.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// Not a message; the error to answer with, and the `id` it had if it had one.
    Invalid {
        code: i32,
        message: String,
        id: Option<serde_json::Value>,
    },
}

/// Reads the next frame; `None` at the end of the input.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut length = None;
    let mut bad_header = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        let read = input.by_ref().take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue; // Blank lines between frames.
        }
        saw_header = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("bad Content-Length {:?}", value.trim())),
                }
            }
            Some(_) => {} // Content-Type and other headers.
            None => bad_header = Some(format!("malformed header line {:?}", clip(line))),
        }
    }
    let Some(length) = length else {
        let message = bad_header.unwrap_or_else(|| "a message without Content-Length".into());
        return Ok(Some(invalid(-32700, message)));
    };
    if length > MAX_MESSAGE_BYTES {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Some(invalid(
            -32600,
            format!("message of {length} bytes is over the limit of {MAX_MESSAGE_BYTES}"),
        )));
    }
    let mut body = Vec::new();
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    Ok(Some(decode(&body)))
}

/// A frame's body as a message, or what is wrong with it.
fn decode(body: &[u8]) -> Incoming {
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => return invalid(-32700, format!("the message is not JSON: {e}")),
    };
    let id = value.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
    // Message is an untagged enum that would read `{"id": 1}` as a response: require a method
    // or an outcome.
    let has = |key: &str| value.get(key).is_some();
    if !(has("method") || has("result") || has("error")) {
        return Incoming::Invalid {
            code: -32600,
            message: "neither a request, a notification nor a response".into(),
            id,
        };
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(e) => Incoming::Invalid { code: -32600, message: format!("not a JSON-RPC message: {e}"), id },
    }
}

fn invalid(code: i32, message: String) -> Incoming {
    Incoming::Invalid { code, message, id: None }
}

fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}

/// Writes one message.
pub fn write(output: &mut impl Write, message: Message) -> io::Result<()> {
    message.write(output)
}

/// Writes an error answer to something that was not a message (its id, or `null`).
pub fn write_invalid(
    output: &mut impl Write,
    code: i32,
    message: &str,
    id: Option<serde_json::Value>,
) -> io::Result<()> {
    let value = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": { "code": code, "message": message },
    });
    let text = value.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}
