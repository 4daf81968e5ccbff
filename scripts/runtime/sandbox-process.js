/** The compiled sandbox CLI (sandbox/cli.ts) as a child process, for `npm start`. */
'use strict';
const path = require('node:path');
const { ROOT, spawnChild } = require('./run-command');

/** Starts the compiled sandbox CLI and resolves with its URL and key once it listens. */
function startSandbox(sandboxDir, port) {
	return new Promise((resolve, reject) => {
		const child = spawnChild(
			process.execPath,
			[path.join(sandboxDir, 'cli.js'), '--port', String(port)],
			{
				cwd: ROOT,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let out = '';
		let ready = false;
		const onData = (d) => {
			out += d;
			if (ready) return;
			const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
			const key = /API key: (\S+)/.exec(out)?.[1];
			if (url && key && /Press Ctrl\+C/.test(out)) {
				ready = true;
				const banner = out.split('\n').filter((line) => line && !/Ctrl\+C/.test(line));
				resolve({
					url,
					apiKey: key,
					banner,
					process: child,
					stop: () =>
						new Promise((done) => {
							if (child.exitCode !== null || child.signalCode !== null) return done();
							child.once('exit', () => done());
							child.kill('SIGTERM');
							setTimeout(() => child.kill('SIGKILL'), 5000).unref();
						}),
				});
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', (d) => {
			out += d;
		});
		child.on('exit', (code, signal) => {
			if (!ready)
				reject(new Error(`the sandbox exited (${signal ?? code}) before it listened:\n${out}`));
		});
	});
}

module.exports = { startSandbox };
