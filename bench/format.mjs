/** Number formatting shared by the targets and the report. */
export const MB = 1024 * 1024;
export const fmt = (n, digits = 0) =>
	n === undefined || n === null || Number.isNaN(n)
		? '–'
		: Number(n).toLocaleString('en-US', {
				minimumFractionDigits: digits,
				maximumFractionDigits: digits,
			});
export const ms = (n) => `${fmt(n)} ms`;
