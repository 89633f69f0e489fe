import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSandboxViolations } from '../helpers/workflow-imports';

const SRC = path.resolve(__dirname, '../../src');

describe('workflow sandbox imports (the lint rule)', () => {
  it('keeps Node builtins, non-workflow Temporal packages and activity values out of src/workflows', () => {
    expect(findSandboxViolations(path.join(SRC, 'workflows/index.ts'), SRC)).toEqual([]);
  });

  it('catches each kind of violation (negative control)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-'));
    fs.mkdirSync(path.join(root, 'workflows'));
    fs.mkdirSync(path.join(root, 'activities'));
    fs.writeFileSync(path.join(root, 'activities/index.ts'), 'export const a = 1;\n');
    fs.writeFileSync(
      path.join(root, 'workflows/index.ts'),
      [
        "import fs from 'node:fs';",
        "import { Context } from '@temporalio/activity';",
        "import { a } from '../activities';",
        "import type { a as b } from '../activities';",
        "const os = require('os');",
      ].join('\n'),
    );
    const found = findSandboxViolations(path.join(root, 'workflows/index.ts'), root).map((v) => v.specifier);
    expect(found).toEqual(['node:fs', '@temporalio/activity', '../activities', 'os']);
  });
});
