/**
 * The yardstick of `npm run bench:static`: bare Fastify with `@fastify/static` serving a directory
 * (argv[2]) on a loopback port (argv[3]), with the pre-compressed copies and nothing else: no logger,
 * no hooks, no headers of its own. Runs with plain node (type stripping), like the compiled service.
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const [root, port] = process.argv.slice(2);
if (root === undefined || port === undefined) throw new Error('usage: node bare-static.ts <dir> <port>');
const app = Fastify();
await app.register(fastifyStatic, { root, preCompressed: true });
await app.listen({ host: '127.0.0.1', port: Number(port) });
console.log(`bare static listening on ${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
