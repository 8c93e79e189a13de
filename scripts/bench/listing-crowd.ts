/**
 * The crowd of `crowd-listing` as a process of its own, as clients on other machines would be: reading, gunzipping
 * and counting 300 listings must not stall the event loop of the bench process that times the other requests.
 * Argv: base URL, bearer token, listings (every other one accepting gzip). Writes `started` once every request is
 * sent, then one JSON line: each listing's hero count in request order, or `{ error }`.
 * Usage: node --import tsx scripts/bench/listing-crowd.ts http://127.0.0.1:8080 <token> 300
 */
import http from 'node:http';
import { countListedHeroes } from './lib/many-heroes.ts';

const [baseUrl, token, listings] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const agent = new http.Agent({ keepAlive: true, maxSockets: listings });
const counts = Array.from({ length: listings }, (_, i) => countListedHeroes({ baseUrl, token }, { agent, gzip: i % 2 === 0 }));
process.stdout.write('started\n');
try {
  process.stdout.write(`${JSON.stringify({ counts: await Promise.all(counts) })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: String(err) })}\n`);
} finally {
  agent.destroy();
}
