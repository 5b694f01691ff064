import { createGatewayClient } from '../../lib/gateway';
import { recordedStream, streamOfReads, toReads } from './recorded-stream';
const api = (process.argv[2] ?? 'anthropic') as 'anthropic';
const rec = recordedStream(api, 20 * 1024 * 1024);
const reads = toReads(rec.body);
for (let i = 0; i < 8; i++) {
  const fetch = (async () => new Response(streamOfReads(reads), { headers: { 'content-type': 'text/event-stream' } })) as unknown as typeof globalThis.fetch;
  const client = createGatewayClient({ baseUrl: 'https://bench.invalid/v1', apiKey: 'sk-bench', fetch });
  const t = performance.now();
  let n = 0;
  for await (const e of client.streamChat({ model: 'm', api, messages: [{ role: 'user', content: 'go' }] })) if (e.type === 'text') n += e.text.length;
  console.log(api, (performance.now() - t).toFixed(0), n);
}
