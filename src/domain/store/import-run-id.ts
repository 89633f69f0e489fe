/**
 * The id space of imported runs. Every run `thoughtline import` or `POST /v1/imports` writes is
 * kept under an id that starts with this prefix, and no run of Temporal ever is:
 * `AgentClient.start` refuses such an id (ReservedRunIdError), the chain store's projection never
 * writes one, and readers answer such an id from an import only, never from Temporal. So an upload
 * can never take the id a live run has or will have (a trigger's `trigger.<name>.<delivery>`, a
 * schedule's `scheduled-…`), and a live run never hides an import. Pure and sandbox-safe.
 */
export const IMPORT_ID_PREFIX = 'import:';

/** Whether `runId` is in the imported runs' id space (see IMPORT_ID_PREFIX). */
export const isImportRunId = (runId: string): boolean => runId.startsWith(IMPORT_ID_PREFIX);
