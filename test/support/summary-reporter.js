/**
 * Prints one plain closing line that any CI reader understands:
 * "jest: N passed, N failed" (", N skipped" when some were skipped).
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const line = `jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
		process.stdout.write(`\n${line}\n`);
	}
}

module.exports = SummaryReporter;
