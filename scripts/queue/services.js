/**
 * The services n8n's queue mode needs, run by the project itself: PostgreSQL and Redis from
 * Debian's packages, each started as a plain child process in a temporary folder on a free
 * 127.0.0.1 port, waited for until it answers, and stopped with its data removed.
 *
 *   const pg = await startPostgres();   // { host, port, user, password, database, stop() }
 *   const redis = await startRedis();   // { host, port, stop() }
 *
 * PostgreSQL refuses to run as root: as root, initdb and postgres run as an unprivileged user
 * (`postgres`, which Debian's package creates) over a data folder that user owns.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { freePort, log, run, formatDuration } = require('../runtime/index.js');
const { isRoot, runAs, spawnService, tempDir, waitForPort } = require('./process-groups.js');
const { keepStatementLog, statementLog } = require('./trace-settings.js');

const PG_ROOT = '/usr/lib/postgresql';

function postgresBinDir() {
	if (!fs.existsSync(PG_ROOT)) return undefined;
	const majors = fs
		.readdirSync(PG_ROOT)
		.filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(PG_ROOT, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length > 0 ? path.join(PG_ROOT, majors[0], 'bin') : undefined;
}

function redisBinary() {
	const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() : undefined;
}

/**
 * Installs Debian's postgresql and redis-server when either is missing (apt-get update, then
 * apt-get install -y; needs root). Safe to call often: it does nothing when both are there.
 */
async function ensureServices() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisBinary()) missing.push('redis-server');
	if (missing.length === 0) return;
	const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
	if (!isRoot() || !hasApt) {
		throw new Error(
			`${missing.join(' and ')} not found: install Debian's ${missing.join(' ')} (apt-get install -y ${missing.join(' ')})`,
		);
	}
	const t = Date.now();
	log(
		`installing ${missing.join(' ')} (apt-get update && apt-get install -y ${missing.join(' ')})`,
	);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { env, label: 'apt-get update' });
	await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
		env,
		label: 'apt-get install',
	});
	if (!postgresBinDir() || !redisBinary())
		throw new Error(`apt-get installed ${missing.join(' ')} but a binary is still missing`);
	log(`  installed in ${formatDuration(Date.now() - t)}`);
}

/**
 * The uid/gid a service runs as: the current user, or the service's own system user (`postgres`,
 * `redis`, created by Debian's packages) when this process is root.
 */
