//! Requests the HTTP/1 parser refuses before any handler runs (bad bytes
//! in the request line or a header, a URI too long, headers too large) are
//! answered by hyper itself, with an empty body, and the connection closes.
//! [`Enveloped`] wraps a connection's socket and rewrites exactly those
//! answers into the API's error envelope (`MALFORMED_REQUEST`,
//! `URI_TOO_LONG`, `HEADERS_TOO_LARGE`).
//!
//! How a parser answer is told from the server's own: hyper writes it as a
//! bare head (`HTTP/1.1 431 …`, `content-length: 0`) in one write, and
//! every answer of the server carries `x-request-id`. A write that starts
//! with the status line of 400, 414 or 431 and has no `x-request-id` in
//! its head is replaced by the envelope; every other byte passes through
//! untouched. The replacement is taken whole (the write reports the
//! original length as written) and drained before any later write, flush
//! or shutdown.

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::errors::{ApiError, Code};
use super::response::Response;

/// A socket whose parser-made error answers carry the error envelope.
pub struct Enveloped<S> {
    inner: S,
    /// A replacement answer and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> Enveloped<S> {
    pub fn new(inner: S) -> Enveloped<S> {
        Enveloped {
            inner,
            pending: None,
        }
    }
}

/// The envelope answer replacing `head`, when `head` is a parser's bare
/// refusal.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let code = match head.get(..13)? {
        b"HTTP/1.1 400 " | b"HTTP/1.0 400 " => Code::MalformedRequest,
        b"HTTP/1.1 414 " | b"HTTP/1.0 414 " => Code::UriTooLong,
        b"HTTP/1.1 431 " | b"HTTP/1.0 431 " => Code::HeadersTooLarge,
        _ => return None,
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let lower = head[..end].to_ascii_lowercase();
    if lower.windows(13).any(|w| w == b"x-request-id:") {
        return None;
    }
    Some(envelope_answer(code))
}

fn envelope_answer(code: Code) -> Vec<u8> {
    let help =
        json!({ "help": "The request could not be read as HTTP/1.1; nothing was run or charged." });
    let body = Response::error(&ApiError::of(code, &[], help)).body;
    let status = code.status();
    let reason = http_reason(status);
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    out
}

fn http_reason(status: u16) -> &'static str {
    match status {
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "Bad Request",
    }
}

impl<S: AsyncWrite + Unpin> Enveloped<S> {
    /// Writes what is left of a replacement answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Enveloped<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Enveloped<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(answer) = replacement(buf) {
            self.pending = Some((answer, 0));
            // Taken whole: the rest is drained by later calls.
            if let Poll::Ready(Err(e)) = self.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    /// As `poll_write`, for hyper's queued writes (a response's head and
    /// its body in one `writev`, the body not copied into the head's
    /// buffer): a parser's refusal is a bare head, the first slice.
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        let first = bufs.iter().find(|b| !b.is_empty());
        if let Some(answer) = first.and_then(|head| replacement(head)) {
            self.pending = Some((answer, 0));
            if let Poll::Ready(Err(e)) = self.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    fn body_of(answer: &[u8]) -> serde_json::Value {
        let text = String::from_utf8(answer.to_vec()).unwrap();
        let (_, body) = text.split_once("\r\n\r\n").unwrap();
        serde_json::from_str(body).unwrap()
    }

    #[test]
    fn parser_refusals_become_envelopes() {
        let bare =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = replacement(bare).unwrap();
        assert!(answer.starts_with(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        ));
        let body = body_of(&answer);
        assert_eq!(
            (body["success"].as_bool(), body["error"]["code"].as_str()),
            (Some(false), Some("HEADERS_TOO_LARGE"))
        );
        let uri = replacement(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n").unwrap();
        assert_eq!(body_of(&uri)["error"]["code"], "URI_TOO_LONG");
        let bad = replacement(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").unwrap();
        assert_eq!(body_of(&bad)["error"]["code"], "MALFORMED_REQUEST");
    }

    #[test]
    fn the_servers_own_answers_pass_untouched() {
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nX-Request-Id: 1-2\r\ncontent-length: 2\r\n\r\n{}";
        assert!(replacement(ours).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(replacement(b"{\"data\":").is_none());
        assert!(replacement(b"HTTP/1.1 4").is_none());
    }

    #[tokio::test]
    async fn a_replacement_is_written_whole_and_reported_as_the_original() {
        let mut io = Enveloped::new(Vec::new());
        let bare = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n";
        let n = io.write(bare).await.unwrap();
        assert_eq!(n, bare.len());
        io.flush().await.unwrap();
        assert_eq!(io.inner, envelope_answer(Code::UriTooLong));
        io.write_all(b"tail").await.unwrap();
        assert!(io.inner.ends_with(b"tail"));
    }

    #[tokio::test]
    async fn vectored_writes_are_replaced_or_passed_alike() {
        let mut io = Enveloped::new(Vec::new());
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        let slices = [IoSlice::new(b""), IoSlice::new(bare)];
        let n = io.write_vectored(&slices).await.unwrap();
        assert_eq!(n, bare.len());
        io.flush().await.unwrap();
        assert_eq!(io.inner, envelope_answer(Code::HeadersTooLarge));

        let mut io = Enveloped::new(Vec::new());
        let head = b"HTTP/1.1 200 OK\r\nx-request-id: 1-2\r\ncontent-length: 2\r\n\r\n";
        let slices = [IoSlice::new(head), IoSlice::new(b"{}")];
        let n = io.write_vectored(&slices).await.unwrap();
        io.flush().await.unwrap();
        assert_eq!(n, head.len() + 2);
        assert_eq!(io.inner, [&head[..], b"{}"].concat());
    }
}
