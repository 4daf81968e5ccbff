/**
 * The send with Recipient: Member ID, through the real engine and the sandbox: the member looked
 * up in the member API the credential names (v2 when it says Any), one lookup per distinct member
 * id before the first send, each way a lookup can end (one record, none, several, a member who
 * refuses messages, a stored number that does not convert), the member id rule, a lookup failing
 * for the whole call, a workflow saved before the parameter existed, and the Deduplication Key.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { loadPackage, pairedIndexes, runNode } from '../support';
import { installStore } from '../support/dedup-store';
import { delay } from '../support/node';
import { TOOL_SEND_TO_MEMBER, runAsTool } from '../support/tools';
import { KEYED } from './dedup/support';
import { phone, useSendFixture } from './support';

const { sb, send } = useSendFixture();

const TRIGGER = '/messages/alimtalk/trigger';
/** Far shorter than the hang and the 30 s default Timeout: a lookup that ignored the stop fails its test. */
const ENDS_WITHIN_MS = 15000;
const BY_MEMBER = { recipient: 'memberId', memberId: '={{$json.member}}' };
const item = (member: IDataObject[string], extra: IDataObject = {}): IDataObject => ({
	campaign: 'WELCOME',
	member,
	name: 'Kim',
	...extra,
});
const credential = (memberApiVersion?: string) => ({
	baseUrl: sb.baseUrl,
	apiKey: sb.apiKey,
	...(memberApiVersion ? { memberApiVersion } : {}),
});
const lookups = (version: 'v1' | 'v2') =>
	sb.requests.filter((r) => r.method === 'GET' && r.path === `/${version}/users/sms`);
const sentTo = () => sb.state.sent.map((s) => s.phoneNumber).sort();

function v1Member(memberId: string, phoneNumber: string, isReceive = true) {
	sb.state.membersV1.set(memberId, { memberId, phoneNumber, isReceive });
}
function v2Member(memberId: string, phoneNumber: string, isReceive: 'true' | 'false' = 'true') {
	sb.state.membersV2.set(phoneNumber.replace(/-/g, ''), { memberId, phoneNumber, isReceive });
}

