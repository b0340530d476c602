// The feed viewer's live mode: streams /api/registry/feed/stream with the visitor's API key (an
// EventSource cannot send one), appends each event, and pauses and resumes from the last cursor.
// Without this script the form still reads the feed a page at a time.
const form = document.getElementById('feed-form');
const live = document.getElementById('feed-live');
const pause = document.getElementById('feed-pause');
const status = document.getElementById('feed-status');
const table = document.getElementById('feed-live-events');
let reading;

if (form && live && pause && status && table) {
  live.hidden = false;
  live.addEventListener('click', () => watch());
  pause.addEventListener('click', () => stop('Paused. Watch live resumes from the last event.'));
}

function field(name) {
  return form.elements.namedItem(name).value.trim();
}

async function watch() {
  if (!form.reportValidity()) return;
  reading = new AbortController();
  live.hidden = true;
  pause.hidden = false;
  table.hidden = false;
  status.textContent = 'Watching the feed…';
  const query = new URLSearchParams();
  if (field('cursor')) query.set('cursor', field('cursor'));
  if (field('types')) query.set('types', field('types'));
  try {
    const res = await fetch(`/api/registry/feed/stream?${query}`, {
      headers: { authorization: `Bearer ${field('credential')}`, accept: 'text/event-stream' },
      signal: reading.signal,
    });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      return stop(`The feed answered ${res.status}: ${body.message ?? res.statusText}`);
    }
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of res.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        shown(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
      }
    }
    stop('The stream ended. Watch live resumes from the last event.');
  } catch (err) {
    if (err.name !== 'AbortError') stop(`The stream stopped: ${err.message}`);
  }
}

function stop(message) {
  reading?.abort();
  live.hidden = false;
  pause.hidden = true;
  status.textContent = message;
}

/** One server-sent event: a page of the feed, `{events, cursor}`. */
function shown(message) {
  const data = message
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data) return;
  const page = JSON.parse(data);
  const body = table.tBodies[0];
  for (const event of page.events ?? []) {
    const row = body.insertRow(0);
    for (const text of [event.created_at, event.event_type, about(event), event.actor])
      row.insertCell().textContent = text ?? '';
  }
  if (page.cursor) form.elements.namedItem('cursor').value = page.cursor;
  if ((page.events ?? []).length > 0) status.textContent = `${body.rows.length} events shown; cursor ${page.cursor}.`;
}

/** What an event is about, as a person names it: its publisher or agent, else its entity's id (as the page without a script says it). */
function about(event) {
  const payload = event.payload ?? {};
  return payload.publisher_domain ?? payload.agent_url ?? event.entity_id;
}
