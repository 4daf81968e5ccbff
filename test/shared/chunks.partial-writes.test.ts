/**
 * Every chunked write of every node, cut after its first request: 1,500 rows, Batch Size 1,000,
 * the second request failing on every try (an HTML 500, a dropped connection, a whole-request
 * error code). The 1,000 rows the first request stored stay on Success; only the 500 rows not
 * stored carry the error (an error item each under "On Error: Continue", on the error output
 * under "Continue (using error output)"); without On Error the node stops with a message that
 * says what was stored and what was not (the one loop: nodes/shared/chunks.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { FaultKind, Sandbox } from '../../sandbox/types';
import { CUSTOM, LEGACY, errorItemsAt, pairsOf, useSandbox } from '../support';
import type { DialectCase } from '../support';
import { registerWriteKeys, run, seed } from '../CampaignData/support';
import { phoneFor, runMembers } from '../CampaignMembers/support';

const sb = useSandbox();
registerWriteKeys(sb);

const ROWS = 1500;
const STORED = 1000;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

type OnError = 'continueRegularOutput' | 'continueErrorOutput' | undefined;

interface WriteCase {
	name: string;
	/** The write requests (their method and path); every one after the first fails. */
	writes(request: { method: string; path: string }): boolean;
	/** Fills the sandbox with what the write changes. */
	prepare(sb: Sandbox): void;
	/** Runs the write on `ROWS` items with Batch Size 1,000. */
	run(sb: Sandbox, onError: OnError): ReturnType<typeof runMembers>;
	/** How many of the rows the sandbox holds changed (stored, or deleted). */
	changed(sb: Sandbox): number;
}

const memberRow = (i: number): IDataObject => ({
	memberId: `m${i}`,
	phoneNumber: phoneFor(i),
	isReceive: true,
});
const input = range(0, ROWS).map(memberRow);
const batch = { batchSize: 1000 };

function seedMembers(sb: Sandbox): void {
	for (const i of range(0, ROWS)) {
		const row = { memberId: `m${i}`, phoneNumber: phoneFor(i) };
		sb.state.membersV1.set(`m${i}`, { ...row, isReceive: true });
		sb.state.membersV2.set(phoneFor(i).replace(/-/g, ''), { ...row, isReceive: 'true' });
	}
}

const memberCases: WriteCase[] = (['v1', 'v2'] as const).flatMap((apiVersion) => {
	const path = apiVersion === 'v1' ? '/v1/users/sms' : '/v2/users/sms';
	const store = (sb: Sandbox) => (apiVersion === 'v1' ? sb.state.membersV1 : sb.state.membersV2);
	const upsert: WriteCase = {
		name: `Campaign Members upsert ${apiVersion}`,
		writes: (r) => r.method === 'POST' && r.path === path,
		prepare: () => undefined,
		run: (sb, onError) =>
			runMembers(sb, {
				parameters: { operation: 'upsert', apiVersion, options: batch },
				input,
				onError,
			}),
		changed: (sb) => store(sb).size,
	};
	const remove: WriteCase = {
		name: `Campaign Members delete ${apiVersion}`,
		writes: (r) => r.method !== 'GET' && r.path === path,
		prepare: seedMembers,
		run: (sb, onError) =>
			runMembers(sb, {
				parameters: {
					operation: 'delete',
					apiVersion,
					memberId: '={{ $json.memberId }}',
					phoneNumber: '={{ $json.phoneNumber }}',
					options: batch,
				},
				input,
				onError,
			}),
		changed: (sb) => ROWS - store(sb).size,
	};
	return [upsert, remove];
});

function dataCases(dialect: DialectCase): WriteCase[] {
	const name = dialect === CUSTOM ? 'Campaign Custom Data' : 'Campaign Legacy Data';
	const rows = range(0, ROWS).map((i) => ({ memberId: `m${i}`, grade: `g${i}` }));
	const ids = rows.map((row) => row.memberId);
	const stored = (sb: Sandbox) =>
		ids.filter((id) => dialect.store(sb).get(id)?.get('grade') === `g${id.slice(1)}`).length;
	const runData = (operation: string, parameters: IDataObject) => (sb: Sandbox, onError: OnError) =>
		run(sb, dialect, { operation, ...parameters, options: batch }, rows, { onError });
	const byId = { memberId: '={{ $json.memberId }}' };
	return [
		{
			name: `${name} create`,
			writes: (r) => r.method === 'POST' && r.path === dialect.path,
			prepare: () => undefined,
			run: runData('create', {}),
			changed: stored,
		},
		{
			name: `${name} update`,
			writes: (r) => r.method === 'PUT' && r.path === dialect.path,
			prepare: (sb) => seed(dialect.store(sb), ids, { grade: 'old' }),
			run: runData('update', {}),
			changed: stored,
		},
		{
			name: `${name} delete`,
			writes: (r) => r.method === 'DELETE' && r.path === dialect.path,
			prepare: (sb) => seed(dialect.store(sb), ids),
			run: runData('delete', byId),
			changed: (sb) => ROWS - dialect.store(sb).size,
		},
		{
			name: `${name} delete keys`,
			writes: (r) => r.method === 'DELETE' && r.path.startsWith(`${dialect.path}/`),
			prepare: (sb) => seed(dialect.store(sb), ids, { grade: 'g', points: 1 }),
			run: runData('deleteKeys', { ...byId, keys: 'grade' }),
			changed: (sb) => ids.filter((id) => !dialect.store(sb).get(id)?.has('grade')).length,
		},
	];
}

