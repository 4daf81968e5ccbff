/**
 * The one support module of the hardening suites (import from './support'):
 * - scan.ts: one API key for every run (`API_KEY`), the runner `run` (test/support's `runNode`
 *   with no pause between retries) that scans every output item, error, request and log line for
 *   the key, the output checks, and the counters written to test-artifacts/hardening-summary.json,
 * - fixtures.ts: sandbox set-ups, node parameters and readers of outputs,
 * - write-ops.ts: every write operation of every node as one uniform description,
 * - faults.ts: the faults a write is given and the comparisons with the fault-free run,
 * - security.ts: one scripted server per test and the scan of what reached it.
 * The generators (arbitraries*.ts), models (models*.ts) and answers (bad-answers.ts) stay beside
 * the suites.
 */
import type { Sandbox } from '../../../sandbox/types';
import { useSandbox } from '../../support';
import { API_KEY, finishSuite } from './scan';

export * from './faults';
export * from './fixtures';
export * from './scan';
export * from './security';
export * from './write-ops';

/**
 * The frame of a hardening file run against the sandbox: one sandbox that takes `API_KEY`, no
 * leak in any test (each test fails on its own), then the counters of `suite`.
 */
export function useHardeningSandbox(suite: string): Sandbox {
	const sb = useSandbox({ apiKey: API_KEY });
	finishSuite(suite);
	return sb;
}
