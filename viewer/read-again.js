// A page's opening read, tried again while the server cannot answer yet: the API's 503 says
// "a worker or Temporal could not answer; retry". Waits as the event stream does after a drop.
import { describeFailure } from './api.js';
import { reconnectDelay } from './sse.js';

/** A failure a later try may not meet: no answer (status 0), too many requests, or a server error. */
export function mayPass(err) {
  return err?.status === 0 || err?.status === 429 || err?.status >= 500;
}

/**
 * Calls `read` until it resolves or fails for good (a refusal, or an error of the page's own).
 * Each failure goes to `failed(err, waitMs)`, with the wait before the next try, or no wait when
 * there is none. Returns the function that stops trying.
 */
export function readAgainUntilAnswered(read, { failed }) {
  let timer;
  let stopped = false;
  const attempt = async (n) => {
    try {
      await read();
    } catch (err) {
      if (stopped) return;
      const waitMs = mayPass(err) ? reconnectDelay(n) : undefined;
      failed(err, waitMs);
      if (waitMs !== undefined) timer = setTimeout(() => void attempt(n + 1), waitMs);
    }
  };
  void attempt(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A `failed` for a page whose message line is where it says what went wrong. */
export function failureInto(message, disposed) {
  return (err, waitMs) => {
    if (disposed()) return;
    const why = describeFailure(err);
    message.textContent = waitMs === undefined ? why : `${why} (${tryingAgainText(waitMs)})`;
    message.classList.add('error');
  };
}

/** "trying again in 500 ms", "… in 2 s". */
export function tryingAgainText(waitMs) {
  return `trying again in ${waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`}`;
}
