/**
 * The execution hint after a send (nodes/shared/hints.ts), as n8n records it in the node's run
 * data: the counts by outcome and one line per common code saying what to change; nothing on a
 * clean run (the rules on their own: test/shared/hints.test.ts).
 */
import { phone, useSendFixture } from './support';

const { sb, send } = useSendFixture();

const lines = (message: string) => message.split('<br>');

/** 300 recipients; every 25th phone written 010-xxxx-xxxx (13 characters: code 7012). */
const threeHundred = () =>
	Array.from({ length: 300 }, (_, i) => ({
		campaign: 'WELCOME',
		phone: i % 25 === 7 ? `010-${phone(i).slice(4, 8)}-${phone(i).slice(8)}` : phone(i),
		name: `Kim ${i}`,
	}));

describe('Campaign Alimtalk send: execution hints', () => {
	it('300 sends with 12 phone-length failures: one hint naming 7012 and Convert Phone Numbers', async () => {
		const { out, error, nodeHints } = await send(threeHundred());
		expect(error).toBeUndefined();
		expect([out[0].length, out[1].length]).toEqual([288, 12]);
		expect(nodeHints).toHaveLength(1);
		expect(nodeHints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(lines(nodeHints[0].message)).toEqual([
			'288 sent, 12 failed (12 with code 7012). See the Failed output.',
			'Code 7012, phone number not 12 characters long: turn on Options → Convert Phone Numbers, or send numbers in the form 821012345678.',
		]);
	});

	it('gives no hint when every item was sent (the same 300 with Convert Phone Numbers on)', async () => {
		const { out, nodeHints } = await send(threeHundred(), {
			options: { convertPhoneNumbers: true },
		});
		expect([out[0].length, out[1].length]).toEqual([300, 0]);
		expect(sb.state.sent).toHaveLength(300);
		expect(nodeHints).toEqual([]);
	});

	it('counts each code, most frequent first, with advice only for the codes it knows', async () => {
		const input = [
			{ campaign: 'BLOCKED', phone: phone(0), name: 'a' },
			{ campaign: 'WELCOME', phone: '0101234', name: 'b' },
			{ campaign: 'BLOCKED', phone: phone(2), name: 'c' },
			{ campaign: 'WELCOME', phone: phone(3), name: 'd' },
		];
		const { out, nodeHints } = await send(input);
		const blocked = String(out[1].find((i) => i.json.campaignKey === 'BLOCKED')?.json.code);
		expect(blocked).toMatch(/^7\d{3}$/);
		expect(nodeHints).toHaveLength(1);
		expect(lines(nodeHints[0].message)).toEqual([
			`1 sent, 3 failed (2 with code ${blocked}, 1 with code 7012). See the Failed output.`,
			expect.stringMatching(/^Code 7012, .*Convert Phone Numbers/),
		]);
	});
});
