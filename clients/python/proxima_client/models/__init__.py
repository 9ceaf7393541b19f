"""Contains all the data models used in inputs/outputs"""

from .absolute_metric import AbsoluteMetric
from .absolute_metric_kind import AbsoluteMetricKind
from .algorithm_dto import AlgorithmDto
from .alpha_k_check import AlphaKCheck
from .alpha_k_check_kind import AlphaKCheckKind
from .audit_report_dto import AuditReportDto
from .audit_request_dto import AuditRequestDto
from .check_report_dto import CheckReportDto
from .check_report_dto_params import CheckReportDtoParams
from .check_report_dto_value import CheckReportDtoValue
from .column_dto import ColumnDto
from .column_groups import ColumnGroups
from .column_groups_by import ColumnGroupsBy
from .csv_dto import CsvDto
from .dataset import Dataset
from .dataset_column import DatasetColumn
from .dataset_list import DatasetList
from .delta_l_diversity_check import DeltaLDiversityCheck
from .delta_l_diversity_check_kind import DeltaLDiversityCheckKind
from .dissimilarity_check import DissimilarityCheck
from .dissimilarity_check_kind import DissimilarityCheckKind
from .dissimilarity_feasibility import DissimilarityFeasibility
from .dissimilarity_feasibility_request import DissimilarityFeasibilityRequest
from .dissimilarity_feasibility_request_kind import DissimilarityFeasibilityRequestKind
from .dissimilarity_model import DissimilarityModel
from .dissimilarity_model_kind import DissimilarityModelKind
from .epsilon_m_check import EpsilonMCheck
from .epsilon_m_check_kind import EpsilonMCheckKind
from .epsilon_m_feasibility_request import EpsilonMFeasibilityRequest
from .epsilon_m_feasibility_request_kind import EpsilonMFeasibilityRequestKind
from .epsilon_m_model import EpsilonMModel
from .epsilon_m_model_kind import EpsilonMModelKind
from .equal_metric import EqualMetric
from .equal_metric_kind import EqualMetricKind
from .field_error_dto import FieldErrorDto
from .ground_distance_dto import GroundDistanceDto
from .guaranteed_pair_dto import GuaranteedPairDto
from .hierarchical_metric import HierarchicalMetric
from .hierarchical_metric_kind import HierarchicalMetricKind
from .initial_coloring_dto import InitialColoringDto
from .job import Job
from .job_error import JobError
from .job_error_details_type_0 import JobErrorDetailsType0
from .job_list import JobList
from .job_request_dto import JobRequestDto
from .job_status import JobStatus
from .job_summary_dto import JobSummaryDto
from .k_anonymity_check import KAnonymityCheck
from .k_anonymity_check_kind import KAnonymityCheckKind
from .k_anonymity_model import KAnonymityModel
from .k_anonymity_model_kind import KAnonymityModelKind
from .l_diversity_check import LDiversityCheck
from .l_diversity_check_kind import LDiversityCheckKind
from .l_diversity_model import LDiversityModel
from .l_diversity_model_kind import LDiversityModelKind
from .l_variant_dto import LVariantDto
from .lp_metric import LpMetric
from .lp_metric_kind import LpMetricKind
from .lp_metric_p_type_0 import LpMetricPType0
from .lp_metric_p_type_1 import LpMetricPType1
from .lp_metric_weights import LpMetricWeights
from .max_epsilon_feasibility import MaxEpsilonFeasibility
from .max_m_feasibility import MaxMFeasibility
from .neighborhood_dto import NeighborhoodDto
from .on_missing_dto import OnMissingDto
from .problem_dto import ProblemDto
from .problem_dto_details import ProblemDtoDetails
from .prosecutor_risk_dto import ProsecutorRiskDto
from .quasi_identifiers_groups import QuasiIdentifiersGroups
from .quasi_identifiers_groups_by import QuasiIdentifiersGroupsBy
from .relative_metric import RelativeMetric
from .relative_metric_kind import RelativeMetricKind
from .release_json import ReleaseJson
from .result_format import ResultFormat
from .risk_dto import RiskDto
from .role_dto import RoleDto
from .schema_dto import SchemaDto
from .size_bucket_dto import SizeBucketDto
from .status import Status
from .status_value import StatusValue
from .t_closeness_check import TClosenessCheck
from .t_closeness_check_kind import TClosenessCheckKind
from .t_closeness_model import TClosenessModel
from .t_closeness_model_kind import TClosenessModelKind
from .type_dto import TypeDto
from .upload_form import UploadForm
from .variational_metric import VariationalMetric
from .variational_metric_kind import VariationalMetricKind
from .worst_group_dto import WorstGroupDto
from .x_color_options_dto import XColorOptionsDto

__all__ = (
    "AbsoluteMetric",
    "AbsoluteMetricKind",
    "AlgorithmDto",
    "AlphaKCheck",
    "AlphaKCheckKind",
    "AuditReportDto",
    "AuditRequestDto",
    "CheckReportDto",
    "CheckReportDtoParams",
    "CheckReportDtoValue",
    "ColumnDto",
    "ColumnGroups",
    "ColumnGroupsBy",
    "CsvDto",
    "Dataset",
    "DatasetColumn",
    "DatasetList",
    "DeltaLDiversityCheck",
    "DeltaLDiversityCheckKind",
    "DissimilarityCheck",
    "DissimilarityCheckKind",
    "DissimilarityFeasibility",
    "DissimilarityFeasibilityRequest",
    "DissimilarityFeasibilityRequestKind",
    "DissimilarityModel",
    "DissimilarityModelKind",
    "EpsilonMCheck",
    "EpsilonMCheckKind",
    "EpsilonMFeasibilityRequest",
    "EpsilonMFeasibilityRequestKind",
    "EpsilonMModel",
    "EpsilonMModelKind",
    "EqualMetric",
    "EqualMetricKind",
    "FieldErrorDto",
    "GroundDistanceDto",
    "GuaranteedPairDto",
    "HierarchicalMetric",
    "HierarchicalMetricKind",
    "InitialColoringDto",
    "Job",
    "JobError",
    "JobErrorDetailsType0",
    "JobList",
    "JobRequestDto",
    "JobStatus",
    "JobSummaryDto",
    "KAnonymityCheck",
    "KAnonymityCheckKind",
    "KAnonymityModel",
    "KAnonymityModelKind",
    "LDiversityCheck",
    "LDiversityCheckKind",
    "LDiversityModel",
    "LDiversityModelKind",
    "LpMetric",
    "LpMetricKind",
    "LpMetricPType0",
    "LpMetricPType1",
    "LpMetricWeights",
    "LVariantDto",
    "MaxEpsilonFeasibility",
    "MaxMFeasibility",
    "NeighborhoodDto",
    "OnMissingDto",
    "ProblemDto",
    "ProblemDtoDetails",
    "ProsecutorRiskDto",
    "QuasiIdentifiersGroups",
    "QuasiIdentifiersGroupsBy",
    "RelativeMetric",
    "RelativeMetricKind",
    "ReleaseJson",
    "ResultFormat",
    "RiskDto",
    "RoleDto",
    "SchemaDto",
    "SizeBucketDto",
    "Status",
    "StatusValue",
    "TClosenessCheck",
    "TClosenessCheckKind",
    "TClosenessModel",
    "TClosenessModelKind",
    "TypeDto",
    "UploadForm",
    "VariationalMetric",
    "VariationalMetricKind",
    "WorstGroupDto",
    "XColorOptionsDto",
)
