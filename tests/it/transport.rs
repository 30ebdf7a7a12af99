//! The transport on a real socket: HTTP/2 with prior knowledge beside
//! HTTP/1.1 on one port, and the HTTP/1 parser's refusals in the error
//! envelope.

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::Value;

use crate::api::server;
use crate::common::http::Reply;

/// `GET` each path on one HTTP/2 connection, as concurrent streams; (status,
/// `x-request-id`, JSON body) per path.
async fn h2_get_all(
    addr: std::net::SocketAddr,
    key: &str,
    paths: &[&str],
) -> Vec<(u16, String, Value)> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .expect("an HTTP/2 handshake");
    tokio::spawn(conn);
    let requests = paths.iter().map(|path| {
        let mut sender = sender.clone();
        let req = hyper::Request::get(format!("http://{addr}{path}"))
            .header("authorization", format!("Bearer {key}"))
            .body(Empty::<Bytes>::new())
            .unwrap();
        async move {
            let res = sender.send_request(req).await.unwrap();
            let status = res.status().as_u16();
            let id = res.headers()["x-request-id"].to_str().unwrap().to_string();
            let body = res.into_body().collect().await.unwrap().to_bytes();
            (status, id, serde_json::from_slice(&body).unwrap())
        }
    });
    let streams: Vec<_> = requests.map(tokio::spawn).collect();
    let mut answers = Vec::new();
    for stream in streams {
        answers.push(stream.await.unwrap());
    }
    answers
}

#[test]
fn http2_with_prior_knowledge_is_served_like_http1() {
    let server = server("transport-h2");
    let key = server.key("h2", fundsearch::accounts::Plan::Pro);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let paths = [
        "/v1/company/search?name=helix",
        "/health",
        "/v1/no/such/route",
    ];
    let answers = rt.block_on(h2_get_all(server.addr, &key, &paths));
    let http1 = server.get(paths[0], Some(&key));
    assert_eq!(answers[0].0, 200);
    assert_eq!(
        answers[0].2["data"], http1.body["data"],
        "same answer over HTTP/2 and HTTP/1.1"
    );
    assert_eq!(
        (answers[1].0, answers[1].2["status"].as_str()),
        (200, Some("ok"))
    );
    assert_eq!(
        (answers[2].0, answers[2].2["error"]["code"].as_str()),
        (404, Some("NOT_FOUND"))
    );
    let mut ids: Vec<&str> = answers.iter().map(|a| a.1.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 3, "one request id per stream");
}

fn refused(server: &crate::common::http::TestServer, raw: &[u8]) -> Reply {
    crate::common::http::Client(server.addr).send_raw(raw)
}

fn assert_enveloped(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(
        (reply.body["success"].as_bool(), reply.code()),
        (Some(false), code),
        "{}",
        reply.text
    );
    assert!(reply.body["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
}

#[test]
fn requests_the_parser_refuses_get_the_error_envelope() {
    let server = server("transport-parse");
    let long_uri = format!(
        "GET /v1/company/search?name={} HTTP/1.1\r\nHost: t\r\n\r\n",
        "a".repeat(70_000)
    );
    assert_enveloped(&refused(&server, long_uri.as_bytes()), 414, "URI_TOO_LONG");
    let mut many = String::from("GET /health HTTP/1.1\r\nHost: t\r\n");
    for i in 0..120 {
        many.push_str(&format!("X-Filler-{i}: {i}\r\n"));
    }
    many.push_str("\r\n");
    assert_enveloped(&refused(&server, many.as_bytes()), 431, "HEADERS_TOO_LARGE");
    let bad_byte = b"GET /health HTTP/1.1\r\nHost: t\r\nBad\x01Name: v\r\n\r\n";
    assert_enveloped(&refused(&server, bad_byte), 400, "MALFORMED_REQUEST");
    let garbage = b"\x16\x03\x01\x02\x00 not http at all\r\n\r\n";
    assert_enveloped(&refused(&server, garbage), 400, "MALFORMED_REQUEST");
    // The server's own 400s still carry their request id.
    let own = server.get("/v1/company/search?name=", None);
    assert!(own.header("x-request-id").is_some());
}
