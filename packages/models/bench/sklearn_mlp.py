"""scikit-learn side of bench/mlp.mjs: MLPClassifier on the same Adult matrices and network.

Usage: python3 sklearn_mlp.py <dir with train.csv, test.csv, gradient.csv> <epochs>; prints one JSON object.
Columns: the 14 Adult attributes (categorical ones as integer codes), then the label.
"""
import json
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.compose import ColumnTransformer
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import OneHotEncoder, StandardScaler

CATEGORICAL = [1, 3, 5, 6, 7, 8, 9, 13]
NUMERIC = [0, 2, 4, 10, 11, 12]

folder, epochs = sys.argv[1], int(sys.argv[2])
train = np.loadtxt(f"{folder}/train.csv", delimiter=",")
test = np.loadtxt(f"{folder}/test.csv", delimiter=",")
xtr, ytr = train[:, :14], train[:, 14].astype(int)
xte, yte = test[:, :14], test[:, 14].astype(int)
encoder = ColumnTransformer(
    [("cat", OneHotEncoder(handle_unknown="ignore"), CATEGORICAL), ("num", StandardScaler(), NUMERIC)]
).fit(xtr)
ztr, zte = encoder.transform(xtr), encoder.transform(xte)
warnings.simplefilter("ignore", ConvergenceWarning)
# Same network and schedule: 64-32-16-8-4 relu, Adam at 0.001, batches of 128, no penalty, a fixed
# number of epochs (no early stopping, no stopping on a stalled training loss).
t0 = time.perf_counter()
c0 = time.process_time()
mlp = MLPClassifier(
    hidden_layer_sizes=(64, 32, 16, 8, 4),
    solver="adam",
    learning_rate_init=0.001,
    batch_size=128,
    alpha=0.0,
    max_iter=epochs,
    n_iter_no_change=epochs + 1,
    tol=0.0,
    shuffle=True,
    random_state=0,
).fit(ztr, ytr)
fit_s = time.perf_counter() - t0
cpu_s = time.process_time() - c0
print(
    json.dumps(
        {
            "version": sklearn.__version__,
            "fit": fit_s,
            "cpu": cpu_s,
            "epochs": mlp.n_iter_,
            "accuracy": float((mlp.predict(zte) == yte).mean()),
        }
    )
)