describe('Campaign Alimtalk send to a member ID', () => {
	it('looks the member up in member API v2 when the credential says Any, and sends to its number in the 12-character form', async () => {
		v2Member('m-1', '010-1234-5678');
		const { out, error } = await send([item('m-1')], BY_MEMBER, credential('any'));
		expect(error).toBeUndefined();
		expect(lookups('v2').map((r) => r.query)).toEqual([{ memberId: 'm-1' }]);
		expect(lookups('v1')).toHaveLength(0);
		expect(sentTo()).toEqual(['821012345678']);
		expect(out[0][0].json).toMatchObject({
			memberId: 'm-1',
			phoneNumber: '821012345678',
			campaignKey: 'WELCOME',
			status: 'sent',
		});
		expect(pairedIndexes(out[0])).toEqual([0]);
	});

	it('uses member API v1 when the credential says v1 Only, and v2 when it says v2 Only', async () => {
		v1Member('m-1', '01023456789');
		v2Member('m-1', '010-3456-7890');
		await send([item('m-1')], BY_MEMBER, credential('v1'));
		expect(lookups('v1')).toHaveLength(1);
		expect(lookups('v2')).toHaveLength(0);
		await send([item('m-1')], BY_MEMBER, credential('v2'));
		expect(lookups('v2')).toHaveLength(1);
		expect(sentTo()).toEqual(['821023456789', '821034567890']);
	});

	it('sends nothing to an unknown member (memberNotFound) or to an id with several records (severalMemberRecords)', async () => {
		v2Member('twice', '010-1111-2222');
		v2Member('twice', '010-3333-4444');
		v2Member('once', '010-5555-6666');
		const input = [item('nobody'), item('twice'), item('once')];
		const { out } = await send(input, BY_MEMBER);
		expect(sentTo()).toEqual(['821055556666']);
		expect(out[1].map((i) => i.json.code)).toEqual(['memberNotFound', 'severalMemberRecords']);
		expect(out[1][0].json).toMatchObject({ memberId: 'nobody', phoneNumber: null });
		expect(out[1][1].json).toMatchObject({ memberId: 'twice', phoneNumber: null });
		expect(String(out[1][1].json.message)).toContain('2 member records');
		expect(pairedIndexes(out[1])).toEqual([0, 1]);
		expect(pairedIndexes(out[0])).toEqual([2]);
	});

	it('with Only Members Who Accept Messages, refuses a member whose isReceive is false; without it, sends', async () => {
		v2Member('yes', '010-1000-0001', 'true');
		v2Member('no', '010-1000-0002', 'false');
		const input = [item('yes'), item('no')];
		const only = await send(input, { ...BY_MEMBER, options: { acceptingMembersOnly: true } });
		expect(only.out[1].map((i) => i.json)).toEqual([
			expect.objectContaining({
				code: 'memberRefusesMessages',
				memberId: 'no',
				phoneNumber: '010-1000-0002',
			}),
		]);
		expect(sentTo()).toEqual(['821010000001']);
		sb.state.sent.length = 0;
		const all = await send(input, BY_MEMBER);
		expect(all.out[1]).toHaveLength(0);
		expect(sentTo()).toEqual(['821010000001', '821010000002']);
	});

	it('refuses a stored number that has no 12-character form (7012), naming the member and the number', async () => {
		v1Member('old', '011-123-4567'); // a 10-digit mobile number: 11 characters in the send form
		const { out } = await send([item('old')], BY_MEMBER, credential('v1'));
		expect(sb.state.sent).toHaveLength(0);
		expect(out[1][0].json).toMatchObject({ code: '7012', memberId: 'old' });
		expect(String(out[1][0].json.message)).toMatch(/member "old".*011-123-4567/);
	});

	it('looks a member ID given by several items up once, and sends to each item; a padded id is refused, not trimmed', async () => {
		v2Member('m-1', '010-1234-5678');
		const { out } = await send([item('m-1'), item(' m-1 '), item('m-1')], BY_MEMBER);
		expect(lookups('v2')).toHaveLength(1);
		expect(sb.requests.filter((r) => r.path === TRIGGER)).toHaveLength(2);
		expect(pairedIndexes(out[0])).toEqual([0, 2]);
		expect(out[1].map((i) => [i.json.code, i.json.memberId])).toEqual([['-1006', ' m-1 ']]);
	});

	it('fails the node and sends nothing when a lookup fails for the whole call (expired account)', async () => {
		const { error, out } = await send([item('m-1')], BY_MEMBER, {
			baseUrl: sb.baseUrl,
			apiKey: 'expired-key',
		});
		expect(error?.message).toContain('-1003');
		expect(out).toEqual([]);
		expect(sb.requests.filter((r) => r.path === TRIGGER)).toHaveLength(0);
	});

	it('fails the node and sends nothing when the member service is down for one lookup, although the other member was found', async () => {
		v2Member('m-1', '010-1234-5678');
		v2Member('m-2', '010-2345-6789');
		sb.configure({
			faults: {
				kinds: ['http503html'],
				match: (r) => r.path === '/v2/users/sms',
				firstN: 1,
			},
		});
		const { error } = await send([item('m-1'), item('m-2')], {
			...BY_MEMBER,
			options: { maxRetries: 0, concurrency: 2 },
		});
		expect(error).toBeDefined();
		expect(
			lookups('v2')
				.map((r) => r.status)
				.sort(),
		).toEqual([200, 503]);
		expect(sb.requests.filter((r) => r.path === TRIGGER)).toHaveLength(0);
	});

	it(
		'ends at once when the execution is stopped while a lookup waits for the service, with nothing sent',
		async () => {
			v2Member('m-1', '010-1234-5678');
			sb.configure({ faults: { kinds: ['hang'], match: (r) => r.path === '/v2/users/sms' } });
			// Bounded: a run that never looks up gives up waiting and fails its assertions below.
			const waiting = async () => {
				for (let n = 0; n < 250 && lookups('v2').length === 0; n++) await delay(20);
			};
			const { error } = await runNode({
				type: 'campaignAlimtalk',
				parameters: { operation: 'send', campaignKey: 'WELCOME', ...BY_MEMBER },
				input: [item('m-1')],
				credentials: credential() as never,
				stop: waiting().then(() => delay(200)),
			});
			// As every read ended by a stop (shared/transport/client.ts): the node ends, nothing sent.
			expect(error?.message).toBe('The execution was stopped; the request was not completed');
			expect(sb.requests.filter((r) => r.path === TRIGGER)).toHaveLength(0);
		},
		ENDS_WITHIN_MS,
	);

	it('refuses a member ID that breaks the member id rule (-1006), naming the field and the rule, without a lookup', async () => {
		v2Member('12345', '010-1234-5678');
		const input = [
			item(''),
			item(null),
			item({ id: 1 }),
			item('a\nb'),
			item(12345),
			item('x'.repeat(300)),
		];
		const { out } = await send(input, BY_MEMBER);
		expect(pairedIndexes(out[1])).toEqual([0, 1, 2, 3, 5]);
		const refused = out[1].slice(0, 4).map((i) => i.json);
		expect(refused.map((j) => j.code)).toEqual(['-1006', '-1006', '-1006', '-1006']);
		for (const json of refused) expect(String(json.message)).toMatch(/^Member ID /);
		expect(String(refused[3].message)).toContain('line breaks');
		expect(String(refused[2].message)).toContain('text or a number');
		// A number is an id (its digits); the service documents no length limit, so a long id is looked up.
		expect(lookups('v2').map((r) => r.query.memberId)).toEqual(['12345', 'x'.repeat(300)]);
		expect(out[1][4].json.code).toBe('memberNotFound');
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('still sends to the Phone Number in a workflow saved before Recipient existed, ignoring the member option', async () => {
		const { out } = await send([{ campaign: 'WELCOME', phone: phone(7), name: 'Kim' }], {
			options: { acceptingMembersOnly: true },
		});
		expect(out[0][0].json).toMatchObject({ phoneNumber: phone(7), status: 'sent' });
		expect(sb.requests.filter((r) => r.path.includes('/users/sms'))).toHaveLength(0);
	});

	it('shows Phone Number or Member ID by Recipient, so a tool to a member has no phone number field', () => {
		const type = loadPackage().nodes.get('n8n-nodes-campaign-messaging.campaignAlimtalk');
		const properties = type?.description.properties ?? [];
		const resolved = (parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(properties, parameters, true, false, null, null) ?? {};
		const saved = resolved({
			operation: 'send',
			campaignKey: 'K',
			phoneNumber: '={{ $fromAI("p") }}',
		});
		expect(saved).toMatchObject({ recipient: 'phoneNumber', phoneNumber: '={{ $fromAI("p") }}' });
		expect(saved).not.toHaveProperty('memberId');
		const member = resolved({
			operation: 'send',
			recipient: 'memberId',
			memberId: '={{ $fromAI("memberId") }}',
			phoneNumber: '={{ $fromAI("p") }}',
		});
		expect(member).toMatchObject({ recipient: 'memberId', memberId: '={{ $fromAI("memberId") }}' });
		expect(member).not.toHaveProperty('phoneNumber');
		const option = (properties.find((p) => p.name === 'options')?.options ?? []).find(
			(o) => 'name' in o && o.name === 'acceptingMembersOnly',
		) as { displayOptions?: unknown } | undefined;
		expect(option?.displayOptions).toEqual({ show: { '/recipient': ['memberId'] } });
	});

	it("as a tool, takes a member ID from the model, never tells it the member's number, and tells it a member not found with what to change", async () => {
		(await installStore()).reset();
		v2Member('m-1', '010-1234-5678');
		v2Member('m-2', '010-2345-6789', 'false');
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: {
				...TOOL_SEND_TO_MEMBER,
				options: {
					acceptingMembersOnly: true,
					deduplicationKey: "=notice-{{ $fromAI('memberId', 'The member to notify', 'string') }}",
				},
			},
			credentials: credential(),
			calls: [{ memberId: 'm-1' }, { memberId: 'nobody' }, { memberId: 'm-2' }],
		});
		for (const [answer] of answers as IDataObject[][])
			expect(answer).not.toHaveProperty('phoneNumber');
		expect(JSON.stringify(answers)).not.toMatch(/1234.?5678|2345.?6789/);
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'sent', memberId: 'm-1' })],
			[
				expect.objectContaining({
					outcome: 'refused',
					code: 'memberNotAvailable',
					memberId: 'nobody',
					// Never "save the member first": a model must not create its own recipient.
					whatToDo: expect.stringContaining("workflow's owner"),
				}),
			],
			[
				expect.objectContaining({
					outcome: 'refused',
					code: 'memberNotAvailable',
					memberId: 'm-2',
				}),
			],
		]);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('with a Deduplication Key made from the member ID, sends once per member and never claims an item whose lookup failed', async () => {
		await installStore();
		v2Member('m-1', '010-1234-5678');
		const input = [
			item('m-1', { orderId: 'notice-m-1' }),
			item('nobody', { orderId: 'notice-nobody' }),
		];
		const parameters = { ...BY_MEMBER, options: KEYED };
		const first = await send(input, parameters);
		expect(first.out[1].map((i) => i.json.code)).toEqual(['memberNotFound']);
		v2Member('nobody', '010-9999-8888');
		const second = await send(input, parameters);
		expect(second.out[0].map((i) => [i.json.memberId, i.json.duplicate ?? false])).toEqual([
			['m-1', true],
			['nobody', false],
		]);
		expect(sentTo()).toEqual(['821012345678', '821099998888']);
	});
});
