import type { SafeFetch } from '../../../net/safe-fetch.ts';
import type { AgentTask } from '../../runtime/index.ts';
import { calibrateContentTask, validateContentDeliveryTask } from './evaluation-tasks.ts';
import { PageReader } from './pages.ts';
import {
  createStandardsTask,
  getStandardsTask,
  listStandardsTask,
  updateStandardsTask,
  type RegistryPolicies,
} from './standards-tasks.ts';

export type { RegistryPolicies } from './standards-tasks.ts';
export { demoStandardsPass } from './demo-standards.ts';

export interface ContentStandardsOptions {
  /** Reads the pages artifacts name by URL; without it, such artifacts are judged on what they declare. */
  fetcher?: SafeFetch | undefined;
  /** The registry's policies, which `registry_policy_ids` name; without it, naming one is REFERENCE_NOT_FOUND. */
  registryPolicies?: RegistryPolicies | undefined;
}

/** The content-standards tasks: the standards themselves, and the local, deterministic evaluation against them. */
export function contentStandardsTasks({ fetcher, registryPolicies }: ContentStandardsOptions): AgentTask[] {
  const pages = fetcher && new PageReader(fetcher);
  return [
    createStandardsTask(registryPolicies),
    updateStandardsTask(registryPolicies),
    getStandardsTask(),
    listStandardsTask(),
    calibrateContentTask(pages),
    validateContentDeliveryTask(pages),
  ];
}
