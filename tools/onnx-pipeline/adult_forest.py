"""Write a random forest trained on Adult as ONNX in the shape skl2onnx gives a scikit-learn pipeline
(ColumnTransformer(OneHotEncoder on the text columns, passthrough on the numbers) + RandomForest):

- one named input per column, [None, 1]: tensor(string) for text columns, tensor(float) for numbers;
- ai.onnx.ml OneHotEncoder per text column (cats_strings, zeros=1), reshaped to [N, k];
- the numeric inputs concatenated, then every block concatenated in the transformer's order;
- ai.onnx.ml TreeEnsembleClassifier (BRANCH_LEQ nodes, per-leaf class weights / n_trees) with
  string class labels, giving `output_label` (tensor(string)) and the probabilities;
- ai.onnx.ml ZipMap turning the probabilities into `output_probability`, a sequence of maps.

skl2onnx is not packaged for Debian; this script writes the same graph with python3-onnx's helper
from a fitted scikit-learn forest (python3-sklearn). Usage:

    python3 adult_forest.py adult.data.gz out.onnx [n_estimators] [max_depth]
"""

import gzip
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from sklearn.ensemble import RandomForestClassifier

COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
    "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country",
]
OUTCOME = "income"


def read_adult(path):
    rows = []
    with gzip.open(path, "rt") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().split(",")]
            if len(cells) != len(COLUMNS) + 1 or "?" in cells:
                continue
            rows.append(cells)
    return rows


def main():
    src, out = sys.argv[1], sys.argv[2]
    n_estimators = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    max_depth = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    rows = read_adult(src)
    text = [j for j, c in enumerate(COLUMNS) if not all(r[j].lstrip("-").isdigit() for r in rows[:2000])]
    numeric = [j for j in range(len(COLUMNS)) if j not in text]
    categories = {j: sorted({r[j] for r in rows}) for j in text}
    labels = sorted({r[-1] for r in rows})

    # ColumnTransformer order: the one-hot blocks (one per text column), then the passthrough numbers.
    blocks = []
    for j in text:
        index = {c: k for k, c in enumerate(categories[j])}
        block = np.zeros((len(rows), len(categories[j])), dtype=np.float32)
        for i, r in enumerate(rows):
            block[i, index[r[j]]] = 1.0
        blocks.append(block)
    blocks.append(np.array([[float(r[j]) for j in numeric] for r in rows], dtype=np.float32))
    X = np.hstack(blocks)
    y = np.array([labels.index(r[-1]) for r in rows])
    forest = RandomForestClassifier(n_estimators=n_estimators, max_depth=max_depth, random_state=0, n_jobs=1)
    forest.fit(X, y)

    nodes = {k: [] for k in ["treeids", "nodeids", "featureids", "modes", "values", "true", "false"]}
    cls = {k: [] for k in ["treeids", "nodeids", "ids", "weights"]}
    for t, est in enumerate(forest.estimators_):
        tree = est.tree_
        for n in range(tree.node_count):
            leaf = tree.children_left[n] == -1
            nodes["treeids"].append(t)
            nodes["nodeids"].append(n)
            nodes["featureids"].append(0 if leaf else int(tree.feature[n]))
            nodes["modes"].append("LEAF" if leaf else "BRANCH_LEQ")
            nodes["values"].append(0.0 if leaf else float(tree.threshold[n]))
            nodes["true"].append(0 if leaf else int(tree.children_left[n]))
            nodes["false"].append(0 if leaf else int(tree.children_right[n]))
            if leaf:
                value = tree.value[n][0]
                share = value / value.sum()
                for k in range(len(labels)):
                    cls["treeids"].append(t)
                    cls["nodeids"].append(n)
                    cls["ids"].append(k)
                    cls["weights"].append(float(share[k]) / n_estimators)

    ml = "ai.onnx.ml"
    inputs, graph_nodes, concat = [], [], []
    for j in text:
        name = COLUMNS[j]
        inputs.append(helper.make_tensor_value_info(name, TensorProto.STRING, [None, 1]))
        graph_nodes.append(helper.make_node("OneHotEncoder", [name], [f"{name}_onehot"], domain=ml,
                                            cats_strings=categories[j], zeros=1))
        graph_nodes.append(helper.make_node("Reshape", [f"{name}_onehot", f"shape_{name}"], [f"{name}_cat"]))
        concat.append(f"{name}_cat")
    for j in numeric:
        inputs.append(helper.make_tensor_value_info(COLUMNS[j], TensorProto.FLOAT, [None, 1]))
    graph_nodes.append(helper.make_node("Concat", [COLUMNS[j] for j in numeric], ["numbers"], axis=1))
    concat.append("numbers")
    graph_nodes.append(helper.make_node("Concat", concat, ["features"], axis=1))
    graph_nodes.append(helper.make_node(
        "TreeEnsembleClassifier", ["features"], ["output_label", "probabilities"], domain=ml,
        nodes_treeids=nodes["treeids"], nodes_nodeids=nodes["nodeids"], nodes_featureids=nodes["featureids"],
        nodes_modes=nodes["modes"], nodes_values=nodes["values"], nodes_truenodeids=nodes["true"],
        nodes_falsenodeids=nodes["false"], nodes_missing_value_tracks_true=[0] * len(nodes["nodeids"]),
        nodes_hitrates=[1.0] * len(nodes["nodeids"]),
        class_treeids=cls["treeids"], class_nodeids=cls["nodeids"], class_ids=cls["ids"],
        class_weights=cls["weights"], classlabels_strings=labels, post_transform="NONE"))
    graph_nodes.append(helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain=ml,
                                        classlabels_strings=labels))
    zipped = onnx.TypeProto()
    zipped.map_type.key_type = TensorProto.STRING
    zipped.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(TensorProto.FLOAT, []))
    outputs = [
        helper.make_tensor_value_info("output_label", TensorProto.STRING, [None]),
        helper.make_value_info("output_probability", helper.make_sequence_type_proto(zipped)),
    ]
    # The one-hot blocks are [N, 1, k]: reshaped to [N, k] as skl2onnx does.
    initializers = []
    for j in text:
        k = len(categories[j])
        initializers.append(helper.make_tensor(f"shape_{COLUMNS[j]}", TensorProto.INT64, [2], [-1, k]))
    graph = helper.make_graph(graph_nodes, "pipeline_random_forest", inputs, outputs, initializers)
    model = helper.make_model(graph, producer_name="skl2onnx-shape",
                              opset_imports=[helper.make_opsetid("", 15), helper.make_opsetid(ml, 1)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out)
    # Reference answers: the first 25 rows (as text cells) and scikit-learn's probabilities for them.
    reference = {"columns": COLUMNS, "classes": labels, "rows": [r[:-1] for r in rows[:25]],
                 "probabilities": forest.predict_proba(X[:25]).tolist()}
    with open(out + ".expected.json", "w") as f:
        json.dump(reference, f, indent=1)
    print(f"{out}: {n_estimators} trees, depth <= {max_depth}, {len(nodes['nodeids'])} nodes, "
          f"training accuracy {forest.score(X, y):.4f}, classes {labels}")
    # The model's own selection rate on these rows, to compare with an audit's group metrics.
    predicted = forest.predict(X)
    print(f"selection rate ({labels[1]}) on the {len(rows)} rows: {predicted.mean():.4f}")


if __name__ == "__main__":
    main()
