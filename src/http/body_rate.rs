//! The minimum rate of a request body (`--min-body-rate`,
//! `--body-rate-grace-secs`): after the grace period, a body must have
//! arrived at an average of at least the minimum rate since it was first
//! read, else the request ends with 408 `body_too_slow` and its connection
//! is closed. A client trickling a body (one byte every few seconds) holds
//! its connection and its tenant's request slot for the grace period and a
//! little more, not for the whole request or upload timeout.
//!
//! The check runs while the body is being read: the reader waits for the
//! next piece at most until the moment the average would fall below the
//! minimum, so a stalled body is ended on time even when nothing arrives.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::response::Response;
use http_body::{Frame, SizeHint};
use serde_json::json;
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

use super::error::ApiError;

/// Default minimum body rate, bytes per second.
pub const DEFAULT_MIN_BODY_RATE: u64 = 1024;
/// Default grace period before the rate is enforced, seconds.
pub const DEFAULT_BODY_RATE_GRACE_SECS: u64 = 10;

/// The rule, as configured (`min_rate` 0: no minimum).
#[derive(Debug, Clone, Copy)]
pub struct BodyRate {
    pub min_rate: u64,
    pub grace: Duration,
}

impl Default for BodyRate {
    fn default() -> Self {
        BodyRate {
            min_rate: DEFAULT_MIN_BODY_RATE,
            grace: Duration::from_secs(DEFAULT_BODY_RATE_GRACE_SECS),
        }
    }
}

/// Set when a request's body fell below the rate; the connection loop
/// answers 408 then, whatever the handler was doing.
#[derive(Default)]
pub struct TooSlow {
    flag: AtomicBool,
    notify: Notify,
}

impl TooSlow {
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    fn set(&self) {
        self.flag.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }

    /// Resolves once the body was found too slow.
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }
}

/// A request body under the rate rule.
pub struct RateBody {
    inner: Body,
    rule: BodyRate,
    /// When the body was first read.
    started: Option<Instant>,
    received: u64,
    deadline: Option<Pin<Box<Sleep>>>,
    slow: Arc<TooSlow>,
}

impl RateBody {
    /// `inner` under `rule`; `slow` is set when the rule is broken.
    pub fn new(inner: Body, rule: BodyRate, slow: Arc<TooSlow>) -> Self {
        RateBody {
            inner,
            rule,
            started: None,
            received: 0,
            deadline: None,
            slow,
        }
    }

    /// The moment the average rate would fall below the minimum with
    /// nothing more received.
    fn due(&self, started: Instant) -> Instant {
        let needed = Duration::from_secs_f64(self.received as f64 / self.rule.min_rate as f64);
        started + self.rule.grace.max(needed)
    }
}

/// The error the handler's body read sees.
#[derive(Debug)]
pub struct BodyTooSlow;

impl std::fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived below the minimum rate")
    }
}

impl std::error::Error for BodyTooSlow {}

impl http_body::Body for RateBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        if this.rule.min_rate == 0 {
            return Pin::new(&mut this.inner).poll_frame(cx);
        }
        let started = *this.started.get_or_insert_with(Instant::now);
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                }
                this.deadline = None;
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Pending => {
                let due = this.due(started);
                let sleep = this
                    .deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(due)));
                if sleep.deadline() != due {
                    sleep.as_mut().reset(due);
                }
                match sleep.as_mut().poll(cx) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(()) => {
                        this.slow.set();
                        Poll::Ready(Some(Err(axum::Error::new(BodyTooSlow))))
                    }
                }
            }
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The answer to a request whose body was too slow.
pub fn too_slow_response(rule: BodyRate) -> Response {
    let e = ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "body_too_slow",
        format!(
            "the request body arrived at less than {} bytes per second after the first {} s",
            rule.min_rate,
            rule.grace.as_secs_f64()
        ),
    )
    .with_details(json!({
        "min_body_rate": rule.min_rate,
        "grace_secs": rule.grace.as_secs_f64(),
    }));
    super::inflight::refuse_and_close(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    /// A body fed through a channel.
    fn channel_body() -> (tokio::sync::mpsc::Sender<Bytes>, Body) {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Bytes>(4);
        let stream = futures_util::stream::poll_fn(move |cx| {
            rx.poll_recv(cx).map(|o| o.map(Ok::<_, std::io::Error>))
        });
        (tx, Body::from_stream(stream))
    }

    fn rule(min_rate: u64, grace_ms: u64) -> BodyRate {
        BodyRate {
            min_rate,
            grace: Duration::from_millis(grace_ms),
        }
    }

    #[tokio::test]
    async fn a_stalled_body_is_ended_and_flagged() {
        let (tx, rx) = channel_body();
        let slow = Arc::new(TooSlow::default());
        let mut body = Body::new(RateBody::new(rx, rule(100, 50), slow.clone())).into_data_stream();
        tx.send(Bytes::from_static(b"0123456789")).await.unwrap();
        assert_eq!(body.next().await.unwrap().unwrap().len(), 10);
        // Nothing more arrives (the sender is kept): the read ends in the
        // rate's error instead of waiting for ever.
        let err = body.next().await.unwrap().unwrap_err();
        assert!(err.to_string().contains("minimum rate"), "{err}");
        assert!(slow.is_set());
        slow.wait().await;
        drop(tx);
    }

    #[tokio::test]
    async fn a_body_above_the_rate_is_read_whole() {
        let (tx, rx) = channel_body();
        let slow = Arc::new(TooSlow::default());
        // One byte per second after a minute's grace: any test machine
        // sends 600 bytes faster.
        let body = Body::new(RateBody::new(rx, rule(1, 60_000), slow.clone()));
        let sender = tokio::spawn(async move {
            for _ in 0..30 {
                tx.send(Bytes::from(vec![b'x'; 20])).await.unwrap();
                tokio::task::yield_now().await;
            }
        });
        let all = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        sender.await.unwrap();
        assert_eq!(all.len(), 600);
        assert!(!slow.is_set());
    }

    #[tokio::test]
    async fn no_minimum_passes_the_body_through() {
        let (tx, rx) = channel_body();
        let slow = Arc::new(TooSlow::default());
        let body = Body::new(RateBody::new(rx, rule(0, 0), slow.clone()));
        tx.send(Bytes::from_static(b"abc")).await.unwrap();
        drop(tx);
        let all = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        assert_eq!(&all[..], b"abc");
        assert!(!slow.is_set());
    }
}
