import type { PriceTable } from '../pricing';

/** What an entry's endpoint is built from; the key is read from the environment here, on the worker. */
export interface EndpointSettings {
  baseURL?: string;
  apiKey?: string;
  region?: string;
  prices?: PriceTable;
}
