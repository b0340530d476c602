import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('uses the defaults when nothing is set', () => {
    const config = loadConfig({}, {});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    assert.equal(config.bodyLimitBytes, 1048576);
  });

  it('prefers flags over the environment over defaults', () => {
    const env = { PORT: '4000', DATA_DIR: '/env/dir', DATABASE_URL: 'postgres://env' };
    const config = loadConfig({ port: '5000' }, env);
    assert.equal(config.port, 5000);
    assert.equal(config.dataDir, '/env/dir');
    assert.equal(config.databaseUrl, 'postgres://env');
  });

  it('treats an empty DATABASE_URL as unset', () => {
    assert.equal(loadConfig({}, { DATABASE_URL: '  ' }).databaseUrl, undefined);
  });

  it('seeds the demo by default on the embedded database only; AP_DEMO decides when set', () => {
    assert.equal(loadConfig({}, {}).demo, true);
    assert.equal(loadConfig({}, { DATABASE_URL: 'postgres://env' }).demo, false);
    assert.equal(loadConfig({ databaseUrl: 'postgres://flag' }, {}).demo, false);
    assert.equal(loadConfig({}, { AP_DEMO: 'false' }).demo, false);
    assert.equal(loadConfig({}, { AP_DEMO: 'true', DATABASE_URL: 'postgres://env' }).demo, true);
    assert.equal(loadConfig({}, { AP_DEMO: ' ' }).demo, true);
    assert.throws(() => loadConfig({}, { AP_DEMO: 'yes' }), /AP_DEMO must be one of true, false, got "yes"/);
  });

  it('rejects malformed values with a message naming the setting', () => {
    assert.throws(
      () => loadConfig({ port: 'abc' }, {}),
      (err: Error) => err instanceof ConfigError && /port/.test(err.message),
    );
    assert.throws(() => loadConfig({}, { PORT: '70000' }), ConfigError);
    assert.throws(() => loadConfig({}, { LOG_LEVEL: 'loud' }), /LOG_LEVEL/);
    assert.throws(() => loadConfig({}, { BODY_LIMIT_BYTES: '-1' }), /BODY_LIMIT_BYTES/);
  });

  it('refuses a short AP_ADMIN_KEY or one shaped like a JWT, and external-issuer settings without their pair', () => {
    assert.throws(() => loadConfig({}, { AP_ADMIN_KEY: 'secret' }), /AP_ADMIN_KEY must be at least 32 characters/);
    assert.throws(
      () => loadConfig({}, { AP_ADMIN_KEY: 'aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbb.ccccccccccc' }),
      /shape of a JWT/,
    );
    assert.equal(loadConfig({}, { AP_ADMIN_KEY: 'x'.repeat(32) }).adminKey, 'x'.repeat(32));
    assert.throws(
      () => loadConfig({}, { AP_OAUTH_ISSUER: 'https://id.example' }),
      /AP_OAUTH_ISSUER needs AP_OAUTH_JWKS_URL/,
    );
    assert.throws(
      () => loadConfig({}, { AP_OAUTH_JWKS_URL: 'https://id.example/jwks' }),
      /AP_OAUTH_JWKS_URL needs AP_OAUTH_ISSUER/,
    );
    assert.throws(
      () => loadConfig({}, { AP_OAUTH_ISSUER: 'not a url', AP_OAUTH_JWKS_URL: 'https://id.example/jwks' }),
      /AP_OAUTH_ISSUER must be a URL/,
    );
    assert.throws(() => loadConfig({}, { AP_ACCESS_TOKEN_TTL: '5' }), /AP_ACCESS_TOKEN_TTL/);
  });

  it('takes a brand-data provider as an https URL with its key, both or neither', () => {
    assert.equal(loadConfig({}, {}).brandDataProvider, undefined);
    assert.equal(loadConfig({}, {}).limits.enrichPerMinutePerIp, 30);
    const key = 'bd_live_0123456789';
    assert.deepEqual(
      loadConfig({}, { BRAND_DATA_PROVIDER_URL: 'https://api.brand-data.example/v2/', BRAND_DATA_PROVIDER_KEY: key })
        .brandDataProvider,
      {
        url: 'https://api.brand-data.example/v2',
        key,
        timeoutMs: 5000,
      },
    );
    const local = loadConfig(
      {},
      {
        BRAND_DATA_PROVIDER_URL: 'http://127.0.0.1:8089',
        BRAND_DATA_PROVIDER_KEY: key,
        BRAND_DATA_PROVIDER_TIMEOUT_MS: '250',
      },
    ).brandDataProvider;
    assert.equal(local?.url, 'http://127.0.0.1:8089');
    assert.equal(local?.timeoutMs, 250);
    const refused: Array<[Record<string, string>, RegExp]> = [
      [
        { BRAND_DATA_PROVIDER_URL: 'https://api.brand-data.example' },
        /BRAND_DATA_PROVIDER_URL needs BRAND_DATA_PROVIDER_KEY/,
      ],
      [{ BRAND_DATA_PROVIDER_KEY: key }, /BRAND_DATA_PROVIDER_KEY needs BRAND_DATA_PROVIDER_URL/],
      [{ BRAND_DATA_PROVIDER_URL: 'http://api.brand-data.example', BRAND_DATA_PROVIDER_KEY: key }, /must be https/],
      [{ BRAND_DATA_PROVIDER_URL: 'ftp://api.brand-data.example', BRAND_DATA_PROVIDER_KEY: key }, /must be https/],
      [{ BRAND_DATA_PROVIDER_URL: 'not a url', BRAND_DATA_PROVIDER_KEY: key }, /must be a URL/],
      [
        { BRAND_DATA_PROVIDER_URL: 'https://api.brand-data.example/?key=1', BRAND_DATA_PROVIDER_KEY: key },
        /no credentials, query or fragment/,
      ],
      [
        { BRAND_DATA_PROVIDER_URL: 'https://user:pw@api.brand-data.example', BRAND_DATA_PROVIDER_KEY: key },
        /no credentials, query or fragment/,
      ],
      [
        { BRAND_DATA_PROVIDER_URL: 'https://api.brand-data.example', BRAND_DATA_PROVIDER_KEY: 'two words' },
        /printable ASCII/,
      ],
      [
        {
          BRAND_DATA_PROVIDER_URL: 'https://api.brand-data.example',
          BRAND_DATA_PROVIDER_KEY: key,
          BRAND_DATA_PROVIDER_TIMEOUT_MS: '0',
        },
        /BRAND_DATA_PROVIDER_TIMEOUT_MS/,
      ],
      [{ RATE_LIMIT_ENRICH_PER_MINUTE: '0' }, /RATE_LIMIT_ENRICH_PER_MINUTE/],
    ];
    for (const [env, message] of refused)
      assert.throws(
        () => loadConfig({}, env),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
        JSON.stringify(env),
      );
  });
});
