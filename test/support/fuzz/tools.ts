import { type CaseContext, pickCredential, type Target } from './cases.ts';
import { deepValue, hostileScalar } from './hostile.ts';
import { mutate } from './mutate.ts';
import { toPlain, writeJson } from './raw-json.ts';
import { uuid, validValue, type Schema } from './schema-values.ts';

/** A tool as its endpoint lists it, and the protocol's published request schema for it, when there is one. */
export interface Tool {
  name: string;
  inputSchema: Schema;
  published?: { schema: Schema; examples: unknown[] };
}

export type ToolProtocol = 'mcp' | 'a2a' | 'tasks';

/**
 * The target of one tool over one protocol: MCP `tools/call` and A2A messages through the official
 * SDK clients, or the agent's plain-HTTP `POST <path>/tasks/<task>`. `endpoint` is the agent's
 * path ('' for the registry's `/mcp`); `prefer` the credential it is mostly called with.
 */
export function toolTarget(endpoint: string, tool: Tool, protocol: ToolProtocol, prefer: 'admin' | 'agent'): Target {
  return {
    id: `${protocol} ${endpoint || '/'} ${tool.name}`,
    make(ctx) {
      const { credential, headers } = pickCredential(ctx, prefer, true);
      const notes: string[] = [];
      const plain = protocol !== 'tasks';
      let name = tool.name;
      let args = toolArguments(tool, ctx, notes);
      const roll = ctx.random.next();
      if (roll < 0.12) notes.push('as generated');
      else if (roll < 0.9) {
        const broken = mutate(args, { random: ctx.random, dictionary: ctx.dictionary, plain });
        args = broken.value;
        notes.push(...broken.done);
      } else if (roll < 0.96) {
        args = ctx.random.pick<unknown>([
          [],
          'x',
          1,
          null,
          true,
          hostileScalar(ctx.random),
          deepValue(ctx.random, plain ? 300 : 5000),
        ]);
        notes.push('arguments not an object');
      } else {
        name = ctx.random.pick([
          '',
          'no_such_tool',
          '__proto__',
          'constructor',
          'toString',
          `${tool.name}\u0000`,
          `${tool.name}\ud800`,
          '../tasks',
          tool.name.toUpperCase(),
        ]);
        notes.push(`tool name ${JSON.stringify(name)}`);
      }
      if (protocol === 'tasks') {
        headers['content-type'] = 'application/json';
        return {
          credential,
          notes,
          call: {
            kind: 'http',
            method: 'POST',
            path: `${endpoint}/tasks/${encodeURIComponent(name.replace(/[\ud800-\udfff]/g, '\ufffd'))}`,
            headers,
            body: writeJson(args),
          },
        };
      }
      return { credential, notes, call: { kind: protocol, endpoint, tool: name, args: toPlain(args), headers } };
    },
  };
}

/** Arguments that should pass: a published example, or a value made from the published schema or the advertised one. */
function toolArguments(tool: Tool, ctx: CaseContext, notes: string[]): unknown {
  const { random } = ctx;
  const examples = tool.published?.examples ?? [];
  let args: unknown;
  if (examples.length > 0 && random.chance(0.25)) {
    args = structuredClone(random.pick(examples));
    notes.push('published example');
  } else if (tool.published && random.chance(0.5)) {
    args = validValue(tool.published.schema, ctx);
    notes.push('from the published schema');
  } else {
    args = validValue(tool.inputSchema, ctx);
    notes.push('from the advertised schema');
  }
  // A fresh key: an example's fixed one, used again with other arguments, is only ever a conflict.
  if (args && typeof args === 'object' && 'idempotency_key' in args && random.chance(0.9))
    (args as Record<string, unknown>)['idempotency_key'] = uuid(random);
  return args;
}
