/**
 * As a tool, no text of the service's reaches the model from a send (docs/ai-agents.md, "What
 * holds against a hostile model"): a refused send says its code and the package's words for it,
 * a failure of the whole call its code, message and what to do. Hiding the member's number where
 * the service's text repeats it would tell the model where its guesses matched: a model that
 * fills a template variable with guesses (0100x0101x...) at a service that repeats the refused
 * value used to read `[number withheld]` exactly where a guess was part of the number. Through
 * n8n-core's tool path, against a scripted service. Outside tool mode the Failed item keeps the
 * service's text.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, withFast } from '../support';
import { installStore } from '../support/dedup-store';
import { startScripted, type Answer, type ScriptedServer } from '../support/scripted-server';
import { runAsTool } from '../support/tools';

const MEMBER = "$fromAI('memberId', 'The member to notify', 'string')";
const COUPON = "$fromAI('coupon', 'The coupon code', 'string')";
/** A send to a member whose template variable the model fills (what agent-tools.md advises against). */
const TOOL = {
	operation: 'send',
	campaignKey: 'WELCOME',
	recipient: 'memberId',
	memberId: `={{ ${MEMBER} }}`,
	variablesInput: 'json',
	propertiesJson: `={{ JSON.stringify({ coupon: ${COUPON} }) }}`,
	options: {
		maxRetries: 0,
		retryDelayMs: 0,
		deduplicationKey: `=notice-{{ ${MEMBER} }}-{{ ${COUPON} }}`,
	},
};
/** Guesses of the member's number, four digits each: one of them (0101) starts it. */
const GUESSES = ['0100x0101x0102x0103x0104', '0200x0201x0202x0203x0204'];
const ECHO = 'SERVICE-ECHO';

let service: ScriptedServer;
/** The number on the member's record. */
let stored: string;
let trigger: (body: { users?: Array<{ properties?: IDataObject }> }) => Answer;

const envelope = (processCode: number, message: string) => ({
	body: { httpStatus: { code: 200 }, processCode, message },
});

beforeAll(async () => {
	service = await startScripted((req) => {
		if (req.url.startsWith('/v2/users/sms')) {
			const record = { memberId: 'm-kim', phoneNumber: stored, isReceive: 'true' };
			return { body: { httpStatus: { code: 200 }, processCode: 0, processValue: [record] } };
		}
		return trigger(JSON.parse(req.body) as never);
	});
});
afterAll(async () => await service.close());
beforeEach(async () => {
	(await installStore()).reset();
	stored = '010-1234-5678';
	// A service that repeats the value it refuses, as many do.
	trigger = (body) =>
		envelope(1204, `${ECHO}: invalid date value ${String(body.users?.[0]?.properties?.coupon)}`);
});

const credentials = () => ({ baseUrl: service.baseUrl, apiKey: 'service-text-key' });
const answersOf = async (coupons: string[]) =>
	await runAsTool({
		type: 'campaignAlimtalk',
		parameters: TOOL,
		credentials: credentials(),
		calls: coupons.map((coupon) => ({ memberId: 'm-kim', coupon })),
	});

describe('as a tool, the service never tells the model anything through a send', () => {
	it('a refusal that repeats the guesses: the same answer whether a guess matches the number or not, without the service text', async () => {
		const { answers, texts } = await answersOf(GUESSES);
		// Each answer apart from its Deduplication Key, which holds the guesses the model sent.
		const [matching, other] = (answers as IDataObject[][]).map(([answer]) => {
			const rest = { ...answer };
			delete rest.deduplicationKey;
			return rest;
		});
		expect(matching).toMatchObject({
			outcome: 'refused',
			code: '1204',
			message: 'A date value is not in a valid format',
		});
		expect(matching).toEqual(other);
		for (const text of texts) {
			expect(text).not.toContain('withheld');
			expect(text).not.toContain(ECHO);
		}
	});

	it("a failure of the whole call: its code, words and what to do, never the service's text", async () => {
		trigger = (body) =>
			envelope(1405, `${ECHO}: account of ${String(body.users?.[0]?.properties?.coupon)}`);
		const { answers, texts } = await answersOf(GUESSES.slice(0, 1));
		expect(answers).toEqual([
			[
				expect.objectContaining({
					outcome: 'error',
					code: '1405',
					message: expect.stringContaining('The customer account has expired'),
				}),
			],
		]);
		expect(texts[0]).not.toContain(ECHO);
		expect(texts[0]).not.toContain('withheld');
	});

	it('a code that is part of the number is the code all the same (never withheld)', async () => {
		stored = '010-1204-5678';
		const { answers } = await answersOf(GUESSES.slice(0, 1));
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'refused', code: '1204' })]]);
	});

	it("outside tool mode the Failed item keeps the service's text", async () => {
		const { out } = await runNode({
			type: 'campaignAlimtalk',
			parameters: withFast({
				...TOOL,
				memberId: 'm-kim',
				propertiesJson: '={"coupon":"2024-13-45"}',
				options: {},
			}),
			input: [{}],
			credentials: credentials() as never,
		});
		expect(out[1].map((item) => item.json.message)).toEqual([
			expect.stringContaining(`${ECHO}: invalid date value 2024-13-45`),
		]);
	});
});
