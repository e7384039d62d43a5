export type { ModelIO, ValueInfo } from './io.js';
export {
  type AsyncClassifier,
  loadOnnxAsyncClassifier,
  loadOnnxClassifier,
  OnnxAsyncClassifier,
  OnnxClassifier,
} from './onnx-classifier.js';
export { type OnnxClassifierOptions, onnxClassifierOptionsSchema } from './options.js';
export type { OnnxSource } from './runtime.js';
