import type { FirstRun } from '../registry/demo/index.ts';

export interface BannerFacts {
  /** Where a person opens the registry. */
  url: string;
  /** What the demo's first start made (empty on later starts). */
  firstRun: FirstRun;
  /** The public test credential of the deployment's agents, when it serves them. */
  credential: string | undefined;
}

/**
 * What `ap serve` says to a person at a terminal once it is ready, on standard error beside the
 * JSON log: where to go, what the first start made (shown this once), and two things to try.
 */
export function banner({ url, firstRun, credential }: BannerFacts): string {
  const base = url.replace(/\/+$/, '');
  const lines = ['', `  ap registry ready: ${base}/`, ''];
  if (firstRun.adminKey) lines.push(`  Admin API key (shown once): ${firstRun.adminKey}`);
  if (firstRun.firstUser)
    lines.push(
      `  Dashboard sign-in (shown once): ${firstRun.firstUser.email} / ${firstRun.firstUser.password}  (${base}/dashboard)`,
    );
  if (credential) lines.push(`  The agents' test credential: ${credential}`);
  const { host } = new URL(base);
  lines.push(
    '',
    '  Try:',
    `    curl -s '${base}/api/brands/resolve?domain=northwind.example'`,
    ...(credential
      ? [
          `    npm run ap -- call ${base}/sales/mcp get_products --args '{"brief":"news video"}' --token ${credential} --allow ${host}`,
        ]
      : [`    open ${base}/check to check an authorization`]),
    '',
  );
  return `${lines.join('\n')}\n`;
}
