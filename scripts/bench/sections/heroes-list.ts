/**
 * GET /heroes, valid token, 10 heroes, 50 connections, against the raw anchor run right after. Goal ≥ 1.0× its
 * throughput, p99 < 10 ms, CPU per request ≤ 1.5× (the figure noise moves least; `layers` splits it). Then the same
 * with a browser's Accept-Encoding (every answer gzipped; the anchor never gzips), without a goal. Seeds 10 heroes.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { expectOk, post } from '../lib/http.ts';
import { runLoad, throughput } from '../lib/load.ts';
import { freePort, spawnNode, stopProcess, waitForPort } from '../lib/processes.ts';
import { formatCpu, meterCpu } from '../lib/cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { Section } from './section.ts';

const CPU_GOAL = 1.5;
/** What a browser sends (Chromium, Firefox): the gzip figure's header. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export const heroesList: Section = {
  name: 'heroes',
  async run(ctx) {
    const auth = { authorization: `Bearer ${ctx.token}` };
    for (let i = 1; i <= 10; i++) {
      const name = `Bench hero ${i} ${crypto.randomBytes(3).toString('hex')}`;
      await expectOk(await post(`${ctx.baseUrl}/heroes`, { ...auth, 'content-type': 'application/json' }, JSON.stringify({ name })), 'create hero');
    }
    const anchorPort = await freePort();
    const anchor = spawnNode(
      'raw-anchor',
      path.join(import.meta.dirname, '..', 'raw-anchor-server.ts'),
      { ...process.env, DATABASE_URL: ctx.databaseUrl, PORT: String(anchorPort) },
      import.meta.dirname,
      ctx.logDir,
      ctx.say,
    );
    try {
      await waitForPort(anchorPort);
      const anchorUrl = `http://127.0.0.1:${anchorPort}/heroes`;
      ctx.say('warming up GET /heroes (service and raw anchor)');
      await runLoad({ url: `${ctx.baseUrl}/heroes`, connections: 50, duration: 3, headers: auth });
      await runLoad({ url: anchorUrl, connections: 50, duration: 3, headers: auth });
      ctx.say(`GET /heroes: 50 connections, ${ctx.duration} s, service then raw anchor`);
      const serviceCpu = meterCpu(ctx.pids.resource);
      const service = await runLoad({ url: `${ctx.baseUrl}/heroes`, connections: 50, duration: ctx.duration, headers: auth });
      const serviceUs = serviceCpu.perRequest(service.requests.total);
      const rawCpu = meterCpu(anchor.pid);
      const raw = await runLoad({ url: anchorUrl, connections: 50, duration: ctx.duration, headers: auth });
      const rawUs = rawCpu.perRequest(raw.requests.total);
      const gzipAuth = { ...auth, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
      ctx.say(`GET /heroes with Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}: 50 connections, ${ctx.duration} s`);
      await runLoad({ url: `${ctx.baseUrl}/heroes`, connections: 50, duration: 3, headers: gzipAuth });
      const gzipCpu = meterCpu(ctx.pids.resource);
      const gzipped = await runLoad({ url: `${ctx.baseUrl}/heroes`, connections: 50, duration: ctx.duration, headers: gzipAuth });
      const gzipUs = gzipCpu.perRequest(gzipped.requests.total);
      if (raw.non2xx > 0 || service.non2xx > 0 || gzipped.non2xx > 0) {
        ctx.say(`non-2xx answers: service ${service.non2xx}, with gzip ${gzipped.non2xx}, anchor ${raw.non2xx}`);
      }
      const ratio = throughput(service) / throughput(raw);
      const cpuRatio = serviceUs !== undefined && rawUs !== undefined ? serviceUs / rawUs : undefined;
      const gzipCpuRatio = gzipUs !== undefined && rawUs !== undefined ? gzipUs / rawUs : undefined;
      const anchorText = `raw node:http + pg ${formatRate(throughput(raw))}, p99 ${raw.latency.p99} ms${formatCpu(rawUs)}`;
      return [{
        figure: 'GET /heroes (10 heroes, 50 conn.)',
        value: `${formatRate(throughput(service))}, p99 ${service.latency.p99} ms${formatCpu(serviceUs)}${cpuRatio === undefined ? '' : ` (${cpuRatio.toFixed(2)}× anchor)`}`,
        anchor: anchorText,
        ratio,
        goal: `≥ 1.0× anchor, p99 < 10 ms, CPU/req ≤ ${CPU_GOAL}× anchor`,
        meets: ratio >= 1 && service.latency.p99 < 10 && service.non2xx === 0 && (cpuRatio === undefined || cpuRatio <= CPU_GOAL),
      }, {
        figure: 'GET /heroes with Accept-Encoding: gzip (10 heroes, 50 conn.)',
        value: `${formatRate(throughput(gzipped))}, p99 ${gzipped.latency.p99} ms${formatCpu(gzipUs)}${gzipCpuRatio === undefined ? '' : ` (${gzipCpuRatio.toFixed(2)}× anchor)`}`,
        anchor: anchorText,
        ratio: throughput(gzipped) / throughput(raw),
      }];
    } finally {
      await stopProcess(anchor.child);
    }
  },
};
