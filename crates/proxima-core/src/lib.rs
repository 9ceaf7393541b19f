//! Proxima's pure core: the table model, hierarchies, sensitive-attribute
//! metrics, the partitioners ((ε,m), XColor, Mondrian), audits and utility.
//!
//! This crate does no I/O beyond parsing bytes it is handed, and depends on no
//! async runtime, database or HTTP crate: the service and the offline CLI map
//! [`error::CoreError`] into their own error shapes.

pub mod attacker;
pub mod audit;
mod columnar;
pub mod epsilon_m;
pub mod error;
pub mod generalize;
pub mod hierarchy;
pub mod ingest;
pub mod metric;
pub mod mondrian;
pub mod neighborhood;
pub mod parallel;
pub mod params;
pub mod partition;
pub mod privacy;
pub mod progress;
pub mod risk;
pub mod run;
mod safe_split;
pub mod schema;
pub mod split;
pub mod table;
pub mod table_codec;
pub mod utility;
pub mod xcolor;

pub use error::{CoreError, Detail, ErrorKind, FieldError};
pub use hierarchy::Hierarchy;
pub use partition::{Partition, Placement};
pub use progress::Progress;
pub use schema::Schema;
pub use table::Table;
