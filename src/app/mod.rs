//! The application layer: the service's use cases, written once and called
//! by every adapter — the HTTP handlers, the worker, sweeps and the offline
//! CLI. A use case reads and writes through `store`, computes with
//! `proxima_core` and speaks in the boundary types of `spec`; it knows
//! nothing of HTTP (status codes, extractors, problem documents), so the
//! adapters only parse, call and map. Imports point one way: `http` and
//! `worker` → `app` → `store`, `spec`, `proxima_core`.

pub mod audits;
pub mod ingest;
pub mod jobs;
pub mod tables;
