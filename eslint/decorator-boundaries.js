// Capabilities reach each other only through the services the composition root (src/app/) hands
// them as options, never through a Fastify decorator, which no import shows. In a capability's
// folder, reading `app.<name>` (or `instance.`, `fastify.`, `server.`, `this.app.`,
// `request.server.`, `getDecorator('<name>')`, `hasDecorator('<name>')`) is refused when <name> is
// a decorator of the Fastify instance declared outside that capability: by another capability, or
// by src/app, which decorates the root for tests and tooling. The decorators are read from src/ as
// lint starts: each `interface FastifyInstance` member of a `declare module 'fastify'`, and each
// `decorate('<name>', ...)`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { capabilities } from './capability-boundaries.js';

const src = join(import.meta.dirname, '..', 'src');

/** Who a file of src/ (a path relative to it, with `/`) belongs to: its capability, else its top folder. */
function ownerOf(path) {
  const capability = capabilities.find((c) => path.startsWith(`${c}/`));
  if (capability) return capability;
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : '';
}

/** The names a source text decorates the Fastify instance with. */
function declaredDecorators(text, fileName = 'file.ts') {
  const names = new Set();
  for (const [, name] of text.matchAll(/\.decorate(?:<[^>]*>)?\(\s*['"]([\w$]+)['"]/g)) names.add(name);
  if (!text.includes('interface FastifyInstance')) return names;
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'FastifyInstance') {
      for (const member of node.members) if (member.name && ts.isIdentifier(member.name)) names.add(member.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest));
  return names;
}

/** Every decorator declared in src/, with the owners that declare it; read once per lint run. */
let scanned;
function decoratorOwners() {
  if (scanned) return scanned;
  const owners = new Map();
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const owner = ownerOf(relative(src, file).split(sep).join('/'));
    for (const name of declaredDecorators(readFileSync(file, 'utf8'), file)) {
      owners.set(name, new Set([...(owners.get(name) ?? []), owner]));
    }
  }
  return (scanned = owners);
}

/** Names an expression a Fastify instance goes by: `app`, `instance`, `fastify`, `server`, or a member so named. */
const instanceNames = new Set(['app', 'instance', 'fastify', 'server']);
const isInstance = (node) =>
  (node.type === 'Identifier' && instanceNames.has(node.name)) ||
  (node.type === 'MemberExpression' && !node.computed && isInstance(node.property));

const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Refuses reading another capability's (or the composition root's) Fastify decorator." },
    // `owners` (tests): the decorators and who declares them, instead of those read from src/.
    schema: [
      {
        type: 'object',
        properties: { owners: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
        additionalProperties: false,
      },
    ],
    messages: {
      foreign:
        '`{{name}}` is a decorator of {{owners}}: a capability is handed the services it uses as options by the composition root (src/app/), never reads a decorator.',
    },
  },
  create(context) {
    const path = relative(src, context.filename).split(sep).join('/');
    if (path.startsWith('..')) return {};
    const own = ownerOf(path);
    if (!capabilities.includes(own)) return {};
    const given = context.options[0]?.owners;
    const owners = given ? new Map(Object.entries(given)) : decoratorOwners();
    const check = (node, name) => {
      const others = [...(owners.get(name) ?? [])].filter((owner) => owner !== own);
      if (others.length === 0) return;
      const named = others.map((o) => (o === '' ? 'src/' : `src/${o}`)).join(', ');
      context.report({ node, messageId: 'foreign', data: { name, owners: named } });
    };
    return {
      MemberExpression(node) {
        if (!node.computed && node.property.type === 'Identifier' && isInstance(node.object))
          check(node, node.property.name);
      },
      CallExpression(node) {
        const { callee } = node;
        const [first] = node.arguments;
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          ['getDecorator', 'hasDecorator'].includes(callee.property.name) &&
          first?.type === 'Literal' &&
          typeof first.value === 'string'
        )
          check(node, first.value);
      },
    };
  },
};

/** The flat-config block: the rule on every file of src/ (tests and benches read decorators freely). */
export function decoratorBoundaries() {
  return [
    {
      files: ['src/**/*.ts'],
      plugins: { ap: { rules: { 'no-foreign-decorators': rule } } },
      rules: { 'ap/no-foreign-decorators': 'error' },
    },
  ];
}
