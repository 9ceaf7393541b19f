//! The API's types as column types of the checked queries (`query_as!`
//! with `col AS "col: Type"`): a JSON document column decodes into the type
//! it holds, a name column into its enum. Decoding only: queries bind
//! `Json(&value) as _` and `as_str()` names.

use sqlx::error::BoxDynError;
use sqlx::postgres::{PgTypeInfo, PgValueRef};
use sqlx::types::Json;
use sqlx::{Decode, Postgres, Type};

use crate::api::access::KeyRole;
use crate::api::approval::ApprovalDecision;
use crate::api::job_error::JobErrorBody;
use crate::api::{
    AlgorithmDto, JobStatus, JobSummaryDto, MetricDto, ModelDto, PopulationDto, XColorOptionsDto,
};

/// `jsonb` columns holding what these types serialize to.
macro_rules! json_column {
    ($($t:ty),* $(,)?) => {$(
        impl Type<Postgres> for $t {
            fn type_info() -> PgTypeInfo {
                <Json<$t> as Type<Postgres>>::type_info()
            }
            fn compatible(ty: &PgTypeInfo) -> bool {
                <Json<$t> as Type<Postgres>>::compatible(ty)
            }
        }
        impl<'r> Decode<'r, Postgres> for $t {
            fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
                Ok(<Json<$t> as Decode<'r, Postgres>>::decode(value)?.0)
            }
        }
    )*};
}

/// `text` columns holding a name (`as_str()`), read back with `TryFrom<String>`.
macro_rules! name_column {
    ($($t:ty),* $(,)?) => {$(
        impl Type<Postgres> for $t {
            fn type_info() -> PgTypeInfo {
                <String as Type<Postgres>>::type_info()
            }
            fn compatible(ty: &PgTypeInfo) -> bool {
                <String as Type<Postgres>>::compatible(ty)
            }
        }
        impl<'r> Decode<'r, Postgres> for $t {
            fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
                let name = <String as Decode<'r, Postgres>>::decode(value)?;
                <$t>::try_from(name).map_err(|e| e.to_string().into())
            }
        }
    )*};
}

json_column!(
    ModelDto,
    MetricDto,
    XColorOptionsDto,
    JobErrorBody,
    JobSummaryDto,
    PopulationDto,
);
name_column!(AlgorithmDto, JobStatus, KeyRole, ApprovalDecision);
