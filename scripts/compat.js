/**
 * `npm run test:compat`: the in-process engine suites (test/, run through n8n-core's
 * WorkflowExecute by test/support/engine.ts) against several n8n release lines.
 *
 * Each line's n8n-core and n8n-workflow are installed on first use into their own folder outside
 * the repository (`<cache>/n8n-nodes-campaign-messaging/compat-<line>`, next to the local n8n
 * runtime), then jest runs with those two packages mapped in place of the dev tree's copies
 * (jest.compat.config.js). Lines whose n8n release requires Node 24 run on the Node 24 binary of
 * the local n8n runtime (scripts/runtime/ prepares it).
 *
 *   node scripts/compat.js            every line
 *   node scripts/compat.js 2.0 1.123  only these lines
 *   node scripts/compat.js --list     the lines and their folders
 *
 * Prints one summary line per line (installed or cached, test counts, time) and exits non-zero
 * when any line fails.
 *
 * What runs where: every line (the newest, 2.41, is the dev tree's own n8n-core and n8n-workflow,
 * here on the Node 24 that n8n 2.41 requires) runs the engine suites, which are what differs from
 * one line to the next. The generated, property-based hardening suites (test/hardening/: the same
 * properties through the same engine, about 40% of a line's time) run once, in `npm test`, on the
 * dev tree's n8n-core and n8n-workflow. A line's suites run in one jest test file, over one load of
 * n8n-core (test/support/compat-suites.ts), and every line at once, each jest in its own process
 * (COMPAT_PARALLEL=1 runs them one after the other): a line then spends most of its time in its
 * suites' own waits (2026-11-27, 2 cores: 453 s for the four lines two at a time and one suite file
 * each; 209 s two at a time in one file each; 174 s all at once). The deduplication simulation runs
 * 40 of its seeded schedules on each line (`SIM_SCHEDULES`), the 150 of `npm test` once.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const runtime = require('./runtime');
const { NODE_PACKAGE } = require('./runtime/paths');
const { ensureInstalled, folderOf } = require('./runtime/cache-install');

/**
 * The release lines tested. `core`/`workflow` are what that n8n release pins (n8n 2.34.2 pins
 * n8n-core 2.34.1, which does not install from this registry: 2.34.2 with its own n8n-workflow is
 * used). `node` is the Node major the line runs on (20 = the machine's own Node, 24 = the local
 * runtime's), as the n8n release's engines field asks.
 */
const LINES = [
	{ line: '2.41', n8n: '2.41.1', core: '2.41.1', workflow: '2.41.0', node: 24 },
	{ line: '2.34', n8n: '2.34.2', core: '2.34.2', workflow: '2.34.2', node: 24 },
	{ line: '2.0', n8n: '2.0.0', core: '2.0.0', workflow: '2.0.0', node: 20 },
	{
		line: '1.123',
		n8n: '1.123.81',
		core: '1.122.48',
		workflow: '1.120.31',
		node: 20,
	},
];

/**
 * The deduplication simulation's schedules on each line (SIM_SCHEDULES overrides it). `npm test`
 * runs 150 on the dev tree's n8n-core; a line runs fewer, enough for every fault kind to meet that
 * line's deduplication store and WorkflowExecute (the simulation was about 30% of a line's time).
 */
const SIM_SCHEDULES = 40;

/** Lines run at once: all of them, unless COMPAT_PARALLEL says. */
function parallelism() {
	const asked = Number(process.env.COMPAT_PARALLEL);
	if (Number.isInteger(asked) && asked >= 1) return asked;
	return LINES.length;
}

function folderName(entry) {
	return `compat-${entry.line}`;
}

function lineDir(entry) {
	return folderOf(folderName(entry));
}

function ensureLine(entry) {
	return ensureInstalled(
		folderName(entry),
		{ 'n8n-core': entry.core, 'n8n-workflow': entry.workflow },
		{ label: `n8n-core ${entry.core} + n8n-workflow ${entry.workflow} (n8n ${entry.n8n})` },
	);
}

/**
 * The Node binary for a line: the machine's own for Node 20 lines; for Node 24 lines the local n8n
 * runtime's when it is prepared (npm start and the end-to-end tests prepare it), else the same
 * Node 24 release installed on its own (a few seconds; no need for the 3 GB runtime).
 */
async function nodeFor(entry) {
	if (entry.node === Number(process.versions.node.split('.')[0])) return process.execPath;
	if (entry.node !== 24)
		throw new Error(`compat ${entry.line}: run the matrix on Node 20 (found ${process.version})`);
	const prepared = runtime.runtimePaths();
	if (fs.existsSync(prepared.marker) && fs.existsSync(prepared.node)) return prepared.node;
	const { dir } = await ensureInstalled(`node-${runtime.NODE_VERSION}`, {
		[NODE_PACKAGE]: runtime.NODE_VERSION,
	});
	return path.join(dir, 'node_modules', NODE_PACKAGE, 'bin', 'node');
}

