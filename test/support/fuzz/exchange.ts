/** One HTTP request of a case and what came back, as the server sent it. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string;
  /** The body as text, cut at `maxBody` characters (a stream is read for a moment only). */
  body: string;
}

const maxBody = 2_000_000;
// A response that streams (the change feed's server-sent events) is read this long, then let go.
const streamReadMs = 300;

/**
 * A `fetch` that keeps every exchange of the current case, for the SDK clients (which read the
 * answer themselves) as for plain requests, and aborts what is still running when the case's
 * deadline passes.
 */
export class Recorder {
  exchanges: Exchange[] = [];
  private signal: AbortSignal | undefined;
  private headers: Record<string, string> = {};

  /**
   * Starts a case: forgets the last one's exchanges, arms its deadline, and sends its credential
   * headers in place of whatever the SDK client was connected with.
   */
  begin(signal: AbortSignal, headers: Record<string, string>): void {
    this.exchanges = [];
    this.signal = signal;
    this.headers = headers;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const signal =
      this.signal && init?.signal ? AbortSignal.any([this.signal, init.signal]) : (this.signal ?? init?.signal ?? null);
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    headers.delete('ap-organization');
    for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
    const request = new Request(input, { ...init, headers, signal });
    const response = await fetch(request);
    const contentType = response.headers.get('content-type') ?? '';
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      status: response.status,
      contentType,
      body: '',
    };
    this.exchanges.push(exchange);
    if (contentType.startsWith('text/event-stream') && !/\/(mcp|a2a)$/.test(new URL(request.url).pathname)) {
      // A feed stream never ends: what it sent first is what is checked.
      exchange.body = await readFor(response, streamReadMs);
      return new Response(exchange.body, { status: response.status, headers: response.headers });
    }
    const text = await response.text();
    exchange.body = text.length > maxBody ? text.slice(0, maxBody) : text;
    const empty = [101, 204, 205, 304].includes(response.status);
    return new Response(empty ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function readFor(response: Response, ms: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  const stop = setTimeout(() => void reader.cancel().catch(() => {}), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > maxBody) break;
    }
  } catch {
    // Cancelled at the end of the window.
  } finally {
    clearTimeout(stop);
    await reader.cancel().catch(() => {});
  }
  return text;
}
