/**
 * Summarizes the profiles `npm run bench -- --profile` (CPU) or `--heap-profile` (allocations)
 * writes to build/bench/profiles, so that a missed target can be traced to a place:
 *
 *   node bench/profile-summary.mjs build/bench/profiles/create.package.100k.2.cpuprofile [top]
 *
 * CPU: self time by function, then inclusive time by module (this package's dist/, n8n-core,
 * n8n-workflow, axios, ...), then inclusive time by function of this package.
 * Heap: bytes allocated by function, then by the innermost function of this package on the stack.
 */
import fs from 'node:fs';
import path from 'node:path';

const [file, topArg] = process.argv.slice(2);
if (!file) {
	process.stderr.write(
		'usage: node bench/profile-summary.mjs <file.cpuprofile|file.heapprofile> [top]\n',
	);
	process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const shortUrl = (url) =>
	url
		.replace(/^file:\/\//, '')
		.replace(/.*node_modules\//, '')
		.replace(`${ROOT}/`, '');
const frameName = (frame) =>
	`${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
const moduleOf = (url) => {
	if (url.includes('/node_modules/'))
		return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
	if (url.includes(`${ROOT}/dist/`)) return 'this package (dist/)';
	if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
	return url === '' ? '(V8 / native)' : shortUrl(url);
};
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const mb = (bytes) => (bytes / 1048576).toFixed(1).padStart(7);
const print = (title, map, unit) => {
	process.stdout.write(`--- ${title}\n`);
	for (const [key, value] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
		process.stdout.write(`${unit(value)}  ${key}\n`);
};

if (profile.head) {
	// Sampling heap profile: a tree with selfSize per node.
	const byFunction = new Map();
	const byPackageFrame = new Map();
	let total = 0;
	const walk = (node, stack) => {
		const here = [...stack, node.callFrame];
		total += node.selfSize;
		byFunction.set(
			frameName(node.callFrame),
			(byFunction.get(frameName(node.callFrame)) ?? 0) + node.selfSize,
		);
		const own = [...here].reverse().find((f) => f.url.includes(`${ROOT}/dist/`));
		const key = own ? frameName(own) : '(outside this package)';
		byPackageFrame.set(key, (byPackageFrame.get(key) ?? 0) + node.selfSize);
		for (const child of node.children) walk(child, here);
	};
	walk(profile.head, []);
	process.stdout.write(`allocated (sampled): ${(total / 1048576).toFixed(1)} MB\n`);
	print('MB allocated by function', byFunction, mb);
	print("MB allocated under this package's functions (innermost)", byPackageFrame, mb);
} else {
	// CPU profile: nodes with parents, samples with time deltas.
	const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const self = new Map();
	profile.samples.forEach((id, i) =>
		self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
	);
	const selfByFunction = new Map();
	const byModule = new Map();
	const byPackageFunction = new Map();
	let total = 0;
	for (const [id, time] of self) {
		total += time;
		const frame = nodes.get(id).callFrame;
		selfByFunction.set(frameName(frame), (selfByFunction.get(frameName(frame)) ?? 0) + time);
		const modules = new Set();
		const functions = new Set();
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
			const f = nodes.get(cur).callFrame;
			modules.add(moduleOf(f.url));
			if (f.url.includes(`${ROOT}/dist/`)) functions.add(frameName(f));
		}
		for (const m of modules) byModule.set(m, (byModule.get(m) ?? 0) + time);
		for (const f of functions) byPackageFunction.set(f, (byPackageFunction.get(f) ?? 0) + time);
	}
	const idle = selfByFunction.get('(idle) :0') ?? 0;
	process.stdout.write(
		`profiled: ${(total / 1000).toFixed(0)} ms, of which idle ${(idle / 1000).toFixed(0)} ms\n`,
	);
	print('ms self time by function', selfByFunction, ms);
	print(
		'ms inclusive by module (a sample counts once for every module on its stack)',
		byModule,
		ms,
	);
	print(
		"ms inclusive by this package's functions (synchronous parts; work after an await starts a new stack)",
		byPackageFunction,
		ms,
	);
}
