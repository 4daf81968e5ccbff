/**
 * The execution hint after a member write (nodes/shared/hints.ts): counts by outcome, the F02 /
 * F11 / -1009 advice in the members' own meaning of those codes, and nothing on a clean run.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, useSandbox, withFast } from '../support';
import { envelope, startScripted } from '../support/scripted-server';
import { phoneFor, runMembers } from './support';

const sb = useSandbox();
const UPSERT_V2 = { operation: 'upsert', apiVersion: 'v2' };
const lines = (message: string) => message.split('<br>');

const members = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		memberId: `m${i}`,
		phoneNumber: phoneFor(i),
		isReceive: true,
	}));

describe('members: execution hints', () => {
	it('upsert v2: a bad phone (F02) and a repeated phone (F11) are counted, each with its line', async () => {
		const input = members(10);
		input[3].phoneNumber = 'not-a-phone';
		input[7].phoneNumber = phoneFor(2);
		const { out, nodeHints } = await runMembers(sb, { parameters: UPSERT_V2, input });
		expect(out[1].map((i) => i.json.code).sort()).toEqual(['F02', 'F11']);
		expect(nodeHints).toHaveLength(1);
		expect(nodeHints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(lines(nodeHints[0].message)).toEqual([
			'8 saved, 2 failed (1 with code F02, 1 with code F11). See the Failed output.',
			'Code F02, phone number format: keep Options → Normalize Phone Numbers on, or send numbers like 010-1234-5678.',
			'Code F11, the same phone number twice in one request: the first row with it was saved; send each phone number once.',
		]);
	});

	it.each(['v1', 'v2'])('upsert %s: no hint when every member was saved', async (apiVersion) => {
		const { out, nodeHints } = await runMembers(sb, {
			parameters: { operation: 'upsert', apiVersion },
			input: members(25),
		});
		expect([out[0].length, out[1].length]).toEqual([25, 0]);
		expect(nodeHints).toEqual([]);
	});

	it('delete v1 refused with -1009: the retry line', async () => {
		const server = await startScripted(() => ({ body: envelope(-1009, null) }));
		try {
			const { out, nodeHints } = await runNode({
				type: 'campaignMembers',
				parameters: withFast({ operation: 'delete', apiVersion: 'v1', memberId: '={{$json.id}}' }),
				input: [{ id: 'a' }, { id: 'b' }],
				credentials: { baseUrl: server.baseUrl, apiKey: 'scripted-key' },
			});
			expect(out[1].map((i) => i.json.code)).toEqual(['-1009', '-1009']);
			expect(nodeHints.map((h) => lines(h.message))).toEqual([
				[
					'0 deleted, 2 failed (2 with code -1009). See the Failed output.',
					'Code -1009, a delete the service refuses for now: run it again for the Failed items after their retryAfter time (30 minutes on).',
				],
			]);
		} finally {
			await server.close();
		}
	});
});
