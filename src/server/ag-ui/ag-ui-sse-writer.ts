import type { ServerResponse } from 'node:http';
import type { AgentStatus } from '../../domain';
import type { RunEnding } from '../../domain/run/run-ending';
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
  /** True while the ending is read: the watcher's close after its end event waits for it. */
  private endingPending = false;

  constructor(
    res: ServerResponse,
    options: SseWriterOptions,
    names: AgUiRunNames,
    /** The run's status now, in this stream's view and lens: read once each time the run starts to wait. */
    private readonly readStatus: () => Promise<AgentStatus>,
    /** The run's ending (runEnding of its result in this stream's view and lens): read once, when its end arrives. */
    private readonly readEnding: () => Promise<RunEnding>,
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
    // The end says that the run ended; how (answer, reason, error) is its ending, read once here
    // in this stream's view and lens, whatever else the event carries.
    if (type === 'end') {
      this.endingPending = true;
      this.readEnding().then(
        (ending) => {
          this.endingPending = false;
          this.translated('end', id, { ...(data as object), ending });
        },
        () => {
          this.endingPending = false;
          this.fail(
            'The run ended, but its ending could not be read; GET /v1/runs/{id} says how it ended.',
            'unavailable',
          );
        },
      );
      return;
    }
    this.translated(type, id, data);
  }

  /** Writes what `data` means in AG-UI; closes the stream once the run finished, failed or waits. */
  private translated(type: string, id: string, data: unknown): void {
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

  /** Closes once the ending being read has been sent (the watcher closes right after its end event). */
  override close(): void {
    if (this.endingPending) return;
    super.close();
  }

  /** A failure before or while streaming, as the run's last AG-UI event (RUN_STARTED first if nothing was sent). */
  fail(message: string, code: string): void {
    for (const event of this.translator.error(message, code)) super.event(event.type, '0', event);
    this.close();
  }
}
