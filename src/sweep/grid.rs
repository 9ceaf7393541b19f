//! A sweep request → its grid of job requests (docs/api.md §Sweeps).
//!
//! Any numeric parameter of `model`, and `suppression_limit`, may be a list;
//! the sweep is the product of the lists. Expansion works on the JSON: each
//! point becomes an ordinary job request body (the sweep's body with one
//! value picked from every list), which then goes through the very parser
//! and validation of `POST /v1/jobs` — there is no second job parser.
//!
//! Order: the axes are the model's list parameters in the order of their
//! names (serde_json keeps object keys sorted), then `suppression_limit`;
//! the last axis varies fastest. Point i's `picks[a]` is its index in axis
//! a's list, so an error of point i can point into the request
//! (`/model/m/2`).

use serde_json::{Map, Number, Value};

/// The most points a sweep may have.
pub const MAX_POINTS: usize = 64;

/// One list of the request.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The parameter's name (`m`, `epsilon`, `suppression_limit`).
    pub name: String,
    /// Where the list sits in the request (`/model/m`, `/suppression_limit`).
    pub pointer: String,
    pub values: Vec<Number>,
}

/// One point of the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPoint {
    /// Per axis, the index of this point's value in the axis's list.
    pub picks: Vec<usize>,
    /// The point's job request (the sweep's body with the lists resolved).
    pub body: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub axes: Vec<Axis>,
    pub points: Vec<GridPoint>,
}

/// Why a request has no grid.
#[derive(Debug, Clone, PartialEq)]
pub enum GridError {
    /// A malformed list (`pointer`, message): empty, not numbers, or on a
    /// parameter that takes no list.
    Invalid(String, String),
    /// The product of the lists exceeds [`MAX_POINTS`] (`None` when it
    /// overflows).
    TooManyPoints(Option<usize>),
}

impl Grid {
    /// The point's swept values by parameter name.
    pub fn params(&self, point: &GridPoint) -> Map<String, Value> {
        self.axes
            .iter()
            .zip(&point.picks)
            .map(|(a, &i)| (a.name.clone(), Value::Number(a.values[i].clone())))
            .collect()
    }

    /// The point's swept values as text, `epsilon=2000, m=3` (empty when
    /// nothing is swept).
    pub fn label(&self, point: &GridPoint) -> String {
        label(&self.params(point))
    }

    /// `pointer` of a field error of `point`'s job request, moved into the
    /// sweep's request: a swept parameter's pointer gains the index of the
    /// point's value in its list.
    pub fn pointer_in_request(&self, point: &GridPoint, pointer: &str) -> String {
        for (axis, &i) in self.axes.iter().zip(&point.picks) {
            if pointer == axis.pointer {
                return format!("{pointer}/{i}");
            }
        }
        pointer.to_string()
    }
}

/// `epsilon=2000, m=3` from a point's parameters.
pub fn label(params: &Map<String, Value>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The list at `pointer`: 1 to [`MAX_POINTS`] numbers.
fn numbers(values: &[Value], pointer: &str, name: &str) -> Result<Vec<Number>, GridError> {
    if values.is_empty() {
        return Err(GridError::Invalid(
            pointer.to_string(),
            format!("the list of {name} is empty; give at least one value"),
        ));
    }
    values
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Number(n) => Ok(n.clone()),
            other => Err(GridError::Invalid(
                format!("{pointer}/{i}"),
                format!("a list of {name} holds numbers only, got {other}"),
            )),
        })
        .collect()
}

