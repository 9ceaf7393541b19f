// A portal's typed calls against openapi-typescript's output for
// openapi/openapi.json (generated/proxima.d.ts, made by check.sh). It is
// only compiled (`tsc --strict --noEmit`), never run: it proves that the
// request bodies a portal sends and the answers it reads type-check, and,
// with @ts-expect-error, that bodies the server rejects do not.
import type { components, paths } from "./generated/proxima";

type Schemas = components["schemas"];
type JobRequest = Schemas["JobRequest"];
type Job = paths["/v1/jobs/{id}"]["get"]["responses"][200]["content"]["application/json"];
type Problem = Schemas["Problem"];
type Feasibility =
  paths["/v1/datasets/{id}/feasibility"]["post"]["responses"][200]["content"]["application/json"];

const datasetId = "0b9e7f5e-4c1e-4c57-9f0a-2f3c8d9e1a22";

export const epsilonM: JobRequest = {
  dataset_id: datasetId,
  model: { kind: "epsilon_m", epsilon: 4500, m: 5, neighborhood: "absolute" },
};

export const dissimilarity: JobRequest = {
  dataset_id: datasetId,
  model: { kind: "dissimilarity", epsilon: 0.1, delta: 0.8, k: 10 },
  algorithm: "xcolor",
  sensitive_metric: { kind: "lp", p: "inf", weights: { education: 0.3, income: 0.7 } },
};

export const euclidean: Schemas["Metric"] = { kind: "lp", p: 2 };

export const feasibilityQuestion: Schemas["FeasibilityRequest"] = {
  kind: "dissimilarity",
  epsilon: 0.1,
  sensitive_metric: { kind: "lp", p: 1 },
};

export const audit: Schemas["AuditRequest"] = {
  dataset_id: datasetId,
  groups: { by: "column", column: "gid" },
  checks: [
    { kind: "k_anonymity", k: 10 },
    { kind: "epsilon_m", epsilon: 4500, m: 5 },
    { kind: "t_closeness", t: 0.2, ground_distance: "ordered" },
  ],
};

// Reading answers: the union of a job's model narrows on `kind`, the
// metric's p is 1 | 2 | "inf", a problem's errors carry pointers.
export function describe(job: Job): string {
  const model = job.model;
  const shown =
    model.kind === "epsilon_m"
      ? `(${model.epsilon}, ${model.m})-anonymity`
      : model.kind === "dissimilarity"
        ? `(${model.epsilon}, ${model.delta})^${model.k}-dissimilarity`
        : model.kind;
  const metric = job.sensitive_metric;
  const p: 1 | 2 | "inf" | undefined = metric?.kind === "lp" ? metric.p : undefined;
  const rows: number | undefined = job.summary?.published_rows;
  return `${shown} ${job.status} p=${p ?? "-"} rows=${rows ?? "-"}`;
}

export function pointers(problem: Problem): string[] {
  return (problem.errors ?? []).map((e) => `${problem.code} at ${e.pointer}: ${e.message}`);
}

export function bound(answer: Feasibility): number | null {
  if ("max_m" in answer) return answer.max_m;
  if ("max_epsilon_exclusive" in answer) return answer.max_epsilon_exclusive ?? null;
  return answer.guaranteed.length;
}

// What the server rejects does not compile.
export const rejected: JobRequest[] = [
  // @ts-expect-error p is 1, 2 or "inf"
  { dataset_id: datasetId, model: dissimilarity.model, sensitive_metric: { kind: "lp", p: 3 } },
  // @ts-expect-error no such model kind
  { dataset_id: datasetId, model: { kind: "p_sensitivity", k: 10 } },
  // @ts-expect-error unknown field on a closed variant
  { dataset_id: datasetId, model: { kind: "k_anonymity", k: 10, l: 2 } },
  // @ts-expect-error (epsilon,m) needs m
  { dataset_id: datasetId, model: { kind: "epsilon_m", epsilon: 4500 } },
];
