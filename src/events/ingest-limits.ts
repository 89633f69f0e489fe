/** What one `POST /v1/internal/events` may carry: the route refuses more, the HTTP publisher sends less. */
export const MAX_INGEST_EVENTS = 1_000;

/** Bytes of one batch's JSON body. A single event larger than this is never sent (the chain has it). */
export const MAX_INGEST_BYTES = 4 * 1024 * 1024;

/** The role an identity needs to publish run events: for the runs of its own tenant (tenant-less: the tenant-less runs). */
export const PUBLISHER_ROLE = 'publisher';

/** The role of a worker credential that runs several tenants' runs: it may publish for any run. Grant it to workers only. */
export const PUBLISHER_ALL_TENANTS_ROLE = 'publisher-all-tenants';

export const INGEST_PATH = '/v1/internal/events';
