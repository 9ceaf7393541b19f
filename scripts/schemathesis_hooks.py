"""Schemathesis hooks (SCHEMATHESIS_HOOKS=schemathesis_hooks, see
scripts/schemathesis.sh): seeded data where a request's success depends on
state the OpenAPI document cannot express.

* A job, sweep or audit request names a dataset or job by id; a random
  UUID is always a 404. Ids in generated bodies are replaced by the seeded
  ones, so the model parameters the schema generates are judged on a real
  table.
* An upload succeeds only when its CSV matches its schema document, a
  relation JSON Schema cannot state. Every third generated upload is
  replaced by the seed table's parts; the others test the refusals.
* DELETE /v1/datasets/{id} would delete the seed once and then answer 404:
  each DELETE gets a freshly uploaded dataset instead.
* The population models (k_map, delta_presence) need a dataset that names
  a population table: their jobs and sweeps get the seeded sample.
* A job or sweep request's parameters must fit together (the algorithm
  implements the model, `c` only with recursive l-diversity, a metric only
  for dissimilarity, `xcolor` options only for XColor) — rules the document
  states in words; positive bodies are made to fit, so that the values the
  schema generates are judged. A generated Idempotency-Key is made unique:
  the few short keys Schemathesis draws would otherwise be reused with other
  bodies (409) on almost every request.
* The run has one key, which submitted the seeded job: a generated release
  policy keeps four eyes off and its thresholds loose, so that approvals
  are judged on their bodies (the policy's own validation is still what
  the generated values meet).
"""
import itertools
import json
import os

import schemathesis

from schemathesis_seed import upload, upload_form

BASE = os.environ["PROXIMA_BASE"]
KEY = os.environ["PROXIMA_KEY"]
DATASET_ID = os.environ["DATASET_ID"]
JOB_ID = os.environ["JOB_ID"]
SAMPLE_ID = os.environ["SAMPLE_ID"]
POPULATION_MODELS = ("k_map", "delta_presence")
_uploads = itertools.count()


def _is(ctx, method, path):
    op = ctx.operation
    return op is not None and op.method.upper() == method and op.path == path


def _positive(case):
    meta = getattr(case, "meta", None)
    return meta is not None and meta.generation.mode.value == "positive"


_keys = itertools.count()


def _fit_together(body, model, kind):
    """A generated job or sweep request whose parts fit together."""
    if "algorithm" in body:
        body["algorithm"] = {"dissimilarity": "xcolor", "epsilon_m": "epsilon_m"}.get(kind, "mondrian")
    if kind != "dissimilarity":
        body.pop("sensitive_metric", None)
    if body.get("algorithm") != "xcolor":
        body.pop("xcolor", None)
    if isinstance(model, dict) and kind == "l_diversity" and model.get("variant") != "recursive":
        model.pop("c", None)


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """Runs before every call of every phase (the coverage phase's cases
    never pass through the generation hooks). Only positive cases are
    changed: negative ones must keep what makes them invalid."""
    method, path = case.method.upper(), case.operation.path
    if method == "DELETE" and path == "/v1/datasets/{id}":
        params = case.path_parameters or {}
        if params.get("id") == DATASET_ID:
            params["id"] = upload(BASE, KEY)["id"]
            case.path_parameters = params
        return
    if method == "PUT" and path == "/v1/settings/release-policy" and _positive(case):
        if isinstance(case.body, dict):
            from schemathesis_seed import LOOSE_POLICY
            case.body.update(LOOSE_POLICY)
        return
    if method != "POST" or not _positive(case):
        return
    body = case.body
    if path in ("/v1/jobs", "/v1/sweeps") and isinstance(body, dict) and "dataset_id" in body:
        model = body.get("model")
        kind = model.get("kind") if isinstance(model, dict) else None
        body["dataset_id"] = SAMPLE_ID if kind in POPULATION_MODELS else DATASET_ID
        _fit_together(body, model, kind)
        headers = case.headers or {}
        if "Idempotency-Key" in headers:
            headers["Idempotency-Key"] = f"schemathesis-{next(_keys)}"
            case.headers = headers
    elif path == "/v1/audits" and isinstance(body, dict):
        # Exactly one of the two names what to audit.
        if body.get("job_id") is not None and body.get("dataset_id") is None:
            body["job_id"] = JOB_ID
        else:
            body["dataset_id"] = DATASET_ID
            body.pop("job_id", None)
    elif path == "/v1/datasets" and next(_uploads) % 3 == 0:
        # The schema part as an object, as the form's schema declares it:
        # Schemathesis revalidates an edited body, and a JSON string there
        # would turn the case into a negative one.
        form = {name: text for name, _, text in upload_form()}
        form["schema"] = json.loads(form["schema"])
        case.body = form


# SCHEMATHESIS_HOOK_DEBUG=1: print each POST's phase, mode and answer
# (to see which generated requests an operation refuses, and why).
if os.environ.get("SCHEMATHESIS_HOOK_DEBUG"):
    @schemathesis.hook
    def after_call(ctx, case, response):
        if case.method.upper() == "POST":
            meta = getattr(case, "meta", None)
            where = f"{meta.phase.name}/{meta.generation.mode.value}" if meta else "?"
            print(f"\n[hook] {where} {case.operation.path} -> {response.status_code} "
                  f"{response.text[:300]!r} body={str(case.body)[:300]!r}")

