//! [`Manager::run`](crate::Manager::run): start everything in order, watch for
//! failures and leadership changes, and stop in reverse within a deadline.

use std::collections::HashMap;
use std::future::pending;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::{Id, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::AbortOnDropHandle;

use crate::Error;
use crate::error::BoxError;
use crate::fence::Fence;
use crate::leader::{Leadership, Term};
use crate::manager::Manager;
use crate::manager::runnable::{Runnable, Stop};
use crate::serve::panic_message;

/// How long a stage of the stop still gets once an earlier stage used up the
/// graceful-shutdown timeout: enough for a runnable that stops when asked, so only
/// the ones that ignore the request are abandoned.
const LATE_GRACE: Duration = Duration::from_secs(1);

/// Runnables started together and stopped together.
struct Group {
    token: CancellationToken,
    tasks: JoinSet<Result<(), BoxError>>,
    names: HashMap<Id, String>,
}

/// What stopping a group left behind.
#[derive(Default)]
struct Stopped {
    failures: Vec<Error>,
    abandoned: Vec<String>,
}

impl Group {
    fn new() -> Self {
        Self {
            token: CancellationToken::new(),
            tasks: JoinSet::new(),
            names: HashMap::new(),
        }
    }

    fn start(&mut self, runnable: &Arc<dyn Runnable>, term: Option<&Arc<Term>>) {
        let token = self.token.child_token();
        let stop = match term {
            Some(term) => Stop::for_term(token, term.clone()),
            None => Stop::new(token),
        };
        let name = runnable.name().to_owned();
        tracing::info!(runnable = %name, "starting");
        let runnable = runnable.clone();
        let handle = self.tasks.spawn(async move { runnable.start(stop).await });
        self.names.insert(handle.id(), name);
    }

    /// The next runnable to end, with how it ended; pending while none is running.
    async fn next_exit(&mut self) -> (String, Result<(), Error>) {
        loop {
            let Some(joined) = self.tasks.join_next_with_id().await else {
                return pending().await;
            };
            let (id, result) = match joined {
                Ok((id, result)) => (id, result),
                Err(error) if error.is_cancelled() => {
                    self.names.remove(&error.id());
                    continue;
                }
                Err(error) => {
                    let id = error.id();
                    let name = self.names.remove(&id).unwrap_or_default();
                    let message = panic_message(&*error.into_panic());
                    return (name.clone(), Err(Error::RunnablePanicked { name, message }));
                }
            };
            let name = self.names.remove(&id).unwrap_or_default();
            let result = result.map_err(|source| Error::Runnable {
                name: name.clone(),
                source,
            });
            return (name, result);
        }
    }

    /// After the term ended: the runnables see it through their [`Stop`] and stop
    /// their work, awaiting it (a controller cancels its reconciles). Waits `grace`
    /// for them, then drops the futures of those still running, and names them.
    async fn stop_at_term_end(&mut self, grace: Duration) -> Vec<String> {
        let deadline = Instant::now() + grace;
        let mut abandoned = Vec::new();
        while !self.tasks.is_empty() {
            tokio::select! {
                (name, result) = self.next_exit() => match result {
                    Ok(()) => tracing::info!(runnable = %name, "stopped at the end of the leadership term"),
                    Err(error) => tracing::warn!(runnable = %name, error = %wheelhouse_cache::error_chain(&error), "failed as the leadership term ended"),
                },
                () = tokio::time::sleep_until(deadline) => {
                    abandoned = self.abandon();
                    self.abort().await;
                }
            }
        }
        abandoned
    }

    /// The names of the runnables still running, logged as abandoned.
    fn abandon(&self) -> Vec<String> {
        let mut names: Vec<String> = self.names.values().cloned().collect();
        names.sort();
        for name in &names {
            tracing::error!(runnable = %name, "did not stop in time; abandoned (its future is dropped, which cannot wait for tasks it spawned)");
        }
        names
    }

    /// Asks every runnable to stop and waits until `deadline` (or, if an earlier
    /// stage used the time up, [`LATE_GRACE`] from now); aborts the rest. If `term`
    /// ends meanwhile, the runnables stop their work at once (they see it through
    /// [`Stop`]) and get only `grace` more.
    async fn stop(&mut self, deadline: Instant, term: Option<&Term>, grace: Duration) -> Stopped {
        let mut deadline = deadline.max(Instant::now() + LATE_GRACE);
        self.token.cancel();
        let mut stopped = Stopped::default();
        let mut term_running = term.is_some();
        let term_over = async {
            match term {
                Some(term) => term.over().await,
                None => pending().await,
            }
        };
        tokio::pin!(term_over);
        while !self.tasks.is_empty() {
            tokio::select! {
                (name, result) = self.next_exit() => {
                    if let Err(error) = result {
                        stopped.failures.push(error);
                    } else {
                        tracing::info!(runnable = %name, "stopped");
                    }
                }
                () = tokio::time::sleep_until(deadline) => {
                    stopped.abandoned = self.abandon();
                    self.abort().await;
                }
                () = &mut term_over, if term_running => {
                    tracing::warn!("leadership ended while stopping; stopping leader-only work at once");
                    deadline = deadline.min(Instant::now() + grace);
                    term_running = false;
                }
            }
        }
        stopped
    }

    /// Drops every runnable's future now, and waits until they are gone.
    async fn abort(&mut self) {
        self.token.cancel();
        self.tasks.abort_all();
        while self.tasks.join_next().await.is_some() {}
        self.names.clear();
    }
}

/// Waits for the term to end; pending without one.
async fn term_over(term: Option<&Arc<Term>>) {
    match term {
        Some(term) => term.over().await,
        None => pending().await,
    }
}

/// Logs which mechanism discovery chose for server-side fencing (retried until the
/// API server answers), so an operator on a cluster without admission policies learns
/// that its webhook must serve [`Manager::fence_webhook`].
async fn say_how_the_server_fences(manager: Manager) {
    loop {
        match manager.server_fencing_mechanism().await {
            Ok(None) => return,
            Ok(Some(crate::FencingMechanism::AdmissionPolicy)) => {
                tracing::info!("server-side fencing by the ValidatingAdmissionPolicy with the Lease as its parameter");
                return;
            }
            Ok(Some(crate::FencingMechanism::Webhook)) => {
                tracing::info!(
                    "server-side fencing by the fence webhook (this API server has no ValidatingAdmissionPolicy): \
                     every replica's webhook server must serve Manager::fence_webhook"
                );
                return;
            }
            Err(error) => {
                tracing::debug!(%error, "server-side fencing: discovery failed, asking again");
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
    }
}

pub(crate) async fn run(manager: Manager) -> Result<(), Error> {
    let inner = &manager.inner;
    if inner.started.swap(true, Ordering::AcqRel) {
        return Err(Error::AlreadyRunning);
    }
    let _signals = if inner.handle_signals {
        Some(AbortOnDropHandle::new(tokio::spawn(on_signals(
            inner.shutdown.clone(),
        )?)))
    } else {
        None
    };
    let _fencing = AbortOnDropHandle::new(tokio::spawn(say_how_the_server_fences(manager.clone())));
    let mut running = Running::new(&manager);
    let failure = running.start_and_watch().await;
    tracing::info!("stopping");
    let deadline = Instant::now() + inner.graceful_shutdown_timeout;
    let mut stopped = running.stop(deadline).await;
    if let Some(failure) = failure.or_else(|| (!stopped.failures.is_empty()).then(|| stopped.failures.remove(0))) {
        tracing::error!(error = %wheelhouse_cache::error_chain(&failure), "manager stopped on a failure");
        return Err(failure);
    }
    if !stopped.abandoned.is_empty() {
        return Err(Error::ShutdownTimedOut {
            timeout: inner.graceful_shutdown_timeout,
            runnables: stopped.abandoned,
        });
    }
    tracing::info!("stopped");
    Ok(())
}

/// Everything a running manager started, to stop in reverse.
struct Running<'a> {
    manager: &'a Manager,
    leader_only: Vec<Arc<dyn Runnable>>,
    everywhere: Vec<Arc<dyn Runnable>>,
    http_stop: CancellationToken,
    http: JoinSet<std::io::Result<()>>,
    replicas: Group,
    leaders: Group,
    /// The current leadership term, while leader-only runnables run in it.
    term: Option<Arc<Term>>,
    /// Lets the manager's client write only in `term`.
    fence: Option<Arc<Fence>>,
    /// How long leader-only runnables get to stop after their term ended.
    term_end_grace: Duration,
    /// The runnables abandoned when the last term ended, for the error that reports it.
    abandoned: Vec<String>,
    elector_stop: CancellationToken,
    /// Aborted if the manager's future is dropped (a killed process renews nothing).
    elector_task: Option<AbortOnDropHandle<Result<(), Error>>>,
    leadership: Option<watch::Receiver<Leadership>>,
}

impl<'a> Running<'a> {
    fn new(manager: &'a Manager) -> Self {
        let runnables = manager.inner.runnables.lock().clone();
        let (leader_only, everywhere) = runnables.into_iter().partition(|r| r.needs_leader_election());
        Self {
            manager,
            leader_only,
            everywhere,
            http_stop: CancellationToken::new(),
            http: JoinSet::new(),
            replicas: Group::new(),
            leaders: Group::new(),
            term: None,
            fence: manager.inner.fence.clone(),
            term_end_grace: manager
                .inner
                .elector
                .as_ref()
                .map_or(LATE_GRACE, |e| e.term_end_grace()),
            abandoned: Vec::new(),
            elector_stop: CancellationToken::new(),
            elector_task: None,
            leadership: None,
        }
    }

    /// Starts everything in order, then watches until shutdown or a failure, which
    /// it returns.
    async fn start_and_watch(&mut self) -> Option<Error> {
        let inner = &self.manager.inner;
        // 1. The metrics and probe server, so probes answer from the first moment.
        for listener in inner.listeners.lock().drain(..) {
            self.http.spawn(listener.serve(self.http_stop.clone()));
        }
        if let Some(address) = inner.addresses.metrics {
            let scheme = if inner.addresses.metrics_secure {
                "https, each request authenticated and authorized by the API server"
            } else {
                "http, open to anyone who reaches it"
            };
            tracing::info!(%address, scheme, "serving /metrics");
        }
        if let Some(address) = inner.addresses.health_probe {
            tracing::info!(%address, "serving /healthz and /readyz");
        }
        // 2. What every replica runs (webhook servers...).
        for runnable in &self.everywhere {
            self.replicas.start(runnable, None);
        }
        // 3. The caches, until synced.
        inner.cache.start();
        let failure = tokio::select! {
            synced = inner.cache.wait_for_sync(inner.cache_sync_timeout) => synced.err().map(Error::from),
            () = inner.shutdown.cancelled() => return None,
            (_, result) = self.replicas.next_exit() => result.err(),
        };
        if failure.is_some() {
            return failure;
        }
        inner.synced.store(true, Ordering::Release);
        tracing::info!("caches synced");
        // 4. Leader-only work: now, or once this replica leads.
        match &inner.elector {
            Some(elector) => {
                tracing::info!(lease = %elector.lease(), identity = %elector.identity(), "waiting for leadership");
                self.leadership = Some(elector.subscribe());
                self.elector_task = Some(AbortOnDropHandle::new(tokio::spawn(
                    elector.clone().run(self.elector_stop.clone()),
                )));
            }
            None => {
                for runnable in &self.leader_only {
                    self.leaders.start(runnable, None);
                }
            }
        }
        self.watch().await
    }

    /// Runs until shutdown or a failure, starting leader-only work when this replica
    /// leads and dropping it at once when the term ends. Returns the failure, if any.
    async fn watch(&mut self) -> Option<Error> {
        let shutdown = self.manager.inner.shutdown.clone();
        loop {
            let changed = async {
                match self.leadership.as_mut() {
                    Some(receiver) => receiver.changed().await.is_ok(),
                    None => pending().await,
                }
            };
            let elector_done = async {
                match self.elector_task.as_mut() {
                    Some(task) => task.await,
                    None => pending().await,
                }
            };
            tokio::select! {
                () = shutdown.cancelled() => return None,
                (name, result) = self.replicas.next_exit() => {
                    if let Err(error) = result {
                        return Some(error);
                    }
                    tracing::info!(runnable = %name, "finished");
                }
                (name, result) = self.leaders.next_exit() => {
                    // A runnable that fails because its term ended (a write refused by
                    // the fence, say) stopped as asked; it does not fail the manager.
                    let term_over = self.term.as_ref().is_some_and(|term| !term.is_valid());
                    match result {
                        Err(error) if term_over => {
                            tracing::warn!(runnable = %name, error = %wheelhouse_cache::error_chain(&error), "failed as its leadership term ended");
                        }
                        Err(error) => return Some(error),
                        Ok(()) => tracing::info!(runnable = %name, "finished"),
                    }
                }
                () = term_over(self.term.as_ref()) => {
                    let why = self.term.as_ref().and_then(|term| term.why()).unwrap_or(crate::leader::why::NOT_RENEWED);
                    tracing::warn!(why, "the leadership term ended; stopping leader-only work at once");
                    self.end_term().await;
                }
                alive = changed => {
                    if alive {
                        self.follow_leadership().await;
                    } else {
                        self.leadership = None;
                    }
                }
                joined = elector_done => {
                    self.elector_task = None;
                    self.leadership = None;
                    self.end_term().await;
                    let abandoned = std::mem::take(&mut self.abandoned);
                    return match joined {
                        Ok(Ok(())) => None,
                        Ok(Err(Error::LeadershipLost { lease, why, .. })) => {
                            Some(Error::LeadershipLost { lease, why, abandoned })
                        }
                        Ok(Err(error)) => Some(error),
                        Err(error) => Some(Error::RunnablePanicked {
                            name: "leader election".into(),
                            message: panic_message(&*error.into_panic()),
                        }),
                    };
                }
            }
        }
    }

    /// Starts leader-only work in a new term, or stops it when the term is over. The
    /// watch channel keeps only the latest state, so `Standby` then `Leader` may arrive
    /// as one `Leader`: a term whose number differs from the running one is a new term,
    /// and the old one's work is stopped before the new one's starts.
    async fn follow_leadership(&mut self) {
        let state = self.leadership.as_mut().map(|r| r.borrow_and_update().clone());
        match state {
            Some(Leadership::Leader(term)) => {
                if self
                    .term
                    .as_ref()
                    .is_some_and(|running| running.number() == term.number())
                {
                    return;
                }
                self.end_term().await;
                if term.is_valid() {
                    self.begin_term(term);
                }
            }
            Some(Leadership::Standby) => {
                self.end_term().await;
            }
            None => {}
        }
    }

    /// Starts every leader-only runnable in `term`, its writes let through the fence.
    fn begin_term(&mut self, term: Arc<Term>) {
        tracing::info!(term = term.number(), "leading; starting leader-only runnables");
        if let Some(fence) = &self.fence {
            fence.enter(term.clone());
        }
        self.leaders = Group::new();
        for runnable in &self.leader_only {
            self.leaders.start(runnable, Some(&term));
        }
        self.term = Some(term);
    }

    /// Ends the running term, if any: writes are refused from now, and leader-only
    /// runnables stop their work and are awaited (those that do not stop within the
    /// grace are dropped, and named in `self.abandoned`). Only then is leadership
    /// reported lost.
    async fn end_term(&mut self) {
        let Some(term) = self.term.take() else {
            return;
        };
        term.end();
        let abandoned = self.leaders.stop_at_term_end(self.term_end_grace).await;
        if let Some(fence) = &self.fence {
            fence.leave();
        }
        let why = term.why().unwrap_or(crate::leader::why::STOPPED);
        if abandoned.is_empty() {
            tracing::warn!(
                term = term.number(),
                why,
                "leadership lost; every leader-only runnable has stopped"
            );
        } else {
            tracing::error!(term = term.number(), why, abandoned = %abandoned.join(", "), "leadership lost; leader-only runnables that did not stop in time were abandoned");
        }
        self.abandoned = abandoned;
    }

    /// Stops in reverse of the start: leader-only runnables, then the election (which
    /// releases the lease, now that nothing leader-only runs), every-replica
    /// runnables, the HTTP server; all by `deadline`.
    async fn stop(mut self, deadline: Instant) -> Stopped {
        let mut stopped = self
            .leaders
            .stop(deadline, self.term.as_deref(), self.term_end_grace)
            .await;
        if let Some(fence) = &self.fence {
            fence.leave();
        }
        self.elector_stop.cancel();
        if let Some(mut task) = self.elector_task.take() {
            let deadline = deadline.max(Instant::now() + LATE_GRACE);
            match tokio::time::timeout_at(deadline, &mut task).await {
                Ok(Ok(Err(error))) => stopped.failures.push(error),
                Ok(_) => {}
                Err(_) => stopped.abandoned.push("leader election".into()),
            }
        }
        let replicas = self.replicas.stop(deadline, None, LATE_GRACE).await;
        stopped.failures.extend(replicas.failures);
        stopped.abandoned.extend(replicas.abandoned);
        self.http_stop.cancel();
        let http = &mut self.http;
        let deadline = deadline.max(Instant::now() + LATE_GRACE);
        if tokio::time::timeout_at(deadline, async { while http.join_next().await.is_some() {} })
            .await
            .is_err()
        {
            self.http.abort_all();
            stopped.abandoned.push("metrics and health probe server".into());
        }
        self.manager.inner.synced.store(false, Ordering::Release);
        stopped
    }
}

/// Cancels `shutdown` on the first SIGTERM or SIGINT; exits the process on a second,
/// as kubebuilder's signal handler does.
#[cfg(unix)]
fn on_signals(shutdown: CancellationToken) -> Result<impl Future<Output = ()>, Error> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate()).map_err(Error::Signals)?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(Error::Signals)?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM: stopping gracefully (a second signal exits at once)"),
            _ = interrupt.recv() => tracing::info!("SIGINT: stopping gracefully (a second signal exits at once)"),
        }
        shutdown.cancel();
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
        tracing::error!("second signal: exiting at once");
        std::process::exit(1);
    })
}

