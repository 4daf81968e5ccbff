/**
 * When `npm start`, `npm run start:queue`, `npm run test:queue`, the compatibility runner and the
 * end-to-end files build the package (docs/development.md): only when dist/ lacks a file that
 * package.json's `n8n` section lists, or a file under nodes/ or credentials/ changed after the
 * newest file of dist/ (scripts/runtime/package.js distProblem, behind ensureBuilt). Checked on a
 * scratch package folder, never on the repository's own dist/.
 */
import { distProblem } from '../../scripts/runtime/package';
import { fs, os, path } from '../support/node';

let root: string;

function write(file: string, secondsAgo: number): void {
	const full = path.join(root, file);
	fs.mkdirSync(path.dirname(full), { recursive: true });
	fs.writeFileSync(full, '// scratch\n');
	const at = new Date(Date.now() - secondsAgo * 1000);
	fs.utimesSync(full, at, at);
}

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-current-'));
	fs.writeFileSync(
		path.join(root, 'package.json'),
		JSON.stringify({
			n8n: { nodes: ['dist/nodes/A.node.js'], credentials: ['dist/credentials/C.js'] },
		}),
	);
	write('nodes/A.node.ts', 60);
	write('credentials/C.ts', 60);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('a dist/ built after the sources, with every listed file, needs no build', () => {
	write('dist/nodes/A.node.js', 30);
	write('dist/credentials/C.js', 30);
	expect(distProblem(root)).toBeUndefined();
});

test('a listed file missing from dist/ asks for a build and names the file', () => {
	write('dist/nodes/A.node.js', 30);
	expect(distProblem(root)).toBe('dist/ lacks dist/credentials/C.js');
});

test('a source under nodes/ or credentials/ changed after the build asks for a build and names it', () => {
	write('dist/nodes/A.node.js', 30);
	write('dist/credentials/C.js', 30);
	write('nodes/helpers/b.ts', 10);
	expect(distProblem(root)).toMatch(/older than the sources: nodes\/helpers\/b\.ts changed/);
	write('credentials/C.ts', 5);
	expect(distProblem(root)).toMatch(/credentials\/C\.ts changed/);
});
