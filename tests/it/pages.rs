//! The pages over HTTP: `/docs`, `/` and `/explore` answer without a key
//! with HTML (`text/html; charset=utf-8`), also with a trailing slash and
//! to `HEAD`, and refuse other methods with 405 in the error envelope.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use crate::api::{error, server};

const HTML: &str = "text/html; charset=utf-8";

/// Status, content type and body text of `method path` (no key).
fn fetch(addr: SocketAddr, method: &str, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let content_type = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    (status, content_type, body.to_string())
}

#[test]
fn pages_answer_html_without_a_key() {
    let s = server("pages-get");
    for (path, marker) in [
        ("/docs", "<article id=\"op-searchcompanycollection\">"),
        ("/docs/", "<a href=\"#op-getcompany\">"),
        ("/", "fetch(\"/openapi.json\")"),
        ("/explore", "<label for=\"key\">API key</label>"),
        ("/explore/", "aria-live=\"polite\""),
    ] {
        let (status, content_type, body) = fetch(s.addr, "GET", path);
        assert_eq!((status, content_type.as_str()), (200, HTML), "{path}");
        assert!(body.starts_with("<!DOCTYPE html>"), "{path}");
        assert!(body.contains(marker), "{path}: no {marker}");
        assert!(body.trim_end().ends_with("</html>"), "{path}");
    }
    let (status, content_type, _) = fetch(s.addr, "HEAD", "/docs");
    assert_eq!((status, content_type.as_str()), (200, HTML));
}

#[test]
fn pages_refuse_other_methods_in_the_error_envelope() {
    let s = server("pages-methods");
    for path in ["/docs", "/", "/explore"] {
        for method in ["POST", "PUT", "DELETE"] {
            let r = s.request(method, path, None, b"{}");
            error(&r, 405, "METHOD_NOT_ALLOWED");
            assert_eq!(r.header("allow"), Some("GET, HEAD"), "{method} {path}");
            assert_eq!(r.header("content-type"), Some("application/json"));
        }
    }
}
