/**
 * A private npm registry on 127.0.0.1 for the operator's install path: verdaccio (from npm,
 * installed once into a cache folder next to the n8n runtime), with no uplink, storage in a
 * temporary folder, and one user whose token publishes.
 *
 *   const registry = await startRegistry();      // { url, token, npmrc(scope), publish(dir), stop() }
 *
 * This registry serves only the `latest` version of each package, so verdaccio's own install
 * needs `node-fetch` pinned to 2.7.0 under verdaccio-audit (an `overrides` entry of the cache
 * folder's package.json, never of the package's).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../runtime/index.js');
const { spawnService, tempDir, waitForPort } = require('./process-groups.js');

const VERDACCIO_VERSION = '6.10.4';

function verdaccioDir() {
	return path.join(rt.cacheRoot(), `verdaccio-${VERDACCIO_VERSION}`);
}

/** Installs verdaccio into its cache folder on first use; returns the path of its bin script. */
async function ensureVerdaccio() {
	const dir = verdaccioDir();
	const bin = path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const marker = path.join(dir, '.ready');
	if (fs.existsSync(marker) && fs.existsSync(bin)) return bin;
	const t = Date.now();
	rt.log(`installing verdaccio ${VERDACCIO_VERSION} into ${dir} (first use only)`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const spec = {
		name: 'campaign-messaging-verdaccio',
		private: true,
		dependencies: { verdaccio: VERDACCIO_VERSION },
		overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
	};
	fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(spec, null, '\t')}\n`);
	await rt.run(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: dir,
			env: rt.cleanEnv(),
			label: 'npm install verdaccio',
		},
	);
	fs.writeFileSync(marker, new Date().toISOString());
	rt.log(`  verdaccio installed in ${rt.formatDuration(Date.now() - t)}`);
	return bin;
}

/**
 * Starts verdaccio; resolves once it answers and a publishing user exists.
 * @typedef {object} Registry
 * @property {string} url
 * @property {number} port
 * @property {number} pid
 * @property {string} token
 * @property {(scope: string) => string} npmrc
 * @property {(packageDir: string) => Promise<void>} publish
 * @property {() => Promise<void>} stop
 * @returns {Promise<Registry>}
 */
async function startRegistry() {
	const bin = await ensureVerdaccio();
	const tmp = tempDir('campaign-registry-');
	const port = await rt.freePort();
	const url = `http://127.0.0.1:${port}`;
	const config = [
		`storage: ${path.join(tmp.dir, 'storage')}`,
		'auth:',
		'  htpasswd:',
		`    file: ${path.join(tmp.dir, 'htpasswd')}`,
		'    max_users: 10',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'log: { type: stdout, format: pretty, level: warn }',
		'',
	].join('\n');
	const configFile = path.join(tmp.dir, 'config.yaml');
	fs.writeFileSync(configFile, config);
	// verdaccio 6 needs Node 22 or later: the runtime's Node 24.
	const { node } = await rt.ensureRuntime();
	const service = spawnService(
		node,
		[bin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
		{
			cwd: tmp.dir,
			env: rt.cleanEnv(),
			logFile: path.join(tmp.dir, 'verdaccio.log'),
		},
	);
	const stop = async () => {
		await service.stop();
		tmp.remove();
	};
	try {
		const ping = async () => (await rt.httpGet(`${url}/-/ping`)).status === 200;
		await waitForPort(port, { probe: ping, child: service.child, name: 'verdaccio' });
		const user = 'campaign-ci';
		const res = await rt.httpRequest('PUT', `${url}/-/user/org.couchdb.user:${user}`, {
			body: { name: user, password: 'campaign-ci-password', type: 'user', roles: [] },
		});
		const token = JSON.parse(res.body).token;
		if (res.status !== 201 || !token)
			throw new Error(`verdaccio refused the user: HTTP ${res.status} ${res.body}`);
		const hostPath = `//127.0.0.1:${port}/`;
		return {
			url,
			port,
			pid: service.child.pid,
			token,
			/** `.npmrc` lines that route `scope` to this registry with the token. */
			npmrc: (scope) =>
				`${scope}:registry=${url}/\n${hostPath}:_authToken=${token}\nupdate-notifier=false\nfund=false\naudit=false\n`,
			/** `npm publish` of an unpacked package folder to this registry. */
			publish: async (packageDir) => {
				const userconfig = path.join(tmp.dir, 'publish.npmrc');
				fs.writeFileSync(userconfig, `${hostPath}:_authToken=${token}\n`);
				await rt.run(
					'npm',
					[
						'publish',
						'--registry',
						`${url}/`,
						'--userconfig',
						userconfig,
						'--ignore-scripts',
						'--loglevel=error',
					],
					{
						cwd: packageDir,
						env: rt.cleanEnv(),
					},
				);
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * Unpacks `tarball` into `dir` renamed as `name` (a scoped copy for a private registry route);
 * returns the folder.
 */
async function renamedCopy(tarball, dir, name) {
	fs.mkdirSync(dir, { recursive: true });
	await rt.run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
	const manifest = path.join(dir, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
	pkg.name = name;
	delete pkg.scripts;
	fs.writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
	return dir;
}

module.exports = { ensureVerdaccio, startRegistry, renamedCopy, VERDACCIO_VERSION };
