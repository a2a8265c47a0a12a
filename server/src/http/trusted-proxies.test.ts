import Fastify, { type FastifyInstance } from 'fastify';
import Provider from 'oidc-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { mountProvider } from './oidc-mount.ts';
import { proxyTrust } from './trusted-proxies.ts';

const opened: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/** The load balancer every request below arrives from. */
const PROXY = '10.0.0.2';

/** What a client may send through proxies that append: its own entries first, the proxies' last. */
const FORWARDED = {
  host: '10.0.0.9',
  'x-forwarded-for': '203.0.113.66, 198.51.100.7, 10.1.0.3',
  'x-forwarded-host': 'evil.example, login.example.test',
  'x-forwarded-proto': 'http, https',
};

interface Seen {
  readonly ip: string;
  readonly host: string;
  readonly protocol: string;
}

// The provider as the Koa app it is, its first step answering what it read of the request. One for
// the file, as oidc-provider warns of its quick-start defaults at each construction.
const provider = new Provider('https://login.example.test/oidc', {});
provider.use((ctx) => {
  ctx.body = { ip: ctx.ip, host: ctx.host, protocol: ctx.protocol } satisfies Seen;
});

/** An app trusting `proxies` that answers what Fastify and, under /oidc, the provider made of a request. */
async function appTrusting(proxies: number): Promise<FastifyInstance> {
  const app = Fastify({ trustProxy: proxyTrust(proxies) });
  opened.push(app);
  app.get(
    '/seen',
    async (request): Promise<Seen> => ({
      ip: request.ip,
      host: request.host,
      protocol: request.protocol,
    }),
  );
  provider.proxy = proxies > 0;
  await mountProvider(app, { initial: provider, current: async () => provider });
  return app;
}

async function seen(app: FastifyInstance, url: string, headers: Record<string, string> = FORWARDED) {
  const response = await app.inject({ method: 'GET', url, remoteAddress: PROXY, headers });
  expect(response.statusCode).toBe(200);
  return response.json<Seen>();
}

describe('proxyTrust (TRUST_PROXY)', () => {
  it('takes the entry the one proxy in front appended, whatever the client wrote left of it', async () => {
    const app = await appTrusting(1);
    expect(await seen(app, '/seen')).toEqual({
      ip: '10.1.0.3',
      host: 'login.example.test',
      protocol: 'https',
    });
    const spoofed = { 'x-forwarded-for': '203.0.113.1, 198.51.100.7' };
    expect((await seen(app, '/seen', spoofed)).ip).toBe('198.51.100.7');
  });

  it('takes the entry second from the right behind two proxies', async () => {
    const app = await appTrusting(2);
    expect((await seen(app, '/seen')).ip).toBe('198.51.100.7');
  });

  it('believes no forwarded header when no proxy is trusted', async () => {
    const app = await appTrusting(0);
    expect(await seen(app, '/seen')).toEqual({ ip: PROXY, host: '10.0.0.9', protocol: 'http' });
  });
});

describe("the provider's view of a proxied request", () => {
  it('is the address, host and scheme Fastify decided, not the left-most values a client wrote', async () => {
    for (const proxies of [1, 2]) {
      const app = await appTrusting(proxies);
      expect(await seen(app, '/oidc/anything'), `${proxies}`).toEqual(await seen(app, '/seen'));
    }
  });

  it('reads no forwarded header when no proxy is trusted', async () => {
    const app = await appTrusting(0);
    expect(await seen(app, '/oidc/anything')).toEqual({ ip: PROXY, host: '10.0.0.9', protocol: 'http' });
  });

  it('leaves Fastify reading the same from the headers the provider was handed', async () => {
    const app = await appTrusting(2);
    let after: Seen | undefined;
    app.addHook('onResponse', async (request) => {
      after = { ip: request.ip, host: request.host, protocol: request.protocol };
    });
    await seen(app, '/oidc/anything');
    expect(after).toEqual({ ip: '198.51.100.7', host: 'login.example.test', protocol: 'https' });
  });
});
