/** The URL forms THOUGHTLINE_EVENTS takes, for error messages and the config check. */
export const EVENT_BUS_URL_FORMS = 'redis://host:port, http(s)://server:port or memory:';

/** True when `url` names a bus `createEventBus` can make. Kept apart so config does not load Redis. */
export function isEventBusUrl(url: string): boolean {
  return url === 'memory:' || /^(rediss?|https?):\/\/[^/\s]/.test(url);
}
