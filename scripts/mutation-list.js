/**
 * The mutations `npm run test:mutations` (scripts/mutations.js) applies to the send's
 * deduplication engine, one at a time: each breaks one rule of docs/deduplication.md on purpose,
 * and some test must then fail. `test` is the file expected to catch it (run first); `edits` are
 * exact text replacements in files under nodes/CampaignAlimtalk/, each `from` found exactly once
 * (when the code moves, the command says which one no longer applies: update it here).
 * Lines are written with their indentation (tabs as \t) and joined with a newline.
 */
'use strict';

const DEDUP = 'test/CampaignAlimtalk/dedup';

/** @type {Array<{ name: string, why: string, test: string, edits: Array<{ file: string, from: string[], to: string[] }> }>} */
const MUTATIONS = [
	{
		name: 'lease unchecked',
		why: 'Lease.call starts a store call after the lease ran out and trusts an answer that came after it: writes go on while another process may hold the lock (invariant 4)',
		test: `${DEDUP}/rounds.lease.test.ts`,
		edits: [
			{
				file: 'store/lease.ts',
				from: [
					'\t\tif (!this.holder.valid) throw new Error(LEASE_LOST);',
					'\t\tconst value = await this.holder.call(work);',
					'\t\tif (!this.holder.valid) throw new Error(LEASE_LOST);',
				],
				to: ['\t\tconst value = await this.holder.call(work);'],
			},
		],
	},
	{
		name: 'lock kept without counting',
		why: 'stillHeld keeps the lock for the next round without counting its row: a round whose row another process rewrote is taken for exclusive (window 5)',
		test: `${DEDUP}/rounds.streak.test.ts`,
		edits: [
			{
				file: 'store/lock.ts',
				from: [
					'\t\tconst count = holder.counted(await read(env, node, store.count));',
					'\t\treturn count === holder.expected && !holder.busy && holder.valid;',
				],
				to: ['\t\treturn true;'],
			},
		],
	},
	{
		name: 'unknown delivery releases',
		why: 'keyFate releases a key whose answer says delivery is unknown: a redelivery sends the message again',
		test: `${DEDUP}/session.key-fate.test.ts`,
		edits: [
			{
				file: 'key/fate.ts',
				from: ["\treturn result.deliveryUnknown ? 'keep' : 'release';"],
				to: ["\treturn 'release';"],
			},
		],
	},
	{
		name: 'unexplained error releases',
		why: 'keyFate releases a key after an error without a service code (a stop, a dropped connection): the request may have reached the service',
		test: `${DEDUP}/session.key-fate.test.ts`,
		edits: [
			{
				file: 'key/fate.ts',
				from: ["\t\treturn certain ? 'release' : 'keep';"],
				to: ["\t\treturn certain ? 'release' : 'release';"],
			},
		],
	},
	{
		name: 'given places taken back',
		why: "the round's remove call takes back the Send Limit places it just gave: the next round gives them again, past the limit",
		test: `${DEDUP}/limit.rounds.test.ts`,
		edits: [
			{
				file: 'session/round.ts',
				from: ['\tfor (const slot of places.slots) if (slot !== undefined) remove.delete(slot);'],
				to: ['\tfor (const slot of places.slots) if (slot !== undefined) remove.add(slot);'],
			},
		],
	},
	{
		name: 'place released and given in one round taken back',
		why: "a place a send's end gives back, given again in the same round, is removed by that round's remove call: the new send holds a place that is free",
		test: `${DEDUP}/limit.send.test.ts`,
		edits: [
			{
				file: 'session/round.ts',
				from: [
					'\tfor (const slot of places.slots) if (slot !== undefined) remove.delete(slot);',
					'\tawait lease.remove(row, [...remove]);',
				],
				to: ['\tawait lease.remove(row, [...remove]);'],
			},
		],
	},
	{
		name: 'confirmed before the request',
		why: "a send's key is confirmed (its claim taken back, `sent` left) before its request leaves: a redelivery meanwhile, or after a failed request, reads it as sent",
		test: `${DEDUP}/session.key-fate.test.ts`,
		edits: [
			{
				file: 'helpers/sending.ts',
				from: ['\t\t\t\tif (dedup && !(await dedup.claim(i))) return undefined;'],
				to: [
					'\t\t\t\tif (dedup && !(await dedup.claim(i))) return undefined;',
					"\t\t\t\tdedup?.finish(i, 'confirm');",
				],
			},
		],
	},
	{
		name: 'released before the request',
		why: "a send's claim is taken back before its request leaves: a redelivery meanwhile finds the key free and sends again",
		test: `${DEDUP}/session.test.ts`,
		edits: [
			{
				file: 'helpers/sending.ts',
				from: ['\t\t\t\tif (dedup && !(await dedup.claim(i))) return undefined;'],
				to: [
					'\t\t\t\tif (dedup && !(await dedup.claim(i))) return undefined;',
					"\t\t\t\tdedup?.finish(i, 'release');",
				],
			},
		],
	},
	{
		name: 'claim skipped',
		why: 'a keyed send does not ask the store before its request: a key sent by an earlier execution is sent again',
		test: `${DEDUP}/session.test.ts`,
		edits: [
			{
				file: 'session/session.ts',
				from: ['\t\t\tsend = !this.stored || (await this.claimInStore(i, key));'],
				to: [
					'\t\t\tsend = !this.stored || key !== undefined || (await this.claimInStore(i, key));',
				],
			},
		],
	},
	{
		name: 'layout unchecked',
		why: 'checkLayout looks at no node: Remove Duplicates with scope "Workflow" or two keyed sends share a record, and their writes erase each other',
		test: `${DEDUP}/layout.test.ts`,
		edits: [
			{
				file: 'session/layout.ts',
				from: ['\tfor (const other of everyNode(ctx)) {'],
				to: ['\tfor (const other of everyNode(ctx).slice(0, 0)) {'],
			},
		],
	},
	{
		name: 'late write ignored',
		why: "runRound gives a round's answers although its release found lock entries it did not write (another process's create landed late): the round was not exclusive (window 5)",
		test: `${DEDUP}/rounds.streak.test.ts`,
		edits: [
			{
				file: 'store/queue.ts',
				from: ["\tif (released === 'late') failure = lateWriteError(node);"],
				to: ["\tif (released === 'late') lateWriteError(node);"],
			},
		],
	},
	{
		name: 'beat forgotten on any count (f2057fa reverted)',
		why: 'Holder.counted clears mayHaveLanded on any count: a count read before its beat landed makes the holder forget the beat, and a clean round fails as a late write',
		test: `${DEDUP}/holder.beat.test.ts`,
		edits: [
			{
				file: 'store/holder.ts',
				from: [
					'\t\tif (this.mayHaveLanded && count === this.expected + 1) {',
					'\t\t\tthis.expected++;',
					'\t\t\tthis.mayHaveLanded = false;',
					'\t\t}',
				],
				to: [
					'\t\tif (this.mayHaveLanded && count === this.expected + 1) this.expected++;',
					'\t\tthis.mayHaveLanded = false;',
				],
			},
		],
	},
	{
		name: "send's end waits for the next ask (0999754 reverted)",
		why: "a send's confirmation or release rides with the execution's next ask: Pause Between Requests holds a finished send's claim, and a redelivery meanwhile reads it in progress",
		test: `${DEDUP}/session.pause.test.ts`,
		edits: [
			{
				file: 'session/asks.ts',
				from: [
					'\tremove(values: readonly string[]): void {',
					'\t\tif (values.length === 0) return;',
					'\t\tconst item: StoreItem = { removals: [...values] };',
				],
				to: [
					'\tprivate held: string[] = [];',
					'',
					'\tremove(values: readonly string[]): void {',
					'\t\tthis.held.push(...values);',
					'\t}',
					'',
					'\tprivate flush(): void {',
					'\t\tif (this.held.length === 0) return;',
					'\t\tconst item: StoreItem = { removals: this.held.splice(0) };',
				],
			},
			{
				file: 'session/asks.ts',
				from: ['\t\tconst item: StoreItem = { ask: { key, longestMs: this.longestMs, limit } };'],
				to: [
					'\t\tthis.flush();',
					'\t\tconst item: StoreItem = { ask: { key, longestMs: this.longestMs, limit } };',
				],
			},
			{
				file: 'session/asks.ts',
				from: ['\t\tawait Promise.all(this.writing);'],
				to: ['\t\tthis.flush();', '\t\tawait Promise.all(this.writing);'],
			},
		],
	},
	{
		name: 'rewritten lock row emptied before its delete',
		why: "a release that finds its row rewritten removes every lock entry, its own keeper too, before it counts and deletes the row: a waiter's create in between takes the empty row as its lock, and the delete removes it while it is held (two holders)",
		test: `${DEDUP}/lock.rewritten.test.ts`,
		edits: [
			{
				file: 'store/lock.ts',
				from: ['\t\tawait write(env, node, async () => await store.record([holder.keeper]));'],
				to: [],
			},
			{
				file: 'store/lock.ts',
				from: ['\t\tif ((await read(env, node, store.count)) > 1) {'],
				to: ['\t\tif ((await read(env, node, store.count)) > 0) {'],
			},
		],
	},
	{
		name: "own lock's write-back taken for another's",
		why: "a release that finds its row grown by the write-back of its process's last lock (a create of another process that read that lock, landing on the next: window 5, no fault) fails its round as 'landed late', claims kept, nothing sent",
		test: `${DEDUP}/lock.rewritten.test.ts`,
		edits: [
			{
				file: 'store/lock.ts',
				from: [
					"\t\treturn count > holder.expected && count !== holder.previous ? 'late' : 'released';",
				],
				to: ["\t\treturn count > holder.expected ? 'late' : 'released';"],
			},
		],
	},
	{
		name: 'grown lock row released',
		why: "a release that finds its row grown by another process's lock entries gives the round's answers: another process may have held the lock during the round (a row deleted and made again under it), and both send",
		test: `${DEDUP}/lock.races.test.ts`,
		edits: [
			{
				file: 'store/lock.ts',
				from: [
					"\t\treturn count > holder.expected && count !== holder.previous ? 'late' : 'released';",
				],
				to: ["\t\treturn 'released';"],
			},
		],
	},
];

module.exports = { MUTATIONS };
