//! The `server` and `indexer` binaries as separate processes: a server
//! started with any flags (its stderr drained into a log the test can read,
//! so a chatty server never blocks on a full pipe), `kill -9`, and the
//! binaries' one-shot commands.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::http::Client;

pub const INDEXER: &str = env!("CARGO_BIN_EXE_indexer");
pub const SERVER: &str = env!("CARGO_BIN_EXE_server");

/// Runs a binary to completion; its stdout, or a panic with its stderr.
pub fn run_ok(bin: &str, args: &[&str]) -> String {
    let out = Command::new(bin).args(args).output().expect("binary runs");
    assert!(
        out.status.success(),
        "{bin} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A running `server` process.
pub struct ServerProcess {
    child: Child,
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl ServerProcess {
    /// Starts `server` with `args` (add `--listen 127.0.0.1:0`) and waits
    /// for its ready line (at most a minute).
    pub fn start(args: &[&str]) -> ServerProcess {
        let mut child = Command::new(SERVER)
            .args(args)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let mut server = ServerProcess {
            child,
            addr: "127.0.0.1:0".parse().unwrap(),
            log,
        };
        server.addr = server.wait_ready();
        server
    }

    fn wait_ready(&mut self) -> SocketAddr {
        let started = Instant::now();
        loop {
            let ready = self.log_lines().into_iter().find_map(|l| ready_addr(&l));
            if let Some(addr) = ready {
                return addr;
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("the server exited ({status}): {:?}", self.log_lines());
            }
            assert!(started.elapsed() < Duration::from_secs(60), "no ready line");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn client(&self) -> Client {
        Client(self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Every stderr line so far.
    pub fn log_lines(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Sends `signal` (`-HUP`, `-KILL`…) to the process.
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// `kill -9`, and waits for the process to be gone.
    pub fn kill9(mut self) {
        self.signal("-KILL");
        let _ = self.child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address of a "ready on http://ADDR" line.
fn ready_addr(line: &str) -> Option<SocketAddr> {
    let rest = line.split("ready on http://").nth(1)?;
    let addr: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
        .collect();
    addr.parse().ok()
}
