import { createHash } from 'node:crypto';
import type { ActivationKey } from '../catalog/index.ts';

/** The key-value pair a sales agent targets an activated signal by (the same for every buyer: the signal's own id). */
export function agentActivationKey(signalAgentSegmentId: string): ActivationKey {
  return { type: 'key_value', key: 'ap_signal', value: signalAgentSegmentId };
}

/**
 * The segment id a platform gives an activation: stable for the same owner, signal and target
 * (an activation made again after a deactivation gets the same id), and telling nothing of them.
 */
export function platformSegmentId(platform: string, owner: string, signal: string, target: string): ActivationKey {
  const digest = createHash('sha256')
    .update(JSON.stringify([owner, signal, target]))
    .digest('hex')
    .slice(0, 12);
  return { type: 'segment_id', segment_id: `${platform}-${digest}` };
}
