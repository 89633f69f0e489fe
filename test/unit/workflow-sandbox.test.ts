import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImpureImports, findSandboxViolations } from '../helpers/workflow-imports';

const SRC = path.resolve(__dirname, '../../src');
const DOMAIN_ROOMS = fs
  .readdirSync(path.join(SRC, 'domain'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

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

  it('src/domain has its rooms (the list below is not empty)', () => {
    expect(DOMAIN_ROOMS.length).toBeGreaterThan(5);
  });

  it.each(DOMAIN_ROOMS)('src/domain/%s is sandbox-safe: every file, reached from the workflows or not', (room) => {
    expect(findImpureImports(path.join(SRC, 'domain', room), SRC)).toEqual([]);
  });

  it('refuses a domain file that imports Node, a Node-only Temporal package or a room outside the domain (negative control)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-'));
    fs.mkdirSync(path.join(root, 'domain/chain'), { recursive: true });
    fs.mkdirSync(path.join(root, 'domain/run'), { recursive: true });
    fs.mkdirSync(path.join(root, 'server'));
    fs.writeFileSync(path.join(root, 'server/route.ts'), 'export const r = 1;\n');
    fs.writeFileSync(path.join(root, 'domain/run/input.ts'), 'export const i = 1;\n');
    fs.writeFileSync(
      path.join(root, 'domain/chain/chain.ts'),
      [
        "import { readFileSync } from 'fs';",
        "import { Client } from '@temporalio/client';",
        "import type { r } from '../../server/route';",
        "import { i } from '../run/input';",
        "import { z } from 'zod';",
      ].join('\n'),
    );
    const found = findImpureImports(path.join(root, 'domain/chain'), root).map((v) => v.specifier);
    expect(found).toEqual(['fs', '@temporalio/client', '../../server/route']);
  });
});
