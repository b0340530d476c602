import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resvg } from '@resvg/resvg-js';

/** The banner a buyer's image host serves: a 300x250 PNG. */
const redBanner = Buffer.from(
  new Resvg(
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="250"><rect width="100%" height="100%" fill="#dc2626"/></svg>',
  )
    .render()
    .asPng(),
);

/**
 * A buyer's image host on loopback, answering every path with the banner: what creatives point
 * at. `host` (`127.0.0.1:<port>`) is what the server's `AP_FETCH_ALLOW` must name.
 */
export async function startBannerHost(): Promise<{ host: string; close(): void }> {
  const images = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(redBanner));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(images.address() as AddressInfo).port}`, close: () => images.close() };
}
