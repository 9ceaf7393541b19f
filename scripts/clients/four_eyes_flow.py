"""The four-eyes sign-off through the generated Python client, against a
running `proxima serve`, without raw HTTP.

    python four_eyes_flow.py BASE_URL ADMIN_KEY

ADMIN_KEY is an admin key (the server's bootstrap key). The flow makes a
submitter and a reviewer key with it, sets a release policy, lets the
submitter upload a small inline table and queue a job, and plays the
sign-off: the publication download refused before approval, the submitter
refused as approver (its role) and the admin refused as approver of the job
it submitted itself (four eyes), the reviewer's approval binding the
report's verdict and the release's SHA-256, and the publication download
serving exactly those bytes. Each step prints `ok - …` or `FAIL - …`; the
last line is `four-eyes flow: N passed, M failed` (exit 1 when a step
failed). It needs no shared data.
"""

import hashlib
import json
import sys
import time
import traceback
from io import BytesIO

from proxima_client import AuthenticatedClient
from proxima_client.api.datasets import upload_dataset
from proxima_client.api.jobs import (
    create_approval,
    create_job,
    get_job,
    get_job_report,
    get_job_result,
    list_approvals,
)
from proxima_client.api.settings import create_key, put_release_policy
from proxima_client.models import (
    Approval,
    ApprovalDecision,
    ApprovalList,
    ApprovalRequest,
    CreatedKey,
    Dataset,
    DatasetSchema,
    Job,
    JobRequest,
    KAnonymityModel,
    KeyRequest,
    Problem,
    ReleasePolicyRequest,
    ReleasePolicyResource,
    ReleaseReport,
    UploadForm,
)
from proxima_client.types import File

CSV = b"age,zip,salary\n30,1000,50\n30,1000,52\n40,2000,60\n40,2000,61\n40,2000,62\n50,3000,70\n"
ZIP = b"1000;1xxx-2xxx;*\n2000;1xxx-2xxx;*\n3000;3xxx;*\n"
SCHEMA = {
    "name": "four-eyes",
    "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"},
    ],
}


def expect(cond: bool, what: str) -> None:
    if not cond:
        raise AssertionError(what)


def problem(answer, status: int, code: str) -> None:
    expect(isinstance(answer, Problem), f"expected a {status} {code} problem, got {answer!r}")
    expect(answer.status == status and answer.code == code, f"got {answer.status} {answer.code}")


