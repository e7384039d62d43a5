"""scikit-learn side of bench/perf.mjs: the same Adult matrices, the same model settings.

Usage: python3 sklearn_adult.py <dir with train.csv, test.csv and queries.csv> [trees|all]; prints one
JSON object. Columns: the 14 Adult attributes (categorical ones as integer codes), then the label.
`trees` (the default) times the forest and the trees once each, `all` adds the linear models.
"""
import json
import sys
import time

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
import sklearn

CATEGORICAL = [1, 3, 5, 6, 7, 8, 9, 13]
NUMERIC = [0, 2, 4, 10, 11, 12]

folder = sys.argv[1]
part = sys.argv[2] if len(sys.argv) > 2 else "trees"
train = np.loadtxt(f"{folder}/train.csv", delimiter=",")
test = np.loadtxt(f"{folder}/test.csv", delimiter=",")
xtr, ytr = train[:, :14], train[:, 14].astype(int)
xte, yte = test[:, :14], test[:, 14].astype(int)
big = np.loadtxt(f"{folder}/queries.csv", delimiter=",")


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def encoded():
    return ColumnTransformer(
        [("cat", OneHotEncoder(handle_unknown="ignore"), CATEGORICAL), ("num", StandardScaler(), NUMERIC)]
    )


out = {"version": sklearn.__version__}
for jobs in (2, 1):
    fit_s, rf = timed(lambda: RandomForestClassifier(n_estimators=100, n_jobs=jobs, random_state=0).fit(xtr, ytr))
    pred_s, _ = timed(lambda: rf.predict(big))
    out[f"forest_jobs{jobs}"] = {"fit": fit_s, "predict100k": pred_s, "accuracy": float((rf.predict(xte) == yte).mean())}
for name, depth in (("tree", 10), ("fullTree", None)):
    fit_s, tree = timed(lambda: DecisionTreeClassifier(max_depth=depth, random_state=0).fit(xtr, ytr))
    # Milliseconds per call, which move by a third from call to call: the best of five, as bench/perf.mjs.
    pred_s = min(timed(lambda: tree.predict(big))[0] for _ in range(5))
    out[name] = {"fit": fit_s, "predict100k": pred_s, "accuracy": float((tree.predict(xte) == yte).mean())}
if part == "all":
    fit_s, lr = timed(lambda: make_pipeline(encoded(), LogisticRegression(max_iter=1000)).fit(xtr, ytr))
    out["logistic"] = {"fit": fit_s, "accuracy": float((lr.predict(xte) == yte).mean())}
    fit_s, svm = timed(lambda: make_pipeline(encoded(), LinearSVC(loss="hinge", max_iter=10000)).fit(xtr, ytr))
    out["svm"] = {"fit": fit_s, "accuracy": float((svm.predict(xte) == yte).mean())}
print(json.dumps(out))
