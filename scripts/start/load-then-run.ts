/**
 * A server process `npm start` spawns before its database is ready: it loads the server's modules meanwhile, says
 * LOADED on the IPC channel, receives the rest of its environment (DATABASE_URL) and runs the main module as if
 * started directly. Exit 1 quietly if `npm start` goes away first, 0 if told to stop; afterwards the channel carries
 * the server's stop (@heroes/platform's whenAskedToStop, docs/operations.md "Stopping").
 */
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { STOP_MESSAGE } from '@heroes/platform';
import { LOADED } from './handover.ts';

const [preload, main] = process.argv.slice(2);
if (!preload || !main || !process.send) {
  console.error('usage: load-then-run.ts <module to load> <main module> (spawned with an IPC channel)');
  process.exit(1);
}

const quit = () => process.exit(1);
process.once('disconnect', quit);
await import(pathToFileURL(preload).href);
// Asked for once listening: a message sent before would be lost.
const environment = new Promise<Record<string, string>>((resolve) => {
  process.on('message', function handOver(message: unknown) {
    if ((message as { type?: unknown } | null)?.type === STOP_MESSAGE.type) process.exit(0);
    process.off('message', handOver);
    resolve(message as Record<string, string>);
  });
});
process.send(LOADED);
Object.assign(process.env, await environment);
process.off('disconnect', quit);
// As if started as `node <main>`: node:cluster forks workers from argv[1].
process.argv.splice(1, process.argv.length - 1, main);
await import(pathToFileURL(main).href);
