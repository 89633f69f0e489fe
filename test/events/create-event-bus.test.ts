import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createEventBus } from '../../src/events/create-event-bus';
import type { RunEvent } from '../../src/domain/run/run-event';

const status: RunEvent = { type: 'status', runId: 'wf-1', chainStatus: 'thinking', stepNumber: 0 };

describe('createEventBus', () => {
  it('memory: is a bus of this process', async () => {
    const bus = createEventBus('memory:');
    const got: RunEvent[] = [];
    bus.subscribe('wf-1', (e) => got.push(e));
    bus.publish(status);
    expect(got).toEqual([status]);
    await bus.close();
  });

  it('http(s):// is a publisher that needs a token and cannot subscribe; unknown schemes are refused', async () => {
    expect(() => createEventBus('http://server:8080')).toThrow(/THOUGHTLINE_EVENTS_TOKEN/);
    const publisher = createEventBus('http://127.0.0.1:9', { token: 't', log: () => {} });
    expect(() => publisher.subscribe('wf-1', () => {})).toThrow(/only publishes/);
    await publisher.close();
    expect(() => createEventBus('nats://broker:4222')).toThrow(
      /redis:\/\/host:port, http\(s\):\/\/server:port or memory:/,
    );
  });
});

describe('THOUGHTLINE_EVENTS in the config', () => {
  it('is read with its token; bad URLs and a server URL without a token are refused at the edge', () => {
    expect(loadConfig({ THOUGHTLINE_EVENTS: 'redis://redis:6379' })).toMatchObject({ events: 'redis://redis:6379' });
    expect(
      loadConfig({ THOUGHTLINE_EVENTS: 'https://api.example.com', THOUGHTLINE_EVENTS_TOKEN: 'tok' }),
    ).toMatchObject({ events: 'https://api.example.com', eventsToken: 'tok' });
    expect(loadConfig({}).events).toBeUndefined();
    expect(() => loadConfig({ THOUGHTLINE_EVENTS: 'kafka://x' })).toThrow(/THOUGHTLINE_EVENTS/);
    expect(() => loadConfig({ THOUGHTLINE_EVENTS: 'http://server:8080' })).toThrow(/THOUGHTLINE_EVENTS_TOKEN/);
  });
});