#[cfg(not(unix))]
fn on_signals(shutdown: CancellationToken) -> Result<impl Future<Output = ()>, Error> {
    Ok(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            shutdown.cancel();
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    use super::*;
    use crate::manager::runnable::{Stop, runnable_fn};

    async fn until(what: &str, check: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !check() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test]
    async fn a_new_term_merged_with_the_standby_before_it_still_starts_leader_only_work() {
        let server = wheelhouse_envtest::ApiServer::new(wheelhouse_envtest::ServerOptions::default());
        let manager = Manager::builder(kube::Client::new(server, "default"))
            .shutdown_signal(CancellationToken::new())
            .build()
            .expect("a manager");
        let starts = Arc::new(AtomicUsize::new(0));
        let counted = starts.clone();
        manager
            .add(runnable_fn("work", true, move |stop: Stop| {
                let counted = counted.clone();
                async move {
                    counted.fetch_add(1, Ordering::SeqCst);
                    stop.term_over().await;
                    Ok(())
                }
            }))
            .expect("add");
        let (elector, receiver) = watch::channel(Leadership::Standby);
        let mut running = Running::new(&manager);
        running.leadership = Some(receiver);
        let term = |number| Term::new(number, Instant::now() + Duration::from_secs(10));

        let first = term(1);
        elector.send_replace(Leadership::Leader(first.clone()));
        running.follow_leadership().await;
        until("the first term's work", || starts.load(Ordering::SeqCst) == 1).await;
        // The elector loses term 1 and wins term 2 before the manager looks: the
        // channel keeps only the last state, so the manager sees just `Leader(2)`.
        first.end();
        elector.send_replace(Leadership::Standby);
        elector.send_replace(Leadership::Leader(term(2)));
        running.follow_leadership().await;
        until("the second term's work", || starts.load(Ordering::SeqCst) == 2).await;
        assert_eq!(running.term.as_ref().map(|t| t.number()), Some(2));
        // The same term seen again starts nothing.
        running.follow_leadership().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(starts.load(Ordering::SeqCst), 2);
        assert_eq!(running.leaders.tasks.len(), 1, "the first term's work stopped");
    }
}
