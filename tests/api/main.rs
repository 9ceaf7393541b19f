//! The service's one integration-test binary: a real server over HTTP on a
//! real PostgreSQL (DATABASE_URL, or one private cluster per run), each test
//! on its own fresh database.

mod support;

mod ambiguous_requests;
mod auth;
mod browser;
mod browser_selftest;
mod budgets;
mod containers;
mod errors;
mod fairness;
mod health;
mod hostile;
mod huge_cells;
mod isolation;
mod jobs;
mod limits;
mod logs;
mod metrics;
mod openapi;
mod population;
mod portal;
mod pressure;
mod queue;
mod quota_race;
mod readable;
mod release_report;
mod resources;
mod sign_off;
mod special_uniques;
mod stored_table;
mod stray_quotes;
mod sweeps;
