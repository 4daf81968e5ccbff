/**
 * What the documentation suites share: GitHub's anchor for a heading.
 */

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
	return heading
		.replace(/`/g, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}