const CASES: WriteCase[] = [...memberCases, ...dataCases(CUSTOM), ...dataCases(LEGACY)];

/** Every write request after the first fails with `kind`, on every try. */
function failAfterFirst(sb: Sandbox, write: WriteCase, kind: FaultKind): void {
	let seen = 0;
	sb.configure({
		faults: { kinds: [kind], match: (r) => write.writes(r) && seen++ >= 1 },
	});
}

/** The input indexes an output's items are paired with, in order. */
const inputsOf = (items: INodeExecutionData[]) => items.flatMap((item) => pairsOf(item));

describe.each(CASES.map((write) => [write.name, write] as const))(
	'%s, the second of two requests failing',
	(_name, write) => {
		const FAULTS: FaultKind[] = ['http500html', 'drop', 'code-9999'];

		it.each(FAULTS)(
			'On Error "Continue" (%s): the 1,000 stored rows stay on Success, the other 500 carry the error',
			async (kind) => {
				write.prepare(sb);
				failAfterFirst(sb, write, kind);
				const { out, error } = await write.run(sb, 'continueRegularOutput');
				expect(error).toBeUndefined();
				expect(write.changed(sb)).toBe(STORED);
				const success = out[0].filter((item) => item.json.error === undefined);
				const errors = out[0].filter((item) => item.json.error !== undefined);
				expect(inputsOf(success)).toEqual(range(0, STORED));
				expect(inputsOf(errors)).toEqual(range(STORED, ROWS));
				expect(out[1]).toEqual([]);
			},
		);

		it('On Error "Continue (using error output)": the 500 rows not stored go to the error output', async () => {
			write.prepare(sb);
			failAfterFirst(sb, write, 'http500html');
			const { out, error } = await write.run(sb, 'continueErrorOutput');
			expect(error).toBeUndefined();
			expect(write.changed(sb)).toBe(STORED);
			const at = await errorItemsAt(out);
			const success = out[0].filter((item) => item.json.error === undefined);
			expect(inputsOf(success)).toEqual(range(0, STORED));
			expect(inputsOf(out[at].filter((item) => item.json.error !== undefined))).toEqual(
				range(STORED, ROWS),
			);
			expect(out[1]).toEqual([]);
		});

		it('without On Error the node stops, saying which rows were stored and which were not', async () => {
			write.prepare(sb);
			failAfterFirst(sb, write, 'http500html');
			const { error } = await write.run(sb, undefined);
			expect(write.changed(sb)).toBe(STORED);
			expect(error?.message).toMatch(/HTTP 500/);
			const said = `${error?.message ?? ''} ${error?.description ?? ''}`;
			expect(said).toMatch(/1,000 rows? \w+ \(items 0-999\)/);
			expect(said).toMatch(/500 rows? not \w+ \(items 1,000-1,499\)/);
		});
	},
);

describe('a write whose first request fails as a whole', () => {
	it('under "Continue", rows the node refused before sending stay on Failed; only the rows sent carry the error', async () => {
		const { out, error } = await runMembers(sb, {
			parameters: { operation: 'upsert', apiVersion: 'v1' },
			input: [memberRow(0), { memberId: 'm1', phoneNumber: 'not a phone' }, memberRow(2)],
			onError: 'continueRegularOutput',
			wrongKey: true,
		});
		expect(error).toBeUndefined();
		expect(out[0].map((item) => [item.json.error !== undefined, pairsOf(item)])).toEqual([
			[true, [0]],
			[true, [2]],
		]);
		expect(out[1].map((item) => [item.json.code, pairsOf(item)])).toEqual([['-1007', [1]]]);
	});

	it('without On Error, stops with the error as it is: nothing was stored', async () => {
		const { error } = await runMembers(sb, {
			parameters: { operation: 'upsert', apiVersion: 'v1' },
			input: [memberRow(0)],
			wrongKey: true,
		});
		expect(error?.message).toMatch(/-1001/);
		expect(error?.description ?? '').not.toMatch(/Before this error/);
	});
});
