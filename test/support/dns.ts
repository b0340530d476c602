import { Resolver } from 'node:dns/promises';
import dns2 from 'dns2';
import type { TxtResolver } from '../../src/context.ts';

export interface TestDns {
  /** TXT records by name; change them between requests. */
  txt: Map<string, string[]>;
  /** What the server under test uses for TXT lookups: Node's resolver pointed at this server. */
  resolveTxt: TxtResolver;
  close(): Promise<void>;
}

/** A real DNS server on loopback (UDP) answering TXT queries from `txt`; unknown names are NXDOMAIN. */
export async function startDns(): Promise<TestDns> {
  const txt = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question ? txt.get(question.name.toLowerCase()) : undefined;
      if (!question || !values) response.header.rcode = 3;
      // The published types ask for a Resource instance; the encoder takes plain records like this one.
      else
        for (const data of values)
          response.answers.push({
            name: question.name,
            type: dns2.Packet.TYPE.TXT,
            class: dns2.Packet.CLASS.IN,
            ttl: 1,
            data,
          } as unknown as dns2.Packet.Resource);
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${addresses.udp!.port}`]);
  return { txt, resolveTxt: (name) => resolver.resolveTxt(name), close: () => server.close() };
}
