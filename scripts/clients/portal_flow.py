"""The whole portal flow through the generated Python client,
against a running `proxima serve`, without raw HTTP: every call goes through
`proxima_client`'s generated functions and every answer is read as its
generated type.

    python portal_flow.py BASE_URL API_KEY SHARED_DIR

SHARED_DIR is the team's shared directory (`data/adult`, `data/creditcard`,
`examples/*.schema.json`). Each step prints `ok - …` or `FAIL - …`; the last
line is `N passed, M failed` and the exit status is 1 when a step failed.

Only the fields the flow needs are read, so the API may grow optional
fields (and the client be regenerated) without touching this script.
"""

import json
import sys
import time
import traceback
import uuid
from io import BytesIO
from pathlib import Path

from proxima_client import AuthenticatedClient
from proxima_client.api.audits import create_audit
from proxima_client.api.datasets import dataset_feasibility, upload_dataset
from proxima_client.api.jobs import cancel_job, create_job, get_job, get_job_audit, get_job_result, list_jobs
from proxima_client.models import (
    AuditReport,
    AuditRequest,
    Dataset,
    DatasetSchema,
    DissimilarityFeasibility,
    DissimilarityFeasibilityRequest,
    DissimilarityModel,
    EpsilonMFeasibilityRequest,
    EpsilonMModel,
    Job,
    JobList,
    JobRequest,
    KAnonymityCheck,
    KAnonymityModel,
    LpMetric,
    MaxEpsilonFeasibility,
    MaxMFeasibility,
    Problem,
    ReleaseJson,
    UploadForm,
)
from proxima_client.types import File

# Rows of creditcard the flow uploads (enough for real groups, few enough
# for the debug build CI runs); adult goes whole (30162 rows), so that the
# job cancelled on it is still running when the cancel arrives.
ROWS = 1500
FINISHED = ("succeeded", "failed", "cancelled")


def head(path: Path, rows: int) -> bytes:
    """The header and the first `rows` data lines of a CSV."""
    with path.open("rb") as f:
        return b"".join(line for _, line in zip(range(rows + 1), f))


def expect(cond: bool, what: str) -> None:
    if not cond:
        raise AssertionError(what)


