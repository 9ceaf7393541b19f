//! Audits of a partition against privacy checks (API.md §Audits).
//!
//! The request and report types live here; the checks themselves are in
//! submodules. A report is computed over any partition: a job's result, or an
//! uploaded table grouped by identical published QI values or by a column.

use crate::error::Detail;
use crate::metric::MetricSpec;
use crate::params::{Dissimilarity, EpsilonM, Fraction, GroundDistance, LDiversityVariant, K};

/// One check of an audit request.
#[derive(Debug, Clone, PartialEq)]
pub enum AuditCheck {
    KAnonymity {
        k: K,
    },
    LDiversity {
        l: f64,
        variant: LDiversityVariant,
    },
    /// (α,k)-anonymity: every group has ≥ k rows and no SA value has a
    /// relative frequency above α in its group.
    AlphaK {
        alpha: Fraction,
        k: K,
    },
    EpsilonM(EpsilonM),
    /// (ε,δ)^k-dissimilarity under a metric (default: the SA's default).
    Dissimilarity {
        params: Dissimilarity,
        metric: Option<MetricSpec>,
    },
    /// (δ,l)-diversity: values are similar when their δ-intervals overlap.
    DeltaLDiversity {
        delta: f64,
        l: usize,
    },
    TCloseness {
        t: Fraction,
        ground: GroundDistance,
    },
}

impl AuditCheck {
    pub fn kind_name(&self) -> &'static str {
        match self {
            AuditCheck::KAnonymity { .. } => "k_anonymity",
            AuditCheck::LDiversity { .. } => "l_diversity",
            AuditCheck::AlphaK { .. } => "alpha_k",
            AuditCheck::EpsilonM(_) => "epsilon_m",
            AuditCheck::Dissimilarity { .. } => "dissimilarity",
            AuditCheck::DeltaLDiversity { .. } => "delta_l_diversity",
            AuditCheck::TCloseness { .. } => "t_closeness",
        }
    }
}

/// A group named in a report: its id (1-based group index as text, or the
/// grouping column's value) with its size and the check's figure for it.
#[derive(Debug, Clone, PartialEq)]
pub struct WorstGroup {
    pub group_id: String,
    pub size: usize,
    pub value: f64,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    pub kind: &'static str,
    /// The check's parameters as requested (for the report's `params`).
    pub params: Vec<(String, Detail)>,
    pub passed: bool,
    /// The check's natural figures (API.md): `min_size`; `l`;
    /// `max_breach_probability` + `achieved_m`; `max_risk` + `vulnerability`;
    /// `max_emd`; …
    pub value: Vec<(String, Detail)>,
    pub violating_groups: usize,
    pub violating_rows: usize,
    /// At most [`MAX_WORST_GROUPS`], worst first.
    pub worst_groups: Vec<WorstGroup>,
}

/// Prosecutor re-identification risk (1/|G| for a record in group G).
#[derive(Debug, Clone, PartialEq)]
pub struct ProsecutorRisk {
    pub max: f64,
    pub average: f64,
    pub records_at_max: usize,
}

/// A group-size histogram bucket, in Google DLP's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeBucket {
    pub min_size: usize,
    pub max_size: usize,
    pub groups: usize,
    pub rows: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AuditReport {
    pub rows: usize,
    pub groups: usize,
    /// True when every check passed.
    pub passed: bool,
    pub checks: Vec<CheckReport>,
    pub risk: ProsecutorRisk,
    pub group_sizes: Vec<SizeBucket>,
}

/// The most groups a check lists in `worst_groups`.
pub const MAX_WORST_GROUPS: usize = 20;
