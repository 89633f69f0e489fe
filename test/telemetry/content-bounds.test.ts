import { describe, expect, it } from 'vitest';
import { boundedText, CUT_MARKER, MAX_CONTENT_BYTES } from '../../src/telemetry/bounded-text';
import { parseTelemetryConfig } from '../../src/telemetry/telemetry-config';
import { MAX_TENANT_LABEL_CHARS, tenantLabel } from '../../src/telemetry/workflows/tenant-label';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('bounds on what content capture and tenant labels record', () => {
  it('keeps content of exactly 4 KiB whole, and cuts one byte more with a marker inside the bound', () => {
    const atLimit = 'a'.repeat(MAX_CONTENT_BYTES);
    expect(boundedText(atLimit)).toEqual({ text: atLimit, cut: false });
    const over = boundedText(`${atLimit}b`);
    expect(over.cut).toBe(true);
    expect(over.text.endsWith(CUT_MARKER)).toBe(true);
    expect(bytes(over.text)).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
  });

  it('never splits a multi-byte character when it cuts', () => {
    const cut = boundedText('€'.repeat(MAX_CONTENT_BYTES));
    expect(bytes(cut.text)).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
    expect(cut.text.replace(CUT_MARKER, '')).toMatch(/^€+$/);
  });

  it('keeps a tenant id of the bound whole and cuts a longer one, marked', () => {
    const atLimit = 't'.repeat(MAX_TENANT_LABEL_CHARS);
    expect(tenantLabel(atLimit)).toBe(atLimit);
    const cut = tenantLabel(`${atLimit}x`);
    expect(cut).toHaveLength(MAX_TENANT_LABEL_CHARS);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('turns content capture on only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, and never turns telemetry on by itself', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(parseTelemetryConfig(on)?.captureContent).toBeUndefined();
    expect(
      parseTelemetryConfig({ ...on, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' })?.captureContent,
    ).toBeUndefined();
    expect(
      parseTelemetryConfig({ ...on, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' })?.captureContent,
    ).toBe(true);
    expect(parseTelemetryConfig({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' })).toBeUndefined();
    expect(() => parseTelemetryConfig({ ...on, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'yes' })).toThrow(
      /OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/,
    );
  });
});
