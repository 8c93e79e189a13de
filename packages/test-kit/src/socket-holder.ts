/**
 * Sockets held open against a server from another process, as an attacker's machine would hold them (the test's loop
 * stays free to measure). Commands, one JSON line each way: `stall` (count sockets send a POST's headers and a few
 * body bytes, then stay silent), `guess` (count guessers, each its own X-Forwarded-For address and raw socket with its
 * request built once, as cheap as another machine's; in waves; with `repeatForMs` each guesses again once answered),
 * `stop-guessing`, `status` (answers so far, by status).
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
// The request bytes of guesser i, built once: an attacker's tool sends the same bytes again and again.
function guessRequest({ url, path, headers = {}, body }, i, keepAlive) {
  const lines = ['POST ' + path + ' HTTP/1.1', 'Host: ' + new URL(url).host];
  for (const [name, value] of Object.entries(headers)) lines.push(name + ': ' + value);
  lines.push('X-Forwarded-For: ' + address('10.2', i), 'Content-Length: ' + Buffer.byteLength(body), 'Connection: ' + (keepAlive ? 'keep-alive' : 'close'));
  return Buffer.from(lines.join('\\r\\n') + '\\r\\n\\r\\n' + body);
}
// Reads HTTP/1.1 answers off one socket (Content-Length or chunked bodies); onAnswer(status, closes) for each complete one.
function answerReader(onAnswer) {
  let pending = Buffer.alloc(0);
  let head;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (head === undefined) {
        const end = pending.indexOf('\\r\\n\\r\\n');
        if (end < 0) return;
        const text = pending.subarray(0, end).toString('latin1');
        pending = pending.subarray(end + 4);
        const length = /\\r\\ncontent-length:\\s*(\\d+)/i.exec(text);
        head = { status: Number(text.slice(9, 12)), length: length ? Number(length[1]) : /\\r\\ntransfer-encoding:[^\\r]*chunked/i.test(text) ? -1 : 0, closes: /\\r\\nconnection:\\s*close/i.test(text) };
      }
      if (head.length >= 0) {
        if (pending.length < head.length) return;
        pending = pending.subarray(head.length);
      } else {
        const line = pending.indexOf('\\r\\n');
        if (line < 0) return;
        const size = parseInt(pending.subarray(0, line).toString('latin1'), 16);
        const needed = line + 2 + (size > 0 ? size + 2 : 2);
        if (pending.length < needed) return;
        pending = pending.subarray(needed);
        if (size > 0) continue;
      }
      const { status, closes } = head;
      head = undefined;
      onAnswer(status, closes);
    }
  };
}
// Guesser i on raw sockets (pre-built request, a small answer reader: the attacker's CPU is not the server's to pay
// on a shared machine); resolves once its first request is written.
function guesser(command, i, until) {
  const repeating = command.repeatForMs !== undefined;
  const { hostname, port } = new URL(command.url);
  const request = guessRequest(command, i, repeating);
  guessing++;
  return new Promise((written) => {
    let socket;
    let inFlight = false;
    let reconnect = false;
    const send = () => {
      if (socket === undefined || reconnect || socket.destroyed) connect();
      guesses++;
      inFlight = true;
      socket.write(request, () => written());
    };
    const answered = (status, closes = false) => {
      if (!inFlight) return;
      inFlight = false;
      reconnect = closes;
      guessesAnswered++;
      guessStatuses[status] = (guessStatuses[status] ?? 0) + 1;
      answersOf[i]++;
      if (repeating && !stopGuessing && Date.now() < until) return send();
      guessing--;
      socket.destroy();
    };
    const connect = () => {
      if (socket !== undefined) socket.destroy();
      reconnect = false;
      const own = net.connect(Number(port), hostname);
      socket = own;
      own.setNoDelay(true);
      own.on('data', answerReader(answered));
      own.on('error', () => {});
      own.on('close', () => {
        if (socket === own) answered('error');
      });
    };
    send();
  });
}
async function guess(command) {
  const { count, wave = count, everyMs = 0, repeatForMs } = command;
  const until = Date.now() + (repeatForMs ?? 0);
  stopGuessing = false;
  answersOf = new Array(count).fill(0);
  const written = [];
  for (let first = 0; first < count; first += wave) {
    if (first > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    for (let i = first; i < Math.min(count, first + wave); i++) written.push(guesser(command, i, until));
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
  /** The holder's process id (its CPU time: /proc/<pid>/stat). */
  pid: number;
  send<T = HolderStatus>(command: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export async function startSocketHolder(): Promise<SocketHolder> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
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
