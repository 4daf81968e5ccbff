/**
 * End-to-end, the guard rails for agents over MCP (docs/agent-tools.md, "Guard rails";
 * docs/ai-agents.md): under one `n8n start`, an MCP Server Trigger with these send tools, listed
 * and called by the official MCP client (no Members write tool beside them: a send by member
 * would refuse to run, which mcp.e2e.ts checks):
 * - a send by member id (key `notice-<memberId>-<day>`, at most 2 per hour) and the same send
 *   without a key: what the tools list says, and the outcome of each call;
 * - a hostile model: a member ID spelled three ways, a member whose number cannot be sent, a
 *   member who refuses messages (a send by member, key of member and day, Only Members Who Accept
 *   Messages, 5 per hour), and a Legacy Data Get on planted data;
 * - the sends docs/agent-tools.md recommends, a key of the day with Deduplicate per
 *   Recipient: one number spelled six ways through a Phone Number send with Convert Phone
 *   Numbers; member IDs that only look like one on record (the braille blank U+2800), and a record
 *   stored under such an ID, through a send by member.
 * - refused lookups bounded on their own, a used-up limit answering
 *   alike; a Phone Number send without Convert Phone Numbers keyed on the digits, an invisible
 *   character refused; a campaign key the model picks, read as sent.
 * The same send under AI Agent 3.1 and 2.2: guardrails-agent.e2e.ts. Each call's outcome is logged
 * and kept in test-artifacts/e2e/guardrails/calls.json. Tools: support/guardrails.ts; the client:
 * support/mcp.ts.
 */
import * as rt from '../../scripts/runtime';
import { answerStrings as strings } from '../support/agent-example';
import * as e2e from './support';
import { SPELLINGS_OF_ONE_NUMBER } from '../support/tools';

e2e.setupN8n('guardrails', { demo: false });

const MCP_ID = 'e2eGuardrailsMcp';
const BEARER = `e2e-${crypto.randomUUID()}`;
const [A, B, C] = ['member-a', 'member-b', 'member-c'].map((id, i) => e2e.member(id, i + 1));
/** The fixed number of the send whose campaign key the model picks. */
const CAMPAIGN_TO = '821055550001';

let n8n: rt.StartedN8n;

beforeAll(
	async () => {
		await e2e.importCredentials([
			{ ...e2e.MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token: BEARER } },
		]);
		const tools = [
			e2e.noticeTool('Send notice'),
			e2e.noticeTool('Send keyless', { key: false, limit: 0 }),
			e2e.noticeTool('Send checked', { limit: 5, accepting: true }),
			e2e.LEGACY_GET_TOOL,
			e2e.numberTool('Send by number'),
			e2e.guardedTool('Send guarded'),
			e2e.noticeTool('Send bounded'),
			e2e.numberTool('Send as typed', false),
			e2e.campaignTool('Send campaign', CAMPAIGN_TO),
		];
		await e2e.importWorkflows([e2e.mcpWorkflow(MCP_ID, tools)]);
		n8n = await e2e.startN8n();
		const { cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword);
		expect(await e2e.publishWithMcp(n8n.url, cookie, [MCP_ID])).toEqual([200]);
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	e2e.writeCalls();
});

const sentTo = () => e2e.sb.state.sent.map((m) => m.phoneNumber);
const useClient = (name: string) => e2e.useMcpClient(() => n8n.url, BEARER, name);

