//! [`Pool`]: N dedicated OS threads, each owning one `postgres::Client`
//! and its prepared statements (a [`Session`]).
//!
//! `postgres::Client` is the synchronous face of `tokio-postgres`: every
//! call runs `block_on` on a small runtime of its own, and `block_on` panics
//! when the calling thread is already inside a tokio runtime, which is where
//! the server calls the [`crate::accounts::AccountStore`] methods from (its
//! reactor threads and its blocking pool). So no caller ever touches a
//! client: [`Pool::run`] sends a boxed job down a channel to whichever
//! database thread is free and blocks on a reply channel until that thread
//! answers. The threads are plain `std::thread`s, outside any runtime.
//! A reconnection starts a new session: statements prepared on the old
//! connection die with it.
//!
//! A thread checks its connection before each job and reconnects when the
//! connection is gone, with a short bounded retry ([`RECONNECT_PAUSES`]).
//! The check is free (`is_closed`) unless the connection has been idle for
//! [`PING_AFTER_IDLE`] (1 s); then it adds an empty query (one round trip,
//! see [`alive`]). Pinging before every job cost a round trip on every
//! call; a connection in use every few milliseconds is rarely lost between
//! two jobs, and when it is, the next job fails just as one that the
//! connection broke under. So a connection lost while idle for a second or more (a database
//! restart, a terminated backend, a dropped TCP connection) costs no call;
//! one lost less than a second after its last job, like one that breaks
//! under a job, fails that one job with an `io::Error`, and the thread
//! reconnects before its next job. A database restart under load thus
//! fails at most one call per connection.
//! Nothing here panics on a database error; a job that panics anyway costs
//! its caller an error and its thread's connection, not the thread.

use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use postgres::{Client, Config, NoTls};

use super::session::Session;

/// A connection unused for this long is pinged before its next job.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);
/// How long that ping waits for the server.
const PING_TIMEOUT: Duration = Duration::from_secs(2);
/// Pauses between connection attempts: three attempts in about half a second.
const RECONNECT_PAUSES: [Duration; 2] = [Duration::from_millis(100), Duration::from_millis(400)];

/// Why a database job failed: the database (or the connection to it), or a
/// decision of ours (unknown user, malformed row…), kept with its own kind.
#[derive(Debug)]
pub enum Failure {
    Db(postgres::Error),
    Io(io::Error),
}

