import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openChainStore } from '../../src/store/open-chain-store';
import { tenantUsageContract } from './tenant-usage-contract';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-usage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let databases = 0;

tenantUsageContract(
  'SQLite',
  async () => (await openChainStore({ kind: 'sqlite', file: path.join(root, `db-${++databases}.sqlite`) }))!,
);
