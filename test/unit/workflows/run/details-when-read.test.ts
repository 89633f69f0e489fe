import { describe, expect, it } from 'vitest';
import { detailsWhenRead } from '../../../../src/workflows/run/details-when-read';

/** What the SDK's metadata query does with the details: the JSON payload converter. */
const read = (details: object): string =>
  (JSON.parse(JSON.stringify({ currentDetails: details })) as { currentDetails: string }).currentDetails;

describe('the Web UI details, rendered when read', () => {
  it('renders nothing until read, then once per change however often it is read', () => {
    let renders = 0;
    const shown = detailsWhenRead(() => `render ${++renders}`);
    shown.changed();
    shown.changed();
    expect(renders).toBe(0);
    expect(read(shown.details)).toBe('render 1');
    expect(read(shown.details)).toBe('render 1');
    shown.changed();
    expect(renders).toBe(1);
    expect(read(shown.details)).toBe('render 2');
  });

  it('answers a read whose render fails without the error text, and renders again on the next read', () => {
    let fail = true;
    const shown = detailsWhenRead(() => {
      if (fail) throw new TypeError('the card 4242 4242 4242 4242 could not be read');
      return 'the chain';
    });
    expect(read(shown.details)).toBe(
      "The run's details could not be shown (TypeError); the chain query still answers.",
    );
    fail = false;
    expect(read(shown.details)).toBe('the chain');
  });
});
