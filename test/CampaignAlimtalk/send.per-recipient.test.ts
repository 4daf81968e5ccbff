/**
 * Deduplicate per Recipient (docs/agent-tools.md): the number the
 * node resolved is part of the key, so a key of the day alone means one message per number per
 * day, however a model spelled the number or which member record holds it. Through the real
 * engine, as an AI-agent tool (test/support/tools.ts), against the sandbox and the faithful store.
 */
import type { IDataObject } from 'n8n-workflow';
import { agentExampleSend } from '../support/agent-example';
import { installStore } from '../support/dedup-store';
import {
	SPELLINGS_OF_ONE_NUMBER,
	TOOL_SEND,
	TOOL_SEND_TO_MEMBER,
	runAsTool,
} from '../support/tools';
import { useSendFixture } from './support';

const { sb } = useSendFixture();

const credential = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
const sentTo = () => sb.state.sent.map((s) => s.phoneNumber).sort();
const TODAY = '2026-11-28';
/** A key of the day, as the refusal advises (the day itself, fixed here). */
const dayKey = () => `notice-${TODAY}`;

/** A Phone Number send tool whose number the model gives, with a key of the day. */
function phoneTool(options: IDataObject): IDataObject {
	return { ...TOOL_SEND, options: { deduplicationKey: dayKey(), ...options } };
}

const outcomes = (answers: unknown[]) =>
	(answers as IDataObject[][]).map(([answer]) => answer.outcome);

/** `spellings` of 821012345678, then 821023456789: the first and the last sent, the others duplicates. */
async function twoMessages(spellings: string[], options: IDataObject) {
	const { answers } = await runAsTool({
		type: 'campaignAlimtalk',
		parameters: phoneTool({ deduplicationPerRecipient: true, ...options }),
		credentials: credential(),
		calls: [...spellings, '821023456789'].map((phoneNumber) => ({ phoneNumber })),
	});
	expect(sentTo()).toEqual(['821012345678', '821023456789']);
	const repeats = Array(spellings.length - 1).fill('duplicate');
	expect(outcomes(answers)).toEqual(['sent', ...repeats, 'sent']);
}

describe('Deduplicate per Recipient', () => {
	beforeEach(async () => (await installStore()).reset());

	it('one number spelled six ways with Convert Phone Numbers: one message; a second number one more', async () => {
		await twoMessages(SPELLINGS_OF_ONE_NUMBER, { convertPhoneNumbers: true });
	});

	it('padding of every kind around the number, Convert Phone Numbers off: one message; a second number one more', async () => {
		const padded = [
			'821012345678',
			' 821012345678',
			'821012345678 ',
			'\u3000821012345678',
			'\uFEFF821012345678',
			'\u00A0821012345678\t',
		];
		await twoMessages(padded, {});
	});

	it('Convert Phone Numbers off: the key holds the digits, so separators and spaces never make a second message', async () => {
		// Each has 12 characters: the first is sent as typed, the others are its duplicates.
		await twoMessages(['821012345678', '010-12345678', '0101-2345678', '010 12345678'], {});
	});

	it.each([
		['off', false],
		['on', true],
	])(
		'Convert Phone Numbers %s: an invisible or bidi character inside the number is refused (7012) naming it, nothing sent',
		async (_, convertPhoneNumbers) => {
			const hidden = [
				'010\u200B12345678',
				'01012345678\u200F',
				'\uFE0F01012345678',
				'0101234\u20665678',
			];
			const { answers } = await runAsTool({
				type: 'campaignAlimtalk',
				parameters: phoneTool({ deduplicationPerRecipient: true, convertPhoneNumbers }),
				credentials: credential(),
				calls: hidden.map((phoneNumber) => ({ phoneNumber })),
			});
			expect(sentTo()).toEqual([]);
			expect(answers).toEqual(
				['U+200B', 'U+200F', 'U+FE0F', 'U+2066'].map((char) => [
					expect.objectContaining({
						outcome: 'refused',
						code: '7012',
						message: expect.stringMatching(
							new RegExp(`^Phone Number .*invisible.*${char.replace('+', '\\+')}`),
						),
					}),
				]),
			);
		},
	);

	it('two member records that hold one number, a key of the day: one message; another member one more', async () => {
		for (const memberId of ['m-kim', 'm-kim-2'])
			sb.state.membersV2.set('01012345678', {
				memberId,
				phoneNumber: '010-1234-5678',
				isReceive: 'true',
			});
		sb.state.membersV1.set('m-kim', {
			memberId: 'm-kim',
			phoneNumber: '010-1234-5678',
			isReceive: true,
		});
		sb.state.membersV1.set('m-kim-2', {
			memberId: 'm-kim-2',
			phoneNumber: '01012345678',
			isReceive: true,
		});
		sb.state.membersV1.set('m-lee', {
			memberId: 'm-lee',
			phoneNumber: '010-2345-6789',
			isReceive: true,
		});
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: {
				...TOOL_SEND_TO_MEMBER,
				options: { deduplicationKey: dayKey(), deduplicationPerRecipient: true },
			},
			credentials: { ...credential(), memberApiVersion: 'v1' },
			calls: [{ memberId: 'm-kim' }, { memberId: 'm-kim-2' }, { memberId: 'm-lee' }],
		});
		expect(sentTo()).toEqual(['821012345678', '821023456789']);
		expect(outcomes(answers)).toEqual(['sent', 'duplicate', 'sent']);
	});

	it('off, the same key of the day sends once in all: the recipient is not part of the key', async () => {
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: phoneTool({ convertPhoneNumbers: true }),
			credentials: credential(),
			calls: [{ phoneNumber: '010-1234-5678' }, { phoneNumber: '010-2345-6789' }],
		});
		expect(sentTo()).toEqual(['821012345678']);
		expect(outcomes(answers)).toEqual(['sent', 'duplicate']);
	});

	it('the shipped example (examples/agent-tools.json): a member ID, again, and a second ID that holds the same number: one message; another member one more', async () => {
		sb.addCampaign('DEMO-WELCOME', { requiredVariables: ['name', 'coupon'] });
		for (const [memberId, phoneNumber] of [
			['member-01', '010-1234-5678'],
			['member-01b', '01012345678'],
			['member-02', '010-2345-6789'],
		])
			sb.state.membersV1.set(memberId, { memberId, phoneNumber, isReceive: true });
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: agentExampleSend(),
			credentials: { ...credential(), memberApiVersion: 'v1' },
			calls: ['member-01', 'member-01', 'member-01b', 'member-02'].map((memberId) => ({
				memberId,
			})),
		});
		expect(sentTo()).toEqual(['821012345678', '821023456789']);
		expect(outcomes(answers)).toEqual(['sent', 'duplicate', 'duplicate', 'sent']);
	});
});
