//! Our own accept loop, for what `axum::serve` cannot bound: how long a
//! connection may take to send a request's header, and how many
//! connections are open at once.
//!
//! * **Header-read timeout** (`--header-read-timeout-secs`): a request's
//!   header must arrive within it, counted from the connection's start or
//!   from the end of the previous response — so it is also the idle
//!   keep-alive timeout. A client trickling header lines, or holding an
//!   idle connection, is disconnected when it passes.
//! * **Connection cap** (`--max-connections`): at most that many
//!   connections are kept. A new connection over the cap evicts the oldest
//!   connection that has no request in flight (idle, or still sending its
//!   header — before authentication, so it costs an attacker nothing to
//!   have it closed); only when every connection is serving a request is
//!   the new one closed at once. Idle connections therefore cannot starve
//!   `/healthz` or anyone else, and the process never runs out of file
//!   descriptors on sockets.
//!
//! * **Minimum body rate** (`--min-body-rate`, `--body-rate-grace-secs`):
//!   a request body slower than the minimum after the grace period ends the
//!   request with 408 `body_too_slow` (`http::body_rate`), so trickled
//!   bodies cannot keep connections busy — and with the per-tenant cap on
//!   requests in flight (`http::inflight`) one tenant holds at most that
//!   many connections busy at all.
//!
//! Only HTTP/1.1 is served (a TLS-terminating proxy in front speaks HTTP/2
//! to clients if wanted).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::response::Response;
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch, Notify};
use tower::ServiceExt;

use super::body_rate::{too_slow_response, RateBody, TooSlow};

/// The connection limits of the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    pub header_read_timeout: Duration,
    pub max_connections: usize,
    /// The minimum rate of a request body (`http::body_rate`).
    pub body_rate: super::body_rate::BodyRate,
}

impl Default for ConnectionLimits {
    /// 10 s for a header, 1,000 connections (the defaults of `proxima
    /// serve`).
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            max_connections: 1000,
            body_rate: super::body_rate::BodyRate::default(),
        }
    }
}

/// One open connection as the accept loop sees it.
struct Slot {
    /// Requests whose response (body included) is not finished.
    in_flight: AtomicUsize,
    /// Told when the connection is evicted.
    evict: Notify,
}

/// The open connections by age (ids increase).
#[derive(Default)]
struct Registry {
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
}

impl Registry {
    /// Makes room for one more connection under `max`: evicts the oldest
    /// connection without a request in flight. False when all are busy.
    fn admit(&self, id: u64, max: usize) -> Option<Arc<Slot>> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if open.len() >= max {
            let idle = open
                .iter()
                .find(|(_, s)| s.in_flight.load(Ordering::Acquire) == 0)
                .map(|(&id, _)| id)?;
            if let Some(slot) = open.remove(&idle) {
                slot.evict.notify_one();
            }
        }
        let slot = Arc::new(Slot {
            in_flight: AtomicUsize::new(0),
            evict: Notify::new(),
        });
        open.insert(id, slot.clone());
        Some(slot)
    }

    fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.remove(&id);
    }
}

/// Counts a request as in flight until its response body is dropped.
struct InFlight(Arc<Slot>);

impl InFlight {
    fn new(slot: Arc<Slot>) -> Self {
        slot.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(slot)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that keeps its request counted while it streams (a
/// long download is not an idle connection).
struct Guarded {
    inner: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Guarded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Resolves once `stop` is true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|v| *v).await;
}

/// Serves `app` on `listener` until `stop` turns true, then stops
/// accepting, lets every connection finish its request in flight and
/// returns when all are closed.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    mut stop: watch::Receiver<bool>,
) {
    let registry = Arc::new(Registry::default());
    let max = limits.max_connections.max(1);
    // Every connection task holds a sender; all dropped = all closed.
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let mut next_id = 0u64;
    loop {
        let accepted = tokio::select! {
            _ = stopped(&mut stop) => break,
            a = listener.accept() => a,
        };
        let (stream, _peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // EMFILE and friends: back off instead of spinning.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        next_id += 1;
        let id = next_id;
        let Some(slot) = registry.admit(id, max) else {
            tracing::warn!(
                max,
                "connection cap reached with every connection busy; closing a new one"
            );
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let registry = registry.clone();
        let mut stop = stop.clone();
        let alive = alive_tx.clone();
        tokio::spawn(async move {
            let service_slot = slot.clone();
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let guard = InFlight::new(service_slot.clone());
                let app = app.clone();
                async move {
                    // A body below the minimum rate ends the request with
                    // 408 whatever its handler is doing (the handler is
                    // dropped, and with it any computation it started).
                    let slow = Arc::new(TooSlow::default());
                    let req = req.map(|b| {
                        Body::new(RateBody::new(Body::new(b), limits.body_rate, slow.clone()))
                    });
                    let res: Response = tokio::select! {
                        res = app.oneshot(req) => match res {
                            Ok(res) if slow.is_set() => {
                                drop(res);
                                too_slow_response(limits.body_rate)
                            }
                            Ok(res) => res,
                            Err(never) => match never {},
                        },
                        _ = slow.wait() => too_slow_response(limits.body_rate),
                    };
                    Ok::<_, Infallible>(res.map(|inner| {
                        Body::new(Guarded {
                            inner,
                            _in_flight: guard,
                        })
                    }))
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout)
                .keep_alive(true);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                // Evicted: nothing is in flight, so the connection is closed
                // outright (it may be in the middle of a trickled header).
                _ = slot.evict.notified() => {}
                _ = stopped(&mut stop) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.as_mut().await;
                }
            }
            registry.remove(id);
            drop(alive);
        });
    }
    drop(alive_tx);
    let _ = alive_rx.recv().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_idle_connection_makes_room_and_busy_ones_are_kept() {
        let r = Registry::default();
        let a = r.admit(1, 2).unwrap();
        let b = r.admit(2, 2).unwrap();
        let _busy_a = InFlight::new(a.clone());
        // Full: the oldest idle one (2; 1 is busy) is evicted.
        let c = r.admit(3, 2).unwrap();
        assert!(r.open.lock().unwrap().keys().eq([1, 3].iter()));
        drop(b);
        let _busy_c = InFlight::new(c.clone());
        // Every connection busy: the new one is refused.
        assert!(r.admit(4, 2).is_none());
        drop(_busy_a);
        assert!(r.admit(5, 2).is_some());
        assert!(r.open.lock().unwrap().keys().eq([3, 5].iter()));
    }
}
