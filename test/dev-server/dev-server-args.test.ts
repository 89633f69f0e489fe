import { describe, expect, it } from 'vitest';
import { devServerArgs } from '../../src/dev-server';
import { SEARCH_ATTRIBUTES } from '../../src/domain/run/search-attributes';

function valueOf(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

const VERSIONING = [
  'system.enableDeploymentVersions=true',
  'frontend.workerVersioningWorkflowAPIs=true',
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"',
  'matching.wv.VersionDrainageStatusRefreshInterval="5s"',
];

describe('devServerArgs', () => {
  const args = devServerArgs({
    port: 7300,
    uiPort: 8300,
    dbFile: '/p/.thoughtline/data/temporal.db',
    namespace: 'agents',
  });

  it('starts the dev server bound to loopback on the given ports', () => {
    expect(args.slice(0, 2)).toEqual(['server', 'start-dev']);
    expect(valueOf(args, '--ip')).toBe('127.0.0.1');
    expect(valueOf(args, '--port')).toBe('7300');
    expect(valueOf(args, '--ui-port')).toBe('8300');
    expect(valueOf(args, '--namespace')).toBe('agents');
    expect(valueOf(args, '--log-level')).toBe('warn');
  });

  it('persists to the given db file, and stays in memory without one', () => {
    expect(valueOf(args, '--db-filename')).toBe('/p/.thoughtline/data/temporal.db');
    expect(devServerArgs({ port: 1, uiPort: 2, namespace: 'default' })).not.toContain('--db-filename');
  });

  it('registers every Thoughtline search attribute with its CLI type', () => {
    const registered = args.flatMap((a, i) => (args[i - 1] === '--search-attribute' ? [a] : []));
    expect(registered).toEqual(SEARCH_ATTRIBUTES.map((a) => `${a.name}=${a.cliType}`));
    expect(registered).toHaveLength(12);
    expect(registered).toContain('ThoughtlineAgentVersion=Keyword');
    expect(registered).toContain('ThoughtlineVariant=Keyword');
    expect(registered).toContain('ThoughtlineCostUsd=Double');
  });

  it('lifts the transfer-queue throttle, turns on eager activities and worker versioning, saves the queue ack level every second, holds 100 queries per busy run, and sets the SQLite pragmas only when a db file is used', () => {
    const values = (list: string[], flag: string) => list.flatMap((a, i) => (list[i - 1] === flag ? [a] : []));
    expect(values(args, '--dynamic-config-value')).toEqual([
      'history.transferProcessorMaxPollRPS=1000',
      'system.enableActivityEagerExecution=true',
      'system.enableEagerWorkflowStart=true',
      'history.transferProcessorUpdateAckInterval="1s"',
      'history.MaxBufferedQueryCount=100',
      ...VERSIONING,
    ]);
    expect(values(args, '--sqlite-pragma')).toEqual(['synchronous=off']);
    const inMemory = devServerArgs({ port: 1, uiPort: 2, namespace: 'default' });
    expect(values(inMemory, '--dynamic-config-value')).toEqual([
      'history.transferProcessorMaxPollRPS=1000',
      'system.enableActivityEagerExecution=true',
      'system.enableEagerWorkflowStart=true',
      'history.transferProcessorUpdateAckInterval="1s"',
      'history.MaxBufferedQueryCount=100',
      ...VERSIONING,
    ]);
    expect(inMemory).not.toContain('--sqlite-pragma');
  });
});
