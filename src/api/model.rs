//! `model`, `algorithm` and the `xcolor` options of a job (docs/api.md §Jobs) →
//! the core's validated [`PrivacyModel`] and [`Algorithm`].
//!
//! Defaults (documented in docs/api.md's examples or decided here):
//! * `epsilon_m.neighborhood`: `absolute`;
//! * `l_diversity.variant`: `distinct`; `l_diversity.k` and `t_closeness.k`:
//!   1 (no minimum group size beyond the model's own) when absent;
//! * `t_closeness.ground_distance`: `ordered` for a numeric SA,
//!   `hierarchical` for a categorical SA with a hierarchy, `equal`
//!   otherwise — resolved from the schema.

use proxima_core::error::CoreResult;
use proxima_core::params::PopulationModel;
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, GroundDistance, LDiversity,
    LDiversityVariant, Neighborhood, PrivacyModel, TCloseness, K, M,
};
use proxima_core::run::check_algorithm;
use proxima_core::schema::{Role, ValueType};
use proxima_core::xcolor::InitialColoring;
use proxima_core::{CoreError, Schema};
use serde::{Deserialize, Serialize};
use serde_json::Number;
use utoipa::ToSchema;

use super::number::{integer, real};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Model)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModelDto {
    EpsilonM {
        #[schema(value_type = f64, minimum = 0)]
        epsilon: Number,
        #[schema(value_type = u64, minimum = 1, maximum = 4294967295_u64)]
        m: Number,
        #[serde(default)]
        neighborhood: NeighborhoodDto,
    },
    Dissimilarity {
        #[schema(value_type = f64, minimum = 0)]
        epsilon: Number,
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        delta: Number,
        #[schema(value_type = u64, minimum = 1, maximum = 4294967295_u64)]
        k: Number,
    },
    KAnonymity {
        #[schema(value_type = u64, minimum = 1, maximum = 4294967295_u64)]
        k: Number,
    },
    LDiversity {
        #[schema(value_type = f64, minimum = 1)]
        l: Number,
        #[serde(default)]
        variant: LVariantDto,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<f64>, exclusive_minimum = 0)]
        c: Option<Number>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<u64>, minimum = 1, maximum = 4294967295_u64)]
        k: Option<Number>,
    },
    TCloseness {
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        t: Number,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<u64>, minimum = 1, maximum = 4294967295_u64)]
        k: Option<Number>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ground_distance: Option<GroundDistanceDto>,
    },
    /// ARX's k-map: every class's labels cover at least k records of the
    /// dataset's population table (its schema's `population.dataset_id`).
    KMap {
        #[schema(value_type = u64, minimum = 1, maximum = 4294967295_u64)]
        k: Number,
    },
    /// ARX's δ-presence: every class's records / the population records
    /// its labels cover lies in [delta_min, delta_max]; the dataset must be
    /// a subset of its population table.
    DeltaPresence {
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        delta_min: Number,
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        delta_max: Number,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = Neighborhood)]
#[serde(rename_all = "snake_case")]
pub enum NeighborhoodDto {
    #[default]
    Absolute,
    Relative,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = LVariant)]
#[serde(rename_all = "snake_case")]
pub enum LVariantDto {
    #[default]
    Distinct,
    Entropy,
    Recursive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = GroundDistance)]
#[serde(rename_all = "snake_case")]
pub enum GroundDistanceDto {
    Ordered,
    Equal,
    Hierarchical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Algorithm)]
#[serde(rename_all = "snake_case")]
pub enum AlgorithmDto {
    EpsilonM,
    Xcolor,
    Mondrian,
}

/// API extension: XColor's initial colouring (docs/design.md §4). `qi_aware`
/// (default) splits the QI space first; `degree_balanced` is the paper's
/// Algorithm 1, kept for comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = XColorOptions)]
#[serde(deny_unknown_fields)]
pub struct XColorOptionsDto {
    #[serde(default)]
    pub initial: InitialColoringDto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = InitialColoring)]
