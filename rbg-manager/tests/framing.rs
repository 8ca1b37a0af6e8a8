//! Framing over real loopback sockets: partial messages across timeouts, a stream cut inside a
//! message, an over-long message, and noticing a closed peer without blocking.

use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use rbg_manager::{Connection, FrameError};

const PATIENCE: Duration = Duration::from_secs(60);

/// A connected pair: our `Connection` (reading messages of at most `limit` bytes) and the raw
/// peer stream.
fn pair(limit: usize) -> (Connection, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let peer = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (ours, _) = listener.accept().unwrap();
    (Connection::new(ours, limit, PATIENCE).unwrap(), peer)
}

fn soon() -> Option<Instant> {
    Some(Instant::now() + PATIENCE)
}

#[test]
fn a_partial_message_survives_a_timeout() {
    let (mut conn, mut peer) = pair(100);
    peer.write_all(b"10 4").unwrap();
    // No NUL yet: the read gives up at its deadline (already past here) and keeps the bytes.
    assert!(matches!(conn.recv(Some(Instant::now())), Err(FrameError::TimedOut)));
    assert!(matches!(conn.recv(Some(Instant::now() + Duration::from_millis(20))), Err(FrameError::TimedOut)));
    peer.write_all(b" 7 5\0reset\0").unwrap();
    assert_eq!(conn.recv(soon()).unwrap(), "10 4 7 5");
    assert_eq!(conn.recv(soon()).unwrap(), "reset");
}

#[test]
fn a_stream_cut_inside_a_message_is_truncated() {
    let (mut conn, mut peer) = pair(100);
    peer.write_all(b"ready\0half").unwrap();
    peer.shutdown(Shutdown::Write).unwrap();
    assert_eq!(conn.recv(soon()).unwrap(), "ready");
    assert!(matches!(conn.recv(soon()), Err(FrameError::Truncated { len: 4 })));
}

#[test]
fn a_clean_close_between_messages_is_closed() {
    let (mut conn, peer) = pair(100);
    drop(peer);
    assert!(matches!(conn.recv(soon()), Err(FrameError::Closed)));
}

#[test]
fn an_over_long_message_is_refused() {
    let (mut conn, mut peer) = pair(1000);
    peer.write_all(&[b'7'; 2000]).unwrap();
    let error = conn.recv(soon()).unwrap_err();
    assert!(matches!(error, FrameError::TooLong { limit: 1000 }));
    assert!(!error.connection_usable());
}

#[test]
fn garbage_bytes_are_an_error_value_and_the_stream_goes_on() {
    let (mut conn, mut peer) = pair(100);
    peer.write_all(b"\xc3\x28\0ready\0").unwrap();
    let error = conn.recv(soon()).unwrap_err();
    assert!(matches!(error, FrameError::NotText { len: 2 }));
    assert!(error.connection_usable());
    assert_eq!(conn.recv(soon()).unwrap(), "ready");
}

#[test]
fn drain_takes_what_arrived_and_notices_a_close() {
    let (mut conn, mut peer) = pair(100);
    // Nothing has arrived: drain returns at once with nothing.
    let (messages, error) = conn.drain();
    assert!(messages.is_empty() && error.is_none());
    peer.write_all(b"stale\0").unwrap();
    peer.shutdown(Shutdown::Write).unwrap();
    // Data and the close arrive when the kernel delivers them: poll a bounded number of times.
    let mut taken = Vec::new();
    let mut closed = false;
    for _ in 0..1000 {
        let (messages, error) = conn.drain();
        taken.extend(messages);
        if let Some(e) = error {
            assert!(matches!(e, FrameError::Closed), "{e}");
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(closed, "the close was noticed");
    assert_eq!(taken, vec![b"stale".to_vec()]);
    // The connection is blocking again afterwards (a read reports the close, not WouldBlock).
    assert!(matches!(conn.recv(soon()), Err(FrameError::Closed)));
}

#[test]
fn sending_frames_with_a_nul_and_refuses_an_embedded_one() {
    let (mut conn, peer) = pair(100);
    conn.send("1.000000").unwrap();
    assert!(matches!(conn.send("a\0b"), Err(FrameError::ContainsNul)));
    let mut reader = rbg_manager::FrameReader::new(peer, 100);
    assert_eq!(reader.read_text().unwrap(), "1.000000");
}