impl From<postgres::Error> for Failure {
    fn from(e: postgres::Error) -> Failure {
        Failure::Db(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl Failure {
    /// The caller's error: database errors become `Other`, naming `op`.
    fn into_io(self, op: &str) -> io::Error {
        match self {
            Failure::Db(e) => io::Error::other(format!("{op}: {}", describe(&e))),
            Failure::Io(e) => e,
        }
    }
}

/// `e` and its causes, `: `-separated (a database error's Display alone
/// is only "db error").
pub fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    text
}

/// A job for a database thread.
type Job = Box<dyn FnOnce(&mut Connection) + Send>;

/// The database threads and the channel that feeds them.
pub struct Pool {
    jobs: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `size` threads (at least one), each connecting with `config`;
    /// fails when any first connection fails.
    pub fn start(config: &Config, size: usize) -> io::Result<Pool> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let (ready, connected) = mpsc::channel();
        let threads = (0..size.max(1))
            .map(|i| spawn(i, config.clone(), Arc::clone(&queue), ready.clone()))
            .collect::<io::Result<Vec<_>>>();
        let pool = Pool {
            jobs: Some(jobs),
            threads: threads?,
        };
        drop(ready);
        for outcome in connected.iter().take(pool.threads.len()) {
            outcome.map_err(|e| {
                io::Error::other(format!("connecting to the database: {}", describe(&e)))
            })?;
        }
        Ok(pool)
    }

    /// Runs `job` on a database thread and returns its result; `op` names
    /// the operation in errors.
    pub fn run<R, F>(&self, op: &'static str, job: F) -> io::Result<R>
    where
        R: Send + 'static,
        F: FnOnce(&mut Session) -> Result<R, Failure> + Send + 'static,
    {
        let (reply, answer) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |connection| {
            let _ = reply.send(connection.run(op, job));
        });
        let stopped = || io::Error::other(format!("{op}: the database threads stopped"));
        let jobs = self.jobs.as_ref().ok_or_else(stopped)?;
        jobs.send(job).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

impl Drop for Pool {
    /// Closes the channel, lets each thread finish its job and joins it.
    fn drop(&mut self) {
        self.jobs = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

fn spawn(
    i: usize,
    config: Config,
    queue: Arc<Mutex<Receiver<Job>>>,
    ready: Sender<Result<(), postgres::Error>>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name(format!("fundsearch-pg-{i}"))
        .spawn(move || {
            let mut connection = Connection::new(config);
            let _ = ready.send(connection.ready().map(|_| ()));
            drop(ready);
            while let Some(job) = next_job(&queue) {
                job(&mut connection);
            }
        })
}

/// The next job, or `None` once the pool is dropped.
fn next_job(queue: &Mutex<Receiver<Job>>) -> Option<Job> {
    let queue = queue.lock().unwrap_or_else(|e| e.into_inner());
    queue.recv().ok()
}

/// One thread's connection, re-established when it breaks.
struct Connection {
    config: Config,
    session: Option<Session>,
    /// When the last job ended.
    used: Instant,
}

impl Connection {
    fn new(config: Config) -> Connection {
        Connection {
            config,
            session: None,
            used: Instant::now(),
        }
    }

    /// Runs `job` on a live client; drops the client if the job broke it
    /// or panicked (a bug, or the client failing to build its runtime).
    fn run<R>(
        &mut self,
        op: &str,
        job: impl FnOnce(&mut Session) -> Result<R, Failure>,
    ) -> io::Result<R> {
        let outcome = catch_unwind(AssertUnwindSafe(|| self.try_run(op, job)));
        self.used = Instant::now();
        outcome.unwrap_or_else(|_| {
            self.session = None;
            Err(io::Error::other(format!(
                "{op}: the database thread panicked"
            )))
        })
    }

    fn try_run<R>(
        &mut self,
        op: &str,
        job: impl FnOnce(&mut Session) -> Result<R, Failure>,
    ) -> io::Result<R> {
        let session = self.ready().map_err(|e| {
            io::Error::other(format!("{op}: database unavailable: {}", describe(&e)))
        })?;
        let result = job(session);
        if matches!(&result, Err(Failure::Db(e)) if breaks_connection(e)) {
            self.session = None;
        }
        result.map_err(|f| f.into_io(op))
    }

    /// The session, reconnected first (with an empty statement cache) if
    /// the connection is gone.
    fn ready(&mut self) -> Result<&mut Session, postgres::Error> {
        let idle = self.used.elapsed();
        if self
            .session
            .as_mut()
            .is_some_and(|s| !alive(&mut s.client, idle))
        {
            self.session = None;
        }
        let session = match self.session.take() {
            Some(session) => session,
            None => Session::new(connect(&self.config)?),
        };
        Ok(self.session.insert(session))
    }
}

/// Whether `client`'s connection, unused for `idle`, still stands: not
/// known to be closed and, once idle for [`PING_AFTER_IDLE`], answering an
/// empty query (a round trip, as r2d2's check on checkout). Nothing
/// cheaper sees a backend that was terminated while idle: its farewell
/// sits unread in the socket until the client's runtime polls it, and that
/// happens only while waiting for an answer.
fn alive(client: &mut Client, idle: Duration) -> bool {
    !client.is_closed() && (idle < PING_AFTER_IDLE || client.is_valid(PING_TIMEOUT).is_ok())
}

/// Connects, retrying briefly.
fn connect(config: &Config) -> Result<Client, postgres::Error> {
    let mut result = config.connect(NoTls);
    for pause in RECONNECT_PAUSES {
        if result.is_ok() {
            break;
        }
        thread::sleep(pause);
        result = config.connect(NoTls);
    }
    result
}

/// Whether `e` means the connection is lost (rather than a refused statement).
fn breaks_connection(e: &postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        // Not from the server: the socket, the protocol, or a conversion.
        None => true,
        // connection_exception (08…) and operator_intervention (57P…).
        Some(state) => state.code().starts_with("08") || state.code().starts_with("57P"),
    }
}
