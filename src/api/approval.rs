//! Approvals (`POST`/`GET /v1/jobs/{id}/approvals`): the request parsed
//! once into [`ApprovalRequest`], and the stored approval as served.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// What the reviewer decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    Approve,
    Reject,
}

impl ApprovalDecision {
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalDecision::Approve => "approve",
            ApprovalDecision::Reject => "reject",
        }
    }
}

impl TryFrom<String> for ApprovalDecision {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "approve" => Ok(ApprovalDecision::Approve),
            "reject" => Ok(ApprovalDecision::Reject),
            _ => Err(format!("unknown decision {s:?}")),
        }
    }
}

/// The body of `POST /v1/jobs/{id}/approvals`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ApprovalRequest)]
pub struct ApprovalRequest {
    pub decision: ApprovalDecision,
    /// The person signing (1 to 200 characters, not blank).
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    /// The capacity they sign in, e.g. `release officer` (1 to 200
    /// characters, not blank). Their own words: the key's role is what the
    /// service checks.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub role: String,
    /// Optional, at most 4,000 characters.
    #[schema(required = false, min_length = 1, max_length = 4000, pattern = r"\S")]
    pub comment: Option<String>,
}

pub const MAX_NAME: usize = 200;
pub const MAX_COMMENT: usize = 4000;

/// Parses the body: every error found, each with its JSON pointer.
pub fn parse_approval(body: &Value) -> Result<ApprovalRequest, Vec<(String, String)>> {
    let Some(obj) = body.as_object() else {
        return Err(vec![(
            String::new(),
            "the body must be a JSON object".into(),
        )]);
    };
    let mut errors = Vec::new();
    for name in obj.keys() {
        if !["decision", "name", "role", "comment"].contains(&name.as_str()) {
            errors.push((
                format!("/{}", name.replace('~', "~0").replace('/', "~1")),
                "unknown field; an approval has decision, name, role and comment".into(),
            ));
        }
    }
    let decision = match obj.get("decision").and_then(Value::as_str) {
        Some("approve") => Some(ApprovalDecision::Approve),
        Some("reject") => Some(ApprovalDecision::Reject),
        _ => {
            errors.push((
                "/decision".into(),
                "must be \"approve\" or \"reject\"".into(),
            ));
            None
        }
    };
    let mut text = |field: &str, max: usize, required: bool| -> Option<String> {
        let pointer = format!("/{field}");
        match obj.get(field) {
            None | Some(Value::Null) if !required => None,
            Some(Value::String(s)) if !s.trim().is_empty() && s.chars().count() <= max => {
                Some(s.trim().to_string())
            }
            _ => {
                errors.push((
                    pointer,
                    format!("must be a string of 1 to {max} characters, not blank"),
                ));
                None
            }
        }
    };
    let name = text("name", MAX_NAME, true);
    let role = text("role", MAX_NAME, true);
    let comment = text("comment", MAX_COMMENT, false);
    match (decision, name, role) {
        (Some(decision), Some(name), Some(role)) if errors.is_empty() => Ok(ApprovalRequest {
            decision,
            name,
            role,
            comment,
        }),
        _ => Err(errors),
    }
}

/// An approval or rejection as recorded (never edited or deleted).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = Approval)]
pub struct ApprovalDto {
    pub id: uuid::Uuid,
    pub job_id: uuid::Uuid,
    pub dataset_id: uuid::Uuid,
    pub decision: ApprovalDecision,
    pub name: String,
    pub role: String,
    #[schema(required = true)]
    pub comment: Option<String>,
    /// The report's verdict when the approval was given:
    /// `publishable`, `publishable_with_conditions` or `not_publishable`.
    pub verdict: String,
    /// Hex SHA-256 of the CSV release (`GET …/result`) the approval binds.
    pub release_sha256: String,
    /// The id of the API key that signed (not the key itself).
    pub key_id: uuid::Uuid,
    pub tenant: String,
    pub created_at: DateTime<Utc>,
}

/// `GET /v1/jobs/{id}/approvals`: newest first, and whether the release
/// was deleted since (its approvals stay).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ApprovalList)]
pub struct ApprovalListDto {
    pub items: Vec<ApprovalDto>,
    #[schema(required = true)]
    pub next_cursor: Option<String>,
    /// When the job (with its release and dataset) was deleted; null while
    /// it exists.
    #[schema(required = true)]
    pub release_deleted_at: Option<DateTime<Utc>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_full_body_parses_and_text_is_trimmed() {
        let r = parse_approval(&json!({"decision": "reject", "name": " Ada ",
                                       "role": "release officer", "comment": "too fine"}))
        .unwrap();
        assert_eq!(r.decision, ApprovalDecision::Reject);
        assert_eq!(r.name, "Ada");
        assert_eq!(r.comment.as_deref(), Some("too fine"));
        let r = parse_approval(&json!({"decision": "approve", "name": "A", "role": "B",
                                       "comment": null}))
        .unwrap();
        assert_eq!(r.comment, None);
    }

    #[test]
    fn every_bad_field_is_named() {
        let errors = parse_approval(&json!({"decision": "maybe", "name": "  ",
                                            "comment": "x".repeat(MAX_COMMENT + 1),
                                            "extra": 1}))
        .unwrap_err();
        let pointers: Vec<&str> = errors.iter().map(|(p, _)| p.as_str()).collect();
        for p in ["/decision", "/name", "/role", "/comment", "/extra"] {
            assert!(pointers.contains(&p), "{p} in {pointers:?}");
        }
        assert_eq!(parse_approval(&json!("approve")).unwrap_err()[0].0, "");
    }
}
