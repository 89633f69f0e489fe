import { describe, expect, it } from 'vitest';
import { DatasetName } from '../../src/server/routes/dataset-routes';
import { viewerModule } from './viewer-module';

interface AddToDatasetModule {
  isDatasetName(name: string): boolean;
  addedText(answer: unknown): string;
}

describe('"add to dataset", pure parts', () => {
  it('checks a dataset name by the server’s own rule, 64 characters at most', async () => {
    const { isDatasetName } = await viewerModule<AddToDatasetModule>('add-to-dataset.js');
    for (const name of ['support', 'prod.2026-11', '_x', 'a'.repeat(64), 'a'.repeat(65), '.hidden', '../x', 'a b', ''])
      expect(isDatasetName(name), name).toBe(DatasetName.safeParse(name).success);
  });

  it('says what was added, and survives an answer missing its parts', async () => {
    const { addedText } = await viewerModule<AddToDatasetModule>('add-to-dataset.js');
    expect(
      addedText({
        dataset: 'support',
        case: { id: 'run-agent-1', expect: { terminationReason: 'success' } },
        recording: { lines: 1 },
      }),
    ).toBe('Added case run-agent-1 to support (1 recorded line, expects success).');
    expect(addedText(undefined)).toBe('Added case  to  (0 recorded lines).');
  });
});
