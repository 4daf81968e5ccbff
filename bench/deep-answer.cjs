/**
 * What refusing a hostile answer costs: a 32 MB answer of deep nesting (`[[[[...]]]]`, valid JSON),
 * and one of 7.5 MB (under the 8 MB cap), each read from a stream by the transport's own
 * readBody() up to MAX_RESPONSE_BYTES and classified by classify(), as client.ts does. Each case
 * runs in a fresh process; the figures are its wall time and peak RSS (resident memory).
 *
 *   npm run build && node bench/deep-answer.cjs              # this tree's dist/
 *   node bench/deep-answer.cjs --root ../old-checkout        # another checkout's dist/ (built there)
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Readable } = require('node:stream');

const CASES = { '32 MB': 16 * 1024 * 1024, '7.5 MB': 3.75 * 1024 * 1024 };

async function measure(root, levels) {
	const transport = require(path.join(root, 'dist/nodes/shared/transport'));
	const { readBody } = require(path.join(root, 'dist/nodes/shared/transport/body'));
	const chunk = 64 * 1024;
	const text = `${'['.repeat(levels)}${']'.repeat(levels)}`;
	const started = process.hrtime.bigint();
	const stream = Readable.from(
		(function* () {
			for (let i = 0; i < text.length; i += chunk) yield Buffer.from(text.slice(i, i + chunk));
		})(),
	);
	const read = await readBody(stream, transport.MAX_RESPONSE_BYTES);
	const redactor = { text: (t) => t, body: (parsed) => parsed };
	const result = transport.classify({}, { status: 200, ...read }, 1, redactor);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	return {
		code: result.code,
		ms: Math.round(ms),
		peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
	};
}

if (process.argv[2] === '--child') {
	measure(process.argv[3], Number(process.argv[4])).then((r) => console.log(JSON.stringify(r)));
} else {
	const at = process.argv.indexOf('--root');
	const root = path.resolve(at > 0 ? process.argv[at + 1] : path.join(__dirname, '..'));
	for (const [name, levels] of Object.entries(CASES)) {
		const child = spawnSync(process.execPath, [__filename, '--child', root, String(levels)], {
			encoding: 'utf8',
		});
		if (child.status !== 0) throw new Error(child.stderr);
		console.log(`${name}: ${child.stdout.trim()}`);
	}
}
