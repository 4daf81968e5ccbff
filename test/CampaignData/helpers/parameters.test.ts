/**
 * The member id rule in the data nodes (docs/service-rules.md#member-ids): ids trimmed in every
 * operation, as the Members node does, and the Member ID parameter's words saying the rule.
 */
import type { INodeProperties } from 'n8n-workflow';
import { DIALECTS, PACKAGE_NAME, loadPackage, useSandbox } from '../../support';
import { run } from '../support';

const sb = useSandbox();

describe.each(DIALECTS)('%s: member ids', (_name, dialect) => {
	it('trims the member id of a get, like the Members node', async () => {
		await run(sb, dialect, { operation: 'get', memberId: '={{ $json.id }}' }, [{ id: '  kim  ' }]);
		expect(sb.requests.map((r) => r.query)).toEqual([{ memberId: 'kim' }]);
	});

	it('trims the member id of a write and a delete', async () => {
		await run(sb, dialect, { operation: 'create' }, [{ memberId: ' kim ', grade: 'x' }]);
		await run(sb, dialect, { operation: 'delete', memberId: '={{ $json.id }}' }, [
			{ id: '\tkim ' },
		]);
		expect(sb.requests.map((r) => r.body)).toEqual([{ kim: { grade: 'x' } }, ['kim']]);
	});
});

describe('the Member ID parameter says what the rule is', () => {
	it.each(['campaignCustomData', 'campaignLegacyData'])(
		'%s: no "any characters are allowed" while control characters are refused',
		(name) => {
			const node = loadPackage().nodes.get(`${PACKAGE_NAME}.${name}`) as {
				description: { properties: INodeProperties[] };
			};
			const ids = node.description.properties.filter((p) => p.name === 'memberId');
			expect(ids.length).toBeGreaterThan(0);
			for (const property of ids) {
				expect(property.description).not.toMatch(/any characters/i);
				expect(property.description).toMatch(/control characters are refused/);
				expect(property.description).toMatch(/spaces around it are removed/i);
			}
		},
	);
});
