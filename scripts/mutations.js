/**
 * `npm run test:mutations`: breaks the send's deduplication engine on purpose, one mutation at a
 * time (scripts/mutation-list.js), and checks that a test fails each time.
 *
 * The tree is copied to a temporary folder (node_modules linked, not copied) and built there
 * (`npm run build`); the working tree the command runs in is never touched, and the copy is
 * removed on exit and on Ctrl-C. Per mutation: its edits applied in the copy, the edited files
 * compiled into dist/ (`build`), then jest with --bail on the file expected to catch it,
 * then, if that file passed, on every other file of test/CampaignAlimtalk/ (the engine tests, the
 * simulation, the send tests); each file stops at its first failing test (mutations-env.js). The
 * edits are undone before the next mutation.
 *
 *   npm run test:mutations                    every mutation
 *   npm run test:mutations -- 2 claim         the 2nd, and those whose name contains "claim"
 *   npm run test:mutations -- --list          the mutations, and whether each still applies
 *
 * Prints per mutation: caught (the test file and test name that failed) or SURVIVED, and the time.
 * Exits non-zero when a mutation survives, no longer applies (an edit's text is not found exactly
 * once: the code moved, update the list), does not build, or a test file fails outside its tests.
 * It assumes the tests pass on the unmutated tree (CI runs it after `npm test`).
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MUTATIONS } = require('./mutation-list');

const ROOT = path.resolve(__dirname, '..');
const ENGINE = 'nodes/CampaignAlimtalk';
const TESTS = 'test/CampaignAlimtalk';
/** The jest configuration of the copy: the project's, its tests compiled without a type check. */
const MUTATIONS_JEST = '.mutations-jest.config.js';
/** Top-level folders not copied: built or installed, never an input of the tests. */
const NOT_COPIED = new Set(['.git', 'dist', 'build', 'test-artifacts', 'coverage', '.n8n-runtime']);

const state = { copy: undefined, child: undefined, options: undefined };

function seconds(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** The text of an edit's lines. */
const text = (lines) => lines.join('\n');

/** Why `mutation` does not apply to the sources under `root`, or undefined. */
function notApplying(root, mutation) {
	const problems = [];
	for (const edit of mutation.edits) {
		const file = path.join(root, ENGINE, edit.file);
		if (!fs.existsSync(file)) {
			problems.push(`${edit.file} is missing`);
			continue;
		}
		const found = fs.readFileSync(file, 'utf8').split(text(edit.from)).length - 1;
		if (found !== 1)
			problems.push(`${edit.file}: "${edit.from[0].trim()}..." found ${found} times, not once`);
	}
	if (!fs.existsSync(path.join(root, mutation.test)))
		problems.push(`the expected test ${mutation.test} is missing`);
	return problems.length > 0 ? problems.join('; ') : undefined;
}

/** The compiled file of a source of the engine, in the copy's dist/. */
const compiled = (copy, file) => path.join(copy, 'dist', ENGINE, file.replace(/\.ts$/, '.js'));

/** Applies the edits in the copy; returns a function that puts the files back, compiled ones too. */
function apply(copy, mutation) {
	const originals = new Map();
	for (const edit of mutation.edits) {
		const file = path.join(copy, ENGINE, edit.file);
		if (!originals.has(file)) originals.set(file, fs.readFileSync(file, 'utf8'));
		const js = compiled(copy, edit.file);
		if (!originals.has(js)) originals.set(js, fs.readFileSync(js, 'utf8'));
		const source = fs.readFileSync(file, 'utf8');
		fs.writeFileSync(
			file,
			source.replace(text(edit.from), () => text(edit.to)),
		);
	}
	return () => originals.forEach((source, file) => fs.writeFileSync(file, source));
}

/** Runs a command in the copy, its output to `log`; resolves with its exit code. */
function run(command, args, log, env = {}) {
	return new Promise((resolve, reject) => {
		const out = fs.openSync(log, 'w');
		// Its own process group: a stop ends jest and its workers together.
		const child = spawn(command, args, {
			cwd: state.copy,
			stdio: ['ignore', out, out],
			detached: true,
			env: { ...process.env, FORCE_COLOR: '0', ...env },
		});
		state.child = child;
		child.on('error', reject);
		child.on('close', (code) => {
			// What it leaves running (jest's workers after --bail) ends with it.
			stopGroup(child);
			state.child = undefined;
			fs.closeSync(out);
			resolve(code ?? 1);
		});
	});
}

const tail = (file) => fs.readFileSync(file, 'utf8').trim().split('\n').slice(-30).join('\n');

/** Every test file of the send, relative to the root. */
function testFiles(root) {
	const found = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
			const rel = `${dir}/${entry.name}`;
			if (entry.isDirectory()) walk(rel);
			else if (entry.name.endsWith('.test.ts')) found.push(rel);
		}
	};
	walk(TESTS);
	return found.sort();
}