describe('MCP Server Trigger: send by member, key of member and day, 2 per hour; keyless send', () => {
	beforeAll(() => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, [A, B, C]);
	});
	const { client, call } = useClient('campaign-e2e-guardrails');

	test('the tools list: the send asks for a member ID only; a send says billed', async () => {
		const { tools } = await client().listTools();
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		const sends = [
			'Send_as_typed',
			'Send_bounded',
			'Send_by_number',
			'Send_campaign',
			'Send_checked',
			'Send_guarded',
			'Send_keyless',
			'Send_notice',
		];
		expect(Object.keys(byName).sort()).toEqual(['Member_data', ...sends]);
		const inputs = (name: string) => Object.keys(byName[name].inputSchema.properties ?? {});
		// A key of the day has no $fromAI(): the model fills the recipient and nothing else.
		expect(sends.map(inputs)).toEqual([
			['phoneNumber'],
			['memberId'],
			['phoneNumber'],
			['campaignKey'],
			...Array(4).fill(['memberId']),
		]);
		for (const name of sends) expect(byName[name].description).toMatch(/billed/i);
	});

	test("member A: sent, to A's number in the send form (the model is told the member, not the number)", async () => {
		const { answer } = await call('send A', 'Send_notice', A.memberId);
		expect(answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: A.memberId })]);
		// The model named a member: it is never told the member's number.
		expect(answer[0]).not.toHaveProperty('phoneNumber');
		expect(sentTo()).toEqual([A.sendForm]);
	});

	test('member A again: a duplicate of the key of member and day, not sent', async () => {
		expect((await call('send A again', 'Send_notice', A.memberId)).answer).toEqual([
			expect.objectContaining({
				outcome: 'duplicate',
				// The day is n8n's ($now in the instance's time zone).
				deduplicationKey: expect.stringMatching(
					new RegExp(`^notice-${A.memberId}-\\d{4}-\\d{2}-\\d{2}$`),
				),
			}),
		]);
		expect(sentTo()).toEqual([A.sendForm]);
	});

	test("member B: sent, to B's number (the second of the hour)", async () => {
		const { answer } = await call('send B', 'Send_notice', B.memberId);
		expect(answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: B.memberId })]);
		// The model named a member: it is never told the member's number.
		expect(answer[0]).not.toHaveProperty('phoneNumber');
	});

	test('member C: refused (sendLimitReached), the message names the limit and the period', async () => {
		expect((await call('send C', 'Send_notice', C.memberId)).answer).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: 'sendLimitReached',
				message: expect.stringMatching(/\b2\b[\s\S]*hour/),
			}),
		]);
	});

	// Once the limit is used up, every call is answered alike before any lookup (docs/agent-tools.md):
	// an unknown member as member C, who is on record.
	test('an unknown member once the limit is used up: answered as member C (sendLimitReached), not sent', async () => {
		expect((await call('send unknown member', 'Send_notice', 'member-nobody')).answer).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'sendLimitReached' }),
		]);
	});

	test('the keyless send: refused before anything is sent (deduplicationKeyRequired)', async () => {
		const before = e2e.sb.requests.length;
		expect((await call('keyless send', 'Send_keyless', C.memberId)).answer).toEqual([
			expect.objectContaining({ outcome: 'error', code: 'deduplicationKeyRequired' }),
		]);
		expect(e2e.sb.requests.length).toBe(before);
	});

	test("exactly 2 messages reached the service, to A's and B's numbers", () => {
		expect(sentTo()).toEqual([A.sendForm, B.sendForm]);
	});
});

describe('MCP Server Trigger: a hostile model (member by member, consent, 5 per hour; Legacy Data Get)', () => {
	const KIM = e2e.member('m-kim', 21);
	const NO = e2e.member('m-no', 22);

	beforeAll(() => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, [KIM, NO]);
		e2e.sb.state.membersV2.get(NO.stored.replace(/-/g, ''))!.isReceive = 'false';
		// A stored number with no 12-character send form (a 10-digit mobile number).
		e2e.sb.state.membersV2.set('0119876543', {
			memberId: 'm-old',
			phoneNumber: '011-987-6543',
			isReceive: 'true',
		});
	});
	const { call } = useClient('campaign-e2e-hostile');

	test('"m-kim", " m-kim" and "m-kim" + U+3000: exactly 1 message; the look-alikes are refused (-1006)', async () => {
		const first = await call('hostile m-kim', 'Send_checked', 'm-kim');
		expect(first.answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: 'm-kim' })]);
		for (const id of [' m-kim', 'm-kim\u3000']) {
			const { answer } = await call(`hostile ${JSON.stringify(id)}`, 'Send_checked', id);
			expect(answer).toEqual([expect.objectContaining({ outcome: 'refused', code: '-1006' })]);
		}
		expect((await call('hostile m-kim again', 'Send_checked', 'm-kim')).answer).toEqual([
			expect.objectContaining({ outcome: 'duplicate' }),
		]);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('a member whose stored number cannot be sent: refused (memberNotAvailable), no digits of the number reach the client', async () => {
		const { answer, text } = await call('hostile m-old', 'Send_checked', 'm-old');
		expect(answer).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' }),
		]);
		expect(text).not.toMatch(/0119876543|119876543|987.?6543/);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test("a member who refuses messages: refused, and the model is told to ask the workflow's owner, never how to get around it", async () => {
		const { answer, text } = await call('hostile m-no', 'Send_checked', NO.memberId);
		expect(answer).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: 'memberNotAvailable',
				whatToDo: expect.stringContaining("workflow's owner"),
			}),
		]);
		expect(text).not.toMatch(/turn off|Options|instead/i);
		expect(text).not.toContain(NO.stored.slice(4));
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('Legacy Data Get on planted data: one answer under 32,000 characters, no string over 600, the answer fields its own', async () => {
		const data = new Map<string, string | number>([
			['outcome', 'sent'],
			['code', 'c'.repeat(6000)],
		]);
		for (let n = 0; n < 300; n++) data.set(`note-${n}`, `${n} ${'x'.repeat(495)}`);
		e2e.sb.state.legacy.set('m-kim', data);
		const { answer, text } = await call('hostile legacy get', 'Member_data', 'm-kim');
		rt.log(`guardrails: legacy get answer ${text.length} characters`);
		expect(text.length).toBeLessThan(32000);
		expect(Math.max(...strings(answer).map((s) => s.length))).toBeLessThanOrEqual(600);
		expect(answer[0]).toEqual({ outcome: 'truncated', message: expect.any(String) });
		expect(answer.slice(1)).toEqual([expect.objectContaining({ memberId: 'm-kim' })]);
		expect(answer.slice(1).filter((item) => 'outcome' in item)).toEqual([]);
	});
});

