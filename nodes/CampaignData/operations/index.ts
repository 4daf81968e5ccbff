/** The operations of the data nodes, by operation value: each one's parameters and execute. */
import type { Operation } from '../../shared/operation';
import type { DataDialect } from '../helpers/dialect';
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
} satisfies Record<string, Operation<[DataDialect]>>;