function serviceUser(name) {
	if (!isRoot()) return {};
	const id = (flag) => spawnSync('id', [flag, name], { encoding: 'utf8' });
	const uid = id('-u');
	const gid = id('-g');
	if (uid.status !== 0 || gid.status !== 0)
		throw new Error(`running as root but there is no \`${name}\` user to run ${name} as`);
	return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/** A password made for one run of a throwaway service (never a fixed one). */
function generatedPassword() {
	return crypto.randomBytes(18).toString('base64url');
}

/**
 * A throwaway PostgreSQL: initdb in a temporary folder, `postgres` in the foreground on a free
 * 127.0.0.1 port (no Unix socket outside that folder), one database, and a password made for
 * this run (scram-sha-256; no trust authentication). restart() is `pg_ctl restart -m fast` with
 * an optional pause while it is down; stop() shuts it down (fast mode) and removes the folder.
 * @typedef {object} ServiceHandle
 * @property {string} host
 * @property {number} port
 * @property {number} pid  the running server's (a new one after restart())
 * @property {(options?: { downMs?: number }) => Promise<void>} restart  stops the server (PostgreSQL: `pg_ctl stop -m fast`; Redis: `SHUTDOWN NOSAVE`), waits `downMs`, starts it again on the same port with the same data (Redis: none)
 * @property {() => Promise<void>} stop
 * @typedef {ServiceHandle & { user: string, password: string, database: string }} PostgresHandle
 * @param {{ database?: string, user?: string }} [options]
 * @returns {Promise<PostgresHandle>}
 */
async function startPostgres({ database = 'n8n', user = 'n8n' } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (call ensureServices() first)');
	const owner = serviceUser('postgres');
	const password = generatedPassword();
	const tmp = tempDir('campaign-pg-');
	const dataDir = path.join(tmp.dir, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	if (owner.uid !== undefined) {
		fs.chownSync(tmp.dir, owner.uid, owner.gid);
		fs.chownSync(dataDir, owner.uid, owner.gid);
	}
	const env = { ...process.env, HOME: tmp.dir, LC_ALL: 'C', PGPASSWORD: password };
	const pwFile = path.join(tmp.dir, 'pwfile');
	fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
	if (owner.uid !== undefined) fs.chownSync(pwFile, owner.uid, owner.gid);
	let service;
	try {
		await runAs(
			path.join(bin, 'initdb'),
			[
				'-D',
				dataDir,
				'-U',
				user,
				'--auth=scram-sha-256',
				`--pwfile=${pwFile}`,
				'-E',
				'UTF8',
				'--no-sync',
			],
			{
				cwd: tmp.dir,
				env,
				...owner,
			},
		);
		const port = await freePort();
		const args = [
			'-D',
			dataDir,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${tmp.dir}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
			...statementLog(),
		];
		const probe = async () =>
			runAs(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { env }).then(
				() => true,
			);
		const launch = async () => {
			service = spawnService(path.join(bin, 'postgres'), args, {
				cwd: tmp.dir,
				env,
				signal: 'SIGINT', // fast shutdown
				logFile: path.join(tmp.dir, 'postgres.log'),
				...owner,
			});
			await waitForPort(port, { probe, child: service.child, name: 'PostgreSQL' });
		};
		await launch();
		await runAs(
			path.join(bin, 'createdb'),
			['-h', '127.0.0.1', '-p', String(port), '-U', user, database],
			{ env },
		);
		// `pg_ctl stop -m fast` (what `pg_ctl restart -m fast` does first): open sessions are
		// ended, the server shuts down cleanly; then the same server starts again, same port.
		const pgStop = () =>
			runAs(path.join(bin, 'pg_ctl'), ['stop', '-m', 'fast', '-w', '-D', dataDir], {
				cwd: tmp.dir,
				env,
				...owner,
			}).then(() => service.exited);
		return {
			host: '127.0.0.1',
			port,
			user,
			password,
			database,
			get pid() {
				return service.child.pid;
			},
			restart: async ({ downMs = 0 } = {}) => {
				await pgStop();
				await sleep(downMs);
				await launch();
			},
			stop: async () => {
				await service.stop();
				await keepStatementLog(path.join(tmp.dir, 'postgres.log'));
				tmp.remove();
			},
		};
	} catch (error) {
		if (service) await service.stop();
		const logText = fs.existsSync(path.join(tmp.dir, 'postgres.log'))
			? fs.readFileSync(path.join(tmp.dir, 'postgres.log'), 'utf8')
			: '';
		tmp.remove();
		error.message += logText ? `\npostgres log:\n${logText.slice(-2000)}` : '';
		throw error;
	}
}

/**
 * A throwaway Redis on a free 127.0.0.1 port, nothing saved to disk, a password made for this run,
 * run as the `redis` user when this process is root; stop() ends it and removes its folder.
 * @typedef {ServiceHandle & { password: string }} RedisHandle
 * @returns {Promise<RedisHandle>}
 */
async function startRedis() {
	const binary = redisBinary();
	if (!binary) throw new Error('redis-server is not installed (call ensureServices() first)');
	const owner = serviceUser('redis');
	const password = generatedPassword();
	const tmp = tempDir('campaign-redis-');
	if (owner.uid !== undefined) fs.chownSync(tmp.dir, owner.uid, owner.gid);
	const port = await freePort();
	// The password goes in a config file, not on the command line (where `ps` would show it).
	const config = path.join(tmp.dir, 'redis.conf');
	fs.writeFileSync(config, `requirepass ${password}\n`, { mode: 0o600 });
	if (owner.uid !== undefined) fs.chownSync(config, owner.uid, owner.gid);
	const args = [
		config,
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		tmp.dir,
		'--daemonize',
		'no',
	];
	let service;
	const probe = () => redisCommand(port, password, 'PING').then((reply) => reply === '+PONG');
	const launch = async () => {
		service = spawnService(binary, args, {
			cwd: tmp.dir,
			logFile: path.join(tmp.dir, 'redis.log'),
			...owner,
		});
		await waitForPort(port, { probe, child: service.child, name: 'Redis' });
	};
	try {
		await launch();
	} catch (error) {
		// No service when it could not start at all (a script stopping its children starts none).
		if (service) await service.stop();
		tmp.remove();
		throw error;
	}
	return {
		host: '127.0.0.1',
		port,
		password,
		get pid() {
			return service.child.pid;
		},
		// `SHUTDOWN NOSAVE`: Redis exits at once and, saving nothing, comes back empty (whatever
		// was queued is gone); started again after `downMs` on the same port.
		restart: async ({ downMs = 0 } = {}) => {
			await redisCommand(port, password, 'SHUTDOWN NOSAVE').catch(() => undefined);
			await service.exited;
			await sleep(downMs);
			await launch();
		},
		stop: async () => {
			await service.stop();
			tmp.remove();
		},
	};
}

/**
 * Sends one command to the Redis at 127.0.0.1:port after AUTH; resolves with the command's reply
 * line (`+PONG`), or with '' when the connection closes first (as after SHUTDOWN).
 */
function redisCommand(port, password, command) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1');
		let reply = '';
		const timer = setTimeout(() => socket.destroy(new Error('no answer from Redis')), 5000);
		const done = (value) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(value);
		};
		socket.on('data', (d) => {
			reply += d;
			const lines = reply.split('\r\n');
			if (lines.length > 2) done(lines[0] === '+OK' ? lines[1] : lines[0]);
		});
		socket.once('close', () => done(''));
		socket.once('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		socket.once('connect', () => socket.write(`AUTH ${password}\r\n${command}\r\n`));
	});
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { ensureServices, startPostgres, startRedis };
