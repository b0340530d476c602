import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Where browser tests leave what a person may want to look at: test-output/<suite>/ (ignored by git). */
export async function outputFolder(...parts: string[]): Promise<string> {
  const folder = path.join(import.meta.dirname, '..', '..', 'test-output', ...parts);
  await mkdir(folder, { recursive: true });
  return folder;
}

/**
 * The serious and critical accessibility violations axe-core finds in the page, each as
 * "rule: the first offending element". The page's context must bypass CSP: axe is injected as a
 * script the page's own policy would refuse.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } })
      .axe;
    // The page's whole document.
    const results = await axe.run('html', { resultTypes: ['violations'] });
    return results.violations.map((v) => ({ id: v.id, impact: v.impact, target: v.nodes[0]?.target.join(' ') ?? '' }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.target}`);
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }>;
}
