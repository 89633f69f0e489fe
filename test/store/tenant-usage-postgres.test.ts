import { afterAll, beforeAll } from 'vitest';
import { openChainStore } from '../../src/store/open-chain-store';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { tenantUsageContract } from './tenant-usage-contract';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

// Each test its own tables in the one cluster: a fresh prefix is a fresh database to the store.
let databases = 0;
tenantUsageContract(
  'PostgreSQL',
  async () =>
    (await openChainStore({ kind: 'postgres', url: postgres.superuserUrl }, { tablePrefix: `u${++databases}_` }))!,
);
