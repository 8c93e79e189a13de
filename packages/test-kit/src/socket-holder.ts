/**
 * Sockets held open against a server from another process, as an attacker's machine would hold them (the test's loop
 * stays free to measure). Commands, one JSON line each way: `stall` (count sockets send a POST's headers and a few
 * body bytes, then stay silent), `guess` (count guessers, each its own socket and X-Forwarded-For address, in waves;
 * with `repeatForMs` each guesses again once answered), `stop-guessing`, `status` (answers so far, by status).
 * Usage: const holder = await startSocketHolder(); await holder.send({ cmd: 'stall', url, count: 300, path }); holder.stop()
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

export interface HolderStatus {
  stalls: number;
  stallsAnswered: number;
  guesses: number;
  guessesAnswered: number;
  guessStatuses: Record<string, number>;
  /** Guessers still sending (repeatForMs not over, no stop-guessing). */
  guessing: number;
  /** The fewest answers any guesser of the last guess command has had. */
  fewestAnswers: number;
}

const CHILD = `
import http from 'node:http';
import net from 'node:net';
import readline from 'node:readline';
const stalls = [];
let stallsAnswered = 0;
let guesses = 0;
let guessesAnswered = 0;
const guessStatuses = {};
let guessing = 0;
let stopGuessing = false;
let answersOf = [];
const address = (prefix, i) => prefix + '.' + Math.floor(i / 250) + '.' + ((i % 250) + 1);
const reply = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
async function stall({ url, count, path }) {
  const { hostname, port, host } = new URL(url);
  await Promise.all(Array.from({ length: count }, (_, i) => new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answered = false;
    const markAnswered = () => { if (!answered) { answered = true; stallsAnswered++; } };
    socket.on('data', markAnswered);
    socket.on('close', markAnswered);
    socket.on('error', () => {});
    socket.write('POST ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nX-Forwarded-For: ' + address('10.1', i) + '\\r\\nContent-Type: application/x-www-form-urlencoded\\r\\nContent-Length: 1000\\r\\n\\r\\ngrant_type=password', resolve);
    stalls.push(socket);
  })));
  return { stalls: stalls.length };
}
// One request; onAnswered runs once its answer (or failure) is complete.
function sendGuess({ url, path, headers, body }, i, agent, onAnswered) {
  return new Promise((resolve) => {
    guesses++;
    let done = false;
    const answered = (status) => {
      if (done) return;
      done = true;
      guessesAnswered++;
      guessStatuses[status] = (guessStatuses[status] ?? 0) + 1;
      onAnswered();
    };
    const req = http.request(url + path, { method: 'POST', agent, headers: { ...headers, 'x-forwarded-for': address('10.2', i), 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => answered(res.statusCode));
    });
    req.on('error', () => answered('error'));
    req.end(body, resolve);
  });
}
async function guess(command) {
  const { count, wave = count, everyMs = 0, repeatForMs } = command;
  const until = Date.now() + (repeatForMs ?? 0);
  const repeating = repeatForMs !== undefined;
  stopGuessing = false;
  answersOf = new Array(count).fill(0);
  const guesser = (i) => {
    const own = repeating ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
    guessing++;
    const next = () => {
      answersOf[i]++;
      if (repeating && !stopGuessing && Date.now() < until) return sendGuess(command, i, own, next);
      guessing--;
      if (own) own.destroy();
    };
    return sendGuess(command, i, own, next);
  };
  const written = [];
  for (let first = 0; first < count; first += wave) {
    if (first > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    for (let i = first; i < Math.min(count, first + wave); i++) written.push(guesser(i));
  }
  await Promise.all(written);
  return { guesses };
}
const fewest = () => answersOf.reduce((least, n) => Math.min(least, n), answersOf.length > 0 ? Infinity : 0);
const status = () => ({ stalls: stalls.length, stallsAnswered, guesses, guessesAnswered, guessStatuses, guessing, fewestAnswers: fewest() });
for await (const line of readline.createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.cmd === 'stall') reply(await stall(command));
  else if (command.cmd === 'guess') reply(await guess(command));
  else if (command.cmd === 'stop-guessing') {
    stopGuessing = true;
    reply(status());
  } else if (command.cmd === 'status') reply(status());
}
for (const socket of stalls) socket.destroy();
process.exit(0);
`;

export interface SocketHolder {
  send<T = HolderStatus>(command: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export async function startSocketHolder(): Promise<SocketHolder> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async send<T>(command: Record<string, unknown>): Promise<T> {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      const next = await lines.next();
      if (next.done) throw new Error('the socket holder exited');
      return JSON.parse(next.value) as T;
    },
    async stop() {
      child.stdin!.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
