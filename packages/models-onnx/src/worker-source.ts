/**
 * The worker thread behind `OnnxClassifier` (CommonJS, run with `eval`): it owns the session, runs each
 * posted batch, copies the output into the caller's shared buffer and wakes the caller with
 * `Atomics.notify`. Errors travel as UTF-8 text in a shared buffer.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.runtime);
const meta = (values) => values.map((v) =>
  v.isTensor ? { name: v.name, isTensor: true, type: v.type, shape: [...v.shape] } : { name: v.name, isTensor: false });
ort.InferenceSession.create(workerData.source).then((session) => {
  parentPort.postMessage({ inputs: meta(session.inputMetadata), outputs: meta(session.outputMetadata) });
  parentPort.on('message', async (job) => {
    const { control, result, errorText } = job;
    try {
      const feeds = {};
      for (const f of job.feeds) feeds[f.name] = new ort.Tensor(f.type, f.data, f.dims);
      const t = (await session.run(feeds, [job.outputName]))[job.outputName];
      const data = t.data;
      if (data.length > result.length) {
        throw new Error('output "' + job.outputName + '" has ' + data.length + ' values, expected ' + result.length);
      }
      if (t.dims.length > control.length - 3) throw new Error('output rank ' + t.dims.length + ' is too high');
      for (let i = 0; i < data.length; i++) result[i] = Number(data[i]);
      control[1] = data.length;
      control[2] = t.dims.length;
      for (let k = 0; k < t.dims.length; k++) control[3 + k] = t.dims[k];
      Atomics.store(control, 0, 1);
    } catch (e) {
      const bytes = new TextEncoder().encode(String((e && e.message) || e)).slice(0, errorText.length);
      errorText.set(bytes);
      control[1] = bytes.length;
      Atomics.store(control, 0, 2);
    }
    Atomics.notify(control, 0);
  });
}, (e) => parentPort.postMessage({ error: String((e && e.message) || e) }));
`;
