#!/usr/bin/env node
// The `ap` command. The source is TypeScript run directly by Node 24's type stripping, so there is
// no build step; older Node versions cannot run it.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `ap needs Node 24 or newer (this is ${process.version}); run it through npm (npm run ap -- ...), which uses the Node 24 the project installs.`,
  );
  process.exit(1);
}
// Every start strips and compiles the whole source again; V8's code cache on disk (keyed by each
// file's content, NODE_DISABLE_COMPILE_CACHE=1 turns it off) makes later starts about a second faster.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
