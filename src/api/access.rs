//! Roles of API keys (API.md §"The verdict and the sign-off"): who may
//! submit, who may sign, who may administer. What each role may call is
//! `crate::http::roles`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The role an API key was created with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyRole {
    /// Uploads datasets, queues jobs, audits and sweeps; reads what it made.
    Submitter,
    /// Reads reports and releases; approves or rejects releases.
    Reviewer,
    /// Everything, and the tenant's settings.
    Admin,
}

impl KeyRole {
    pub const ALL: [KeyRole; 3] = [KeyRole::Submitter, KeyRole::Reviewer, KeyRole::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            KeyRole::Submitter => "submitter",
            KeyRole::Reviewer => "reviewer",
            KeyRole::Admin => "admin",
        }
    }
}

impl std::str::FromStr for KeyRole {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        KeyRole::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("unknown role {s:?}: submitter, reviewer or admin"))
    }
}

impl TryFrom<String> for KeyRole {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl std::fmt::Display for KeyRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The body of `POST /v1/keys`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = KeyRequest)]
pub struct KeyRequest {
    pub role: KeyRole,
}

/// Parses a `POST /v1/keys` body; the error names its pointer.
pub fn parse_key_request(body: &serde_json::Value) -> Result<KeyRequest, (String, String)> {
    let Some(obj) = body.as_object() else {
        return Err((String::new(), "the body must be a JSON object".into()));
    };
    if let Some(other) = obj.keys().find(|k| k.as_str() != "role") {
        return Err((
            format!("/{}", other.replace('~', "~0").replace('/', "~1")),
            "unknown field; a key request has only role".into(),
        ));
    }
    obj.get("role")
        .and_then(serde_json::Value::as_str)
        .and_then(|r| r.parse().ok())
        .map(|role| KeyRequest { role })
        .ok_or_else(|| {
            (
                "/role".into(),
                "role must be submitter, reviewer or admin".into(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for r in KeyRole::ALL {
            assert_eq!(r.as_str().parse::<KeyRole>().unwrap(), r);
        }
        assert!("root".parse::<KeyRole>().is_err());
    }
}
