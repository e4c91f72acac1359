import type { Api } from './http.js';

/** Polls a bill run until it reaches `state`. */
export async function waitForRun(api: Api, id: string, state: string, timeoutMs = 30_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await api.get(`/v1/bill-runs/${id}`)).body;
    if (run.state === state) return run;
    if (Date.now() > deadline) throw new Error(`bill run ${id} did not reach ${state}: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
