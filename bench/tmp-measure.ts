import { validateSchema } from '../src/protocol/schemas.ts';
const big: Record<string, unknown> = {};
for (let i = 0; i < 40000; i++) big[`k${i}`] = i;
validateSchema('/schemas/3.0.6/creative/list-creatives-request.json', {});
let t = performance.now();
const r = validateSchema('/schemas/3.0.6/creative/list-creatives-request.json', big);
console.log('validate', (performance.now() - t).toFixed(0), r.errors.length);
t = performance.now(); JSON.parse(JSON.stringify(big)); console.log('json', (performance.now() - t).toFixed(0));
