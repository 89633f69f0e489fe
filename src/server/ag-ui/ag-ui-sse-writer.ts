import type { ServerResponse } from 'node:http';
import { SseWriter, type SseWriterOptions } from '../events/sse-writer';
import { AgUiTranslator, type AgUiRunNames } from './ag-ui-translator';

/**
 * The events route's SSE writer, speaking AG-UI: each Thoughtline event a Watcher writes goes out
 * as the AG-UI events it means, each with the Watcher's event id (so `Last-Event-ID` resumes as
 * on /events), and the stream ends once the run finished, failed or waits for a person.
 * Framing: `event:` (the AG-UI type), `id:` and one `data:` line of JSON, which is what
 * @ag-ui/encoder's encodeSSE writes plus the two fields the resume needs.
 */
export class AgUiSseWriter extends SseWriter {
  private readonly translator: AgUiTranslator;

  constructor(res: ServerResponse, options: SseWriterOptions, names: AgUiRunNames, onClose: (reason: string) => void) {
    super(res, options, onClose);
    this.translator = new AgUiTranslator(names);
  }

  override event(type: string, id: string, data: unknown): void {
    let events;
    try {
      events = this.translator.translate(type, data);
    } catch {
      // An event this translator cannot read ends the stream with a RUN_ERROR, never a crash.
      return this.fail(
        'The run sent an event this stream could not translate; read it at /v1/runs/{id}/events.',
        'untranslatable',
      );
    }
    for (const event of events) super.event(event.type, id, event);
    if (this.translator.done) this.close();
  }

  /** A failure before or while streaming, as the run's last AG-UI event (RUN_STARTED first if nothing was sent). */
  fail(message: string, code: string): void {
    for (const event of this.translator.error(message, code)) super.event(event.type, '0', event);
    this.close();
  }
}