/** Runs jest with the line's packages; resolves with its exit code, counts and time. */
async function runLine(entry, nodeBin) {
	const started = Date.now();
	const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), `compat-${entry.line}-`));
	const resultsFile = path.join(resultsDir, 'jest-results.json');
	const jest = path.join(runtime.ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const args = [jest, '-c', 'jest.compat.config.js', '--json', `--outputFile=${resultsFile}`];
	let code = 0;
	let output = '';
	try {
		const result = await runtime.run(nodeBin, args, {
			cwd: runtime.ROOT,
			env: {
				...process.env,
				COMPAT_DIR: lineDir(entry),
				SIM_SCHEDULES: process.env.SIM_SCHEDULES ?? String(SIM_SCHEDULES),
			},
			label: `jest (compat ${entry.line})`,
		});
		output = result.stderr;
	} catch (error) {
		code = error.result?.code ?? 1;
		output = error.result ? error.result.stderr : String(error);
	}
	let counts;
	try {
		const json = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
		// One jest file holds every suite, each in a describe named after its file.
		const files = new Set(
			json.testResults.flatMap((r) => r.assertionResults.map((a) => a.ancestorTitles[0])),
		);
		counts = { passed: json.numPassedTests, failed: json.numFailedTests, suites: files.size };
	} catch {
		counts = undefined;
	} finally {
		fs.rmSync(resultsDir, { recursive: true, force: true });
	}
	return { code, counts, output, ms: Date.now() - started };
}

/** One line's jest run; its summary line (PASS or FAIL, counts, times). */
async function testLine({ entry, installMs, nodeBin, nodeVersion }) {
	runtime.log(
		`compat ${entry.line}: jest on Node ${nodeVersion} with n8n-core ${entry.core}, n8n-workflow ${entry.workflow} (the engine suites)`,
	);
	const result = await runLine(entry, nodeBin);
	if (result.code !== 0)
		process.stderr.write(`compat ${entry.line} failed:\n${result.output.slice(-20000)}\n`);
	const counts = result.counts
		? `${result.counts.passed} passed, ${result.counts.failed} failed in ${result.counts.suites} suites`
		: 'no results';
	const line =
		`${result.code === 0 ? 'PASS' : 'FAIL'}  n8n ${entry.line} (n8n-core ${entry.core}, n8n-workflow ${entry.workflow}) on Node ${nodeVersion}, engine suites: ` +
		`${counts}; install ${installMs ? runtime.formatDuration(installMs) : 'cached'}, tests ${runtime.formatDuration(result.ms)}`;
	runtime.log(line);
	return line;
}

async function main(argv) {
	if (argv.includes('--list')) {
		for (const entry of LINES) {
			console.log(
				`${entry.line}\tn8n ${entry.n8n}\tn8n-core ${entry.core}\tn8n-workflow ${entry.workflow}\tNode ${entry.node}\t${lineDir(entry)}`,
			);
		}
		return 0;
	}
	const wanted = argv.filter((arg) => !arg.startsWith('-'));
	const unknown = wanted.filter((line) => !LINES.some((entry) => entry.line === line));
	if (unknown.length > 0)
		throw new Error(
			`unknown line(s) ${unknown.join(', ')}; known: ${LINES.map((e) => e.line).join(', ')}`,
		);
	const lines = wanted.length > 0 ? LINES.filter((entry) => wanted.includes(entry.line)) : LINES;
	await runtime.ensureBuilt();

	// Installs one after the other (npm and its cache), then the lines' jest runs, a few at once.
	const prepared = [];
	for (const entry of lines) {
		const { ms: installMs } = await ensureLine(entry);
		const nodeBin = await nodeFor(entry);
		const nodeVersion = (await runtime.run(nodeBin, ['--version'])).stdout.trim();
		prepared.push({ entry, installMs, nodeBin, nodeVersion });
	}
	const summary = new Array(prepared.length);
	let next = 0;
	const lane = async () => {
		while (next < prepared.length) {
			const i = next++;
			summary[i] = await testLine(prepared[i]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(parallelism(), prepared.length) }, lane));
	console.log(`\nCompatibility matrix\n${summary.map((line) => `  ${line}`).join('\n')}`);
	return summary.every((line) => line.startsWith('PASS')) ? 0 : 1;
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}

module.exports = { LINES, lineDir };
