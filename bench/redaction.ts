import { redactSecretsInText } from '../src/domain/secrets/secret-patterns';
import { HOSTILE_INPUTS } from '../test/helpers/hostile-redaction-inputs';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { measurement, type FigureBody } from './lib/figure';
import { median } from './lib/stats';

const MIB = 1 << 20;

/** Median wall time of `samples` redactions of `text`, in ms (one warm-up first). */
function timeRedaction(text: string, samples: number): number {
  redactSecretsInText(text);
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    redactSecretsInText(text, ['a-known-secret-value']);
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * 5. Redaction of 1 MiB of hostile text (issue 14, class 6): each input of
 * `test/helpers/hostile-redaction-inputs.ts`, and ordinary text, on the worker's thread. Needs no
 * server; the figure is the slowest input's median.
 */
export function measureRedaction(_ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const samples = config.quick ? 3 : 9;
  const perInput: Record<string, number> = {};
  for (const [name, make] of Object.entries(HOSTILE_INPUTS)) perInput[name] = timeRedaction(make(MIB), samples);
  const ordinary = 'The build finished in 42 s; see https://ci.example.com/runs/1234 for the log.\n'.repeat(
    MIB / 78 + 1,
  );
  const worst = Object.entries(perInput).sort((a, b) => b[1] - a[1])[0]!;
  return Promise.resolve({
    measurements: [
      measurement('1 MiB of hostile text, slowest input (median)', worst[1], 'ms', {
        target: { op: '<', value: 1_000 },
        note: worst[0],
      }),
      measurement('1 MiB of ordinary text (median)', timeRedaction(ordinary, samples), 'ms'),
    ],
    details: { samples, medianMsPerInput: perInput },
  });
}
