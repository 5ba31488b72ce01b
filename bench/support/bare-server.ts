// The baseline: a bare Fastify route answering a fixed JSON body (argv[2]) on a loopback port.
import Fastify from 'fastify';

const body = process.argv[2] ?? '{}';
const app = Fastify();
app.get('/bare', async (_req, reply) => reply.header('content-type', 'application/json').send(body));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }));
