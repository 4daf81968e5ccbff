/**
 * A node's Operation parameter, built from its operation files (operationParameter of
 * nodes/shared/operation.ts), still holds every entry saved workflows depend on, unchanged: the
 * list as it was written by hand. A new operation adds its own entry without touching this list.
 */
import type { INodeProperties } from 'n8n-workflow';
import { loadPackage, PACKAGE_NAME } from './package-loader';

export function expectOperationListKeeps(nodeName: string, written: INodeProperties): void {
	const node = loadPackage().nodes.get(`${PACKAGE_NAME}.${nodeName}`) as {
		description: { properties: INodeProperties[] };
	};
	const built = node.description.properties.filter((p) => p.name === 'operation');
	expect(built).toHaveLength(1);
	const { options: writtenOptions, ...writtenRest } = written;
	const { options: builtOptions, ...builtRest } = built[0];
	expect(builtRest).toStrictEqual(writtenRest);
	expect(builtOptions).toEqual(expect.arrayContaining(writtenOptions as object[]));
	const names = (builtOptions as Array<{ name: string }>).map((option) => option.name);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
}