class Flow:
    def __init__(self, base: str, admin_key: str):
        self.base = base
        self.admin = AuthenticatedClient(base_url=base, token=admin_key, timeout=120.0)
        self.passed = 0
        self.failed = 0
        self.state: dict = {}

    def client(self, key: str) -> AuthenticatedClient:
        return AuthenticatedClient(base_url=self.base, token=key, timeout=120.0)

    def step(self, name, fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 (a failed step is reported, the flow goes on)
            self.failed += 1
            print(f"FAIL - {name}: {type(e).__name__}: {e}")
            traceback.print_exc(limit=3)
        else:
            self.passed += 1
            print(f"ok - {name}")

    def make_keys(self):
        for role in ("submitter", "reviewer"):
            made = create_key.sync(client=self.admin, body=KeyRequest(role=role))
            expect(isinstance(made, CreatedKey), f"create_key answered {made!r}")
            expect(made.role == role, f"role {made.role}")
            self.state[role] = self.client(made.key)
        # A submitter makes no keys.
        refused = create_key.sync(client=self.state["submitter"], body=KeyRequest(role="admin"))
        problem(refused, 403, "role_forbidden")

    def set_policy(self):
        # Six rows cannot reach the default prosecutor risk (k = 2 gives 1/2).
        policy = put_release_policy.sync(
            client=self.admin,
            body=ReleasePolicyRequest(max_prosecutor_risk=1.0, max_median_query_error=100.0, four_eyes=True),
        )
        expect(isinstance(policy, ReleasePolicyResource), f"answered {policy!r}")
        expect(policy.four_eyes and policy.require_approval, f"policy {policy!r}")
        expect(policy.source == "tenant", f"source {policy.source}")
        refused = put_release_policy.sync(client=self.state["reviewer"], body=ReleasePolicyRequest())
        problem(refused, 403, "role_forbidden")

    def job(self, client: AuthenticatedClient) -> Job:
        form = UploadForm(
            schema=DatasetSchema.from_dict(SCHEMA),
            data=File(payload=BytesIO(CSV), file_name="four-eyes.csv"),
        )
        form["hierarchy:zip"] = File(payload=BytesIO(ZIP))
        ds = upload_dataset.sync(client=client, body=form)
        expect(isinstance(ds, Dataset), f"upload answered {ds!r}")
        job = create_job.sync(
            client=client, body=JobRequest(dataset_id=ds.id, model=KAnonymityModel(kind="k_anonymity", k=2))
        )
        expect(isinstance(job, Job), f"create answered {job!r}")
        deadline = time.time() + 120
        while job.status in ("queued", "running"):
            expect(time.time() < deadline, "the job did not finish")
            time.sleep(0.2)
            job = get_job.sync(job.id, client=client)
        expect(job.status == "succeeded", f"status {job.status}")
        return job

    def submit(self):
        self.state["job"] = self.job(self.state["submitter"])
        self.state["admin_job"] = self.job(self.admin)

    def read_verdict(self):
        # The generated parser reads the 200 as the HTML page (its first
        # content type); the JSON form is read into the generated type here.
        response = get_job_report.sync_detailed(self.state["job"].id, client=self.state["reviewer"], format_="json")
        expect(response.status_code == 200, f"report answered {response.status_code}")
        report = ReleaseReport.from_dict(json.loads(response.content))
        expect(report.verdict.decision != "not_publishable", f"verdict {report.verdict.decision}")
        expect(report.verdict.policy_source == "tenant", f"policy {report.verdict.policy_source}")
        expect(all(r.anchor.startswith("#") for r in report.verdict.reasons), "reasons link to sections")
        self.state["report"] = report

    def publication_needs_approval(self):
        answer = get_job_result.sync(
            self.state["job"].id, client=self.state["submitter"], purpose="publication"
        )
        problem(answer, 409, "approval_required")

    def approval(self, decision: ApprovalDecision) -> ApprovalRequest:
        return ApprovalRequest(decision=decision, name="Grace Hopper", role="release officer", comment="four eyes")

    def refusals(self):
        # The submitter's role does not sign.
        answer = create_approval.sync(
            self.state["job"].id, client=self.state["submitter"], body=self.approval("approve")
        )
        problem(answer, 403, "role_forbidden")
        # An admin may sign, but not the job it submitted.
        answer = create_approval.sync(
            self.state["admin_job"].id, client=self.admin, body=self.approval("approve")
        )
        problem(answer, 403, "four_eyes_required")

    def approve(self):
        a = create_approval.sync(
            self.state["job"].id, client=self.state["reviewer"], body=self.approval("approve")
        )
        expect(isinstance(a, Approval), f"approve answered {a!r}")
        report = self.state["report"]
        expect(a.release_sha256 == report.release.sha256, "the approval binds the report's release hash")
        expect(a.verdict == report.verdict.decision, f"the approval binds the verdict: {a.verdict}")
        listed = list_approvals.sync(self.state["job"].id, client=self.state["submitter"])
        expect(isinstance(listed, ApprovalList), f"list answered {listed!r}")
        expect([x.id for x in listed.items] == [a.id], "listed")
        self.state["approval"] = a

    def publish(self):
        response = get_job_result.sync_detailed(
            self.state["job"].id, client=self.state["submitter"], purpose="publication"
        )
        expect(response.status_code == 200, f"status {response.status_code}")
        digest = hashlib.sha256(response.content).hexdigest()
        expect(digest == self.state["approval"].release_sha256, "the published bytes are the approved ones")

    def run(self) -> int:
        self.step("an admin makes a submitter and a reviewer key", self.make_keys)
        self.step("an admin sets the release policy (four eyes)", self.set_policy)
        self.step("the submitter and the admin each upload and run a job", self.submit)
        self.step("the reviewer reads the verdict and the policy it applied", self.read_verdict)
        self.step("publication is refused before approval", self.publication_needs_approval)
        self.step("the submitter's role and the submitting key cannot approve", self.refusals)
        self.step("the reviewer approves: verdict and hash bound", self.approve)
        self.step("the publication download serves the approved bytes", self.publish)
        print(f"four-eyes flow: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(Flow(sys.argv[1], sys.argv[2]).run())
