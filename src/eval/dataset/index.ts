export { loadDataset, MAX_DATASET_BYTES, type LoadedDataset } from './load-dataset';
export { DatasetError, type DatasetProblem } from './dataset-error';
