import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COOLDOWN_MS, EndpointBalancer } from '../../src/activities/models/endpoints/endpoint-balancer';
import { createScriptedModel } from '../../src/activities/models/scripted-model';

const endpoint = (model: string) => ({ provider: createScriptedModel([]), model });

describe('the endpoint balancer', () => {
  it('takes the endpoints a call names in turn, ignoring names this worker does not have', () => {
    const balancer = new EndpointBalancer({ eu: endpoint('m-eu'), us: endpoint('m-us') });
    const picks = [1, 2, 3, 4].map(() => balancer.pick(['eu', 'us', 'elsewhere'])!.name);
    expect(picks).toEqual(['eu', 'us', 'eu', 'us']);
    expect(balancer.pick(['elsewhere'])).toBeUndefined();
    expect(balancer.pick(['us'])).toMatchObject({ name: 'us', model: 'm-us' });
  });

  it('passes over an endpoint that just failed for its retry-after, else 30 s, then takes it again', () => {
    let now = 0;
    const balancer = new EndpointBalancer({ eu: endpoint('m'), us: endpoint('m') }, () => now);
    balancer.pick(['eu', 'us'])!.failed(ApplicationFailure.create({ message: '429', nextRetryDelay: 5_000 }));
    expect([1, 2, 3].map(() => balancer.pick(['eu', 'us'])!.name)).toEqual(['us', 'us', 'us']);
    now = 5_000;
    expect([1, 2].map(() => balancer.pick(['eu', 'us'])!.name).sort()).toEqual(['eu', 'us']);
    balancer.pick(['us'])!.failed(new Error('connection reset'));
    now += DEFAULT_COOLDOWN_MS - 1;
    expect(balancer.pick(['eu', 'us'])!.name).toBe('eu');
    expect(balancer.pick(['eu', 'us'])!.name).toBe('eu');
  });

  it('when every endpoint is cooling down, takes the one that recovers first rather than none', () => {
    let now = 0;
    const balancer = new EndpointBalancer({ eu: endpoint('m'), us: endpoint('m') }, () => now);
    balancer.pick(['eu'])!.failed(ApplicationFailure.create({ message: 'x', nextRetryDelay: 9_000 }));
    balancer.pick(['us'])!.failed(ApplicationFailure.create({ message: 'x', nextRetryDelay: 2_000 }));
    now = 1_000;
    expect(balancer.pick(['eu', 'us'])!.name).toBe('us');
  });
});
