//! Validated privacy-model parameters ("parse, don't validate"): raw numbers
//! become these types at the boundary, and the algorithms never re-check
//! their domains. Checks that depend on the data (k ≤ rows, m ≤ Theorem 1's
//! bound) happen in the algorithms' feasibility functions.

use crate::error::{CoreError, CoreResult, Detail, Field};

/// Minimum group size k ≥ 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct K(u32);

impl K {
    pub fn new(k: u64, field: impl Into<Field>) -> CoreResult<K> {
        if k == 0 || k > u32::MAX as u64 {
            return Err(CoreError::invalid_parameters(
                field,
                format!("k must be an integer of at least 1, got {k}"),
            ));
        }
        Ok(K(k as u32))
    }
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// The m of (ε,m)-anonymity, m ≥ 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct M(u32);

impl M {
    pub fn new(m: u64, field: impl Into<Field>) -> CoreResult<M> {
        if m == 0 || m > u32::MAX as u64 {
            return Err(CoreError::invalid_parameters(
                field,
                format!("m must be an integer of at least 1, got {m}"),
            ));
        }
        Ok(M(m as u32))
    }
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// A non-negative, finite neighbourhood radius ε.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Epsilon(f64);

impl Epsilon {
    pub fn new(e: f64, field: impl Into<Field>) -> CoreResult<Epsilon> {
        if !e.is_finite() || e < 0.0 {
            return Err(CoreError::invalid_parameters(
                field,
                format!("epsilon must be a finite number ≥ 0, got {e}"),
            ));
        }
        Ok(Epsilon(e))
    }
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A fraction in [0, 1] (δ of (ε,δ)^k-dissimilarity, t of t-closeness).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Fraction(f64);

impl Fraction {
    pub fn new(v: f64, name: &str, field: impl Into<Field>) -> CoreResult<Fraction> {
        if !v.is_finite() || !(0.0..=1.0).contains(&v) {
            return Err(CoreError::invalid_parameters(
                field,
                format!("{name} must be in [0, 1], got {v}"),
            ));
        }
        Ok(Fraction(v))
    }
    pub fn get(self) -> f64 {
        self.0
    }
}

/// The share of rows a job may leave out of its release to satisfy its
/// model in the attacker's view: a fraction in [0, 1) (ARX's convention;
/// 1 would allow publishing nothing). Default 0.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct SuppressionLimit(f64);

impl SuppressionLimit {
    pub fn new(v: f64, field: impl Into<Field>) -> CoreResult<SuppressionLimit> {
        if !v.is_finite() || !(0.0..1.0).contains(&v) {
            return Err(CoreError::invalid_parameters(
                field,
                format!("suppression_limit must be in [0, 1), got {v}"),
            ));
        }
        Ok(SuppressionLimit(v))
    }
    pub fn get(self) -> f64 {
        self.0
    }
    /// The most rows of `rows` that may be left out: ⌊limit · rows⌋.
    pub fn max_rows(self, rows: usize) -> usize {
        (self.0 * rows as f64).floor() as usize
    }

    /// The smallest limit with four decimals whose [`Self::max_rows`] of
    /// `n` rows allows leaving out `rows` (what an error tells a job to
    /// ask for); `None` when no limit below 1 does.
    pub fn least_allowing(rows: usize, n: usize) -> Option<SuppressionLimit> {
        let mut ten_thousandths = (rows as f64 * 1e4 / n.max(1) as f64).ceil();
        while ten_thousandths < 1e4 {
            let limit = SuppressionLimit(ten_thousandths / 1e4);
            if limit.max_rows(n) >= rows {
                return Some(limit);
            }
            ten_thousandths += 1.0;
        }
        None
    }
}

/// Absolute (|x−y| ≤ ε) or relative (y ∈ [x(1−ε), x(1+ε)]) neighbourhoods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Neighborhood {
    Absolute,
    Relative,
}

/// (ε,m)-anonymity parameters. For `Relative`, ε < 1 (ε = 1 makes the log₂
/// reduction infinite), checked by [`EpsilonM::new`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpsilonM {
    pub epsilon: Epsilon,
    pub m: M,
    pub neighborhood: Neighborhood,
}

impl EpsilonM {
    pub fn new(
        epsilon: Epsilon,
        m: M,
        neighborhood: Neighborhood,
        eps_field: impl Into<Field>,
    ) -> CoreResult<Self> {
        if neighborhood == Neighborhood::Relative && epsilon.get() >= 1.0 {
            return Err(CoreError::invalid_parameters(
                eps_field,
                format!(
                    "a relative epsilon must be in [0, 1), got {}",
                    epsilon.get()
                ),
            ));
        }
        Ok(EpsilonM {
            epsilon,
            m,
            neighborhood,
        })
    }
}

/// (ε,δ)^k-dissimilarity parameters (XColor).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dissimilarity {
    pub epsilon: Epsilon,
    pub delta: Fraction,
    pub k: K,
}

