/**
 * The compatibility run's one test file (jest.compat.config.js, scripts/compat.js): every engine
 * suite of test/ in one process, each in a `describe` named after its file, over one n8n-core,
 * n8n-workflow and luxon, as one n8n process hosts many workflows. Loading n8n-core took about a
 * second of every suite's time, over half of a line's work. Each file gets its own copy of
 * everything else (jest.resetModules: the built nodes, the sandbox, the fixtures) and its own
 * workflow id (test/support/engine.ts, TEST_WORKFLOW_ID), so that a store round still under way
 * from an earlier file never touches its rows of the process's one deduplication store
 * (test/support/dedup-store.ts).
 *
 * Left out: the sandbox's own tests and the docs tests (no n8n), the deduplication lock's races
 * (a fake clock over the lock's own modules; the real 30-second takeover of an abandoned lock runs
 * once, in `npm test`) and the generated, property-based hardening suites (once, in `npm test`).
 */
import { currentSuite } from './engine';
import { fs, path, ROOT } from './node';

const TESTS = path.join(ROOT, 'test');
const LEFT_OUT = [
	/^sandbox-tests\//,
	/^docs\//,
	/^hardening\//,
	/^CampaignAlimtalk\/dedup\/lock\.(races|faults|abandoned)\.test\.ts$/,
];

function testFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(full);
		return entry.name.endsWith('.test.ts') ? [path.relative(TESTS, full)] : [];
	});
}

/* eslint-disable @typescript-eslint/no-require-imports */
const shared: Record<string, unknown> = {
	'n8n-core': require('n8n-core'),
	'n8n-workflow': require('n8n-workflow'),
	luxon: require('luxon'),
};

for (const file of testFiles(TESTS)
	.filter((name) => !LEFT_OUT.some((pattern) => pattern.test(name)))
	.sort())
	describe(file, () => {
		jest.resetModules();
		for (const [name, loaded] of Object.entries(shared)) jest.doMock(name, () => loaded);
		currentSuite.file = file;
		require(path.join(TESTS, file));
	});
