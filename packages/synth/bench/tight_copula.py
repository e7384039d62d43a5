"""A tight numpy reference for `bench/perf.mjs` (measurement only: never run by tests or CI).

Reads the JSON `perf.mjs` exports (a `GaussianCopula`'s Cholesky factor and marginals, the outcome
model's weights, the row counts to time) and samples the same copula and outcome as tightly as numpy
allows:
  z = standard normals (n x d) @ L.T;
  discrete attribute: its latent cell by np.searchsorted on the cells' upper bounds, the value (and the
    outcome weight) of that cell by one take;
  continuous attribute: np.interp(ndtr(z), u, x);
  logit = intercept + the one-hot design's mat-vec (a sum of per-cell weights) + slopes . (x - centres);
  labels = Bernoulli(expit(logit)).
Prints one JSON line: per row count, the median and every run's seconds.

Usage: python3 tight_copula.py copula.json [runs]
"""

import json
import sys
import time

import numpy as np
from scipy.special import expit, ndtr


def load(path):
    with open(path) as f:
        spec = json.load(f)
    d = spec["d"]
    chol_t = np.ascontiguousarray(np.array(spec["cholesky"], dtype=np.float64).reshape(d, d).T)
    model = spec["outcome"]
    columns = []
    for j, m in enumerate(spec["marginals"]):
        if m["kind"] == "discrete":
            order = np.array(m["order"], dtype=np.int64)
            upper = np.array(m["upper"][:-1], dtype=np.float64)  # the last bound is +inf
            value = np.array(m["values"], dtype=np.float64)[order]
            table = model["tables"][j]
            weight = np.array(table, dtype=np.float64)[order] if table is not None else None
            columns.append(("discrete", upper, value, weight))
        else:
            u = np.array(m["u"], dtype=np.float64)
            x = np.array(m["x"], dtype=np.float64)
            columns.append(("continuous", u, x, None))
    slopes = np.array(model["slopes"], dtype=np.float64)
    centres = np.array(model["centres"], dtype=np.float64)
    return spec, d, chol_t, columns, float(model["intercept"]), slopes, centres


def generate(n, d, chol_t, columns, intercept, slopes, centres, rng):
    z = rng.standard_normal((n, d)) @ chol_t
    x = np.empty((n, d))
    logit = np.full(n, intercept)
    for j, (kind, a, b, weight) in enumerate(columns):
        if kind == "discrete":
            cell = np.searchsorted(a, z[:, j], side="right")
            x[:, j] = b.take(cell)
            if weight is not None:
                logit += weight.take(cell)
        else:
            x[:, j] = np.interp(ndtr(z[:, j]), a, b)
    numeric = np.flatnonzero(slopes)
    if numeric.size:
        logit += (x[:, numeric] - centres[numeric]) @ slopes[numeric]
    y = (rng.random(n) < expit(logit)).astype(np.int32)
    return x, y


def main():
    spec, d, chol_t, columns, intercept, slopes, centres = load(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rng = np.random.default_rng(1)
    out = {"numpy": np.__version__, "sizes": []}
    for n in spec["rows"]:
        generate(min(n, 1000), d, chol_t, columns, intercept, slopes, centres, rng)  # warm-up
        # Small sizes take milliseconds: time enough repeats that a run lasts about 0.1 s.
        reps = max(1, 100_000 // n)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(reps):
                x, y = generate(n, d, chol_t, columns, intercept, slopes, centres, rng)
            times.append((time.perf_counter() - t0) / reps)
            assert x.shape == (n, d) and y.shape == (n,)
        out["sizes"].append({"rows": n, "median": float(np.median(times)), "runs": times})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
