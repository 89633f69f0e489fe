import type { ViewerRole } from '../../src/domain';
import type { Person } from '../server/server-harness';

/** Who reads each view: the server tests' people, each by their widest view. */
export const READER: Record<ViewerRole, Person> = { end_user: 'user', developer: 'dev', auditor: 'auditor' };
export const VIEWS = Object.keys(READER) as ViewerRole[];

/** What each door answered, by view: the text checked for the words its lens hides. */
export class DoorReads {
  private readonly seen = new Map<string, Partial<Record<ViewerRole, string>>>();

  add(door: string, view: ViewerRole, text: string): void {
    const views = this.seen.get(door) ?? {};
    views[view] = (views[view] ?? '') + text;
    this.seen.set(door, views);
  }

  /** Reads `door` in every view with `read` (given the view and its reader), all at once. */
  async each(door: string, read: (view: ViewerRole, who: Person) => Promise<string>): Promise<void> {
    await Promise.all(VIEWS.map(async (view) => this.add(door, view, await read(view, READER[view]))));
  }

  of(door: string): Partial<Record<ViewerRole, string>> | undefined {
    return this.seen.get(door);
  }

  doors(): string[] {
    return [...this.seen.keys()];
  }
}

/** The words of `hidden` that `text` shows. */
export const shown = (text: string, hidden: readonly string[]): string[] =>
  hidden.filter((word) => text.includes(word));

/** A Server-Sent Events body, or any body, read to its end (or `ms`), as text. */
export async function bodyText(response: Response, ms = 30_000): Promise<string> {
  const timer = setTimeout(() => void response.body?.cancel().catch(() => undefined), ms);
  try {
    return await response.text();
  } catch (err) {
    return `(read failed: ${String(err)})`;
  } finally {
    clearTimeout(timer);
  }
}
