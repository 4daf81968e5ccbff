/**
 * A read's data never takes the name of an answer field (dataOf, nodes/shared/tool.ts): every
 * answer field's name, however a data key spells it (an invisible character in it, full-width
 * letters, Cyrillic or Greek letters that look Latin, a space, another case), is given as
 * `<key> (data)`, as an exact clash is.
 */
import type { IDataObject } from 'n8n-workflow';
import { ANSWER_FIELDS } from '../../nodes/shared/bounds';
import { toolAnswer } from '../../nodes/shared/tool';

const readAnswer = (done: IDataObject) =>
	toolAnswer({ kind: 'read' }, [{ done, inputs: 0 }])[0][0].json;

/** Spellings that read as an answer field's name, and the name. */
const LOOK_ALIKES: Array<[string, string]> = [
	['outcome\u200b', 'outcome'],
	['ｍｅｓｓａｇｅ', 'message'],
	['\u043eutcome', 'outcome'], // Cyrillic о
	['c\u03bfde', 'code'], // Greek ο
	['\u0421ODE', 'code'], // Cyrillic С, upper case
	['whatToDo ', 'whatToDo'],
	['what\u00adToDo', 'whatToDo'], // soft hyphen
	['De\u2800tails', 'details'], // braille blank
	['retry After', 'retryAfter'],
	['DEDUPLICATIONKEY', 'deduplicationKey'],
	['earlierSend\u3164StartedAt', 'earlierSendStartedAt'],
];

describe("a read's data never takes an answer field's name, however it is spelled", () => {
	it.each(LOOK_ALIKES)('%j (reads as %s) is given as "<key> (data)"', (key) => {
		const answer = readAnswer({ memberId: 'm-1', [key]: 'sent' });
		expect(answer).toEqual({ memberId: 'm-1', [`${key} (data)`]: 'sent' });
	});

	it('every answer field is protected, by its exact name too (the list is the answer fields themselves)', () => {
		const names = [...ANSWER_FIELDS];
		expect(names).toEqual(
			expect.arrayContaining(['retryAfter', 'deduplicationKey', 'earlierSendStartedAt']),
		);
		const data = Object.fromEntries(names.map((name) => [name, 'planted']));
		const answer = readAnswer({ memberId: 'm-1', ...data });
		expect(Object.keys(answer)).toEqual(['memberId', ...names.map((name) => `${name} (data)`)]);
	});

	it('names that only resemble one are the data as they are', () => {
		const data = { memberId: 'm-1', outcomes: 1, codex: 2, messages: 3, coupon: 'A1', 포인트: 5 };
		expect(readAnswer(data)).toEqual(data);
	});
});
