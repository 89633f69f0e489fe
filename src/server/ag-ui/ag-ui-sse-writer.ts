import type { ServerResponse } from 'node:http';
import type { AgentStatus } from '../../shared';
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

  constructor(
    res: ServerResponse,
    options: SseWriterOptions,
    names: AgUiRunNames,
    /** The run's status now, in this stream's view and lens: read once each time the run starts to wait. */
    private readonly readStatus: () => Promise<AgentStatus>,
    onClose: (reason: string) => void,
  ) {
    super(res, options, onClose);
    this.translator = new AgUiTranslator(names);
  }

  override event(type: string, id: string, data: unknown): void {
    const event = data as { status?: unknown; chainStatus?: unknown; stepNumber?: unknown } | undefined;
    // The bus says only that the run waits; what for (approvals, a question) is one status read.
    if (type === 'status' && event?.status === undefined && event?.chainStatus === 'waiting') {
      this.readStatus().then(
        (status) => this.event('status', id, { ...event, status }),
        () => this.fail('The run waits, but its status could not be read; open the stream again.', 'unavailable'),
      );
      return;
    }
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