describe('MCP Server Trigger: a Phone Number send, key of the day, Convert Phone Numbers, Deduplicate per Recipient', () => {
	beforeAll(() => e2e.resetSandbox());
	const { call } = useClient('campaign-e2e-per-recipient');
	const SPELLINGS = SPELLINGS_OF_ONE_NUMBER;

	test('one number spelled six ways: exactly 1 message, the 5 others duplicate; a second number: 1 more', async () => {
		const answers: e2e.Json[][] = [];
		for (const phoneNumber of [...SPELLINGS, '010-2345-6789']) {
			const label = `by number ${JSON.stringify(phoneNumber)}`;
			answers.push((await call(label, 'Send_by_number', { phoneNumber })).answer);
		}
		expect(answers.map((answer) => answer.map((a) => a.outcome))).toEqual([
			['sent'],
			...Array(5).fill(['duplicate']),
			['sent'],
		]);
		expect([answers[0][0].phoneNumber, answers[6][0].phoneNumber]).toEqual([
			'821012345678',
			'821023456789',
		]);
		// Every call is an execution of its own: the key held across them, in n8n's database.
		expect(sentTo()).toEqual(['821012345678', '821023456789']);
	});
});

describe('MCP Server Trigger: member IDs that only look like one on record (U+2800), the recommended send by member', () => {
	const KIM = e2e.member('m-kim', 31);
	const LEE = e2e.member('m-lee', 32);
	const HIDDEN = 'm-lee\u2800';
	const leeDigits = LEE.stored.replace(/-/g, '');

	beforeAll(() => {
		e2e.resetSandbox();
		// The record of "m-lee" + U+2800: an ID a model sees as "m-lee".
		e2e.seedMembers(e2e.sb, [KIM, { ...LEE, memberId: HIDDEN }]);
	});
	const { call } = useClient('campaign-e2e-look-alike');
	const refusedNaming2800 = [
		expect.objectContaining({
			outcome: 'refused',
			code: '-1006',
			message: expect.stringContaining('U+2800'),
		}),
	];

	test('"m-kim" + U+2800 and U+2800 + "m-kim": refused (-1006) naming U+2800, nothing sent; "m-kim" itself: 1 message', async () => {
		for (const id of ['m-kim\u2800', '\u2800m-kim']) {
			const { answer } = await call(`look-alike ${JSON.stringify(id)}`, 'Send_guarded', id);
			expect(answer).toEqual(refusedNaming2800);
		}
		expect(sentTo()).toEqual([]);
		expect((await call('look-alike m-kim', 'Send_guarded', 'm-kim')).answer).toEqual([
			expect.objectContaining({ outcome: 'sent', memberId: 'm-kim' }),
		]);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('a record stored as "m-lee" + U+2800: asked as "m-lee", memberNotAvailable; by its own ID, -1006; never sent to', async () => {
		expect((await call('look-alike m-lee', 'Send_guarded', 'm-lee')).answer).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' }),
		]);
		const { answer } = await call(`look-alike ${JSON.stringify(HIDDEN)}`, 'Send_guarded', HIDDEN);
		expect(answer).toEqual(refusedNaming2800);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('a service that answers "m-lee" with that record (it ignores U+2800): memberNotAvailable, never sent to', async () => {
		// The sandbox matches on the first read of the record's ID and answers the second.
		let reads = 0;
		e2e.sb.state.membersV2.set(leeDigits, {
			phoneNumber: LEE.stored,
			isReceive: 'true',
			get memberId() {
				return ++reads % 2 === 1 ? 'm-lee' : HIDDEN;
			},
		});
		expect((await call('look-alike m-lee, loose service', 'Send_guarded', 'm-lee')).answer).toEqual(
			[expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' })],
		);
		// The service did answer the record (matched, then read into the answer).
		expect(reads).toBeGreaterThanOrEqual(2);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});
});

describe('MCP Server Trigger: refused lookups bounded on their own, numbers keyed on their digits, a campaign key read as sent', () => {
	const [KIM, LEE, PARK] = ['m-kim', 'm-lee', 'm-park'].map((id, i) => e2e.member(id, 41 + i));
	const memberReads = () => e2e.sb.requests.filter((r) => r.path.startsWith('/v2/users/sms'));
	const outcomeOf = ({ answer }: { answer: e2e.Json[] }) =>
		answer[0].outcome === 'refused' ? answer[0].code : answer[0].outcome;

	beforeAll(() => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, [KIM, LEE, PARK]);
		e2e.sb.addCampaign('campaign-ok');
	});
	const { call } = useClient('campaign-e2e-bounds');

	test('2 an hour: m-kim, m-kim again, an unknown member, m-lee give sent, duplicate, refused, sent; m-park is refused by the limit: two messages', async () => {
		const outcomes = [];
		for (const id of ['m-kim', 'm-kim', 'm-nobody', 'm-lee', 'm-park'])
			outcomes.push(outcomeOf(await call(`bounded ${id}`, 'Send_bounded', id)));
		expect(outcomes).toEqual([
			'sent',
			'duplicate',
			'memberNotAvailable',
			'sent',
			'sendLimitReached',
		]);
		expect(sentTo()).toEqual([KIM.sendForm, LEE.sendForm]);
	});

	test('the limit used up: m-kim, messaged this hour, is answered sendLimitReached like m-park, and no member record is read', async () => {
		const before = memberReads().length;
		const kim = await call('bounded m-kim, limit used up', 'Send_bounded', KIM.memberId);
		expect(kim.answer).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'sendLimitReached' }),
		]);
		expect(memberReads()).toHaveLength(before);
	});

	test('Convert Phone Numbers off: one number as 12 digits, with a hyphen, a moved hyphen and a space: 1 message; with U+200B inside: refused (7012) naming it', async () => {
		const outcomes = [];
		for (const phoneNumber of ['821077770001', '010-77770001', '0107-7770001', '010 77770001'])
			outcomes.push(
				outcomeOf(await call(`as typed ${phoneNumber}`, 'Send_as_typed', { phoneNumber })),
			);
		expect(outcomes).toEqual(['sent', 'duplicate', 'duplicate', 'duplicate']);
		const hidden = await call('as typed with U+200B', 'Send_as_typed', {
			phoneNumber: '010\u200B77770001',
		});
		expect(hidden.answer).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: '7012',
				message: expect.stringContaining('U+200B'),
			}),
		]);
		expect(sentTo().filter((to) => to.includes('7777'))).toEqual(['821077770001']);
	});

	test('a campaign key the model picks, key of campaign and day: "campaign-ok", " campaign-ok" and "campaign-ok" + U+3000 give 1 message, the padded two refused (7011)', async () => {
		const outcomes = [];
		for (const campaignKey of ['campaign-ok', ' campaign-ok', 'campaign-ok\u3000'])
			outcomes.push(
				outcomeOf(
					await call(`campaign ${JSON.stringify(campaignKey)}`, 'Send_campaign', { campaignKey }),
				),
			);
		expect(outcomes).toEqual(['sent', '7011', '7011']);
		expect(e2e.sb.state.sent.filter((m) => m.phoneNumber === CAMPAIGN_TO)).toHaveLength(1);
	});
});
