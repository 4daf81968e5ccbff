/**
 * What n8n 3.0 removes for community nodes does not touch the package (docs/compatibility.md,
 * "n8n 3.0"): no node description sets `defaults.color`, no node code or example uses
 * `$getPairedItem`, and no example uses AI Agent version 1.
 */
import { loadPackage } from '../support';
import { fs, path, ROOT } from '../support/node';

function filesUnder(folder: string, ending: string): string[] {
	return fs
		.readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(ending))
		.map((file) => path.join(ROOT, folder, file));
}

describe("n8n 3.0's removals for community nodes", () => {
	it('no node description sets defaults.color', () => {
		const nodes = [...loadPackage().nodes.values()];
		expect(nodes).toHaveLength(4);
		for (const node of nodes) expect(node.description.defaults).not.toHaveProperty('color');
	});

	it('no node source and no example uses $getPairedItem', () => {
		const files = [...filesUnder('nodes', '.ts'), ...filesUnder('examples', '.json')];
		expect(files.length).toBeGreaterThan(20);
		const users = files.filter((file) => fs.readFileSync(file, 'utf8').includes('$getPairedItem'));
		expect(users).toEqual([]);
	});

	it('no example uses AI Agent version 1', () => {
		const agents = filesUnder('examples', '.json').flatMap((file) => {
			const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as {
				nodes: Array<{ type: string; typeVersion: number }>;
			};
			return workflow.nodes.filter((node) => node.type === '@n8n/n8n-nodes-langchain.agent');
		});
		expect(agents.length).toBeGreaterThan(0);
		for (const agent of agents) expect(agent.typeVersion).toBeGreaterThanOrEqual(2);
	});
});
