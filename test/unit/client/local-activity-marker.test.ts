import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { localActivityOf } from '../../../src/client/history/local-activity-marker';

const FIXTURES = path.join(__dirname, '../../replay/fixtures');
const eventsOf = (name: string) =>
  historyFromJSON(JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'))).events ?? [];

const marker = (data: string, extra: Partial<temporal.api.history.v1.IMarkerRecordedEventAttributes> = {}) => ({
  markerRecordedEventAttributes: {
    markerName: 'core_local_activity',
    details: { data: { payloads: [{ data: Buffer.from(data) }] } },
    ...extra,
  },
});

describe('a local activity read from its marker', () => {
  it('names the local tool of a recorded run, with its result', () => {
    const found = eventsOf('local-tool').flatMap((e) => {
      const local = localActivityOf(e);
      return local ? [local] : [];
    });
    expect(found.map((l) => l.type)).toEqual(['runTool']);
    for (const l of found) expect('payloads' in l && l.payloads.length).toBe(1);
  });

  it('reads a failed one as its failure message', () => {
    expect(localActivityOf(marker('{"activity_type":"describeTools"}', { failure: { message: 'down' } }))).toEqual({
      type: 'describeTools',
      error: 'down',
    });
  });

  it('reads nothing from another marker, unreadable data or data without a type', () => {
    expect(localActivityOf({ markerRecordedEventAttributes: { markerName: 'core_patch' } })).toBeUndefined();
    expect(localActivityOf(marker('not json'))).toBeUndefined();
    expect(localActivityOf(marker('{"activity_type":7}'))).toBeUndefined();
    expect(localActivityOf({ activityTaskScheduledEventAttributes: {} })).toBeUndefined();
  });
});