/// The l-diversity variants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LDiversityVariant {
    Distinct,
    Entropy,
    /// Recursive (c,l)-diversity: r₁ < c·(r_l + … + r_m), c > 0.
    Recursive {
        c: f64,
    },
}

/// l-diversity with a minimum group size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LDiversity {
    /// l ≥ 1 (entropy l may be fractional in the literature; we take a real).
    pub l: f64,
    pub variant: LDiversityVariant,
    pub k: K,
}

impl LDiversity {
    pub fn new(
        l: f64,
        variant: LDiversityVariant,
        k: K,
        field: impl Into<Field>,
    ) -> CoreResult<Self> {
        let field = field.into();
        if !l.is_finite() || l < 1.0 {
            return Err(CoreError::invalid_parameters(
                field.param("l"),
                format!("l must be a number ≥ 1, got {l}"),
            ));
        }
        if let LDiversityVariant::Distinct | LDiversityVariant::Recursive { .. } = variant {
            if l.fract() != 0.0 {
                return Err(CoreError::invalid_parameters(
                    field.param("l"),
                    format!("l must be an integer for this variant, got {l}"),
                ));
            }
        }
        if let LDiversityVariant::Recursive { c } = variant {
            if !c.is_finite() || c <= 0.0 {
                return Err(CoreError::invalid_parameters(
                    field.param("c"),
                    format!("c must be a number > 0, got {c}"),
                ));
            }
        }
        Ok(LDiversity { l, variant, k })
    }
}

/// Ground distance of the Earth Mover's Distance in t-closeness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroundDistance {
    /// Values on a line (numeric SA, or categories in hierarchy leaf order).
    Ordered,
    /// Every two distinct values at distance 1.
    Equal,
    /// Distance of two values = height of their LCA / hierarchy height.
    Hierarchical,
}

/// t-closeness with a minimum group size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TCloseness {
    pub t: Fraction,
    pub k: K,
    pub ground: GroundDistance,
}

/// The privacy model a job asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PrivacyModel {
    EpsilonM(EpsilonM),
    Dissimilarity(Dissimilarity),
    KAnonymity(K),
    LDiversity(LDiversity),
    TCloseness(TCloseness),
    /// k-map or δ-presence against the dataset's population table
    /// (Mondrian; the table comes with the job, [`crate::run::JobSpec`]).
    Population(PopulationModel),
}

/// A model (or audit check) judged against a population table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PopulationModel {
    /// Every class covers at least k population records.
    KMap { k: K },
    /// Every class's |sample| / |population covered| lies in [min, max].
    DeltaPresence { min: Fraction, max: Fraction },
}

fn d(key: &str, value: impl Into<Detail>) -> (String, Detail) {
    (key.to_string(), value.into())
}

impl PopulationModel {
    /// δ-presence with δmin ≤ δmax (errors at `at`'s `delta_min` and `delta_max`).
    pub fn delta_presence(min: f64, max: f64, at: impl Into<Field>) -> CoreResult<PopulationModel> {
        let at = at.into();
        let lo = Fraction::new(min, "delta_min", at.param("delta_min"))?;
        let hi = Fraction::new(max, "delta_max", at.param("delta_max"))?;
        if lo.get() > hi.get() {
            return Err(CoreError::invalid_parameters(
                at.param("delta_min"),
                format!("delta_min ({min}) must not exceed delta_max ({max})"),
            ));
        }
        Ok(PopulationModel::DeltaPresence { min: lo, max: hi })
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            PopulationModel::KMap { .. } => "k_map",
            PopulationModel::DeltaPresence { .. } => "delta_presence",
        }
    }

    /// The model's parameters, as a check report names them.
    pub fn params(&self) -> Vec<(String, Detail)> {
        match self {
            PopulationModel::KMap { k } => vec![d("k", k.get())],
            PopulationModel::DeltaPresence { min, max } => {
                vec![d("delta_min", min.get()), d("delta_max", max.get())]
            }
        }
    }

    /// Whether a class of `size` sample records whose labels cover
    /// `covered` population records satisfies the model.
    pub fn allows(&self, size: usize, covered: u64) -> bool {
        match self {
            PopulationModel::KMap { k } => covered >= k.get() as u64,
            PopulationModel::DeltaPresence { min, max } => {
                covered > 0 && {
                    let delta = size as f64 / covered as f64;
                    min.get() <= delta && delta <= max.get()
                }
            }
        }
    }

    /// How far a count must go for [`PopulationModel::allows`] to judge a
    /// class of `size` records exactly: below the cap the count is exact;
    /// at or above it the class's verdict is the same for every larger
    /// count. k-map: k (allowed from k on). δ-presence with δmin > 0: past
    /// size/δmin every count fails (two above its floor, so rounding
    /// cannot lower it); with δmin = 0: from size/δmax on every count
    /// passes (one above its ceiling).
    pub fn cap(&self, size: usize) -> u64 {
        match self {
            PopulationModel::KMap { k } => k.get() as u64,
            PopulationModel::DeltaPresence { min, max } => {
                let size = size as f64;
                let bound = if min.get() > 0.0 {
                    (size / min.get()).floor() + 2.0
                } else if max.get() > 0.0 {
                    (size / max.get()).ceil() + 1.0
                } else {
                    f64::INFINITY
                };
                if bound >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    bound as u64
                }
            }
        }
    }

    /// Whether the model needs the sample to be a subset of the population.
    pub fn needs_subset(&self) -> bool {
        matches!(self, PopulationModel::DeltaPresence { .. })
    }
}

