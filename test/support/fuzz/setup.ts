import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client as A2aClient,
} from '@a2a-js/sdk/client';
import YAML from 'yaml';
import { pointerValue } from '../../../src/protocol/json-path.ts';
import { schemasDir } from '../../../src/protocol/schemas.ts';
import { Random } from '../random.ts';
import type { CaseContext, Target } from './cases.ts';
import { Dictionary } from './dictionary.ts';
import type { Recorder } from './exchange.ts';
import { operationsOf, operationTarget, type OpenApiDocument } from './operations.ts';
import { validValue, type Schema } from './schema-values.ts';
import { toolTarget, type Tool } from './tools.ts';

/** What the run knows once set up: its targets, the clients that reach them, and the values the server answered. */
export interface FuzzWorld {
  targets: Target[];
  dictionary: Dictionary;
  resolve(ref: string): Schema | undefined;
  /** MCP clients by endpoint path ('' for the registry's /mcp), connected once; each case sends its own credential. */
  mcp: Map<string, McpClient>;
  a2a: Map<string, A2aClient>;
  close(): Promise<void>;
}

export interface SetupOptions {
  base: string;
  recorder: Recorder;
  credentials: Record<'admin' | 'agent', string>;
  seed: number;
}

/**
 * Reads what the server offers and makes a target of each: every operation of its OpenAPI
 * document, every tool of every agent it lists in /.well-known/adagents.json over MCP, A2A and
 * (when the document has the route) plain HTTP, and every tool of the registry's /mcp. Then asks
 * the server's read operations and tools once with valid arguments, keeping the ids, domains and
 * URLs they answer for the cases to use.
 */
