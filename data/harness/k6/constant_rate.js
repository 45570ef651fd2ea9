// Constant-arrival-rate run for the harness's single-tool series: RATE
// requests/s for DURATION against BASE + PATH_.
//
// k6 run -e BASE=http://127.0.0.1:8080 -e PATH_=/ping -e RATE=500 \
//        -e DURATION=4s -e MAXVUS=100 constant_rate.js
import http from 'k6/http';
import { check } from 'k6';

const BASE = __ENV.BASE || 'http://127.0.0.1:8080';
const PATH = __ENV.PATH_ || '/ping';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    steady: {
      executor: 'constant-arrival-rate', rate: Number(__ENV.RATE || 100), timeUnit: '1s',
      duration: __ENV.DURATION || '10s', preAllocatedVUs: 20, maxVUs: Number(__ENV.MAXVUS || 100),
    },
  },
  thresholds: { http_req_duration: ['p(95)<50', 'p(99)<100'], http_req_failed: ['rate<0.01'] },
};

export default function () {
  const res = http.get(`${BASE}${PATH}`);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
