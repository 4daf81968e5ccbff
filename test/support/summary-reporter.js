/**
 * Prints one plain closing line that any CI reader understands:
 * "jest: N passed, N failed" (", N skipped" when some were skipped). A file that failed outside
 * its tests (a hook, a syntax error) counts as failed too: "N failed (M outside a test)".
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const outside = results.testResults.filter(
			(file) => file.testExecError || (file.failureMessage && file.numFailingTests === 0),
		).length;
		const failed = results.numFailedTests + outside;
		const line = `jest: ${results.numPassedTests} passed, ${failed} failed${outside ? ` (${outside} outside a test)` : ''}${skipped ? `, ${skipped} skipped` : ''}`;
		process.stdout.write(`\n${line}\n`);
	}
}

module.exports = SummaryReporter;
