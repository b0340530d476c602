import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import {
  brandDenyListOf,
  DenyListError,
  emptyDenyList,
  loadBrandDenyList,
  matchDenyList,
  parseDenyList,
  readDenyList,
} from '../../../src/registry/homographs/deny-list.ts';
import { eachEngine } from '../../support/engines.ts';
import { startTestServer } from '../../support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'ap-deny-list-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('brand deny list', () => {
  const list = parseDenyList(
    JSON.stringify([
      { name: 'PayPal', domains: ['PayPal.com', 'paypal.me'] },
      { name: 'American Express', domains: ['americanexpress.com'] },
      { name: 'Facebook', domains: ['facebook.com'] },
    ]),
    {
      format: 'json',
    },
  );

  it('normalizes the brands’ domains', () => {
    assert.deepEqual(list.brands[0], { name: 'PayPal', domains: ['paypal.com', 'paypal.me'] });
  });

  it('finds look-alikes of a brand’s name in the registrable label, under any suffix', () => {
    for (const domain of [
      domainToASCII('p\u0430ypal.com'),
      'paypa1.com',
      'paypal.net',
      'secure.paypa1.co.uk',
      'americanexpress.example',
    ]) {
      const match = matchDenyList(list, domain);
      assert.equal(match?.own, false, domain);
    }
    assert.equal(matchDenyList(list, 'paypa1.com')?.brand.name, 'PayPal');
  });

  it('finds look-alikes of a brand’s domains (faceb00k.com)', () => {
    assert.equal(matchDenyList(list, 'faceb00k.com')?.brand.name, 'Facebook');
  });

  it('knows a brand’s own domains and their subdomains', () => {
    for (const domain of ['paypal.com', 'www.paypal.com', 'paypal.me'])
      assert.equal(matchDenyList(list, domain)?.own, true, domain);
  });

  it('ignores unrelated domains, and brand names inside longer labels', () => {
    for (const domain of ['example.com', 'paypalfan.com', 'paypal.example.com'])
      assert.equal(matchDenyList(list, domain), undefined, domain);
    assert.equal(matchDenyList(emptyDenyList, 'paypa1.com'), undefined);
  });

  it('reads YAML as well as JSON', () => {
    const path = file('brands.yaml', '- name: PayPal\n  domains: [paypal.com]\n- name: Acme\n');
    const yaml = readDenyList(path);
    assert.deepEqual(yaml.brands, [
      { name: 'PayPal', domains: ['paypal.com'] },
      { name: 'Acme', domains: [] },
    ]);
    assert.equal(matchDenyList(yaml, 'acrne.com')?.brand.name, 'Acme');
  });

  it('ships an example file that loads, and screens saves under that configuration with it', () => {
    const config = loadConfig(
      {},
      { AP_BRAND_DENY_LIST: new URL('../../../config/brand-deny-list.example.json', import.meta.url).pathname },
    );
    const loaded = loadBrandDenyList(config);
    assert.ok(loaded.brands.length >= 3);
    assert.equal(matchDenyList(loaded, 'paypa1.com')?.own, false);
    assert.equal(brandDenyListOf(config), loaded);
  });

  it('is empty when AP_BRAND_DENY_LIST is unset', () => {
    const config = loadConfig({}, {});
    assert.equal(loadBrandDenyList(config).brands.length, 0);
    assert.equal(brandDenyListOf(config).brands.length, 0);
  });

  it('never screens without a list it was given but did not read', () => {
    assert.throws(
      () => brandDenyListOf(loadConfig({}, { AP_BRAND_DENY_LIST: file('unread.json', '[]') })),
      /AP_BRAND_DENY_LIST was never read/,
    );
  });

  it('refuses malformed files at start with a ConfigError naming the setting and the problem', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['syntax.json', '[{"name": "paypal",', /not valid JSON/],
      ['syntax.yaml', '- name: [unclosed', /not valid YAML/],
      ['object.json', '{"name": "paypal"}', /must be a list of brands/],
      ['entry.json', '["paypal"]', /brand 1 must be an object/],
      ['noname.json', '[{"domains": ["paypal.com"]}]', /brand 1 needs a "name"/],
      ['blankname.json', '[{"name": " & "}]', /brand 1 needs a "name"/],
      ['domains.json', '[{"name": "paypal", "domains": "paypal.com"}]', /"domains" must be a list/],
      [
        'baddomain.json',
        '[{"name": "ok"}, {"name": "paypal", "domains": ["paypal.com/login"]}]',
        /brand 2 \("paypal"\): .*paypal\.com\/login/,
      ],
      ['typo.json', '[{"name": "paypal", "domain": ["paypal.com"]}]', /unknown field "domain"/],
    ];
    for (const [name, text, problem] of cases) {
      const path = file(name, text);
      assert.throws(
        () => readDenyList(path),
        (err: Error) => err instanceof DenyListError && problem.test(err.message),
        name,
      );
      assert.throws(
        () => loadBrandDenyList(loadConfig({}, { AP_BRAND_DENY_LIST: path })),
        (err: Error) =>
          err instanceof ConfigError &&
          err.message.startsWith('AP_BRAND_DENY_LIST: ') &&
          err.message.includes(path) &&
          problem.test(err.message),
        name,
      );
    }
    assert.throws(
      () => loadBrandDenyList(loadConfig({}, { AP_BRAND_DENY_LIST: join(dir, 'missing.json') })),
      /AP_BRAND_DENY_LIST: cannot read .*missing\.json: ENOENT/,
    );
  });
});

eachEngine('a malformed brand deny list', (engine) => {
  it('stops the server from starting, with a ConfigError naming the setting and the file', async () => {
    const path = file('start.json', '[{"name": "paypal",');
    await assert.rejects(
      startTestServer(engine, { env: { AP_BRAND_DENY_LIST: path } }),
      (err: Error) =>
        err instanceof ConfigError &&
        err.message.startsWith('AP_BRAND_DENY_LIST: ') &&
        err.message.includes(path) &&
        /not valid JSON/.test(err.message),
    );
  });
});
