/**
 * Writing entries, for `create` (POST, register) and `update` (PUT, change): plan the items, then
 * send the members in requests of at most `batchSize`, in input order, and report each answer.
 * Every input item ends on Success or Failed (or both, when some of its keys were stored and
 * others not).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import type { Outcome } from '../../shared/outcome';
import { setField } from '../../shared/values';
import { writeInChunks } from '../../shared/chunks';
import { CampaignClient } from '../../shared/transport';
import type { DataApi } from './api-versions';
import { DateFormatter } from './mapping';
import { readItems } from './write-items';
import type { ValueRules } from './write-plan';
import { mergeBatch, planMembers } from './write-plan';
import { reportWrite } from './write-outcomes';

function valueRules(ctx: IExecuteFunctions, options: IDataObject): ValueRules {
	try {
		return {
			dates: new DateFormatter(ctx.getTimezone()),
			skipNull: options.skipNullValues === true,
		};
	} catch {
		throw new NodeOperationError(
			ctx.getNode(),
			`The workflow time zone "${ctx.getTimezone()}" is not known`,
			{
				description:
					'Set a valid time zone in the workflow settings; dates are written as YYYY-MM-DD in it.',
			},
		);
	}
}

export async function writeEntries(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	api: DataApi,
	method: 'POST' | 'PUT',
): Promise<Outcome[]> {
	const options = readOptions(this) as IDataObject;
	const settings = readTransportSettings(this, options);
	const batchSize = readBatchSize(this, options);
	const rules = valueRules(this, options);
	const source = readItems(this, items, options);
	const plan = planMembers(source, items.length, rules);

	if (plan.members.length === 0) return plan.refused;
	const client = await CampaignClient.create(this, settings);
	const sent = await writeInChunks({
		rows: plan.members,
		size: batchSize,
		inputsOf: (member) => member.sources,
		send: async (chunk) => {
			// Each member's values object goes into the body and, once stored, into its Success item as it is.
			const rows = mergeBatch(chunk, source, rules);
			const body: Record<string, unknown> = {};
			for (const row of rows) setField(body, row.memberId, row.values);
			const call = { method, path: api.basePath, body, repeatability: 'idempotent' as const };
			return reportWrite(api, rows, await client.call(call));
		},
	});
	return [...plan.refused, ...sent];
}
