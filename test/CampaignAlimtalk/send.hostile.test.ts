/**
 * The send's guard rails against a hostile caller (docs/ai-agents.md, "What holds against a
 * hostile model"), through n8n-core's tool path and the sandbox: a member ID spelled differently
 * never sends twice (the id is refused, not trimmed, and the record must carry exactly the id
 * asked for), the member's number never reaches the model in any form, the advice a model is
 * given names no way around a guard rail, and a Send Limit that cannot be read stops the item.
 */
import type { IDataObject } from 'n8n-workflow';
import { installStore } from '../support/dedup-store';
import { createServer, type AddressInfo } from '../support/node';
import { runAsTool } from '../support/tools';
import { useSendFixture } from './support';

const { sb, send } = useSendFixture();

const MEMBER = "$fromAI('memberId', 'The member to notify', 'string')";
/** The README's recommended tool: a member ID, a key of member and day, consent, 5 an hour. */
const NOTICE = {
	operation: 'send',
	campaignKey: 'WELCOME',
	recipient: 'memberId',
	memberId: `={{ ${MEMBER} }}`,
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim"}',
	options: {
		maxRetries: 0,
		retryDelayMs: 0,
		acceptingMembersOnly: true,
		deduplicationKey: `=notice-{{ ${MEMBER} }}-{{ $now.toFormat('yyyy-MM-dd') }}`,
		sendLimit: 5,
		sendLimitPeriod: 'hour',
	},
};
const credentials = (baseUrl = sb.baseUrl) => ({ baseUrl, apiKey: sb.apiKey });
const sentTo = () => sb.state.sent.map((m) => m.phoneNumber);
const v2Member = (memberId: string, phoneNumber: string, isReceive: 'true' | 'false' = 'true') =>
	sb.state.membersV2.set(phoneNumber.replace(/-/g, ''), { memberId, phoneNumber, isReceive });
const callsOf = (...ids: string[]) => ids.map((memberId) => ({ memberId }));
/** The number's digits as a model could read them back: whole, without the 0, or its last two groups. */
const digitsOf = (stored: string) => {
	const national = stored.replace(/\D/g, '');
	const tail = stored.split('-').slice(1).join('.?');
	return new RegExp([national, national.slice(1), tail].join('|'));
};

beforeEach(async () => {
	(await installStore()).reset();
});

describe('a member ID spelled differently never sends again', () => {
	it('m-kim, " m-kim", "m-kim\\u3000" and other look-alikes give exactly 1 message; each look-alike is refused (-1006) naming the rule', async () => {
		v2Member('m-kim', '010-1234-5678');
		const lookAlikes = [
			' m-kim',
			'm-kim ',
			'm-kim\u3000',
			'm-kim\u00a0',
			'\u200bm-kim',
			'm-\u200dkim',
			'\ufeffm-kim',
			'm-kim\u3164',
		];
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: credentials(),
			calls: callsOf('m-kim', ...lookAlikes, 'm-kim'),
		});
		expect(sentTo()).toEqual(['821012345678']);
		const [first, ...rest] = answers as IDataObject[][];
		expect(first).toEqual([expect.objectContaining({ outcome: 'sent', memberId: 'm-kim' })]);
		expect(rest.pop()).toEqual([expect.objectContaining({ outcome: 'duplicate' })]);
		for (const answer of rest) {
			expect(answer).toEqual([
				expect.objectContaining({
					outcome: 'refused',
					code: '-1006',
					message: expect.stringMatching(/^Member ID .*(space|invisible)/),
				}),
			]);
		}
	});

	it('blank-looking characters no Unicode class of invisibles holds (U+2800, U+1D159), and the Hangul fillers, are refused (-1006) naming the character', async () => {
		v2Member('m-kim', '010-1234-5678');
		const blanks = ['\u2800', '\u{1d159}', '\u3164', '\u115f', '\u1160', '\uffa0'];
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: credentials(),
			calls: callsOf(...blanks.map((blank) => `m-kim${blank}`)),
		});
		expect(sentTo()).toEqual([]);
		expect(answers).toEqual(
			blanks.map((blank) => [
				expect.objectContaining({
					outcome: 'refused',
					code: '-1006',
					message: expect.stringContaining(`U+${blank.codePointAt(0)?.toString(16).toUpperCase()}`),
				}),
			]),
		);
	});

	it('outside tool mode too: a padded member ID is refused, not trimmed and sent', async () => {
		v2Member('m-1', '010-1234-5678');
		const { out } = await send([{ campaign: 'WELCOME', member: ' m-1 ', name: 'Kim' }], {
			recipient: 'memberId',
			memberId: '={{$json.member}}',
		});
		expect(out[1].map((i) => i.json.code)).toEqual(['-1006']);
		expect(sb.state.sent).toEqual([]);
	});

	it('a record whose member ID is not exactly the one asked for is not sent to (memberNotFound, to a model memberNotAvailable)', async () => {
		// A service that matches ids case-insensitively: the record of "M-KIM" answers "m-kim".
		let reads = 0;
		const record = {
			phoneNumber: '010-1234-5678',
			isReceive: 'true' as const,
			get memberId() {
				reads++;
				return reads % 2 === 1 ? 'm-kim' : 'M-KIM';
			},
		};
		sb.state.membersV2.set('01012345678', record);
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: credentials(),
			calls: callsOf('m-kim'),
		});
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' })],
		]);
		expect(sb.state.sent).toEqual([]);
	});
});

