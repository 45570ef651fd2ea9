// Ramping-arrival-rate ladder for the harness: the rate climbs through STEPS
// (requests/s), each reached over RAMP seconds and held HOLD seconds; every
// request is tagged step=<rate> so that each step's latency and errors can be
// read from the points, and each step has its own thresholds (p95, failed
// rate, request count) so that the summary keeps each step's p95, failures
// and requests as sub-metrics: a summary alone is then a whole ladder.
//
// k6 run -e BASE=http://127.0.0.1:8080 -e PATH_=/db/page -e STEPS=250,500 \
//        -e RAMP=1 -e HOLD=3 -e MAXVUS=300 -e P95_MS=50 ladder.js
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';

const BASE = __ENV.BASE || 'http://127.0.0.1:8080';
const PATH = __ENV.PATH_ || '/ping';
const STEPS = (__ENV.STEPS || '100,200,400').split(',').map(Number);
const RAMP = Number(__ENV.RAMP || 1);
const HOLD = Number(__ENV.HOLD || 3);
const P95 = __ENV.P95_MS || '50';

const stages = [];
const thresholds = { http_req_duration: [`p(95)<${P95}`], http_req_failed: ['rate<0.01'] };
for (const s of STEPS) {
  stages.push({ duration: `${RAMP}s`, target: s });
  stages.push({ duration: `${HOLD}s`, target: s });
  thresholds[`http_req_duration{step:${s}}`] = [`p(95)<${P95}`];
  thresholds[`http_req_failed{step:${s}}`] = ['rate<0.01'];
  thresholds[`http_reqs{step:${s}}`] = ['count>0'];
}

export const options = {
  discardResponseBodies: true,
  scenarios: {
    ladder: {
      executor: 'ramping-arrival-rate', startRate: STEPS[0], timeUnit: '1s', stages,
      preAllocatedVUs: 20, maxVUs: Number(__ENV.MAXVUS || 300),
    },
  },
  thresholds,
};

export default function () {
  const elapsed = (Date.now() - exec.scenario.startTime) / 1000;
  const i = Math.min(STEPS.length - 1, Math.floor(elapsed / (RAMP + HOLD)));
  const res = http.get(`${BASE}${PATH}`, { tags: { step: String(STEPS[i]) } });
  check(res, { 'status is 200': (r) => r.status === 200 });
}
