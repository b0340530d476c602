import type { FastifyInstance } from 'fastify';

/**
 * The fetch the playground's client calls agents with: a request to one of this server's own
 * agents (`isOwn`) is answered inside the process (`app.inject`: every hook, as over HTTP, no
 * socket and no self-connection the SSRF policy would refuse); any other goes through `outside`,
 * the deployment's SSRF-safe client.
 */
export function agentFetch(app: FastifyInstance, isOwn: (url: URL) => boolean, outside: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!isOwn(url)) return outside(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'GET' | 'POST' | 'DELETE',
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: url.host },
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) for (const one of [value].flat()) headers.append(name, String(one));
    const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}
