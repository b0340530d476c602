import type { ActivationRow } from './activations/sql.ts';
import { targetKey, type Destination } from './activations/destination.ts';
import {
  catalogPlatformDeployment,
  type CatalogSignal,
  type Deployment,
  type PlatformAvailability,
} from './catalog/index.ts';

/** What working out a signal's deployments needs beside the signal. */
export interface DeploymentView {
  /** The targets the request named; undefined: every target the signal is on for this caller. */
  readonly targets: readonly Destination[] | undefined;
  /** The caller's activations of this signal, by target. */
  readonly activations: ReadonlyMap<string, ActivationRow>;
  readonly now: Date;
  /** Minutes an activation on a platform takes (the catalog's, or the deployment's override). */
  readonly minutes: (availability: PlatformAvailability) => number;
}

/**
 * The signal's deployments for a request: per target, live (with its activation key and when it
 * went live) or not yet (with how long activating it would take, or how long is left of an
 * activation under way). Undefined when the request named targets and the signal can go on none
 * of them (a platform that does not carry it).
 */
export function deploymentsOf(signal: CatalogSignal, view: DeploymentView): Deployment[] | undefined {
  if (view.targets) {
    const named = view.targets.flatMap((target) => {
      const deployment = deploymentOn(signal, target, view);
      return deployment ? [deployment] : [];
    });
    return named.length > 0 ? named : undefined;
  }
  const own = signal.platforms.map((availability) =>
    deploymentOn(signal, { type: 'platform', platform: availability.platform }, view)!,
  );
  const shown = new Set(signal.platforms.map((a) => targetKey({ type: 'platform', platform: a.platform })));
  const others = [...view.activations.values()]
    .filter((row) => !shown.has(row.target))
    .sort((a, b) => a.target.localeCompare(b.target));
  return [...own, ...others.map((row) => activationDeployment(row, view.now))];
}

function deploymentOn(signal: CatalogSignal, target: Destination, view: DeploymentView): Deployment | undefined {
  const activation = view.activations.get(targetKey(target));
  if (activation) return activationDeployment(activation, view.now);
  if (target.type === 'agent') return { ...target, is_live: false, estimated_activation_duration_minutes: 0 };
  const availability = signal.platforms.find((p) => p.platform === target.platform);
  if (!availability) return undefined;
  // Live on the platform for everyone means on the agent's own seat; a buyer's seat still needs it activated.
  if (target.account === undefined) {
    const stated = catalogPlatformDeployment(availability);
    return stated.is_live ? stated : { ...stated, estimated_activation_duration_minutes: view.minutes(availability) };
  }
  return { ...target, is_live: false, estimated_activation_duration_minutes: view.minutes(availability) };
}

/** A recorded activation as a deployment: live with its key, or pending with the minutes left. */
export function activationDeployment(row: ActivationRow, now: Date): Deployment {
  if (row.deployed_at && row.activation_key)
    return {
      ...row.destination,
      is_live: true,
      activation_key: row.activation_key,
      deployed_at: row.deployed_at.toISOString(),
    };
  const left = Math.max(0, (row.due_at!.getTime() - now.getTime()) / 60_000);
  return { ...row.destination, is_live: false, estimated_activation_duration_minutes: Math.ceil(left * 100) / 100 };
}