export async function setUp(options: SetupOptions): Promise<FuzzWorld> {
  const { base, recorder, credentials } = options;
  const admin = { authorization: `Bearer ${credentials.admin}` };
  const agent = { authorization: `Bearer ${credentials.agent}` };
  recorder.begin(AbortSignal.timeout(120_000), admin);
  const doc = YAML.parse(await (await fetch(`${base}/openapi/registry.yaml`)).text()) as OpenApiDocument;
  const published = publishedRequests();
  const resolve = (ref: string): Schema | undefined => {
    if (ref.startsWith('#/components/schemas/'))
      return doc.components?.schemas?.[decodeURIComponent(ref.slice('#/components/schemas/'.length))];
    if (ref.startsWith('/schemas/')) return readSchema(ref);
    return undefined;
  };
  const dictionary = new Dictionary();
  const operations = operationsOf(doc);
  const targets: Target[] = operations.map(operationTarget);

  const listing = (await (await fetch(`${base}/.well-known/adagents.json`)).json()) as {
    tenants?: Array<{ mcp: string }>;
  };
  const agentPaths = (listing.tenants ?? []).map((t) => new URL(t.mcp).pathname.replace(/\/mcp$/, ''));
  const mcp = new Map<string, McpClient>();
  const a2a = new Map<string, A2aClient>();
  const tools = new Map<string, Tool[]>();
  for (const endpoint of [...agentPaths, '']) {
    recorder.begin(AbortSignal.timeout(120_000), endpoint ? agent : admin);
    const client = new McpClient({ name: 'ap-fuzz', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}${endpoint}/mcp`), { fetch: recorder.fetch }),
    );
    mcp.set(endpoint, client);
    const listed = (await client.listTools()).tools.map((t) => ({
      name: t.name,
      inputSchema: t.inputSchema as Schema,
      ...(endpoint && published.has(t.name) ? { published: published.get(t.name)! } : {}),
    }));
    tools.set(endpoint, listed);
    if (!endpoint) {
      for (const tool of listed) targets.push(toolTarget('', tool, 'mcp', 'admin'));
      continue;
    }
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: recorder.fetch })],
      }),
    );
    a2a.set(endpoint, await factory.createFromUrl(base, `${endpoint}/.well-known/agent-card.json`));
    const plainHttp = operations.some((op) => op.path === `${endpoint}/tasks/{task}`);
    for (const tool of listed) {
      targets.push(toolTarget(endpoint, tool, 'mcp', 'agent'), toolTarget(endpoint, tool, 'a2a', 'agent'));
      if (plainHttp) targets.push(toolTarget(endpoint, tool, 'tasks', 'agent'));
    }
  }

  // What the server answers to valid requests, in the order listed: a later tool can name what an earlier one created.
  const random = new Random(options.seed ^ 0x5eed);
  const ctx: CaseContext = {
    random,
    index: -1,
    dictionary,
    resolve,
    canaryUrl: 'https://agent.example/mcp',
    credentials,
  };
  for (const op of operations) {
    if (op.method !== 'GET' || op.parameters.some((p) => p.required) || /\{|stream|openapi|metrics|yaml/.test(op.path))
      continue;
    recorder.begin(AbortSignal.timeout(30_000), admin);
    const res = await recorder.fetch(`${base}${op.path}`);
    if (res.ok && (res.headers.get('content-type') ?? '').includes('json')) dictionary.harvest(await res.json());
  }
  for (const [endpoint, listed] of tools) {
    for (const tool of listed) {
      recorder.begin(AbortSignal.timeout(30_000), endpoint ? agent : admin);
      const examples = tool.published?.examples ?? [];
      const args = (
        examples.length > 0
          ? structuredClone(random.pick(examples))
          : validValue(tool.published?.schema ?? tool.inputSchema, ctx)
      ) as Record<string, unknown>;
      if (
        'idempotency_key' in args ||
        (tool.inputSchema as { required?: string[] }).required?.includes('idempotency_key')
      )
        args['idempotency_key'] = crypto.randomUUID();
      try {
        const result = await mcp
          .get(endpoint)!
          .callTool({ name: tool.name, arguments: args }, undefined, { timeout: 30_000 });
        if (!result.isError && result.structuredContent) dictionary.harvest(result.structuredContent);
      } catch {
        // A harvest call that fails only teaches nothing.
      }
    }
  }
  return {
    targets,
    dictionary,
    resolve,
    mcp,
    a2a,
    close: async () => {
      for (const client of mcp.values()) await client.close();
    },
  };
}

/** The published request schemas by task name (`media-buy/create-media-buy-request.json` for create_media_buy), with their examples' arguments. */
function publishedRequests(): Map<string, { schema: Schema; examples: unknown[] }> {
  const out = new Map<string, { schema: Schema; examples: unknown[] }>();
  const root = path.join(schemasDir, '3.0.6');
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('-request.json')) continue;
    const name = entry.name.slice(0, -'-request.json'.length).replaceAll('-', '_');
    if (out.has(name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const schema = absolutize(
      JSON.parse(readFileSync(file, 'utf8')),
      `/schemas/${path.relative(schemasDir, file).split(path.sep).join('/')}`,
    ) as Record<string, unknown>;
    const examples = ((schema['examples'] as unknown[] | undefined) ?? []).map((e) =>
      e && typeof e === 'object' && 'data' in e ? (e as { data: unknown }).data : e,
    );
    out.set(name, { schema, examples });
  }
  return out;
}

const schemaFiles = new Map<string, Schema | undefined>();

/** A vendored schema by its `$id` (`/schemas/3.0.6/core/brand-ref.json`), with a `#/...` pointer into it. */
function readSchema(ref: string): Schema | undefined {
  const [file, pointer] = ref.split('#') as [string, string | undefined];
  if (!schemaFiles.has(file)) {
    try {
      schemaFiles.set(
        file,
        absolutize(JSON.parse(readFileSync(path.join(schemasDir, '..', file), 'utf8')), file) as Schema,
      );
    } catch {
      schemaFiles.set(file, undefined);
    }
  }
  return pointerValue(schemaFiles.get(file), pointer ?? '') as Schema | undefined;
}

/** The schema with its local references (`#/$defs/x`) written against its own `$id`, so they resolve from anywhere. */
function absolutize(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((child) => absolutize(child, id));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : absolutize(value, id);
  return out;
}
