/** `n8n start` on 127.0.0.1 (started, waited for, stopped) and its owner account. */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { formatDuration, readText, spawnChild, tail } = require('./run-command');
const { freePort, httpGet, httpRequest } = require('./net');
const { n8nEnv } = require('./paths');
const { folderSecrets } = require('./demo-secrets');

/**
 * n8n's owner account for local instances (see setupOwner). Its password is made per user folder
 * (folderSecrets in demo-secrets.js): startN8n returns it, and setupOwner takes it.
 */
const OWNER = {
	email: 'owner@campaign-messaging.local',
	firstName: 'Local',
	lastName: 'Owner',
};

/**
 * n8n 2.41 can own its owner account through the environment: with N8N_INSTANCE_OWNER_MANAGED_BY_ENV
 * `n8n start` creates (or overwrites) the owner from N8N_INSTANCE_OWNER_EMAIL, _FIRST_NAME,
 * _LAST_NAME and _PASSWORD_HASH (a bcrypt hash), so the editor opens on the sign-in page instead
 * of the owner setup form. The hash is made with the runtime's own bcryptjs.
 */
/**
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} password  the owner's password (folderSecrets(userFolder).ownerPassword)
 * @returns {Record<string, string>}
 */
function ownerEnv(paths, password) {
	if (!password) throw new Error('ownerEnv: no owner password given');
	const bcrypt = require(path.join(paths.dir, 'node_modules', 'bcryptjs'));
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(password, 10),
	};
}

/**
 * Signs in to n8n's REST API; resolves with the session cookie ("n8n-auth=...").
 * @param {string} url
 * @param {string} email
 * @param {string} password
 * @returns {Promise<string>}
 */
async function login(url, email, password) {
	const res = await httpRequest('POST', `${url}/rest/login`, {
		body: { emailOrLdapLoginId: email, password },
	});
	if (res.status !== 200)
		throw new Error(`login as ${email} failed: HTTP ${res.status} ${res.body.slice(0, 300)}`);
	const cookie = []
		.concat(res.headers['set-cookie'] ?? [])
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('login answered 200 without an n8n-auth cookie');
	return cookie;
}

/**
 * Makes sure the started n8n has an owner (the env above normally did it; otherwise the REST owner
 * setup endpoint does) and signs in. Returns the login and the session cookie.
 * @typedef {object} OwnerLogin
 * @property {string} email
 * @property {string} password
 * @property {boolean} created
 * @property {string} cookie  the `n8n-auth` cookie of a logged-in owner session ("name=value")
 * @param {string} url
 * @param {string} password  the owner's password (StartedN8n.ownerPassword)
 * @returns {Promise<OwnerLogin>}
 */
async function setupOwner(url, password) {
	if (!password) throw new Error('setupOwner: no owner password given');
	let created = false;
	const settings = JSON.parse((await httpGet(`${url}/rest/settings`)).body).data;
	if (settings?.userManagement?.showSetupOnFirstLoad) {
		const res = await httpRequest('POST', `${url}/rest/owner/setup`, {
			body: {
				email: OWNER.email,
				firstName: OWNER.firstName,
				lastName: OWNER.lastName,
				password,
			},
		});
		if (res.status !== 200) throw new Error(`owner setup failed: HTTP ${res.status} ${res.body}`);
		created = true;
	}
	const cookie = await login(url, OWNER.email, password);
	return { email: OWNER.email, password, created, cookie };
}

/**
 * Publishes (activates) an imported workflow through n8n's REST API, as the editor's Publish does;
 * its webhooks answer a moment later. Resolves with the HTTP status.
 * @param {string} url
 * @param {string} cookie  an owner session (setupOwner)
 * @param {string} id
 * @returns {Promise<number>}
 */
async function publishWorkflow(url, cookie, id) {
	const current = JSON.parse(
		(await httpRequest('GET', `${url}/rest/workflows/${id}`, { headers: { cookie } })).body,
	).data;
	const activated = await httpRequest('POST', `${url}/rest/workflows/${id}/activate`, {
		headers: { cookie },
		body: { versionId: current.versionId },
	});
	return activated.status;
}

/**
 * Starts `n8n start` on 127.0.0.1 and resolves once /healthz answers 200 and the REST API is up.
 * stop() ends n8n (SIGTERM, then SIGKILL).
 * @typedef {object} StartedN8n
 * @property {string} url
 * @property {number} port
 * @property {import('node:child_process').ChildProcess} process
 * @property {string} logFile
 * @property {number} startMs
 * @property {string} ownerPassword  the owner's password, made for this user folder (demo-secrets.js)
 * @property {() => Promise<void>} stop
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} userFolder
 * @param {{ port?: number, env?: Record<string, string>, timeoutMs?: number, logFile?: string }} [options]
 * @returns {Promise<StartedN8n>}
 */
async function startN8n(paths, userFolder, { port, env = {}, timeoutMs = 180000, logFile } = {}) {
	const actualPort = port ?? (await freePort(5678));
	const brokerPort = await freePort(actualPort + 1);
	const url = `http://127.0.0.1:${actualPort}`;
	const { ownerPassword } = folderSecrets(userFolder);
	const file = logFile ?? path.join(userFolder, 'n8n-start.log');
	const out = fs.openSync(file, 'w');
	const child = spawnChild(paths.node, [paths.n8n, 'start'], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			N8N_PORT: String(actualPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `${url}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_LOG_LEVEL: 'info',
			...ownerEnv(paths, ownerPassword),
			...env,
		}),
		stdio: ['ignore', out, out],
	});
	fs.closeSync(out);
	let exited;
	// If this process ends without stopping n8n (an uncaught error, process.exit), n8n goes too.
	const onParentExit = () => child.kill('SIGTERM');
	process.on('exit', onParentExit);
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			process.off('exit', onParentExit);
			resolve((exited = { code, signal }));
		}),
	);

	const stop = async () => {
		if (exited) return;
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
		await exitPromise;
		clearTimeout(timer);
	};

	const started = Date.now();
	for (;;) {
		if (exited) {
			throw new Error(
				`n8n start exited (${exited.signal ?? exited.code}) before it was ready; log ${file}:\n${tail(readText(file), 4000)}`,
			);
		}
		if (Date.now() - started > timeoutMs) {
			await stop();
			throw new Error(
				`n8n did not answer ${url}/healthz within ${formatDuration(timeoutMs)}; log ${file}:\n${tail(readText(file), 4000)}`,
			);
		}
		try {
			const res = await httpGet(`${url}/healthz/readiness`, { timeoutMs: 2000 });
			if (res.status === 200) {
				const settings = await httpGet(`${url}/rest/settings`, { timeoutMs: 5000 });
				if (settings.status === 200) break;
			}
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	return {
		url,
		port: actualPort,
		process: child,
		logFile: file,
		stop,
		startMs: Date.now() - started,
		ownerPassword,
	};
}

module.exports = { OWNER, login, ownerEnv, publishWorkflow, setupOwner, startN8n };
