"""Seed data for scripts/schemathesis.sh: a small uploaded table and a
succeeded job and a sweep, so that generated requests can reach real
resources.

Run as a script it seeds and writes `DATASET_ID=…` and `JOB_ID=…` to the
file named by its third argument (and `SWEEP_ID=…`, and `SAMPLE_ID=…`: the
seed table again, as a sample of the first, for the population models); `scripts/schemathesis_hooks.py` imports
`upload_form` and `upload` to make fresh datasets while the run goes on.
"""
import json
import sys
import time
import urllib.request

SCHEMA = {"name": "people", "columns": [
    {"name": "age", "role": "quasi_identifier", "type": "numeric"},
    {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
    {"name": "salary", "role": "sensitive", "type": "numeric"}]}
ROWS = "".join(f"{20 + i % 50},{1000 * (1 + i % 5)},{30 + i % 40}\n" for i in range(200))


def upload_form():
    """The upload's parts as (name, content type, text)."""
    return [("schema", "application/json", json.dumps(SCHEMA)),
            ("data", "text/csv", "age,zip,salary\n" + ROWS),
            ("hierarchy:zip", "text/csv", "".join(f"{1000 * k};*\n" for k in range(1, 6)))]


def call(base, key, method, path, body=None, headers=None):
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={"Authorization": f"Bearer {key}", **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.load(res)


def upload(base, key):
    """Uploads the seed table; returns the new dataset."""
    boundary = "schemathesis-seed-boundary"
    body = b""
    for name, ctype, text in upload_form():
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n"
                 f"Content-Type: {ctype}\r\n\r\n{text}\r\n").encode()
    body += f"--{boundary}--\r\n".encode()
    return call(base, key, "POST", "/v1/datasets", body,
                {"Content-Type": f"multipart/form-data; boundary={boundary}"})


# A policy under which the seeded job can be approved by the key that
# submitted it (the run has one key): approvals are then judged on their
# bodies, not refused for four eyes or a not-publishable verdict.
LOOSE_POLICY = {"max_prosecutor_risk": 1.0, "max_below_k_share": 1.0,
                "max_population_uniques_share": 1.0, "max_suppressed_share": 1.0,
                "max_median_query_error": 100.0, "require_approval": True,
                "four_eyes": False}


def upload_with_population(base, key, population_id):
    """Uploads the seed table as a sample of the dataset `population_id`
    (the same rows: a subset of itself), for the population models."""
    boundary = "schemathesis-seed-boundary"
    schema = dict(SCHEMA, population={"dataset_id": population_id})
    body = b""
    for name, ctype, text in upload_form():
        if name == "schema":
            text = json.dumps(schema)
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n"
                 f"Content-Type: {ctype}\r\n\r\n{text}\r\n").encode()
    body += f"--{boundary}--\r\n".encode()
    return call(base, key, "POST", "/v1/datasets", body,
                {"Content-Type": f"multipart/form-data; boundary={boundary}"})


def main(base, key, out):
    deadline = time.time() + 120
    call(base, key, "PUT", "/v1/settings/release-policy", json.dumps(LOOSE_POLICY).encode(),
         {"Content-Type": "application/json"})
    ds = upload(base, key)
    sample = upload_with_population(base, key, ds["id"])
    job = call(base, key, "POST", "/v1/jobs",
               json.dumps({"dataset_id": ds["id"],
                           "model": {"kind": "k_anonymity", "k": 2}}).encode(),
               {"Content-Type": "application/json"})
    while job["status"] in ("queued", "running"):
        if time.time() > deadline:
            sys.exit("schemathesis: the seed job did not finish")
        time.sleep(0.2)
        job = call(base, key, "GET", f"/v1/jobs/{job['id']}")
    if job["status"] != "succeeded":
        sys.exit(f"schemathesis: the seed job ended {job['status']}: {job.get('error')}")
    sweep = call(base, key, "POST", "/v1/sweeps",
                 json.dumps({"dataset_id": ds["id"],
                             "model": {"kind": "k_anonymity", "k": [2, 3]}}).encode(),
                 {"Content-Type": "application/json"})
    with open(out, "w") as f:
        f.write(f"DATASET_ID={ds['id']}\nJOB_ID={job['id']}\nSWEEP_ID={sweep['id']}\n"
                f"SAMPLE_ID={sample['id']}\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
