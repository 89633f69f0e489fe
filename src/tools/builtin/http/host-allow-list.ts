/**
 * The hosts `http_fetch` may reach: exact names (`api.example.com`, `127.0.0.1`, `[::1]`) or one
 * leading wildcard label (`*.example.com`: any name under example.com, not example.com itself).
 * Each entry is normalised by the URL parser, as request URLs are, and compared lowercased.
 */
export interface HostAllowList {
  allows(hostname: string): boolean;
  /** The entries as given, for error messages. */
  readonly entries: readonly string[];
}

/** The hostname the URL parser makes of `host` (lowercase, punycode, IPv4 forms canonical); throws on anything that is not a bare host. */
export function normalHost(host: string): string {
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    throw new TypeError(`createHttpTool: allowHosts entry "${host}" is not a host name.`);
  }
  if (
    url.host !== url.hostname ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    host.includes('/')
  ) {
    throw new TypeError(
      `createHttpTool: allowHosts entry "${host}" must be a bare host name (no port, path or credentials).`,
    );
  }
  return url.hostname;
}

export function hostAllowList(entries: readonly string[]): HostAllowList {
  if (!Array.isArray(entries) || entries.length === 0)
    throw new TypeError('createHttpTool: allowHosts must list at least one host.');
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string' || entry === '')
      throw new TypeError('createHttpTool: allowHosts entries must be non-empty strings.');
    if (entry.startsWith('*.')) {
      const suffix = normalHost(entry.slice(2));
      if (!suffix.includes('.') || suffix.startsWith('['))
        throw new TypeError(
          `createHttpTool: allowHosts pattern "${entry}" must name a domain with at least two labels.`,
        );
      suffixes.push(`.${suffix}`);
    } else if (entry.includes('*')) {
      throw new TypeError(
        `createHttpTool: allowHosts entry "${entry}": a wildcard is only allowed as the whole first label (*.example.com).`,
      );
    } else {
      exact.add(normalHost(entry));
    }
  }
  return {
    entries: Object.freeze([...entries]),
    allows: (hostname) => {
      const host = hostname.toLowerCase();
      return exact.has(host) || suffixes.some((s) => host.endsWith(s) && host.length > s.length);
    },
  };
}
