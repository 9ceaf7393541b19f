"""Contains all the data models used in inputs/outputs"""

from .absolute_metric import AbsoluteMetric
from .absolute_metric_kind import AbsoluteMetricKind
from .algorithm import Algorithm
from .alpha_k_check import AlphaKCheck
from .alpha_k_check_kind import AlphaKCheckKind
from .approval import Approval
from .approval_decision import ApprovalDecision
from .approval_list import ApprovalList
from .approval_request import ApprovalRequest
from .attacker_figures import AttackerFigures
from .attacker_view import AttackerView
from .audit_report import AuditReport
from .audit_request import AuditRequest
from .audit_view import AuditView
from .check_report import CheckReport
from .check_report_params import CheckReportParams
from .check_report_value import CheckReportValue
from .column_contribution import ColumnContribution
from .column_groups import ColumnGroups
from .column_groups_by import ColumnGroupsBy
from .column_type import ColumnType
from .created_key import CreatedKey
from .csv_options import CsvOptions
from .dataset import Dataset
from .dataset_column import DatasetColumn
from .dataset_list import DatasetList
from .dataset_schema import DatasetSchema
from .decision import Decision
from .deliverable_epsilon import DeliverableEpsilon
from .deliverable_m import DeliverableM
from .deliverable_pair import DeliverablePair
from .delta_l_diversity_check import DeltaLDiversityCheck
from .delta_l_diversity_check_kind import DeltaLDiversityCheckKind
from .delta_presence_check import DeltaPresenceCheck
from .delta_presence_check_kind import DeltaPresenceCheckKind
from .delta_presence_model import DeltaPresenceModel
from .delta_presence_model_kind import DeltaPresenceModelKind
from .delta_presence_sweep_model import DeltaPresenceSweepModel
from .delta_presence_sweep_model_kind import DeltaPresenceSweepModelKind
from .dissimilarity_check import DissimilarityCheck
from .dissimilarity_check_kind import DissimilarityCheckKind
from .dissimilarity_feasibility import DissimilarityFeasibility
from .dissimilarity_feasibility_request import DissimilarityFeasibilityRequest
from .dissimilarity_feasibility_request_kind import DissimilarityFeasibilityRequestKind
from .dissimilarity_model import DissimilarityModel
from .dissimilarity_model_kind import DissimilarityModelKind
from .dissimilarity_sweep_model import DissimilaritySweepModel
from .dissimilarity_sweep_model_kind import DissimilaritySweepModelKind
from .effect import Effect
from .epsilon_m_check import EpsilonMCheck
from .epsilon_m_check_kind import EpsilonMCheckKind
from .epsilon_m_feasibility_request import EpsilonMFeasibilityRequest
from .epsilon_m_feasibility_request_kind import EpsilonMFeasibilityRequestKind
from .epsilon_m_model import EpsilonMModel
from .epsilon_m_model_kind import EpsilonMModelKind
from .epsilon_m_sweep_model import EpsilonMSweepModel
from .epsilon_m_sweep_model_kind import EpsilonMSweepModelKind
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
from .job_warning import JobWarning
from .job_warning_details import JobWarningDetails
from .k_anonymity_check import KAnonymityCheck
from .k_anonymity_check_kind import KAnonymityCheckKind
from .k_anonymity_model import KAnonymityModel
from .k_anonymity_model_kind import KAnonymityModelKind
from .k_anonymity_sweep_model import KAnonymitySweepModel
from .k_anonymity_sweep_model_kind import KAnonymitySweepModelKind
from .k_map_check import KMapCheck
from .k_map_check_kind import KMapCheckKind
from .k_map_model import KMapModel
from .k_map_model_kind import KMapModelKind
from .k_map_sweep_model import KMapSweepModel
from .k_map_sweep_model_kind import KMapSweepModelKind
from .key_request import KeyRequest
from .key_role import KeyRole
from .l_diversity_check import LDiversityCheck
from .l_diversity_check_kind import LDiversityCheckKind
from .l_diversity_model import LDiversityModel
from .l_diversity_model_kind import LDiversityModelKind
from .l_diversity_sweep_model import LDiversitySweepModel
from .l_diversity_sweep_model_kind import LDiversitySweepModelKind
from .l_variant import LVariant
from .lp_metric import LpMetric
from .lp_metric_kind import LpMetricKind
from .lp_metric_p_type_0 import LpMetricPType0
from .lp_metric_p_type_1 import LpMetricPType1
from .lp_metric_weights import LpMetricWeights
from .max_epsilon_feasibility import MaxEpsilonFeasibility
from .max_m_feasibility import MaxMFeasibility
from .minimum_suppression import MinimumSuppression
from .minimum_suppression_bound import MinimumSuppressionBound
from .neighborhood import Neighborhood
from .on_missing import OnMissing
from .per_group import PerGroup
from .per_group_value import PerGroupValue
from .point_status import PointStatus
from .policy_source import PolicySource
from .population_dataset import PopulationDataset
from .population_sampling_fraction import PopulationSamplingFraction
from .population_size import PopulationSize
from .population_table_risk import PopulationTableRisk
from .population_uniqueness import PopulationUniqueness
from .problem import Problem
from .problem_details import ProblemDetails
from .prosecutor_risk import ProsecutorRisk
from .qi_loss import QiLoss
from .quasi_identifiers_groups import QuasiIdentifiersGroups
from .quasi_identifiers_groups_by import QuasiIdentifiersGroupsBy
from .query_error import QueryError
from .record_at_risk import RecordAtRisk
from .relative_metric import RelativeMetric
from .relative_metric_kind import RelativeMetricKind
from .release_facts import ReleaseFacts
from .release_json import ReleaseJson
from .release_policy import ReleasePolicy
from .release_policy_request import ReleasePolicyRequest
from .release_policy_resource import ReleasePolicyResource
from .release_report import ReleaseReport
from .report_attacker_view import ReportAttackerView
from .report_audience import ReportAudience
from .report_audience_param import ReportAudienceParam
from .report_check_verdict import ReportCheckVerdict
from .report_column import ReportColumn
from .report_combination_scan import ReportCombinationScan
from .report_combinations import ReportCombinations
from .report_dataset import ReportDataset
from .report_failure import ReportFailure
from .report_failure_details_type_0 import ReportFailureDetailsType0
from .report_format import ReportFormat
from .report_job import ReportJob
from .report_risk import ReportRisk
from .report_riskiest import ReportRiskiest
from .report_utility import ReportUtility
from .report_warning import ReportWarning
from .result_format import ResultFormat
from .result_purpose import ResultPurpose
from .risk import Risk
from .risk_figures import RiskFigures
from .risky_combination import RiskyCombination
from .risky_group import RiskyGroup
from .role import Role
from .sa_distribution import SaDistribution
from .schema_column import SchemaColumn
from .size_bucket import SizeBucket
from .special_uniques_check import SpecialUniquesCheck
from .special_uniques_check_kind import SpecialUniquesCheckKind
from .spread import Spread
from .status import Status
from .status_value import StatusValue
from .suda_columns import SudaColumns
from .suppressed_rows import SuppressedRows
from .sweep import Sweep
from .sweep_axis import SweepAxis
from .sweep_counts import SweepCounts
from .sweep_list import SweepList
from .sweep_map import SweepMap
from .sweep_map_mark import SweepMapMark
from .sweep_point import SweepPoint
from .sweep_point_error import SweepPointError
from .sweep_point_error_details_type_0 import SweepPointErrorDetailsType0
from .sweep_point_params import SweepPointParams
from .sweep_point_summary import SweepPointSummary
from .sweep_point_verdict import SweepPointVerdict
from .sweep_point_verdict_reason import SweepPointVerdictReason
from .sweep_report import SweepReport
from .sweep_report_format import SweepReportFormat
from .sweep_request import SweepRequest
from .sweep_risk_figure import SweepRiskFigure
from .sweep_status import SweepStatus
from .t_closeness_check import TClosenessCheck
from .t_closeness_check_kind import TClosenessCheckKind
from .t_closeness_model import TClosenessModel
from .t_closeness_model_kind import TClosenessModelKind
from .t_closeness_sweep_model import TClosenessSweepModel
from .t_closeness_sweep_model_kind import TClosenessSweepModelKind
from .upload_form import UploadForm
from .variational_metric import VariationalMetric
from .variational_metric_kind import VariationalMetricKind
from .verdict import Verdict
from .verdict_reason import VerdictReason
from .verdict_reason_kind import VerdictReasonKind
from .worst_group import WorstGroup
from .worst_record import WorstRecord
from .worst_victim import WorstVictim
from .x_color_options import XColorOptions