class Flow:
    def __init__(self, base: str, key: str, shared: Path):
        self.client = AuthenticatedClient(base_url=base, token=key, timeout=120.0)
        self.shared = shared
        self.passed = 0
        self.failed = 0
        self.state: dict = {}

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

    # --- datasets ----------------------------------------------------------

    def upload(self, table: str, schema_file: str, hierarchies: bool, rows: int | None) -> Dataset:
        data_dir = self.shared / "data" / table
        schema = DatasetSchema.from_dict(json.loads((self.shared / "examples" / schema_file).read_text()))
        form = UploadForm(
            schema=schema,
            data=File(payload=BytesIO(head(data_dir / f"{table}.csv", rows or 10**9)), file_name=f"{table}.csv"),
        )
        if hierarchies:
            for column in schema.columns:
                path = data_dir / f"{table}_hierarchy_{column.name}.csv"
                if column.type_ == "categorical" and path.exists():
                    form[f"hierarchy:{column.name}"] = File(payload=BytesIO(path.read_bytes()))
        dataset = upload_dataset.sync(client=self.client, body=form)
        expect(isinstance(dataset, Dataset), f"upload answered {dataset!r}")
        expect(rows is None or dataset.rows == rows, f"{dataset.rows} rows")
        return dataset

    def upload_adult(self):
        ds = self.upload("adult", "adult.schema.json", hierarchies=True, rows=None)
        heights = {c.name: c.hierarchy_height for c in ds.columns}
        expect(heights["education"] is not None and heights["education"] > 1, f"hierarchies: {heights}")
        self.state["adult"] = ds

    def upload_creditcard(self):
        self.state["credit"] = self.upload("creditcard", "creditcard.schema.json", hierarchies=False, rows=ROWS)

    def feasibility_epsilon_m(self):
        ds = self.state["credit"]
        bound = dataset_feasibility.sync(
            ds.id, client=self.client, body=EpsilonMFeasibilityRequest(kind="epsilon_m", m=2)
        )
        expect(isinstance(bound, MaxEpsilonFeasibility), f"answered {bound!r}")
        epsilon = 100.0
        reach = dataset_feasibility.sync(
            ds.id, client=self.client, body=EpsilonMFeasibilityRequest(kind="epsilon_m", epsilon=epsilon)
        )
        expect(isinstance(reach, MaxMFeasibility), f"answered {reach!r}")
        expect(reach.max_m >= 2, f"max_m {reach.max_m} for epsilon {epsilon}")
        # Both: the lower bound on suppression beside (none forced at m ≤ max_m).
        both = dataset_feasibility.sync(
            ds.id, client=self.client, body=EpsilonMFeasibilityRequest(kind="epsilon_m", epsilon=epsilon, m=2)
        )
        least = both.minimum_suppression if isinstance(both, MaxMFeasibility) else None
        expect(
            least is not None and least.bound == "lower_bound" and least.rows == 0 and least.m == 2,
            f"answered {both!r}",
        )
        self.state["epsilon_m"] = (epsilon, 2)

    def feasibility_dissimilarity(self):
        # BILL_AMT1 normalized by its range: similar within 1/10000 of it.
        epsilon = 0.0001
        answer = dataset_feasibility.sync(
            self.state["credit"].id,
            client=self.client,
            body=DissimilarityFeasibilityRequest(kind="dissimilarity", epsilon=epsilon, sensitive_metric=self.lp_inf()),
        )
        expect(isinstance(answer, DissimilarityFeasibility), f"answered {answer!r}")
        pairs = [p for p in answer.guaranteed if p.k >= 2]
        expect(pairs, f"no guaranteed pair with k >= 2: {answer.guaranteed}")
        # Half the guaranteed delta: slack for judging in the attacker's view.
        self.state["dissimilarity"] = (epsilon, round(pairs[0].max_delta / 2, 3), pairs[0].k)

    @staticmethod
    def lp_inf() -> LpMetric:
        return LpMetric(kind="lp", p="inf")

    # --- jobs ----------------------------------------------------------------

    def create(self, request: JobRequest) -> Job:
        job = create_job.sync(client=self.client, body=request)
        expect(isinstance(job, Job), f"create answered {job!r}")
        self.state.setdefault("created", []).append(job.id)
        return job

    def create_jobs(self):
        epsilon, m = self.state["epsilon_m"]
        em = self.create(
            JobRequest(
                dataset_id=self.state["credit"].id,
                model=EpsilonMModel(kind="epsilon_m", epsilon=epsilon, m=m),
            )
        )
        expect(em.algorithm == "epsilon_m", f"algorithm {em.algorithm}")
        eps, delta, k = self.state["dissimilarity"]
        dis = self.create(
            JobRequest(
                dataset_id=self.state["credit"].id,
                model=DissimilarityModel(kind="dissimilarity", epsilon=eps, delta=delta, k=k),
                sensitive_metric=self.lp_inf(),
            )
        )
        # The job echoes the metric as a typed LpMetric with p = "inf".
        expect(isinstance(dis.sensitive_metric, LpMetric), f"metric {dis.sensitive_metric!r}")
        expect(dis.sensitive_metric.p == "inf", f"p {dis.sensitive_metric.p!r}")
        self.state["jobs"] = {"epsilon_m": em, "dissimilarity": dis}

    def cancel_a_job(self):
        # The one worker is busy with two Mondrian jobs on the whole adult
        # table while a small job waits behind them: a queued job is
        # cancelled at once.
        for k in (5, 10):
            self.create(JobRequest(dataset_id=self.state["adult"].id, model=KAnonymityModel(kind="k_anonymity", k=k)))
        job = self.create(
            JobRequest(dataset_id=self.state["credit"].id, model=KAnonymityModel(kind="k_anonymity", k=2))
        )
        answer = cancel_job.sync(job.id, client=self.client)
        expect(isinstance(answer, Job), f"cancel answered {answer!r}")
        expect(answer.status == "cancelled", f"status {answer.status} after cancel")
        # Cancelling it again is a 409 problem, read as a typed object.
        again = cancel_job.sync(job.id, client=self.client)
        expect(isinstance(again, Problem) and again.status == 409, f"second cancel answered {again!r}")
        expect(self.poll(job.id).status == "cancelled", "the cancelled job ran")

    def poll(self, job_id: uuid.UUID, timeout: float = 600) -> Job:
        deadline = time.monotonic() + timeout
        while True:
            job = get_job.sync(job_id, client=self.client)
            expect(isinstance(job, Job), f"get answered {job!r}")
            if job.status in FINISHED:
                return job
            expect(time.monotonic() < deadline, f"job {job_id} still {job.status}")
            time.sleep(0.2)

    def poll_to_success(self):
        for kind, job in self.state["jobs"].items():
            final = self.poll(job.id)
            expect(final.status == "succeeded", f"{kind} job {final.status}: {final.error}")
            expect(final.summary is not None and final.summary.published_rows > 0, f"{kind} summary {final.summary}")
            self.state["jobs"][kind] = final

    # --- releases --------------------------------------------------------------

    def audit_job(self):
        for kind, job in self.state["jobs"].items():
            report = get_job_audit.sync(job.id, client=self.client)
            expect(isinstance(report, AuditReport), f"audit answered {report!r}")
            own = [c for c in report.checks if c.kind == kind]
            expect(own, f"no {kind} check in {[c.kind for c in report.checks]}")
            expect(own[0].passed, f"the {kind} release fails its own model: {own[0].value.to_dict()}")

    def audit_dataset(self):
        report = create_audit.sync(
            client=self.client,
            body=AuditRequest(dataset_id=self.state["adult"].id, checks=[KAnonymityCheck(kind="k_anonymity", k=2)]),
        )
        expect(isinstance(report, AuditReport), f"audit answered {report!r}")
        expect(report.rows == self.state["adult"].rows, f"{report.rows} rows")
        expect(report.checks[0].kind == "k_anonymity", f"{report.checks[0].kind}")
        expect("min_size" in report.checks[0].value, f"value {report.checks[0].value.to_dict()}")

    def download(self):
        job = self.state["jobs"]["dissimilarity"]
        csv = get_job_result.sync(job.id, client=self.client, format_="csv")
        expect(isinstance(csv, str), f"csv answered {csv!r}")
        lines = csv.strip().splitlines()
        expect(lines[0].split(",")[0] == "group_id", f"header {lines[0]}")
        # The JSON release comes as text too (the operation's first media
        # type is CSV); its shape is the generated ReleaseJson.
        response = get_job_result.sync_detailed(job.id, client=self.client, format_="json")
        expect(response.status_code == 200, f"status {response.status_code}")
        release = ReleaseJson.from_dict(json.loads(response.content))
        expect(release.columns[0] == "group_id", f"columns {release.columns}")
        expect(len(release.rows) == len(lines) - 1 == job.summary.published_rows, "row counts differ")

    def list_with_pagination(self):
        mine = set(self.state["created"])
        seen, cursor, pages = [], None, 0
        while True:
            page = list_jobs.sync(client=self.client, limit=2, **({"cursor": cursor} if cursor else {}))
            expect(isinstance(page, JobList), f"list answered {page!r}")
            expect(len(page.items) <= 2, f"{len(page.items)} items")
            seen += [j.id for j in page.items]
            pages += 1
            cursor = page.next_cursor
            if cursor is None:
                break
        expect(pages >= 2 and len(seen) >= 3, f"{pages} page(s), {len(seen)} jobs")
        expect(len(seen) == len(set(seen)), "a job listed twice")
        expect(mine <= set(seen), "a job missing from the pages")
        only = list_jobs.sync(client=self.client, status="succeeded")
        expect(isinstance(only, JobList) and only.items, f"status filter answered {only!r}")
        expect(all(j.status == "succeeded" for j in only.items), "status filter")

    def problems(self):
        missing = get_job.sync(uuid.uuid4(), client=self.client)
        expect(isinstance(missing, Problem), f"answered {missing!r}")
        expect((missing.status, missing.code) == (404, "not_found"), f"{missing.status} {missing.code}")
        # m beyond Theorem 1's bound: refused before queueing, with pointers.
        too_many = create_job.sync(
            client=self.client,
            body=JobRequest(
                dataset_id=self.state["credit"].id,
                model=EpsilonMModel(kind="epsilon_m", epsilon=self.state["epsilon_m"][0], m=ROWS + 1),
            ),
        )
        expect(isinstance(too_many, Problem), f"answered {too_many!r}")
        expect(too_many.status == 422, f"status {too_many.status}")
        expect(too_many.code in ("infeasible_parameters", "invalid_parameters"), too_many.code)
        expect(any(e.pointer.startswith("/model") for e in too_many.errors), f"errors {too_many.errors}")

    def run(self) -> int:
        with self.client:
            for name, fn in [
                ("upload adult with its hierarchy parts", self.upload_adult),
                ("upload creditcard (numeric QIs, no hierarchies)", self.upload_creditcard),
                ("feasibility of (epsilon,m): Theorems 1 and 2", self.feasibility_epsilon_m),
                ("feasibility of dissimilarity with lp p=inf", self.feasibility_dissimilarity),
                ("create an epsilon_m job and a dissimilarity job (lp, p=inf)", self.create_jobs),
                ("cancel a job; cancelling again is a 409 problem", self.cancel_a_job),
                ("poll both jobs to success", self.poll_to_success),
                ("audit each job's release", self.audit_job),
                ("audit a dataset (POST /v1/audits)", self.audit_dataset),
                ("download a release as CSV and as JSON", self.download),
                ("list jobs page by page", self.list_with_pagination),
                ("problem+json errors as typed Problem", self.problems),
            ]:
                self.step(name, fn)
        print(f"portal flow: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


if __name__ == "__main__":
    base, key, shared = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    sys.exit(Flow(base, key, shared).run())
