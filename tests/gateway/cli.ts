/**
 * `npm run gateway`: start the reference gateway and print its addresses and the demo key.
 * Options: --port N (default 8787, or $GATEWAY_PORT), --delay MS between streamed chunks
 * (default 15, so replies visibly stream), --chunk N characters per chunk (default 8).
 */
import { parseArgs } from 'node:util';
import { startReferenceGateway } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.GATEWAY_PORT ?? '8787' },
    delay: { type: 'string', default: '15' },
    chunk: { type: 'string', default: '8' },
  },
});

const gateway = await startReferenceGateway({
  port: Number(values.port),
  pace: { delayMs: Number(values.delay), chunkChars: Number(values.chunk) },
});

console.log(`Reference gateway running.
  Site address ({site_url}): ${gateway.siteUrl}
  Base address ({base_url}): ${gateway.baseUrl}
  Demo API key:              ${gateway.demoKey}
  Models:                    ${gateway.baseUrl}/models (with the key)
Press Ctrl+C to stop.`);

const stop = (): void => {
  void gateway.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
