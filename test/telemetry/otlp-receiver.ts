import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP attribute value as OTLP/HTTP JSON carries it, decoded to a plain value. */
type Plain = string | number | boolean | Plain[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  attributes: Record<string, Plain>;
  events: { name: string; attributes: Record<string, Plain> }[];
  resource: Record<string, Plain>;
}

export interface ReceivedPoint {
  metric: string;
  attributes: Record<string, Plain>;
  /** A sum's or gauge's value, or a histogram's count. */
  value: number;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

const plain = (v: AnyValue): Plain => {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plain);
  return null;
};
const attrs = (list: KeyValue[] | undefined): Record<string, Plain> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));

/**
 * A real OTLP/HTTP receiver (JSON protocol): `/v1/traces` and `/v1/metrics` are decoded and kept
 * in arrival order, anything else is a 404 the test would see as a failed export.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const rejected: string[] = [];
  /** Every body as it arrived, status messages and exception events included, for searching whole. */
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) {
        rejected.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        res.writeHead(415).end();
        return;
      }
      bodies.push(body);
      if (req.url === '/v1/traces') spans.push(...decodeSpans(JSON.parse(body)));
      else if (req.url === '/v1/metrics') points.push(...decodePoints(JSON.parse(body)));
      else {
        rejected.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    rejected,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

function decodeSpans(body: any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = attrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          name: s.name,
          attributes: attrs(s.attributes),
          events: (s.events ?? []).map((e: { name: string; attributes?: KeyValue[] }) => ({
            name: e.name,
            attributes: attrs(e.attributes),
          })),
          resource,
        });
      }
    }
  }
  return out;
}

function decodePoints(body: any): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  for (const rm of body.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const data = m.sum ?? m.gauge ?? m.histogram;
        for (const p of data?.dataPoints ?? []) {
          const value = m.histogram ? Number(p.count) : Number(p.asDouble ?? p.asInt ?? 0);
          out.push({ metric: m.name, attributes: attrs(p.attributes), value });
        }
      }
    }
  }
  return out;
}