__all__ = (
    "AbsoluteMetric",
    "AbsoluteMetricKind",
    "Algorithm",
    "AlphaKCheck",
    "AlphaKCheckKind",
    "Approval",
    "ApprovalDecision",
    "ApprovalList",
    "ApprovalRequest",
    "AttackerFigures",
    "AttackerView",
    "AuditReport",
    "AuditRequest",
    "AuditView",
    "CheckReport",
    "CheckReportParams",
    "CheckReportValue",
    "ColumnContribution",
    "ColumnGroups",
    "ColumnGroupsBy",
    "ColumnType",
    "CreatedKey",
    "CsvOptions",
    "Dataset",
    "DatasetColumn",
    "DatasetList",
    "DatasetSchema",
    "Decision",
    "DeliverableEpsilon",
    "DeliverableM",
    "DeliverablePair",
    "DeltaLDiversityCheck",
    "DeltaLDiversityCheckKind",
    "DeltaPresenceCheck",
    "DeltaPresenceCheckKind",
    "DeltaPresenceModel",
    "DeltaPresenceModelKind",
    "DeltaPresenceSweepModel",
    "DeltaPresenceSweepModelKind",
    "DissimilarityCheck",
    "DissimilarityCheckKind",
    "DissimilarityFeasibility",
    "DissimilarityFeasibilityRequest",
    "DissimilarityFeasibilityRequestKind",
    "DissimilarityModel",
    "DissimilarityModelKind",
    "DissimilaritySweepModel",
    "DissimilaritySweepModelKind",
    "Effect",
    "EpsilonMCheck",
    "EpsilonMCheckKind",
    "EpsilonMFeasibilityRequest",
    "EpsilonMFeasibilityRequestKind",
    "EpsilonMModel",
    "EpsilonMModelKind",
    "EpsilonMSweepModel",
    "EpsilonMSweepModelKind",
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
    "JobWarning",
    "JobWarningDetails",
    "KAnonymityCheck",
    "KAnonymityCheckKind",
    "KAnonymityModel",
    "KAnonymityModelKind",
    "KAnonymitySweepModel",
    "KAnonymitySweepModelKind",
    "KeyRequest",
    "KeyRole",
    "KMapCheck",
    "KMapCheckKind",
    "KMapModel",
    "KMapModelKind",
    "KMapSweepModel",
    "KMapSweepModelKind",
    "LDiversityCheck",
    "LDiversityCheckKind",
    "LDiversityModel",
    "LDiversityModelKind",
    "LDiversitySweepModel",
    "LDiversitySweepModelKind",
    "LpMetric",
    "LpMetricKind",
    "LpMetricPType0",
    "LpMetricPType1",
    "LpMetricWeights",
    "LVariant",
    "MaxEpsilonFeasibility",
    "MaxMFeasibility",
    "MinimumSuppression",
    "MinimumSuppressionBound",
    "Neighborhood",
    "OnMissing",
    "PerGroup",
    "PerGroupValue",
    "PointStatus",
    "PolicySource",
    "PopulationDataset",
    "PopulationSamplingFraction",
    "PopulationSize",
    "PopulationTableRisk",
    "PopulationUniqueness",
    "Problem",
    "ProblemDetails",
    "ProsecutorRisk",
    "QiLoss",
    "QuasiIdentifiersGroups",
    "QuasiIdentifiersGroupsBy",
    "QueryError",
    "RecordAtRisk",
    "RelativeMetric",
    "RelativeMetricKind",
    "ReleaseFacts",
    "ReleaseJson",
    "ReleasePolicy",
    "ReleasePolicyRequest",
    "ReleasePolicyResource",
    "ReleaseReport",
    "ReportAttackerView",
    "ReportAudience",
    "ReportAudienceParam",
    "ReportCheckVerdict",
    "ReportColumn",
    "ReportCombinations",
    "ReportCombinationScan",
    "ReportDataset",
    "ReportFailure",
    "ReportFailureDetailsType0",
    "ReportFormat",
    "ReportJob",
    "ReportRisk",
    "ReportRiskiest",
    "ReportUtility",
    "ReportWarning",
    "ResultFormat",
    "ResultPurpose",
    "Risk",
    "RiskFigures",
    "RiskyCombination",
    "RiskyGroup",
    "Role",
    "SaDistribution",
    "SchemaColumn",
    "SizeBucket",
    "SpecialUniquesCheck",
    "SpecialUniquesCheckKind",
    "Spread",
    "Status",
    "StatusValue",
    "SudaColumns",
    "SuppressedRows",
    "Sweep",
    "SweepAxis",
    "SweepCounts",
    "SweepList",
    "SweepMap",
    "SweepMapMark",
    "SweepPoint",
    "SweepPointError",
    "SweepPointErrorDetailsType0",
    "SweepPointParams",
    "SweepPointSummary",
    "SweepPointVerdict",
    "SweepPointVerdictReason",
    "SweepReport",
    "SweepReportFormat",
    "SweepRequest",
    "SweepRiskFigure",
    "SweepStatus",
    "TClosenessCheck",
    "TClosenessCheckKind",
    "TClosenessModel",
    "TClosenessModelKind",
    "TClosenessSweepModel",
    "TClosenessSweepModelKind",
    "UploadForm",
    "VariationalMetric",
    "VariationalMetricKind",
    "Verdict",
    "VerdictReason",
    "VerdictReasonKind",
    "WorstGroup",
    "WorstRecord",
    "WorstVictim",
    "XColorOptions",
)
