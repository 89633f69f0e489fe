import type { ToolOptions } from '../define-tool';

/** What a developer may change on one built-in tool; everything else is the tool's own. */
export type ToolOverrides = Partial<
  Pick<
    ToolOptions<never, never>,
    | 'approval'
    | 'approverRoles'
    | 'requiredRoles'
    | 'visibility'
    | 'maxResultChars'
    | 'summaryTemplate'
    | 'sensitiveFields'
    | 'timeoutMs'
  >
>;