/// The grid of a sweep request. Only the lists are checked here; every
/// other field is left to the job request's parser, per point.
pub fn expand(body: &Value) -> Result<Grid, GridError> {
    let mut axes = Vec::new();
    if let Some(Value::Object(model)) = body.get("model") {
        for (name, value) in model {
            if let Value::Array(values) = value {
                let pointer = format!("/model/{name}");
                // A list of no numbers at all is a list on a parameter that
                // takes none (`neighborhood`); a list of numbers with a
                // stray entry is named by `numbers`.
                let no_numbers = !values.is_empty() && !values.iter().any(Value::is_number);
                if name == "kind" || no_numbers {
                    return Err(GridError::Invalid(
                        pointer,
                        format!(
                            "only numeric model parameters may be lists; {name} takes one value"
                        ),
                    ));
                }
                axes.push(Axis {
                    values: numbers(values, &pointer, name)?,
                    name: name.clone(),
                    pointer,
                });
            }
        }
    }
    if let Some(Value::Array(values)) = body.get("suppression_limit") {
        axes.push(Axis {
            values: numbers(values, "/suppression_limit", "suppression_limit")?,
            name: "suppression_limit".into(),
            pointer: "/suppression_limit".into(),
        });
    }
    let total = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()));
    match total {
        Some(n) if n <= MAX_POINTS => {}
        other => return Err(GridError::TooManyPoints(other)),
    }
    let total = total.unwrap_or(0);
    let mut points = Vec::with_capacity(total);
    for index in 0..total {
        // Mixed radix, last axis fastest.
        let mut rest = index;
        let mut picks = vec![0; axes.len()];
        for (a, axis) in axes.iter().enumerate().rev() {
            picks[a] = rest % axis.values.len();
            rest /= axis.values.len();
        }
        let mut point = body.clone();
        for (axis, &i) in axes.iter().zip(&picks) {
            let value = Value::Number(axis.values[i].clone());
            match axis.pointer.strip_prefix("/model/") {
                Some(field) => point["model"][field] = value,
                None => point["suppression_limit"] = value,
            }
        }
        points.push(GridPoint { picks, body: point });
    }
    Ok(Grid { axes, points })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_api_example_is_a_product_with_the_last_axis_fastest() {
        let body = json!({"dataset_id": "d",
            "model": {"kind": "epsilon_m", "epsilon": [2000, 4500], "m": [2, 3, 4, 5, 6]},
            "suppression_limit": [0, 0.02]});
        let g = expand(&body).unwrap();
        assert_eq!(g.points.len(), 20);
        let names: Vec<_> = g.axes.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["epsilon", "m", "suppression_limit"]);
        assert_eq!(
            g.points[0].body,
            json!({"dataset_id": "d",
                   "model": {"kind": "epsilon_m", "epsilon": 2000, "m": 2},
                   "suppression_limit": 0})
        );
        assert_eq!(
            g.label(&g.points[1]),
            "epsilon=2000, m=2, suppression_limit=0.02"
        );
        assert_eq!(
            g.label(&g.points[19]),
            "epsilon=4500, m=6, suppression_limit=0.02"
        );
        assert_eq!(g.points[3].picks, [0, 1, 1]);
        assert_eq!(g.pointer_in_request(&g.points[3], "/model/m"), "/model/m/1");
        assert_eq!(
            g.pointer_in_request(&g.points[3], "/model/kind"),
            "/model/kind"
        );
    }

    #[test]
    fn a_request_without_lists_is_one_point() {
        let body = json!({"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 5}});
        let g = expand(&body).unwrap();
        assert!(g.axes.is_empty());
        assert_eq!(g.points.len(), 1);
        assert_eq!(g.points[0].body, body);
        assert_eq!(g.label(&g.points[0]), "");
    }

    #[test]
    fn lists_are_bounded_and_numeric() {
        let many: Vec<u64> = (1..=65).collect();
        let e = expand(&json!({"model": {"kind": "k_anonymity", "k": many}})).unwrap_err();
        assert_eq!(e, GridError::TooManyPoints(Some(65)));
        let e = expand(
            &json!({"model": {"kind": "dissimilarity", "epsilon": [1, 2, 3, 4],
            "delta": [0.1, 0.2, 0.3, 0.4], "k": [2, 3, 4, 5, 6]}}),
        )
        .unwrap_err();
        assert_eq!(e, GridError::TooManyPoints(Some(80)));
        let huge: Vec<u64> = (1..=64).collect();
        let e = expand(&json!({"model": {"kind": "dissimilarity", "epsilon": huge,
            "delta": huge, "k": huge}, "suppression_limit": huge}))
        .unwrap_err();
        assert_eq!(e, GridError::TooManyPoints(Some(64usize.pow(4))));
        let e = expand(&json!({"model": {"kind": "k_anonymity", "k": [2, "3"]}})).unwrap_err();
        assert!(matches!(e, GridError::Invalid(p, _) if p == "/model/k/1"));
        let e = expand(&json!({"model": {"kind": "k_anonymity", "k": []}})).unwrap_err();
        assert!(matches!(e, GridError::Invalid(p, _) if p == "/model/k"));
        let e = expand(&json!({"model": {"kind": "epsilon_m", "epsilon": 1, "m": 2,
            "neighborhood": ["absolute", "relative"]}}))
        .unwrap_err();
        assert!(
            matches!(&e, GridError::Invalid(p, m) if p == "/model/neighborhood" && m.contains("numeric")),
            "{e:?}"
        );
        let e = expand(&json!({"model": {"kind": "k_anonymity", "k": 2},
            "suppression_limit": [0, null]}))
        .unwrap_err();
        assert!(matches!(e, GridError::Invalid(p, _) if p == "/suppression_limit/1"));
    }
}
