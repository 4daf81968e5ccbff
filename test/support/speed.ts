/**
 * Speed settings for node runs in tests: no pause between retries (the retry rules themselves
 * are unchanged; their timing is the benchmarks' business). Options a test gives win.
 */
import type { IDataObject } from 'n8n-workflow';

export const FAST: IDataObject = { retryDelayMs: 0 };

/** The node parameters with FAST under the test's own `options`. */
export function withFast(parameters: IDataObject): IDataObject {
	return {
		...parameters,
		options: { ...FAST, ...((parameters.options as IDataObject | undefined) ?? {}) },
	};
}
