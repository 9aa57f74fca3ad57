//! Helpers shared by the manager's tests: HTTP requests to the probe server, and
//! replicas whose leader-only work records when it ran.

#![allow(dead_code, reason = "each test binary uses a part")]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use wheelhouse_envtest::TestEnv;
use wheelhouse_manager::{CancellationToken, Error, LeaderElection, Manager, Stop, runnable_fn};

pub const TIMEOUT: Duration = Duration::from_mins(1);

/// Status code and body of `GET path` on `address`.
pub async fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    status_and_body(&response)
}

/// The status code and body of a whole HTTP/1.1 response.
pub fn status_and_body(response: &str) -> (u16, String) {
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// When each replica's leader-only work ran: (replica, start, end). The end is set
/// when the work's future is dropped or returns, so aborts count.
#[derive(Clone, Default)]
pub struct Intervals(Arc<Mutex<Vec<Interval>>>);

/// A replica's index, when its work started, and when it ended (None: still running).
pub type Interval = (usize, Instant, Option<Instant>);

impl Intervals {
    fn open(&self, replica: usize) -> usize {
        let mut intervals = self.0.lock();
        intervals.push((replica, Instant::now(), None));
        intervals.len() - 1
    }

    fn close(&self, index: usize) {
        self.0.lock()[index].2 = Some(Instant::now());
    }

    pub fn snapshot(&self) -> Vec<Interval> {
        self.0.lock().clone()
    }

    /// Panics if two replicas' intervals overlap.
    pub fn assert_disjoint(&self) {
        let intervals = self.snapshot();
        for (i, a) in intervals.iter().enumerate() {
            for b in &intervals[i + 1..] {
                if a.0 == b.0 {
                    continue;
                }
                let a_end = a.2.unwrap_or_else(Instant::now);
                let b_end = b.2.unwrap_or_else(Instant::now);
                assert!(
                    a_end <= b.1 || b_end <= a.1,
                    "replica {} worked from {:?} to {:?} and replica {} from {:?} to {:?}: they overlap",
                    a.0,
                    a.1,
                    a.2,
                    b.0,
                    b.1,
                    b.2
                );
            }
        }
    }

    /// The replica whose interval is open now, if any.
    pub fn working(&self) -> Option<usize> {
        self.0.lock().iter().find(|i| i.2.is_none()).map(|i| i.0)
    }

    pub fn count(&self, replica: usize) -> usize {
        self.0.lock().iter().filter(|i| i.0 == replica).count()
    }
}

/// Closes an interval when dropped.
struct Closer(Intervals, usize);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.close(self.1);
    }
}

/// One replica: a manager with leader election whose leader-only work records when
/// it ran, running on its own task.
pub struct Replica {
    pub manager: Manager,
    pub shutdown: CancellationToken,
    pub task: Option<JoinHandle<Result<(), Error>>>,
}

/// Short timings, so tests take seconds: 2 s lease, 1.5 s renew deadline, 0.4 s retry.
pub fn short(election: LeaderElection) -> LeaderElection {
    election.timings(
        Duration::from_secs(2),
        Duration::from_millis(1500),
        Duration::from_millis(400),
    )
}

/// Replica `index`'s client: on the embedded server, its requests are attributed to
/// the user `replica-<index>`, its identity in the Lease, for the fencing witness.
pub fn client_of(env: &TestEnv, index: usize) -> kube::Client {
    match env.server() {
        Some(server) => kube::Client::new(server.as_user(&format!("replica-{index}")), env.namespace()),
        None => env.client(),
    }
}

impl Replica {
    pub fn start(env: &TestEnv, index: usize, election: LeaderElection, intervals: &Intervals) -> Self {
        let shutdown = CancellationToken::new();
        let manager = Manager::builder(client_of(env, index))
            .leader_election(election.namespace(env.namespace()).identity(format!("replica-{index}")))
            .shutdown_signal(shutdown.clone())
            .graceful_shutdown_timeout(Duration::from_secs(10))
            .build()
            .expect("a manager");
        let intervals = intervals.clone();
        manager
            .add(runnable_fn("work", true, move |stop: Stop| {
                let intervals = intervals.clone();
                async move {
                    let _closer = Closer(intervals.clone(), intervals.open(index));
                    while !stop.is_requested() {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    Ok(())
                }
            }))
            .expect("add");
        let task = tokio::spawn(manager.clone().run());
        Self {
            manager,
            shutdown,
            task: Some(task),
        }
    }

    /// Stops gracefully and returns what `run` returned.
    pub async fn stop(&mut self) -> Result<(), Error> {
        self.shutdown.cancel();
        let task = self.task.take().expect("running");
        tokio::time::timeout(TIMEOUT, task)
            .await
            .expect("run returns after shutdown")
            .expect("run does not panic")
    }

    /// Kills the replica's manager: its future is dropped, nothing is released.
    pub async fn kill(&mut self) {
        let task = self.task.take().expect("running");
        task.abort();
        let _ = task.await;
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Waits until `check` holds, failing the test after [`TIMEOUT`].
pub async fn until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
