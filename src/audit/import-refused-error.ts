/**
 * Why an import wrote nothing. Every check runs before the first write, so a refused bundle leaves
 * the store as it was.
 * - `too_large`: over the byte limit (`MAX_IMPORT_BYTES`).
 * - `unreadable`: not JSON, not a report or bundle, or a report this version cannot read.
 * - `not_verified`: a report's seal shows an edit, or nothing ties it to its author (no trusted key
 *   signed it and no final hash kept elsewhere was given).
 * - `not_auditor_view`: exported in a narrower view than the auditor's: the store keeps raw steps.
 * - `unfinished`: exported while the run was still going: a snapshot would never end.
 * - `other_tenant`: a run of a tenant the importer may not write.
 * - `conflict`: the store holds another run under the id the report is kept under (importRunId):
 *   only a store written by other means can, since the id is derived from the tenant and the seal.
 */
export type ImportRefusal =
  'too_large' | 'unreadable' | 'not_verified' | 'not_auditor_view' | 'unfinished' | 'other_tenant' | 'conflict';

/** An import refused as a whole, with what was found, first problem first. */
export class ImportRefusedError extends Error {
  override readonly name = 'ImportRefusedError';

  constructor(
    readonly reason: ImportRefusal,
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
  }
}
