/**
 * The jest test environment of `npm run test:mutations` (scripts/mutations.js): jest's node
 * environment, except that once a test of a file failed, the file's other tests are skipped (a
 * mutation is caught at its first failing test; --bail then ends the run), and that test is
 * noted, one JSON line, in the file MUTATIONS_FAILURES names.
 */
'use strict';
const fs = require('node:fs');
const { TestEnvironment } = require('jest-environment-node');

/** A test's name as jest prints it: its describe blocks', then its own. */
function fullName(test) {
	const names = [];
	for (let block = test; block && block.parent; block = block.parent) names.unshift(block.name);
	return names.join(' › ');
}

function firstLine(error) {
	const value = Array.isArray(error) ? error[0] : error;
	const text = value instanceof Error ? value.message : String(value);
	return (text.split('\n').find((line) => line.trim()) ?? '').trim().slice(0, 300);
}

class StopAtFirstFailure extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.failed = false;
	}

	async handleTestEvent(event) {
		if (event.name === 'test_start' && this.failed) event.test.mode = 'skip';
		if (event.name !== 'test_done' || this.failed || event.test.errors.length === 0) return;
		this.failed = true;
		const failure = {
			file: this.testPath,
			test: fullName(event.test),
			message: firstLine(event.test.errors[0]),
		};
		fs.appendFileSync(process.env.MUTATIONS_FAILURES, `${JSON.stringify(failure)}\n`);
	}
}

module.exports = StopAtFirstFailure;
