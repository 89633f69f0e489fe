export { compareWithBaseline, type GateOptions } from './compare-with-baseline';
export { DatasetMismatchError } from './dataset-mismatch-error';
export { GateResult, Regression } from './gate-result';
export {
  proportionDropTest,
  fisherLowerTail,
  zTestLowerTail,
  normalCdf,
  EXACT_BELOW_N,
  type Counts,
  type DropTest,
} from './proportion-drop-test';