#[serde(rename_all = "snake_case")]
pub enum InitialColoringDto {
    #[default]
    QiAware,
    DegreeBalanced,
}

impl From<NeighborhoodDto> for Neighborhood {
    fn from(n: NeighborhoodDto) -> Neighborhood {
        match n {
            NeighborhoodDto::Absolute => Neighborhood::Absolute,
            NeighborhoodDto::Relative => Neighborhood::Relative,
        }
    }
}

impl From<GroundDistanceDto> for GroundDistance {
    fn from(g: GroundDistanceDto) -> GroundDistance {
        match g {
            GroundDistanceDto::Ordered => GroundDistance::Ordered,
            GroundDistanceDto::Equal => GroundDistance::Equal,
            GroundDistanceDto::Hierarchical => GroundDistance::Hierarchical,
        }
    }
}

impl From<InitialColoringDto> for InitialColoring {
    fn from(i: InitialColoringDto) -> InitialColoring {
        match i {
            InitialColoringDto::QiAware => InitialColoring::QiAware,
            InitialColoringDto::DegreeBalanced => InitialColoring::DegreeBalanced,
        }
    }
}

impl From<AlgorithmDto> for Algorithm {
    fn from(a: AlgorithmDto) -> Algorithm {
        match a {
            AlgorithmDto::EpsilonM => Algorithm::EpsilonM,
            AlgorithmDto::Xcolor => Algorithm::XColor,
            AlgorithmDto::Mondrian => Algorithm::Mondrian,
        }
    }
}

impl AlgorithmDto {
    /// The name stored and shown (`epsilon_m`, `xcolor`, `mondrian`).
    pub fn as_str(self) -> &'static str {
        Algorithm::from(self).name()
    }
}

/// A stored name back to the type (the `jobs.algorithm` column).
impl TryFrom<String> for AlgorithmDto {
    type Error = String;
    fn try_from(name: String) -> Result<AlgorithmDto, String> {
        [
            AlgorithmDto::EpsilonM,
            AlgorithmDto::Xcolor,
            AlgorithmDto::Mondrian,
        ]
        .into_iter()
        .find(|a| a.as_str() == name)
        .ok_or_else(|| format!("unknown algorithm {name:?}"))
    }
}

impl From<Algorithm> for AlgorithmDto {
    fn from(a: Algorithm) -> AlgorithmDto {
        match a {
            Algorithm::EpsilonM => AlgorithmDto::EpsilonM,
            Algorithm::XColor => AlgorithmDto::Xcolor,
            Algorithm::Mondrian => AlgorithmDto::Mondrian,
        }
    }
}

pub(crate) fn k_param(k: &Number, pointer: &str) -> CoreResult<K> {
    K::new(integer(k, "k", pointer)?, pointer)
}

pub(crate) fn epsilon_param(e: &Number, pointer: &str) -> CoreResult<Epsilon> {
    Epsilon::new(real(e), pointer)
}

pub(crate) fn fraction_param(v: &Number, name: &str, pointer: &str) -> CoreResult<Fraction> {
    Fraction::new(real(v), name, pointer)
}

pub(crate) fn epsilon_m_params(
    epsilon: &Number,
    m: &Number,
    neighborhood: NeighborhoodDto,
    at: &str,
) -> CoreResult<EpsilonM> {
    let eps_at = format!("{at}/epsilon");
    let m_at = format!("{at}/m");
    let epsilon = epsilon_param(epsilon, &eps_at)?;
    let m = M::new(integer(m, "m", &m_at)?, &m_at)?;
    EpsilonM::new(epsilon, m, neighborhood.into(), &eps_at)
}

