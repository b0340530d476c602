import { errors, type AdapterPayload } from 'oidc-provider';
import { checkAddressLiteral, checkHost, type FetchPolicy } from '../../net/destination.ts';
import { FetchError } from '../../net/fetch-error.ts';
import { unbracket } from '../../net/host-name.ts';

/**
 * The client metadata holding URLs the authorization server fetches itself, on a request of
 * anyone who may register: jwks_uri (the keys a private_key_jwt client signs with) and
 * sector_identifier_uri. The provider's other fetched URLs (backchannel_logout_uri,
 * backchannel_client_notification_endpoint, a client_id that is a metadata document's URL) belong
 * to features that are off; turning one on means adding its field here.
 */
export const FETCHED_CLIENT_URLS = ['jwks_uri', 'sector_identifier_uri'] as const;

/**
 * The provider's `extraClientMetadata.validator` for FETCHED_CLIENT_URLS. It runs, synchronously,
 * on every client the provider builds (registered, updated, or loaded from storage), so it judges
 * what needs no lookup: https only, no credentials, and an address literal under the fetch policy.
 * Names are resolved by checkClientUrlHosts, before the client is stored.
 */
export function clientUrlValidator(policy: FetchPolicy): (ctx: unknown, key: string, value: unknown) => void {
  return (_ctx, key, value) => {
    // Absent, or of a type the provider's own schema refuses after this.
    if (typeof value !== 'string') return;
    const { host, port } = target(key, value);
    try {
      checkAddressLiteral(host, port, policy);
    } catch (error) {
      throw refusal(key, host, error);
    }
  };
}

/**
 * Where the names in a client's fetched URLs point now, through the fetch policy's resolver and
 * allow list: run before a client is stored, since the validator cannot wait for DNS. A name that
 * moves inside later is still refused when fetched: this only turns such a client away early.
 */
export async function checkClientUrlHosts(metadata: AdapterPayload, policy: FetchPolicy): Promise<void> {
  for (const field of FETCHED_CLIENT_URLS) {
    const value = metadata[field];
    if (typeof value !== 'string') continue;
    const { host, port } = target(field, value);
    try {
      await checkHost(host, policy, port);
    } catch (error) {
      throw refusal(field, host, error);
    }
  }
}

function target(field: string, value: string): { host: string; port: number } {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'https:') throw new errors.InvalidClientMetadata(`${field} must be an https URL`);
  if (url.username !== '' || url.password !== '')
    throw new errors.InvalidClientMetadata(`${field} must not carry credentials`);
  return { host: unbracket(url.hostname), port: url.port === '' ? 443 : Number(url.port) };
}

// Says no more than the verdict: anyone may register, and "resolves to 10.1.2.3" would make this
// endpoint an oracle for the names of the network it runs in.
function refusal(field: string, host: string, error: unknown): unknown {
  if (!(error instanceof FetchError)) return error;
  const why = error.reason === 'dns_failure' ? `${host} does not resolve` : `${host} is not a public address`;
  return new errors.InvalidClientMetadata(`${field} must be on a public host: ${why}`);
}
