import { describe, expect, it } from 'vitest';
import { CodeRunNodeError, createCodeRunTool } from '../../../src/tools/builtin/code';
import { checkCodeRunNode } from '../../../src/tools/builtin/code/check-code-run-node';

describe("code_run's Node check (issue 78)", () => {
  it('refuses a Node without the permission model and module hooks, naming what it found, what it needs and the fix', () => {
    for (const version of ['20.19.0', 'v22.14.0', '22.x', '']) {
      let error: unknown;
      try {
        checkCodeRunNode(version);
      } catch (e) {
        error = e;
      }
      expect(error, version).toBeInstanceOf(CodeRunNodeError);
      expect(error).toMatchObject({ found: version, needed: '22.15' });
      expect((error as Error).message).toContain(`runs Node ${version}.`);
      expect((error as Error).message).toContain('source scripts/ensure-node.sh');
      // A package user has no checkout: the Node `npx thoughtline` installed is named too.
      expect((error as Error).message).toContain('`npx thoughtline` installs under ~/.cache/thoughtline/node');
    }
    for (const version of ['22.15.0', '22.23.3', 'v24.1.0'])
      expect(() => checkCodeRunNode(version), version).not.toThrow();
  });

  it("checks this worker's Node when the tool is created, before any call", () => {
    // The suite runs on the Node engines names; the tool is created without a word.
    expect(() => createCodeRunTool({ root: '/nonexistent-code-root' })).not.toThrow();
    expect(() => checkCodeRunNode()).not.toThrow();
  });
});
