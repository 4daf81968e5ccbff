#!/usr/bin/env node
/**
 * Makes the simulation's store timing (test/CampaignAlimtalk/dedup/sim-timing.json) from real
 * queue-mode traces (scripts/sim-trace-read.js): per kind of call and row, SAMPLE real calls
 * (drawn with a fixed seed), each as its steps' times before the database ran them and after,
 * until the answer was back in the n8n process. Whole calls, not each step on its own: a call
 * slow before its read is often slow before its write too (test/CampaignAlimtalk/dedup/
 * sim-timing.ts). The other distributions of the file (the service, the queue's dispatch and
 * answer) are kept.
 *
 *   node scripts/sim-calibrate.js <trace folder> [...] --source "<words>" [--out <file>]
 *
 * Calls with a statement the statement log did not match are left out (their split is unknown).
 */
const fs = require('node:fs');
const path = require('node:path');
const { readTrace } = require('./sim-trace-read');
// The sandbox's seeded chance (TypeScript, loaded from source), so the same traces give the same file.
require('../bench/ts-hook.cjs');
const { mulberry32: chance } = require('../sandbox/faults.ts');

const FILE = path.join(__dirname, '..', 'test/CampaignAlimtalk/dedup/sim-timing.json');
const SAMPLE = 300;

const round = (ms) => Math.round(Math.max(0, ms) * 10) / 10;

function main() {
	const args = process.argv.slice(2);
	const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
	const source = option('--source');
	const out = option('--out') ?? FILE;
	const dirs = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
	if (dirs.length === 0 || !source) {
		console.error('usage: node scripts/sim-calibrate.js <trace folder> ... --source "<words>"');
		process.exit(2);
	}
	const calibration = JSON.parse(fs.readFileSync(out, 'utf8'));
	const byKind = {};
	for (const dir of dirs)
		for (const call of readTrace(dir)) {
			if (!call.steps?.length || call.steps.some((s) => !s.matched)) continue;
			(byKind[`${call.op}.${call.row}`] ??= []).push(
				call.steps.flatMap((s) => [round(s.before), round(s.after)]),
			);
		}
	const random = chance(57);
	const calls = {};
	for (const [kind, all] of Object.entries(byKind).sort()) {
		const pool = [...all];
		const n = Math.min(SAMPLE, pool.length);
		calls[kind] = Array.from(
			{ length: n },
			() => pool.splice(Math.floor(random() * pool.length), 1)[0],
		);
		console.log(`${kind}: ${n} of ${all.length} calls`);
	}
	const next = {
		source,
		recorded: new Date().toISOString().slice(0, 10),
		...Object.fromEntries(
			Object.entries(calibration).filter(
				([k]) => !['source', 'recorded', 'steps', 'calls'].includes(k),
			),
		),
		calls,
	};
	fs.writeFileSync(out, `${JSON.stringify(next)}\n`);
	console.log(`${out}: from ${dirs.join(', ')}`);
}

main();
