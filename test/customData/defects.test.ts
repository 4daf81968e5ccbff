/**
 * Defects found by a close read, each pinned by a test: the member id rule (trimmed, as the
 * Members node does), the words of the Member ID parameter, and "On Error: Continue" after some
 * requests were already stored.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { DIALECTS, PACKAGE_NAME, loadPackage, useSandbox } from '../support';
import { envelope, startScripted, type ScriptedServer } from '../support/scripted-server';
import { run, scriptedCredential } from './support';

const sb = useSandbox();

describe.each(DIALECTS)('%s: member ids', (_name, dialect) => {
	it('trims the member id of a get, like the Members node', async () => {
		await run(sb, dialect, { operation: 'get', memberId: '={{ $json.id }}' }, [{ id: '  kim  ' }]);
		expect(sb.requests.map((r) => r.query)).toEqual([{ memberId: 'kim' }]);
	});

	it('trims the member id of a write and a delete', async () => {
		await run(sb, dialect, { operation: 'create' }, [{ memberId: ' kim ', grade: 'x' }]);
		await run(sb, dialect, { operation: 'delete', memberId: '={{ $json.id }}' }, [{ id: '\tkim ' }]);
		expect(sb.requests.map((r) => r.body)).toEqual([{ kim: { grade: 'x' } }, ['kim']]);
	});
});

describe('the Member ID parameter says what the rule is', () => {
	it.each(['campaignCustomData', 'campaignLegacyData'])('%s: no "any characters are allowed" while control characters are refused', (name) => {
		const node = loadPackage().nodes.get(`${PACKAGE_NAME}.${name}`) as { description: { properties: INodeProperties[] } };
		const ids = node.description.properties.filter((p) => p.name === 'memberId');
		expect(ids.length).toBeGreaterThan(0);
		for (const property of ids) {
			expect(property.description).not.toMatch(/any characters/i);
			expect(property.description).toMatch(/control characters are refused/);
			expect(property.description).toMatch(/spaces around it are removed/i);
		}
	});
});

describe.each(DIALECTS)('%s: "On Error: Continue" after earlier requests were stored', (_name, dialect) => {
	let server: ScriptedServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	/** The first request is stored, every later one fails as a whole (HTTP 500, no retries). */
	async function runBroken(parameters: IDataObject, input: IDataObject[], storedAnswer: unknown) {
		server = await startScripted((_req, index) => (index === 0 ? { body: envelope(0, storedAnswer) } : { status: 500, body: '<html>down</html>' }));
		return await run(scriptedCredential(server.baseUrl), dialect, { ...parameters, options: { batchSize: 1, maxRetries: 0 } }, input, {
			credentials: scriptedCredential(server.baseUrl),
			onError: 'continueRegularOutput',
		});
	}

	it('a write keeps the stored row on Success; only the rows not sent carry the error', async () => {
		const { out, error } = await runBroken({ operation: 'create' }, [{ memberId: 'm1', grade: 'a' }, { memberId: 'm2', grade: 'b' }, { memberId: 'm3', grade: 'c' }], dialect.type === 'campaignLegacyData' ? 1 : []);
		expect(error).toBeUndefined();
		expect(out[0].map((i) => [i.json.memberId ?? null, typeof i.json.error, i.pairedItem])).toEqual([
			['m1', 'undefined', { item: 0 }],
			[null, 'string', { item: 1 }],
			[null, 'string', { item: 2 }],
		]);
		expect(out[1]).toEqual([]);
	});

	it('a delete keeps the deleted member on Success; only the members not sent carry the error', async () => {
		const { out } = await runBroken({ operation: 'delete', memberId: '={{ $json.id }}' }, [{ id: 'm1' }, { id: 'm2' }], 1);
		expect(out[0].map((i) => [i.json.deleted ?? null, typeof i.json.error, i.pairedItem])).toEqual([
			[true, 'undefined', { item: 0 }],
			[null, 'string', { item: 1 }],
		]);
	});

	it('a failure of the first request still gives every item the error', async () => {
		server = await startScripted(() => ({ status: 500, body: '<html>down</html>' }));
		const { out } = await run(scriptedCredential(server.baseUrl), dialect, { operation: 'create', options: { batchSize: 1, maxRetries: 0 } }, [{ memberId: 'm1', grade: 'a' }, { memberId: 'm2', grade: 'b' }], {
			credentials: scriptedCredential(server.baseUrl),
			onError: 'continueRegularOutput',
		});
		expect(out[0].map((i) => [typeof i.json.error, i.pairedItem])).toEqual([
			['string', { item: 0 }],
			['string', { item: 1 }],
		]);
	});
});
