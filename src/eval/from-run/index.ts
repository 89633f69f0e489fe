export {
  caseFromRun,
  caseIdOfRun,
  MAX_CASE_MODEL_CALLS,
  MAX_CASE_RECORDING_BYTES,
  MAX_EXPECTED_ANSWER_CHARS,
  type CaseFromRun,
  type RunMaterial,
  type RunModelCall,
  type RunToolExecution,
} from './case-from-run';
export { CaseFromRunError, CaseFromRunRefusal } from './case-from-run-error';
export { appendCases, caseIdsOf } from './append-cases';
export { tenantDatasetFolder, tenantFolderName, TENANTS_FOLDER } from './tenant-dataset-folder';