describe('no lookup oracle', () => {
	it('a member not on record, one who declines messages, one with several records and one whose number cannot be sent to are answered alike', async () => {
		v2Member('m-no', '010-1000-0002', 'false');
		v2Member('m-old', '011-987-6543');
		sb.state.membersV1.set('m-two', {
			memberId: 'm-two',
			phoneNumber: '010-1000-0003',
			isReceive: true,
		});
		v2Member('m-two', '010-1000-0003');
		v2Member('m-two', '010-1000-0004');
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: credentials(),
			calls: callsOf('m-nobody', 'm-no', 'm-two', 'm-old'),
		});
		// Alike but for what the model gave: the member ID and the key made from it.
		const [first, ...others] = (answers as IDataObject[][]).map(([answer]) =>
			Object.fromEntries(
				Object.entries(answer).filter(([name]) => !['memberId', 'deduplicationKey'].includes(name)),
			),
		);
		expect(first).toMatchObject({ outcome: 'refused', code: 'memberNotAvailable' });
		expect(others).toEqual([first, first, first]);
		expect(sb.state.sent).toEqual([]);
	});
});

describe("the member's number never reaches the model", () => {
	it('a stored number the send cannot use is refused (7012, to a model memberNotAvailable) without any of its digits', async () => {
		sb.state.membersV1.set('old', {
			memberId: 'old',
			phoneNumber: '011-987-6543',
			isReceive: true,
		});
		const { answers, texts } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: { ...credentials(), memberApiVersion: 'v1' },
			calls: callsOf('old'),
		});
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' })],
		]);
		expect(texts.join('')).not.toMatch(digitsOf('011-987-6543'));
		expect(texts.join('')).not.toMatch(/9876543/);
	});

	it('a service whose error text echoes the number, in any format: no digits of it in the answer', async () => {
		const echo = 'receiver 821012345678 (010-1234-5678, +82 10 1234 5678, 01012345678) is blocked';
		const server = createServer((req, res) => {
			res.setHeader('content-type', 'application/json');
			if (req.url?.startsWith('/v2/users/sms')) {
				const record = { memberId: 'm-kim', phoneNumber: '010-1234-5678', isReceive: 'true' };
				res.end(
					JSON.stringify({ httpStatus: { code: 200 }, processCode: 0, processValue: [record] }),
				);
			} else {
				res.end(JSON.stringify({ httpStatus: { code: 200 }, processCode: 7002, message: echo }));
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;
			const { answers, texts } = await runAsTool({
				type: 'campaignAlimtalk',
				parameters: NOTICE,
				credentials: credentials(`http://127.0.0.1:${port}`),
				calls: callsOf('m-kim'),
			});
			expect(answers).toEqual([[expect.objectContaining({ outcome: 'refused', code: '7002' })]]);
			expect(texts.join('')).not.toMatch(/1234.?5678|1234 5678/);
			expect(texts.join('')).toContain('is blocked');
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('the advice a model is given names no way around a guard rail', () => {
	it('a member who refuses messages, and the send limit used up: "ask the workflow\'s owner", never an option to change', async () => {
		v2Member('no', '010-1000-0002', 'false');
		for (let n = 1; n <= 6; n++) v2Member(`m-${n}`, `010-2000-000${n}`);
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: NOTICE,
			credentials: credentials(),
			calls: callsOf('no', 'm-1', 'm-2', 'm-3', 'm-4', 'm-5', 'm-6'),
		});
		const refused = (answers as IDataObject[][]).map(([a]) => a).filter((a) => a.code !== '0');
		// The refused lookup took a place of its own bound, not one of the 5: five sent, one limited.
		expect(refused.map((a) => a.code)).toEqual(['memberNotAvailable', 'sendLimitReached']);
		for (const answer of refused) {
			expect(answer.whatToDo).toMatch(/owner/);
			expect(answer.whatToDo).not.toMatch(/Options|turn off|raise|instead|Phone Number/i);
		}
		expect(sentTo()).toHaveLength(5);
	});
});

describe('a Send Limit that cannot be read stops the item', () => {
	it.each([
		['an expression that gives nothing', { sendLimit: '={{ $json.unset }}' }],
		['an unknown period', { sendLimit: 2, sendLimitPeriod: 'week' }],
		[
			'a period expression that gives nothing',
			{ sendLimit: 2, sendLimitPeriod: '={{ $json.unset }}' },
		],
	])('%s: a clear error naming the option, nothing sent', async (_, limit) => {
		const { error } = await send([{ campaign: 'WELCOME', phone: '821012345678', name: 'Kim' }], {
			options: { deduplicationKey: '=k-{{$json.phone}}', ...limit },
		});
		expect(error?.message).toMatch(/Send Limit/);
		expect(sb.state.sent).toEqual([]);
	});
});
