import http from 'k6/http';
import exec from 'k6/execution';
const BASE = __ENV.BASE || 'http://127.0.0.1:18081';
const STEPS = (__ENV.STEPS || '100,200,400,600').split(',').map(Number);
const HOLD = Number(__ENV.HOLD || 9);
const MODE = __ENV.MODE || 'fail-late';
const stages = [];
const thresholds = { http_req_duration: ['p(95)<50'], http_req_failed: ['rate<0.01'] };
for (const s of STEPS) {
  stages.push({ duration: '1s', target: s });
  stages.push({ duration: `${HOLD}s`, target: s });
  thresholds[`http_req_duration{step:${s}}`] = ['p(95)<50'];
  thresholds[`http_req_failed{step:${s}}`] = ['rate<0.01'];
  thresholds[`http_reqs{step:${s}}`] = ['count>0'];
}
export const options = {
  scenarios: {
    ladder: { executor: 'ramping-arrival-rate', startRate: STEPS[0], timeUnit: '1s', stages,
              preAllocatedVUs: Number(__ENV.PREVUS || 10), maxVUs: Number(__ENV.MAXVUS || 100) },
  },
  thresholds,
};
export default function () {
  const elapsed = (Date.now() - exec.scenario.startTime) / 1000;
  const i = Math.min(STEPS.length - 1, Math.floor(elapsed / (HOLD + 1)));
  const s = STEPS[i];
  let path = '/wait?ms=1';
  const slow = Number(__ENV.SLOW_MS || 20);
  if (MODE === 'fail-late') {
    if (i === STEPS.length - 2) path = '/err?p=0.05';
    if (i === STEPS.length - 1) path = '/err?p=0.2';
  } else {
    path = '/wait?ms=' + slow;
  }
  http.get(`${BASE}${path}`, { tags: { step: String(s) } });
}
