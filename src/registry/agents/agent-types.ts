/** The kinds of agent an organization may enroll (spec section 4, `type`). */
export const agentTypes = [
  'brand',
  'rights',
  'measurement',
  'governance',
  'creative',
  'sales',
  'buying',
  'signals',
] as const;
export type AgentType = (typeof agentTypes)[number];
