// Audit reports: build, seal, verify, render. The CLI and the server import this index only.
export {
  AuditReport,
  AuditModelCall,
  buildAuditReport,
  type AuditApproval,
  type AuditIntervention,
} from './audit-report';
export { ReportIntegrity } from './report-integrity';
export { sealReport, type ExportSigningKey } from './seal-report';
export { verifyReport, allProblems, type ReportCheck, type SignatureCheck, type VerifyOptions } from './verify-report';
export { auditReport, sealAll, MAX_EXPORT_DEPTH, MAX_EXPORTED_MODEL_CALL_BYTES } from './gather-report';
export type { AuditBundle } from './audit-bundle';
export { renderAuditMarkdown } from './render-audit-markdown';
export {
  importBundle,
  importReports,
  reportsIn,
  MAX_IMPORT_BYTES,
  type ImportOptions,
  type ImportedRun,
} from './import-bundle';
export { ImportRefusedError, type ImportRefusal } from './import-refused-error';
export { gatherRunCase, runAsCase, type AuditorLensOf } from './gather-run-case';
export { importAsCase, FROM_IMPORT_TAGS } from './import-as-case';
