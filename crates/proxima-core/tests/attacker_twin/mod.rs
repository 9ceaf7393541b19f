//! The brute-force twin of the attacker's-view check (docs/design.md §4 "The
//! attacker's view"), written for tests from the definition alone.
//!
//! It shares no code with the crate's `audit`, `attacker`, `privacy` or
//! `metric` modules. It reads a release the way an attacker does: the
//! PRINTED rows ([`proxima_core::generalize::for_each_release_row`]), whose
//! labels it parses itself (`[lo-hi]`, date ranges, categorical labels
//! resolved to leaf sets by walking the hierarchy's public accessors). It
//! knows each victim's original QI values and every row's SA from the
//! table. For each victim it scans every published group (no index: O(n·G),
//! or O(sample·G) on large tables) and computes the model's figure on the
//! candidate rows with its own arithmetic.
#![allow(dead_code)]

pub mod checks;
pub mod jobs;
pub mod published;
pub mod sa;
pub mod tables;
