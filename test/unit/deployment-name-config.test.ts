import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';

describe('THOUGHTLINE_DEPLOYMENT_NAME', () => {
  it('names the Worker Deployment; unset or empty, the deployment is the task queue', () => {
    expect(loadConfig({}).deploymentName).toBe('thoughtline');
    expect(loadConfig({ THOUGHTLINE_TASK_QUEUE: 'q' }).deploymentName).toBe('q');
    expect(loadConfig({ THOUGHTLINE_TASK_QUEUE: 'q', THOUGHTLINE_DEPLOYMENT_NAME: '' }).deploymentName).toBe('q');
    expect(loadConfig({ THOUGHTLINE_TASK_QUEUE: 'q', THOUGHTLINE_DEPLOYMENT_NAME: 'agents' }).deploymentName).toBe(
      'agents',
    );
  });
});
