/**
 * The bounds of a send tool (docs/agent-tools.md, "Guard rails"):
 * refused member lookups are counted in a bound of their own (the Send Limit's number and period),
 * never in the Send Limit, which counts messages only; once either bound is used up, every call
 * of the tool is answered alike, before any member record is read or any key is asked. Through
 * n8n-core's tool path, the sandbox and the faithful store.
 */
import type { IDataObject } from 'n8n-workflow';
import { installStore } from '../support/dedup-store';
import { TOOL_SEND, TOOL_SEND_TO_MEMBER, runAsTool } from '../support/tools';
import { useSendFixture } from './support';

const { sb } = useSendFixture();

const DAY = "{{ $now.toFormat('yyyy-MM-dd') }}";
/** A send by member ID, key of member and day (its `$fromAI()` the Member ID's), 2 an hour. */
const BY_MEMBER = {
	...TOOL_SEND_TO_MEMBER,
	options: {
		maxRetries: 0,
		deduplicationKey: `=notice-${TOOL_SEND_TO_MEMBER.memberId.slice(1)}-${DAY}`,
		sendLimit: 2,
		sendLimitPeriod: 'hour',
	},
};
const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
const sentTo = () => sb.state.sent.map((m) => m.phoneNumber);
const memberReads = () => sb.requests.filter((r) => r.path.startsWith('/v2/users/sms')).length;
const v2Member = (memberId: string, phoneNumber: string) =>
	sb.state.membersV2.set(phoneNumber.replace(/-/g, ''), {
		memberId,
		phoneNumber,
		isReceive: 'true',
	});
const codes = (answers: unknown[]) =>
	(answers as IDataObject[][]).map(([answer]) =>
		answer.outcome === 'refused' ? answer.code : answer.outcome,
	);

async function byMember(...ids: string[]) {
	return await runAsTool({
		type: 'campaignAlimtalk',
		parameters: BY_MEMBER,
		credentials: credentials(),
		calls: ids.map((memberId) => ({ memberId })),
	});
}

beforeEach(async () => {
	(await installStore()).reset();
	v2Member('m-kim', '010-1000-0001');
	v2Member('m-lee', '010-1000-0002');
	v2Member('m-park', '010-1000-0003');
});

describe('a refused lookup never takes a message place', () => {
	it('2 an hour: m-kim, m-kim again, an unknown member, m-lee, m-park give sent, duplicate, refused, sent, sendLimitReached: two messages', async () => {
		const { answers } = await byMember('m-kim', 'm-kim', 'm-nobody', 'm-lee', 'm-park');
		expect(codes(answers)).toEqual([
			'sent',
			'duplicate',
			'memberNotAvailable',
			'sent',
			'sendLimitReached',
		]);
		expect(sentTo()).toEqual(['821010000001', '821010000002']);
	});
});

describe('once a bound is used up, one answer and no lookup', () => {
	it('the Send Limit used up: a member messaged today, one on record and one not all answer sendLimitReached, and no member record is read', async () => {
		const { answers } = await byMember('m-kim', 'm-lee', 'm-kim', 'm-park', 'm-nobody');
		const used = answers.slice(2) as IDataObject[][];
		expect(codes(used)).toEqual(Array(3).fill('sendLimitReached'));
		// Alike but for what the model gave (its member ID and the key made of it).
		const alike = used.map(([answer]) => ({ ...answer, memberId: 0, deduplicationKey: 0 }));
		expect(alike).toEqual([alike[0], alike[0], alike[0]]);
		expect(used[0][0].sendLimitResetsAt).toEqual(expect.any(String));
		expect(memberReads()).toBe(2);
		expect(sentTo()).toHaveLength(2);
	});

	it('a Phone Number send, the Send Limit used up: a number messaged today answers sendLimitReached like a new one', async () => {
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: {
				...TOOL_SEND,
				options: {
					deduplicationKey: `=notice-${DAY}`,
					deduplicationPerRecipient: true,
					sendLimit: 1,
					sendLimitPeriod: 'day',
				},
			},
			credentials: credentials(),
			calls: ['821012345678', '821012345678', '821023456789'].map((phoneNumber) => ({
				phoneNumber,
			})),
		});
		expect(codes(answers)).toEqual(['sent', 'sendLimitReached', 'sendLimitReached']);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('the lookup bound used up (2 refused lookups): a member on record and one not both answer memberNotAvailable, lookups paused, no record read', async () => {
		const { answers } = await byMember('m-nobody', 'm-nobody-2', 'm-kim', 'm-nobody-3');
		expect(codes(answers)).toEqual([
			'memberNotAvailable',
			'memberNotAvailable',
			'memberNotAvailable',
			'memberNotAvailable',
		]);
		const [kim, nobody] = (answers.slice(2) as IDataObject[][]).map(
			([answer]): IDataObject => ({ ...answer, memberId: 0, deduplicationKey: 0 }),
		);
		expect(kim).toEqual(nobody);
		expect(kim).toMatchObject({
			outcome: 'refused',
			message: expect.stringMatching(/lookups are paused/),
			sendLimitResetsAt: expect.any(String),
			whatToDo: expect.stringMatching(/owner/),
		});
		expect(kim.whatToDo).not.toMatch(/Options|turn off|raise|instead|Phone Number/i);
		expect(memberReads()).toBe(2);
		expect(sentTo()).toEqual([]);
	});
});