pub(crate) fn l_variant(
    variant: LVariantDto,
    c: Option<&Number>,
    at: &str,
) -> CoreResult<LDiversityVariant> {
    match (variant, c) {
        (LVariantDto::Recursive, Some(c)) => Ok(LDiversityVariant::Recursive { c: real(c) }),
        (LVariantDto::Recursive, None) => Err(CoreError::invalid_parameters(
            format!("{at}/c"),
            "recursive (c,l)-diversity needs c (a number > 0)",
        )),
        (_, Some(_)) => Err(CoreError::invalid_parameters(
            format!("{at}/c"),
            "c applies only to the recursive variant",
        )),
        (LVariantDto::Distinct, None) => Ok(LDiversityVariant::Distinct),
        (LVariantDto::Entropy, None) => Ok(LDiversityVariant::Entropy),
    }
}

/// The schema's single sensitive column, for models defined on one SA.
fn single_sa<'s>(
    schema: &'s Schema,
    model: &str,
    at: &str,
) -> CoreResult<&'s proxima_core::schema::ColumnSpec> {
    let sa = schema.indices_with_role(Role::Sensitive);
    match sa.as_slice() {
        [i] => Ok(&schema.columns()[*i]),
        [] => Err(CoreError::invalid_parameters(
            format!("{at}/kind"),
            format!("{model} needs a sensitive column; the schema has none"),
        )),
        _ => Err(CoreError::invalid_parameters(
            format!("{at}/kind"),
            format!(
                "{model} is defined on one sensitive column; the schema has {}",
                sa.len()
            ),
        )),
    }
}

/// The t-closeness ground distance: the explicit one when it fits the SA,
/// else the default for the SA's type (see the module docs).
pub fn resolve_ground_distance(
    explicit: Option<GroundDistanceDto>,
    schema: &Schema,
    at: &str,
) -> CoreResult<GroundDistance> {
    let sa = single_sa(schema, "t-closeness", at)?;
    let has_hierarchy = sa.hierarchy.is_some();
    match explicit {
        Some(GroundDistanceDto::Hierarchical) if !has_hierarchy => {
            Err(CoreError::invalid_parameters(
                format!("{at}/ground_distance"),
                format!(
                    "the hierarchical ground distance needs a hierarchy on sensitive column '{}'",
                    sa.name
                ),
            ))
        }
        Some(g) => Ok(g.into()),
        None => Ok(match sa.value_type {
            Some(ValueType::Numeric) => GroundDistance::Ordered,
            _ if has_hierarchy => GroundDistance::Hierarchical,
            _ => GroundDistance::Equal,
        }),
    }
}

impl ModelDto {
    /// Whether the model is judged against the dataset's population table
    /// (k-map, δ-presence): its job needs that table loaded.
    pub fn needs_population(&self) -> bool {
        matches!(self, ModelDto::KMap { .. } | ModelDto::DeltaPresence { .. })
    }