/**
 * jest --bail on `files`, each file stopped at its first failing test (scripts/mutations-env.js):
 * `{ failed: { file, test, message } }`, `{ passed: true }`, or `{ error }` when jest failed
 * without a failing test (a file that does not load, a hook).
 */
async function jest(files, label) {
	const failures = path.join(state.copy, `.mutations-${label}.jsonl`);
	const log = path.join(state.copy, `.mutations-${label}.log`);
	fs.writeFileSync(failures, '');
	const args = [
		path.join('node_modules', 'jest', 'bin', 'jest.js'),
		'--bail',
		'--ci',
		`--config=${path.join(state.copy, MUTATIONS_JEST)}`,
		`--testEnvironment=${path.join(state.copy, 'scripts', 'mutations-env.js')}`,
		`--cacheDirectory=${path.join(state.copy, '.jest-cache')}`,
		'--runTestsByPath',
		...files,
	];
	const code = await run(process.execPath, args, log, { MUTATIONS_FAILURES: failures });
	const [first] = fs.readFileSync(failures, 'utf8').split('\n').filter(Boolean);
	if (first) {
		const failed = JSON.parse(first);
		return { failed: { ...failed, file: path.relative(state.copy, failed.file) } };
	}
	if (code !== 0)
		return { error: `jest failed (exit ${code}) with no failing test:\n${tail(log)}` };
	return { passed: true };
}

/**
 * Compiles the files a mutation edits into the copy's dist/, one by one (TypeScript's
 * transpileModule with the project's compiler options): a second or two, where tsc over the whole
 * project took about 20 s a mutation. No type check: a mutation is a small reviewed edit, and a
 * syntax error still ends it as 'does not build'.
 */
function build(mutation) {
	const ts = require(path.join(state.copy, 'node_modules', 'typescript'));
	// The project's compiler options, read once a run.
	state.options ??= ts.getParsedCommandLineOfConfigFile(
		path.join(state.copy, 'tsconfig.json'),
		{},
		{ ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
	).options;
	const problems = [];
	for (const file of new Set(mutation.edits.map((edit) => edit.file))) {
		const source = path.join(state.copy, ENGINE, file);
		const out = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
			compilerOptions: { ...state.options, sourceMap: false, declaration: false },
			fileName: source,
			reportDiagnostics: true,
		});
		for (const d of out.diagnostics ?? [])
			problems.push(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
		fs.writeFileSync(compiled(state.copy, file), out.outputText);
	}
	return problems.length > 0 ? problems.join('\n') : undefined;
}

/** One mutation: applied, built, tested, undone. */
async function tryMutation(mutation) {
	const started = Date.now();
	const undo = apply(state.copy, mutation);
	const times = {};
	try {
		const failed = build(mutation);
		times.build = Date.now() - started;
		if (failed !== undefined) return { outcome: 'does not build', detail: failed, times };
		const first = await jest([mutation.test], 'expected');
		const rest = () => testFiles(state.copy).filter((file) => file !== mutation.test);
		const result = 'passed' in first ? await jest(rest(), 'rest') : first;
		times.tests = Date.now() - started - times.build;
		if ('error' in result) return { outcome: 'error', detail: result.error, times };
		if ('passed' in result)
			return { outcome: 'SURVIVED', detail: `no test of ${TESTS}/ failed`, times };
		const { file, test, message } = result.failed;
		const where = file === mutation.test ? '' : ` (not ${path.basename(mutation.test)})`;
		return { outcome: 'caught', by: `${file} › ${test}${where}`, detail: message, times };
	} finally {
		undo();
	}
}

/** The mutations `argv` names (all when none), and whether to list them only; throws on a wrong word. */
function parse(argv) {
	const unknown = argv.find((arg) => arg.startsWith('-') && arg !== '--list');
	if (unknown !== undefined) throw new Error(`Unknown option '${unknown}'`);
	const words = argv.filter((arg) => !arg.startsWith('-'));
	// A number is a place in the list, a word part of a name.
	const matches = (m, word) =>
		/^\d+$/.test(word)
			? word === String(MUTATIONS.indexOf(m) + 1)
			: m.name.toLowerCase().includes(word.toLowerCase());
	const none = words.find((word) => !MUTATIONS.some((m) => matches(m, word)));
	if (none !== undefined)
		throw new Error(`no mutation is numbered or named "${none}" (--list shows them)`);
	const chosen = MUTATIONS.filter((m) => words.length === 0 || words.some((w) => matches(m, w)));
	return { list: argv.includes('--list'), chosen };
}

