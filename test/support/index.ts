/**
 * The test support every suite uses (import from './'):
 * - engine.ts: runWorkflow / runNode through n8n-core's real WorkflowExecute, with the package
 *   loaded from dist/ (package-loader.ts; from the sources under `npm run test:unit`) and n8n's
 *   log lines in `logLines`,
 * - sandbox.ts: `useSandbox(options)`, one API sandbox per file, put back before each test,
 * - paired.ts: pairedItem readers and the "every input accounted for" checks,
 * - conservation.ts: the output promises of a write (two outputs, Failed items, no row on both),
 * - error-output.ts: where the engine puts error items under "Continue (using error output)",
 * - speed.ts: FAST / withFast (no pause between retries),
 * - dialects.ts: the two data nodes (custom data v2, legacy data v1) as test cases,
 * - scripted-server.ts: a server that answers what a test scripts (for answers the sandbox never gives),
 * - node.ts: Node's own APIs (the linter's one exemption, see sandbox/node.ts).
 * The jest plumbing (global-setup.js with the check that dist/ is current, jest-setup.js,
 * from-sources.js for `npm run test:unit`, summary-reporter.js) lives here too.
 */
export * from './conservation';
export * from './dialects';
export * from './engine';
export * from './error-output';
export * from './paired';
export * from './sandbox';
export * from './speed';
