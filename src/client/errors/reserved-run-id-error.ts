import { IMPORT_ID_PREFIX } from '../../domain/store/import-run-id';

/**
 * A start asked for a workflow id in the imports' id space (`import:…`): refused before Temporal is
 * asked, so no run ever takes an id an import is kept under (see IMPORT_ID_PREFIX).
 */
export class ReservedRunIdError extends TypeError {
  override readonly name = 'ReservedRunIdError';

  constructor(readonly workflowId: string) {
    super(
      `The workflow id ${workflowId} starts with "${IMPORT_ID_PREFIX}", which is kept for imported runs; choose an id without it.`,
    );
  }
}
