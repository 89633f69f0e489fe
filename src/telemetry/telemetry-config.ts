import { z } from 'zod';

/** The OTLP wire formats the exporters speak (the spec's names). */
export const OtlpProtocol = z.enum(['http/protobuf', 'http/json', 'grpc']);
export type OtlpProtocol = z.infer<typeof OtlpProtocol>;

/** Where one signal (traces or metrics) goes; absent when its exporter is `none`. */
export interface SignalExport {
  protocol: OtlpProtocol;
  /** The full URL the exporter posts to (`…/v1/traces` for HTTP), or the gRPC endpoint. */
  url: string;
}

export interface TelemetryConfig {
  traces?: SignalExport;
  metrics?: SignalExport & { exportIntervalMs: number };
  /**
   * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: each recorded step's content goes on
   * a span, in the visibility policy's `telemetry.view`. Absent (the default): no content at all.
   */
  captureContent?: true;
}

/**
 * The variables whose presence turns telemetry on. With none of them set nothing starts: no SDK,
 * no interceptor, the workflow bundle unchanged.
 */
export const TELEMETRY_SWITCHES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_EXPORTER',
  'OTEL_METRICS_EXPORTER',
] as const;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
// The spec lists several exporters; Thoughtline ships OTLP only, and `none` switches a signal off.
const Exporter = z.enum(['otlp', 'none']);

const OtelEnv = z.object({
  OTEL_SDK_DISABLED: z.preprocess(blank, z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False']).optional()),
  OTEL_SERVICE_NAME: optional(z.string()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(z.url()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional(z.url()),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: optional(z.url()),
  OTEL_EXPORTER_OTLP_PROTOCOL: optional(OtlpProtocol),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: optional(OtlpProtocol),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: optional(OtlpProtocol),
  OTEL_TRACES_EXPORTER: optional(Exporter),
  OTEL_METRICS_EXPORTER: optional(Exporter),
  // Not a switch: content capture needs telemetry turned on by one of TELEMETRY_SWITCHES.
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: z.preprocess(
    blank,
    z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False']).optional(),
  ),
  /** The spec's default is 60 s. */
  OTEL_METRIC_EXPORT_INTERVAL: z.preprocess(blank, z.coerce.number().int().positive().default(60_000)),
});

/** The spec's default protocol and ports. */
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';
const DEFAULT_HTTP_ENDPOINT = 'http://localhost:4318';
const DEFAULT_GRPC_ENDPOINT = 'http://localhost:4317';

/**
 * Where a signal goes, by the spec's rules: a signal's own endpoint is used as written; the
 * shared one gets `/v1/traces` or `/v1/metrics` appended for HTTP and is used as is for gRPC.
 */
function signalExport(
  protocol: OtlpProtocol,
  own: string | undefined,
  shared: string | undefined,
  path: string,
): SignalExport {
  if (own) return { protocol, url: own };
  if (protocol === 'grpc') return { protocol, url: shared ?? DEFAULT_GRPC_ENDPOINT };
  return { protocol, url: `${(shared ?? DEFAULT_HTTP_ENDPOINT).replace(/\/+$/, '')}${path}` };
}

/**
 * The standard OTEL_* variables, parsed once: undefined (telemetry off) when none of
 * TELEMETRY_SWITCHES is set, when OTEL_SDK_DISABLED is true, or when both exporters are `none`.
 * OTEL_SERVICE_NAME (default `thoughtline`) and OTEL_RESOURCE_ATTRIBUTES name the resource through
 * the SDK's environment detector; OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and _COMPRESSION are read by
 * the exporters themselves.
 */
export function parseTelemetryConfig(env: NodeJS.ProcessEnv): TelemetryConfig | undefined {
  if (!TELEMETRY_SWITCHES.some((name) => blank(env[name]) !== undefined)) return undefined;
  const parsed = OtelEnv.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid OpenTelemetry environment:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  if (e.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return undefined;
  const protocol = e.OTEL_EXPORTER_OTLP_PROTOCOL ?? DEFAULT_PROTOCOL;
  const traces =
    e.OTEL_TRACES_EXPORTER === 'none'
      ? undefined
      : signalExport(
          e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? protocol,
          e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
          e.OTEL_EXPORTER_OTLP_ENDPOINT,
          '/v1/traces',
        );
  const metrics =
    e.OTEL_METRICS_EXPORTER === 'none'
      ? undefined
      : signalExport(
          e.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? protocol,
          e.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
          e.OTEL_EXPORTER_OTLP_ENDPOINT,
          '/v1/metrics',
        );
  if (!traces && !metrics) return undefined;
  return Object.freeze({
    ...(e.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true'
      ? { captureContent: true as const }
      : {}),
    ...(traces ? { traces } : {}),
    ...(metrics ? { metrics: { ...metrics, exportIntervalMs: e.OTEL_METRIC_EXPORT_INTERVAL } } : {}),
  });
}
