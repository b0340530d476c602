import { buildConnector } from 'undici';
import { resolveDestination, type FetchPolicy } from './destination.ts';

/**
 * An undici connector that resolves and checks the host itself, then hands the socket layer an
 * address literal, so the address that was checked is the address connected to: there is no
 * second lookup for a rebinding DNS server to answer differently. Pooled connections went through
 * here when they were opened, so reusing them needs no new check.
 */
export function guardedConnector(policy: FetchPolicy, options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(options);
  return (target, callback) => {
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    resolveDestination(target.hostname, port, policy).then(
      ({ addresses, port: destinationPort }) => {
        // The original `host` stays, so the TLS server name is still the requested name.
        const attempt = (index: number): void => {
          connect(
            { ...target, hostname: addresses[index] as string, port: String(destinationPort) },
            (error, socket) => {
              if (error && index + 1 < addresses.length) attempt(index + 1);
              else if (error) callback(error, null);
              else callback(null, socket as NonNullable<typeof socket>);
            },
          );
        };
        attempt(0);
      },
      (error: Error) => callback(error, null),
    );
  };
}