/// Which partitioner to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    EpsilonM,
    XColor,
    Mondrian,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::EpsilonM => "epsilon_m",
            Algorithm::XColor => "xcolor",
            Algorithm::Mondrian => "mondrian",
        }
    }
}

impl PrivacyModel {
    /// The default algorithm of each model (docs/api.md §Jobs).
    pub fn default_algorithm(&self) -> Algorithm {
        match self {
            PrivacyModel::EpsilonM(_) => Algorithm::EpsilonM,
            PrivacyModel::Dissimilarity(_) => Algorithm::XColor,
            _ => Algorithm::Mondrian,
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            PrivacyModel::EpsilonM(_) => "epsilon_m",
            PrivacyModel::Dissimilarity(_) => "dissimilarity",
            PrivacyModel::KAnonymity(_) => "k_anonymity",
            PrivacyModel::LDiversity(_) => "l_diversity",
            PrivacyModel::TCloseness(_) => "t_closeness",
            PrivacyModel::Population(p) => p.kind_name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit named for `rows` of `n` lets a job leave them out, and the
    /// next smaller four-decimal limit does not — including shares that are
    /// exact decimals (floating point must not round them below).
    #[test]
    fn the_least_limit_allowing_rows_is_the_smallest_that_does() {
        for n in [1usize, 7, 100, 63_441, 500_000, 1_000_003] {
            for rows in [0, 1, n / 4, n / 3, n / 2, n.saturating_sub(1), n] {
                let allows = |l: f64| SuppressionLimit::new(l, "/s").unwrap().max_rows(n) >= rows;
                let Some(limit) = SuppressionLimit::least_allowing(rows, n) else {
                    // Only when even 0.9999 is too little.
                    assert!(!allows(0.9999), "{rows} of {n}");
                    continue;
                };
                let limit = limit.get();
                assert!(allows(limit), "{rows} of {n}: {limit}");
                let smaller = ((limit * 1e4).round() - 1.0) / 1e4;
                assert!(
                    smaller < 0.0 || !allows(smaller),
                    "{rows} of {n}: {smaller} suffices"
                );
            }
        }
    }

    #[test]
    fn domains_are_enforced() {
        assert!(K::new(0, "/model/k").is_err());
        assert_eq!(K::new(10, "/model/k").unwrap().get(), 10);
        assert!(M::new(0, "/model/m").is_err());
        assert!(Epsilon::new(-1.0, "/e").is_err());
        assert!(Epsilon::new(f64::NAN, "/e").is_err());
        assert!(Fraction::new(1.2, "delta", "/d").is_err());
        let e = Epsilon::new(1.0, "/e").unwrap();
        let m = M::new(2, "/m").unwrap();
        let err =
            EpsilonM::new(e, m, Neighborhood::Relative, Field::ModelParam("epsilon")).unwrap_err();
        assert_eq!(err.errors[0].field, Field::ModelParam("epsilon"));
        assert!(EpsilonM::new(e, m, Neighborhood::Absolute, "/e").is_ok());
        let k = K::new(2, "/k").unwrap();
        assert!(LDiversity::new(2.5, LDiversityVariant::Distinct, k, "/model").is_err());
        assert!(LDiversity::new(2.5, LDiversityVariant::Entropy, k, "/model").is_ok());
        assert!(
            LDiversity::new(2.0, LDiversityVariant::Recursive { c: 0.0 }, k, "/model").is_err()
        );
    }
}
