/**
 * The Operation parameter built from a node's operations (operationParameter,
 * nodes/shared/operation.ts): the entries in the order n8n's linter wants (by name, whatever the
 * order of the list), an entry worded for what the node passes, and an entry whose value is not
 * its operation's refused.
 */
import type { ListedOperation, OperationOption } from '../../nodes/shared/operation';
import { operationParameter } from '../../nodes/shared/operation';

/** A read operation with the list entry `option`. */
const listed = <Args extends unknown[]>(
	option: ListedOperation<Args>['option'],
): ListedOperation<Args> => ({
	option,
	kind: 'read',
	description: [],
	execute: async () => [],
});

const entry = (name: string, value: string): OperationOption => ({
	name,
	value,
	action: `${name} things`,
	description: `${name} the things`,
});

describe('operationParameter', () => {
	it('lists the entries by name, with the default and where it is shown', () => {
		const parameter = operationParameter(
			{
				update: listed(entry('Update', 'update')),
				getAll: listed(entry('Get Many', 'getAll')),
				delete: listed(entry('Delete', 'delete')),
				deleteKeys: listed(entry('Delete Keys', 'deleteKeys')),
			},
			{ default: 'update', displayOptions: { show: { resource: ['thing'] } } },
		);
		expect(parameter).toStrictEqual({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['thing'] } },
			default: 'update',
			options: [
				entry('Delete', 'delete'),
				entry('Delete Keys', 'deleteKeys'),
				entry('Get Many', 'getAll'),
				entry('Update', 'update'),
			],
		});
	});

	it('words an entry for what the node passes', () => {
		const get = listed((noun: string) => ({ ...entry('Get', 'get'), action: `Get ${noun}` }));
		const parameter = operationParameter({ get }, { default: 'get' }, 'legacy data');
		expect(parameter.options).toEqual([{ ...entry('Get', 'get'), action: 'Get legacy data' }]);
		expect(parameter).not.toHaveProperty('displayOptions');
	});

	it('refuses an entry whose value is not its operation', () => {
		expect(() =>
			operationParameter({ get: listed(entry('Get', 'getAll')) }, { default: 'get' }),
		).toThrow('The list entry of operation "get" has the value "getAll"');
	});
});