    /// Converts at `at` (`/model` in a job). The schema resolves the
    /// t-closeness ground distance and checks that (ε,m)-anonymity has one
    /// numeric sensitive column.
    pub fn to_model(&self, schema: &Schema, at: &str) -> CoreResult<PrivacyModel> {
        Ok(match self {
            ModelDto::EpsilonM {
                epsilon,
                m,
                neighborhood,
            } => {
                let params = epsilon_m_params(epsilon, m, *neighborhood, at)?;
                let sa = single_sa(schema, "(epsilon,m)-anonymity", at)?;
                if sa.value_type != Some(ValueType::Numeric) {
                    return Err(CoreError::invalid_parameters(
                        format!("{at}/kind"),
                        format!(
                            "(epsilon,m)-anonymity needs a numeric sensitive column; '{}' is {}",
                            sa.name,
                            sa.value_type.map_or("untyped", ValueType::name)
                        ),
                    ));
                }
                PrivacyModel::EpsilonM(params)
            }
            ModelDto::Dissimilarity { epsilon, delta, k } => {
                PrivacyModel::Dissimilarity(Dissimilarity {
                    epsilon: epsilon_param(epsilon, &format!("{at}/epsilon"))?,
                    delta: fraction_param(delta, "delta", &format!("{at}/delta"))?,
                    k: k_param(k, &format!("{at}/k"))?,
                })
            }
            ModelDto::KAnonymity { k } => PrivacyModel::KAnonymity(k_param(k, &format!("{at}/k"))?),
            ModelDto::LDiversity { l, variant, c, k } => {
                let variant = l_variant(*variant, c.as_ref(), at)?;
                let k = match k {
                    Some(k) => k_param(k, &format!("{at}/k"))?,
                    None => K::new(1, at)?,
                };
                PrivacyModel::LDiversity(LDiversity::new(real(l), variant, k, at)?)
            }
            ModelDto::TCloseness {
                t,
                k,
                ground_distance,
            } => PrivacyModel::TCloseness(TCloseness {
                t: fraction_param(t, "t", &format!("{at}/t"))?,
                k: match k {
                    Some(k) => k_param(k, &format!("{at}/k"))?,
                    None => K::new(1, at)?,
                },
                ground: resolve_ground_distance(*ground_distance, schema, at)?,
            }),
            ModelDto::KMap { k } => PrivacyModel::Population(PopulationModel::KMap {
                k: k_param(k, &format!("{at}/k"))?,
            }),
            ModelDto::DeltaPresence {
                delta_min,
                delta_max,
            } => PrivacyModel::Population(PopulationModel::delta_presence(
                real(delta_min),
                real(delta_max),
                at,
            )?),
        })
    }
}

