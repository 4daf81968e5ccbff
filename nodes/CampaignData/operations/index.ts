/**
 * The operations of the data nodes, by operation value: each one's list entry, parameters and
 * execute. The nodes' Operation parameter is built from this list (description.ts).
 */
import type { ListedOperation } from '../../shared/operation';
import type { DataApi } from '../helpers/api-versions';
import * as create from './create';
import * as deleteAll from './delete';
import * as deleteKeys from './deleteKeys';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const OPERATIONS = {
	create,
	delete: deleteAll,
	deleteKeys,
	get,
	getAll,
	update,
} satisfies Record<string, ListedOperation<[DataApi]>>;