function makeCopy() {
	state.copy = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-mutations-'));
	fs.cpSync(ROOT, state.copy, {
		recursive: true,
		filter: (src) => {
			const rel = path.relative(ROOT, src);
			return !NOT_COPIED.has(rel.split(path.sep)[0]) && path.basename(src) !== 'node_modules';
		},
	});
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(state.copy, 'node_modules'), 'dir');
	// The tests compiled without a type check (CI's typecheck step checks them): ts-jest's type
	// check of a file took most of the 15 to 20 s a mutation's tests ran.
	const tsconfig = { extends: './test/tsconfig.json', compilerOptions: { isolatedModules: true } };
	fs.writeFileSync(path.join(state.copy, '.mutations-tsconfig.json'), JSON.stringify(tsconfig));
	fs.writeFileSync(
		path.join(state.copy, MUTATIONS_JEST),
		`const base = require('./jest.config.js');
module.exports = {
	...base,
	transform: { '^.+\\\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/.mutations-tsconfig.json' }] },
};
`,
	);
}

function stopGroup(child) {
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		// already gone
	}
}

function cleanUp() {
	if (state.child) stopGroup(state.child);
	if (state.copy) fs.rmSync(state.copy, { recursive: true, force: true, maxRetries: 5 });
	state.copy = undefined;
}

/** ` (build 9s, tests 20s)`, or nothing when neither ran. */
function timesOf({ build, tests }) {
	const parts = [build && `build ${seconds(build)}`, tests && `tests ${seconds(tests)}`];
	const text = parts.filter(Boolean).join(', ');
	return text ? ` (${text})` : '';
}

async function main({ list, chosen: picked }) {
	const chosen = picked.map((m) => ({ ...m, n: MUTATIONS.indexOf(m) + 1 }));
	if (list) {
		let applying = 0;
		for (const m of chosen) {
			const problem = notApplying(ROOT, m);
			if (!problem) applying++;
			console.log(`${m.n}. ${m.name} [${problem ? `does not apply: ${problem}` : 'applies'}]`);
			console.log(`   ${m.why}\n   expected to be caught by ${m.test}`);
		}
		return applying === chosen.length ? 0 : 1;
	}
	const started = Date.now();
	makeCopy();
	console.log(
		`mutations: ${chosen.length} of ${MUTATIONS.length}, in a copy of the tree: ${state.copy}`,
	);
	const buildLog = path.join(state.copy, '.mutations-build.log');
	if ((await run('npm', ['run', 'build'], buildLog)) !== 0) {
		console.log(`the unmutated copy does not build:\n${tail(buildLog)}`);
		return 1;
	}
	console.log(`built (npm run build) in ${seconds(Date.now() - started)}`);
	const summary = [];
	for (const m of chosen) {
		const files = [...new Set(m.edits.map((edit) => `${ENGINE}/${edit.file}`))].join(', ');
		console.log(`\n[${m.n}/${MUTATIONS.length}] ${m.name} (${files})\n    ${m.why}`);
		const problem = notApplying(state.copy, m);
		const result = problem
			? { outcome: 'does not apply', detail: problem, times: {} }
			: await tryMutation(m);
		const lines = [result.by, result.detail].filter(Boolean).join('\n').split('\n');
		console.log(`  ${result.outcome}${timesOf(result.times)}\n    ${lines.join('\n    ')}`);
		summary.push({ m, ...result });
	}
	const caught = summary.filter((s) => s.outcome === 'caught').length;
	console.log(
		`\nMutations: ${caught} of ${summary.length} caught, in ${seconds(Date.now() - started)}`,
	);
	for (const s of summary) {
		const by = s.by ? `: ${s.by}` : '';
		console.log(`  ${s.outcome.padEnd(14)} ${s.m.n}. ${s.m.name}${timesOf(s.times)}${by}`);
	}
	return caught === summary.length ? 0 : 1;
}

if (require.main === module) {
	process.on('exit', cleanUp);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
		process.on(signal, () => {
			console.error(`\nmutations: ${signal}: stopped; the temporary copy is removed`);
			cleanUp();
			process.exit(130);
		});
	let parsed;
	try {
		parsed = parse(process.argv.slice(2));
	} catch (error) {
		console.error(`npm run test:mutations: ${error.message}`);
		process.exit(2);
	}
	main(parsed).then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