/// The algorithm to run: the requested one when it implements the model
/// (else `invalid_parameters` at `/algorithm` naming the ones that do, from
/// `proxima_core::run::check_algorithm`), or the model's default.
pub fn resolve_algorithm(
    model: &PrivacyModel,
    requested: Option<AlgorithmDto>,
) -> CoreResult<Algorithm> {
    let Some(requested) = requested else {
        return Ok(model.default_algorithm());
    };
    let algorithm = Algorithm::from(requested);
    check_algorithm(model, algorithm)?;
    Ok(algorithm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldPointer;
    use proxima_core::schema::{ColumnSpec, CsvOptions, MissingPolicy};
    use proxima_core::{ErrorKind, Hierarchy};
    use std::sync::Arc;

    fn schema(sa: &[(&str, ValueType, bool)]) -> Schema {
        let mut cols = vec![ColumnSpec {
            name: "age".into(),
            role: Role::QuasiIdentifier,
            value_type: Some(ValueType::Numeric),
            hierarchy: None,
        }];
        for (name, t, h) in sa {
            cols.push(ColumnSpec {
                name: (*name).into(),
                role: Role::Sensitive,
                value_type: Some(*t),
                hierarchy: h.then(|| Arc::new(Hierarchy::flat(["a", "b"]))),
            });
        }
        Schema::new(
            "t".into(),
            CsvOptions::default(),
            MissingPolicy::Reject,
            cols,
        )
        .unwrap()
    }

    fn numeric() -> Schema {
        schema(&[("salary", ValueType::Numeric, false)])
    }

    fn parse(json: &str) -> CoreResult<ModelDto> {
        super::super::json::from_json(
            json.as_bytes(),
            "the model",
            "/model",
            ErrorKind::InvalidParameters,
        )
    }

    fn model(json: &str, s: &Schema) -> CoreResult<PrivacyModel> {
        parse(json)?.to_model(s, "/model")
    }

    fn pointer(e: &CoreError) -> String {
        e.errors[0].pointer()
    }

    #[test]
    fn epsilon_m_converts_with_absolute_default() {
        let m = model(
            r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 5}"#,
            &numeric(),
        )
        .unwrap();
        let PrivacyModel::EpsilonM(p) = m else {
            panic!()
        };
        assert_eq!(p.epsilon.get(), 4500.0);
        assert_eq!(p.m.get(), 5);
        assert_eq!(p.neighborhood, Neighborhood::Absolute);
        let rel = model(
            r#"{"kind": "epsilon_m", "epsilon": 0.1, "m": 2, "neighborhood": "relative"}"#,
            &numeric(),
        )
        .unwrap();
        assert!(
            matches!(rel, PrivacyModel::EpsilonM(p) if p.neighborhood == Neighborhood::Relative)
        );
    }

    #[test]
    fn epsilon_m_errors_point_at_fields() {
        let s = numeric();
        let e = model(r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 0}"#, &s).unwrap_err();
        assert_eq!(
            (e.kind, pointer(&e).as_str()),
            (ErrorKind::InvalidParameters, "/model/m")
        );
        let e = model(r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 2.5}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/m");
        assert!(e.message.contains("2.5"));
        let e = model(r#"{"kind": "epsilon_m", "epsilon": -1, "m": 2}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/epsilon");
        let e = model(
            r#"{"kind": "epsilon_m", "epsilon": 1, "m": 2, "neighborhood": "relative"}"#,
            &s,
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/epsilon");
        let e = model(r#"{"kind": "epsilon_m", "epsilon": 1}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/m");
        assert!(e.message.contains("missing field `m`"));
        let e = model(
            r#"{"kind": "epsilon_m", "epsilon": 1, "m": 2, "mm": 3}"#,
            &s,
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/mm");
        let e = model(r#"{"kind": "epsilon_n", "epsilon": 1, "m": 2}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/kind");
    }

    #[test]
    fn epsilon_m_needs_one_numeric_sa() {
        let cat = schema(&[("disease", ValueType::Categorical, false)]);
        let e = model(r#"{"kind": "epsilon_m", "epsilon": 1, "m": 2}"#, &cat).unwrap_err();
        assert_eq!(pointer(&e), "/model/kind");
        assert!(
            e.message.contains("'disease' is categorical"),
            "{}",
            e.message
        );
    }

    #[test]
    fn dissimilarity_and_k_convert() {
        let s = numeric();
        let m = model(
            r#"{"kind": "dissimilarity", "epsilon": 0.1, "delta": 0.8, "k": 10}"#,
            &s,
        )
        .unwrap();
        let PrivacyModel::Dissimilarity(d) = m else {
            panic!()
        };
        assert_eq!((d.epsilon.get(), d.delta.get(), d.k.get()), (0.1, 0.8, 10));
        let e = model(
            r#"{"kind": "dissimilarity", "epsilon": 0.1, "delta": 1.8, "k": 10}"#,
            &s,
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/delta");
        let e = model(r#"{"kind": "k_anonymity", "k": 0}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/k");
        assert_eq!(
            model(r#"{"kind": "k_anonymity", "k": 10}"#, &s).unwrap(),
            PrivacyModel::KAnonymity(K::new(10, "").unwrap())
        );
    }

    #[test]
    fn l_diversity_defaults_and_c_rules() {
        let s = numeric();
        let m = model(r#"{"kind": "l_diversity", "l": 3}"#, &s).unwrap();
        let PrivacyModel::LDiversity(l) = m else {
            panic!()
        };
        assert_eq!(l.variant, LDiversityVariant::Distinct);
        assert_eq!(l.k.get(), 1);
        assert_eq!(l.l, 3.0);
        let m = model(
            r#"{"kind": "l_diversity", "l": 4, "variant": "recursive", "c": 3, "k": 10}"#,
            &s,
        )
        .unwrap();
        assert!(matches!(
            m,
            PrivacyModel::LDiversity(LDiversity { variant: LDiversityVariant::Recursive { c }, .. }) if c == 3.0
        ));
        let e = model(
            r#"{"kind": "l_diversity", "l": 4, "variant": "recursive"}"#,
            &s,
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/c");
        let e = model(r#"{"kind": "l_diversity", "l": 4, "c": 2}"#, &s).unwrap_err();
        assert_eq!(pointer(&e), "/model/c");
        let e = model(
            r#"{"kind": "l_diversity", "l": 0.5, "variant": "entropy"}"#,
            &s,
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/l");
    }

    #[test]
    fn t_closeness_ground_distance_defaults_by_sa_type() {
        let t = r#"{"kind": "t_closeness", "t": 0.2, "k": 10}"#;
        let ground = |s: &Schema| match model(t, s).unwrap() {
            PrivacyModel::TCloseness(tc) => tc.ground,
            _ => panic!(),
        };
        assert_eq!(ground(&numeric()), GroundDistance::Ordered);
        assert_eq!(
            ground(&schema(&[("d", ValueType::Categorical, true)])),
            GroundDistance::Hierarchical
        );
        assert_eq!(
            ground(&schema(&[("d", ValueType::Categorical, false)])),
            GroundDistance::Equal
        );
        let m = model(r#"{"kind": "t_closeness", "t": 0.2}"#, &numeric()).unwrap();
        assert!(matches!(m, PrivacyModel::TCloseness(tc) if tc.k.get() == 1));
        let explicit = model(
            r#"{"kind": "t_closeness", "t": 0.2, "ground_distance": "equal"}"#,
            &numeric(),
        )
        .unwrap();
        assert!(
            matches!(explicit, PrivacyModel::TCloseness(tc) if tc.ground == GroundDistance::Equal)
        );
    }

    #[test]
    fn t_closeness_errors() {
        let e = model(
            r#"{"kind": "t_closeness", "t": 0.2, "ground_distance": "hierarchical"}"#,
            &schema(&[("d", ValueType::Categorical, false)]),
        )
        .unwrap_err();
        assert_eq!(pointer(&e), "/model/ground_distance");
        let two = schema(&[
            ("a", ValueType::Numeric, false),
            ("b", ValueType::Numeric, false),
        ]);
        let e = model(r#"{"kind": "t_closeness", "t": 0.2}"#, &two).unwrap_err();
        assert!(e.message.contains("one sensitive column"), "{}", e.message);
        let e = model(r#"{"kind": "t_closeness", "t": 2}"#, &numeric()).unwrap_err();
        assert_eq!(pointer(&e), "/model/t");
    }

    #[test]
    fn algorithm_pairs() {
        let s = numeric();
        let em = model(r#"{"kind": "epsilon_m", "epsilon": 1, "m": 2}"#, &s).unwrap();
        let dis = model(
            r#"{"kind": "dissimilarity", "epsilon": 1, "delta": 0.5, "k": 2}"#,
            &s,
        )
        .unwrap();
        let k = model(r#"{"kind": "k_anonymity", "k": 2}"#, &s).unwrap();
        assert_eq!(resolve_algorithm(&em, None).unwrap(), Algorithm::EpsilonM);
        assert_eq!(resolve_algorithm(&dis, None).unwrap(), Algorithm::XColor);
        assert_eq!(resolve_algorithm(&k, None).unwrap(), Algorithm::Mondrian);
        assert_eq!(
            resolve_algorithm(&em, Some(AlgorithmDto::Mondrian)).unwrap(),
            Algorithm::Mondrian
        );
        let e = resolve_algorithm(&em, Some(AlgorithmDto::Xcolor)).unwrap_err();
        assert_eq!(
            (e.kind, pointer(&e).as_str()),
            (ErrorKind::InvalidParameters, "/algorithm")
        );
        assert!(
            e.message.contains("use epsilon_m or mondrian"),
            "{}",
            e.message
        );
        let e = resolve_algorithm(&dis, Some(AlgorithmDto::Mondrian)).unwrap_err();
        assert!(e.message.contains("use xcolor"), "{}", e.message);
        let e = resolve_algorithm(&k, Some(AlgorithmDto::EpsilonM)).unwrap_err();
        assert!(e.message.contains("use mondrian"), "{}", e.message);
    }

    #[test]
    fn echo_keeps_numbers_as_sent() {
        let dto = parse(r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 5}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&dto).unwrap(),
            r#"{"kind":"epsilon_m","epsilon":4500,"m":5,"neighborhood":"absolute"}"#
        );
    }
}
