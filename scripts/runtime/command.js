/**
 * The command-line contract of the scripts the README tells people to run (`npm start`,
 * `npm run start:queue`, `node scripts/runtime/install.js`): `--help` prints the usage and exits 0;
 * an unknown option or a bad value, or a failure while starting, prints one line saying why on
 * stderr (the details go to a file the line names) and exits non-zero.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

/**
 * Parses `argv` against `options` (node:util parseArgs, strict). On `--help` prints `usage` and
 * exits 0; on anything it does not know prints one line and exits 2.
 * @param {string} name  the command as typed, for the messages ("npm start")
 * @param {string} usage  the text `--help` prints
 * @param {Record<string, {type: 'string' | 'boolean', default?: string | boolean}>} options
 * @param {string[]} [argv]
 * @returns {Record<string, string | boolean | undefined>}
 */
function parseCommandLine(name, usage, options, argv = process.argv.slice(2)) {
	let values;
	try {
		({ values } = parseArgs({
			args: argv,
			options: { ...options, help: { type: 'boolean' } },
			strict: true,
		}));
	} catch (error) {
		const help = name.startsWith('npm ') ? `${name} -- --help` : `${name} --help`;
		process.stderr.write(`${name}: ${firstLine(error.message)} (see ${help})\n`);
		process.exit(2);
	}
	if (values.help) {
		process.stdout.write(`${usage.trim()}\n`);
		process.exit(0);
	}
	return values;
}

/**
 * A whole number option (a port, a count): undefined when absent, else a number in [min, max];
 * anything else is a one-line error (exit 2).
 */
function intOption(name, option, raw, min, max) {
	if (raw === undefined) return undefined;
	const n = Number(raw);
	if (!/^\d+$/.test(String(raw)) || n < min || n > max) {
		process.stderr.write(
			`${name}: --${option} must be a whole number from ${min} to ${max}, got "${raw}"\n`,
		);
		process.exit(2);
	}
	return n;
}

/**
 * Reports a failure to start in one line on stderr; the full error (stack, captured output) goes
 * to a file in the system's temporary folder, named in that line.
 */
function reportFailure(name, error) {
	const file = path.join(os.tmpdir(), `${name.replace(/\W+/g, '-')}-failure.log`);
	let where = '';
	try {
		fs.writeFileSync(
			file,
			`${new Date().toISOString()} ${name} failed\n${error?.stack ?? error}\n`,
		);
		where = ` (details: ${file})`;
	} catch {
		// The line below still says why.
	}
	process.stderr.write(`${name} failed: ${firstLine(error?.message ?? String(error))}${where}\n`);
}

function firstLine(text) {
	return String(text).trim().split('\n')[0].trim();
}

module.exports = { parseCommandLine, intOption, reportFailure };
