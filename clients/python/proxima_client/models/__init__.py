"""Contains all the data models used in inputs/outputs"""

from .absolute_metric import AbsoluteMetric
from .absolute_metric_kind import AbsoluteMetricKind
from .algorithm import Algorithm
from .alpha_k_check import AlphaKCheck
from .alpha_k_check_kind import AlphaKCheckKind
from .attacker_figures import AttackerFigures
from .attacker_view import AttackerView
from .audit_report import AuditReport
from .audit_request import AuditRequest
from .audit_view import AuditView
from .check_report import CheckReport
from .check_report_params import CheckReportParams
from .check_report_value import CheckReportValue
from .column_groups import ColumnGroups
from .column_groups_by import ColumnGroupsBy
from .column_type import ColumnType
from .csv_options import CsvOptions
from .dataset import Dataset
from .dataset_column import DatasetColumn
from .dataset_list import DatasetList
from .dataset_schema import DatasetSchema
from .deliverable_epsilon import DeliverableEpsilon
from .deliverable_m import DeliverableM
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
from .feasibility_bound import FeasibilityBound
from .field_error import FieldError
from .ground_distance import GroundDistance
from .guaranteed_pair import GuaranteedPair
from .hierarchical_metric import HierarchicalMetric
from .hierarchical_metric_kind import HierarchicalMetricKind
from .initial_coloring import InitialColoring
from .job import Job
from .job_error import JobError
from .job_error_details_type_0 import JobErrorDetailsType0
from .job_list import JobList
from .job_request import JobRequest
from .job_status import JobStatus
from .job_summary import JobSummary
from .k_anonymity_check import KAnonymityCheck
from .k_anonymity_check_kind import KAnonymityCheckKind
from .k_anonymity_model import KAnonymityModel
from .k_anonymity_model_kind import KAnonymityModelKind
from .l_diversity_check import LDiversityCheck
from .l_diversity_check_kind import LDiversityCheckKind
from .l_diversity_model import LDiversityModel
from .l_diversity_model_kind import LDiversityModelKind
from .l_variant import LVariant
from .lp_metric import LpMetric
from .lp_metric_kind import LpMetricKind
from .lp_metric_p_type_0 import LpMetricPType0
from .lp_metric_p_type_1 import LpMetricPType1
from .lp_metric_weights import LpMetricWeights
from .max_epsilon_feasibility import MaxEpsilonFeasibility
from .max_m_feasibility import MaxMFeasibility
from .neighborhood import Neighborhood
from .on_missing import OnMissing
from .per_group import PerGroup
from .per_group_value import PerGroupValue
from .problem import Problem
from .problem_details import ProblemDetails
from .prosecutor_risk import ProsecutorRisk
from .quasi_identifiers_groups import QuasiIdentifiersGroups
from .quasi_identifiers_groups_by import QuasiIdentifiersGroupsBy
from .relative_metric import RelativeMetric
from .relative_metric_kind import RelativeMetricKind
from .release_json import ReleaseJson
from .result_format import ResultFormat
from .risk import Risk
from .role import Role
from .schema_column import SchemaColumn
from .size_bucket import SizeBucket
from .spread import Spread
from .status import Status
from .status_value import StatusValue
from .t_closeness_check import TClosenessCheck
from .t_closeness_check_kind import TClosenessCheckKind
from .t_closeness_model import TClosenessModel
from .t_closeness_model_kind import TClosenessModelKind
from .upload_form import UploadForm
from .variational_metric import VariationalMetric
from .variational_metric_kind import VariationalMetricKind
from .worst_group import WorstGroup
from .worst_victim import WorstVictim
from .x_color_options import XColorOptions

__all__ = (
    "AbsoluteMetric",
    "AbsoluteMetricKind",
    "Algorithm",
    "AlphaKCheck",
    "AlphaKCheckKind",
    "AttackerFigures",
    "AttackerView",
    "AuditReport",
    "AuditRequest",
    "AuditView",
    "CheckReport",
    "CheckReportParams",
    "CheckReportValue",
    "ColumnGroups",
    "ColumnGroupsBy",
    "ColumnType",
    "CsvOptions",
    "Dataset",
    "DatasetColumn",
    "DatasetList",
    "DatasetSchema",
    "DeliverableEpsilon",
    "DeliverableM",
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
    "FeasibilityBound",
    "FieldError",
    "GroundDistance",
    "GuaranteedPair",
    "HierarchicalMetric",
    "HierarchicalMetricKind",
    "InitialColoring",
    "Job",
    "JobError",
    "JobErrorDetailsType0",
    "JobList",
    "JobRequest",
    "JobStatus",
    "JobSummary",
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
    "LVariant",
    "MaxEpsilonFeasibility",
    "MaxMFeasibility",
    "Neighborhood",
    "OnMissing",
    "PerGroup",
    "PerGroupValue",
    "Problem",
    "ProblemDetails",
    "ProsecutorRisk",
    "QuasiIdentifiersGroups",
    "QuasiIdentifiersGroupsBy",
    "RelativeMetric",
    "RelativeMetricKind",
    "ReleaseJson",
    "ResultFormat",
    "Risk",
    "Role",
    "SchemaColumn",
    "SizeBucket",
    "Spread",
    "Status",
    "StatusValue",
    "TClosenessCheck",
    "TClosenessCheckKind",
    "TClosenessModel",
    "TClosenessModelKind",
    "UploadForm",
    "VariationalMetric",
    "VariationalMetricKind",
    "WorstGroup",
    "WorstVictim",
    "XColorOptions",
)
