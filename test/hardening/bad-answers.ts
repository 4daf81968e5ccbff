/**
 * The bad answers every operation of every node is given by bad-responses.test.ts: HTML pages,
 * empty and truncated bodies, 10 MB bodies, JSON that is not an envelope, a processValue of the
 * wrong type, failure rows with fields missing, unknown codes; each with what an operation may
 * make of it.
 */
import { envelope, type Answer } from '../support/scripted-server';

const TEN_MB = 10 * 1024 * 1024;
const HTML =
	'<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Something went wrong</h1></body></html>';

export interface Bad {
	name: string;
	answer: Answer;
	/** The answer says nothing usable: no operation may claim a success from it. */
	noSuccess: boolean;
	/** A read must stop with an error on it (it carries no usable page or record). */
	readFails: boolean;
	/** Overrides readFails for the member read (a success code with no value means "none found"). */
	memberReadFails?: boolean;
}

const page = (value: unknown) => envelope(0, value);

export const BAD: Bad[] = [
	{
		name: 'HTML page, HTTP 200',
		answer: { status: 200, body: HTML },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'HTML page, HTTP 500',
		answer: { status: 500, body: HTML },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'HTML page, HTTP 503',
		answer: { status: 503, body: HTML },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'empty body, HTTP 200',
		answer: { status: 200, body: '' },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'empty body, HTTP 502',
		answer: { status: 502, body: '' },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'truncated JSON',
		answer: {
			status: 200,
			body: '{"httpStatus":{"code":200},"processCode":0,"processValue":[{"memberId":"a","cus',
			headers: { 'content-type': 'application/json' },
		},
		noSuccess: true,
		readFails: true,
	},
	{
		name: '10 MB of HTML',
		answer: { status: 200, body: `<html><body>${'x'.repeat(TEN_MB)}</body></html>` },
		noSuccess: true,
		readFails: true,
	},
	{
		name: '10 MB envelope (processValue a 10 MB string)',
		answer: { body: page('y'.repeat(TEN_MB)) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: '10 MB of JSON without a code',
		answer: { body: { data: 'z'.repeat(TEN_MB) } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'JSON null',
		answer: { status: 200, body: 'null', headers: { 'content-type': 'application/json' } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'JSON array',
		answer: { status: 200, body: '[]', headers: { 'content-type': 'application/json' } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'JSON string',
		answer: { status: 200, body: '"ok"', headers: { 'content-type': 'application/json' } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'JSON number',
		answer: { status: 200, body: '0', headers: { 'content-type': 'application/json' } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'processValue a string',
		answer: { body: page('garbage') },
		noSuccess: false,
		readFails: true,
	},
	{ name: 'processValue a number', answer: { body: page(42) }, noSuccess: false, readFails: true },
	{
		name: 'processValue an unrelated object',
		answer: { body: page({ foo: 'bar' }) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'processValue an array of junk',
		answer: { body: page([1, 'x', null, [2]]) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'dataList not an array',
		answer: { body: page({ nextPageSeq: null, dataList: 'nope' }) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'dataList entries without fields',
		answer: { body: page({ nextPageSeq: null, dataList: [{}, { value: 1 }] }) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'nextPageSeq an object',
		answer: {
			body: page({
				nextPageSeq: { a: 1 },
				dataList: [{ memberId: 'a', customDataKey: 'k', customDataValue: 1 }],
			}),
		},
		noSuccess: false,
		readFails: false,
	},
	{
		name: 'partial success without a list',
		answer: { body: envelope(1, null) },
		noSuccess: false,
		readFails: true,
		memberReadFails: false,
	},
	{
		name: 'failure rows with fields missing',
		answer: {
			body: envelope(1, [
				{},
				{ failCode: 'F02' },
				{ memberId: 'not-sent', failKey: 'grade' },
				null,
				'x',
			]),
		},
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'member failure rows with fields missing',
		answer: { body: page([{ failureCode: 'F02' }, { phoneNumber: 5 }, null]) },
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'unknown code 12345',
		answer: { body: envelope(12345, null) },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'unknown code -4242 with a message',
		answer: { body: envelope(-4242, null, { message: 'strange' }) },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'unknown code as text',
		answer: { body: envelope('-77', null) },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'processCode not a number',
		answer: { body: { processCode: 'abc', processValue: null } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'processCode a fraction',
		answer: { body: { processCode: 0.5, processValue: null } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'processCode null',
		answer: { body: { processCode: null, processValue: [] } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'JSON nested 200,000 levels deep',
		answer: {
			status: 200,
			body: `{"processCode":0,"processValue":${'['.repeat(200000)}${']'.repeat(200000)}}`,
			headers: { 'content-type': 'application/json' },
		},
		noSuccess: false,
		readFails: true,
	},
	{
		name: 'HTTP 404 with JSON but no code',
		answer: { status: 404, body: { error: 'not found' } },
		noSuccess: true,
		readFails: true,
	},
	{
		name: 'HTTP 418 with an empty body',
		answer: { status: 418, body: '' },
		noSuccess: true,
		readFails: true,
	},
];
