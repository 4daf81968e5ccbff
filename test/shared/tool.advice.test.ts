/**
 * What a model is told to do (shared/tool.ts, `whatToDo`): the advice of the send's own table
 * for a model, never the owner's (an option to change, another recipient, a new key). Every code
 * the send answers with, one by one: a code added later without words for a model fails here
 * when its owner's words name a way around a guard rail.
 */
import { ADVICE } from '../../nodes/CampaignAlimtalk/helpers/advice';
import { toolAnswer } from '../../nodes/shared/tool';

const SEND = { kind: 'write', done: { verb: 'sent' }, advice: ADVICE } as const;
/** Words that hand the model a way around a guard rail. */
const AROUND =
	/turn off|raise|instead|Options →|new Deduplication Key|resend|save the member|Campaign Members/i;
/** The codes of the send's guard rails, whether or not its table names them. */
const GUARD_CODES = [
	'memberNotFound',
	'severalMemberRecords',
	'memberRefusesMessages',
	'sendLimitReached',
	'earlierSendUnconfirmed',
	'earlierSendInProgress',
	'-1006',
	'7012',
];

const answerFor = (failure: { code: string; message: string; hint?: string }) =>
	toolAnswer(SEND, [{ failed: failure, inputs: 0 }])[0][0].json;

describe("a model's whatToDo names no way around a guard rail", () => {
	it.each([...new Set([...Object.keys(ADVICE), ...GUARD_CODES])])('%s', (code) => {
		const answer = answerFor({ code, message: 'Not sent' });
		expect(String(answer.whatToDo ?? '')).not.toMatch(AROUND);
	});

	it("the owner's words on a Failed item (its hint) are not handed to the model", () => {
		const answer = answerFor({
			code: 'earlierSendUnconfirmed',
			message: 'Not sent: an earlier send is unconfirmed',
			hint: 'To send it anyway, give it a new Deduplication Key (for example add "-resend").',
		});
		expect(answer).not.toHaveProperty('hint');
		expect(JSON.stringify(answer)).not.toMatch(AROUND);
	});

	it("outside tool mode the owner's advice is unchanged (the execution hints read it)", () => {
		expect(ADVICE.memberRefusesMessages.change).toMatch(/turn off/);
		expect(ADVICE.sendLimitReached.change).toMatch(/raise/);
	});
});
