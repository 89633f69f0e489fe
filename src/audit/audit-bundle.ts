import type { AuditReport } from './audit-report';

/** Several runs' sealed reports in one file; `verify` checks each. */
export interface AuditBundle {
  kind: 'thoughtline-audit-bundle';
  query: string;
  exportedAt: string;
  /** True when more runs matched than the limit let in. */
  truncated: boolean;
  reports: AuditReport[];
}
